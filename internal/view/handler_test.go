package view

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// fake is a Source over fixed data.
type fake struct {
	tree    Tree
	files   map[string]File
	docs    map[string]string
	graph   Graph
	hits    []Hit
	version string
	lastQ   GraphQuery
}

func (f *fake) Tree(context.Context) (Tree, error) { return f.tree, nil }
func (f *fake) File(_ context.Context, p string) (File, error) {
	if fl, ok := f.files[p]; ok {
		return fl, nil
	}
	return File{}, fmt.Errorf("%w: %s: no such file in the workspace", ErrNotFound, p)
}
func (f *fake) Doc(_ context.Context, p string) (string, error) {
	if d, ok := f.docs[p]; ok {
		return d, nil
	}
	return "", fmt.Errorf("%w: %s", ErrNotFound, p)
}
func (f *fake) Graph(_ context.Context, q GraphQuery) (Graph, error) {
	f.lastQ = q
	if q.Symbol == "missing" {
		return Graph{}, fmt.Errorf("%w: no symbol is named %q", ErrNotFound, q.Symbol)
	}
	return f.graph, nil
}
func (f *fake) Search(_ context.Context, q string, limit int) ([]Hit, error) {
	return f.hits[:min(len(f.hits), limit)], nil
}
func (f *fake) Version(context.Context) string { return f.version }

func newFake() *fake {
	a := Symbol{Qualified: "m.a", Name: "a", Kind: "function", File: "m.py", Line: 1}
	b := Symbol{Qualified: "m.b", Name: "b", Kind: "function", File: "m.py", Line: 4}
	return &fake{
		tree: Tree{Root: "/w", Files: []FileEntry{{Path: "m.py", Language: "python", Status: Enriched}}, Counts: map[string]int{Enriched: 1}},
		files: map[string]File{"m.py": {
			FileEntry: FileEntry{Path: "m.py", Language: "python", Status: Enriched},
			Text:      "def a():\n    return b()\n\ndef b():\n    return 1\n",
			Symbols:   []Symbol{a, b},
			Artifact: "# m.py\n\nCalls `b`. <script>alert(1)</script>\n\n" +
				"[bad](javascript:alert(1)) and [good](https://example.com)\n\n| x | y |\n|---|---|\n| 1 | 2 |\n",
		}},
		docs:    map[string]string{"README.md": "# Readme\n\nHello."},
		graph:   Graph{Nodes: []GraphNode{{Symbol: a}, {Symbol: b, Side: 1}}, Edges: []GraphEdge{{From: 0, To: 1, Resolution: "local", Line: 2}}, Total: 2},
		hits:    []Hit{{Kind: HitCode, Path: "m.py", Title: "m.a", Line: 1, Symbol: &a}, {Kind: HitDocs, Path: "README.md", Title: "Readme"}},
		version: "v1",
	}
}

// get sends a GET for target to h as from a loopback client, and returns
// the status and body.
func get(t *testing.T, h http.Handler, target string, hdr ...string) (int, string, http.Header) {
	t.Helper()
	srv := httptest.NewServer(h)
	defer srv.Close()
	req, err := http.NewRequest("GET", srv.URL+target, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i] == "Host" {
			req.Host = hdr[i+1]
		} else {
			req.Header.Set(hdr[i], hdr[i+1])
		}
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body), res.Header
}

// testKey is the key of the views under test; authed carries it.
const testKey = "k3y-of-the-view-under-test-0123456789ab"

var authed = []string{"Authorization", "Bearer " + testKey}

func TestRoutes(t *testing.T) {
	h := Handler(newFake(), Options{Key: testKey})
	for _, tc := range []struct {
		target string
		code   int
		want   []string // substrings of the body
		not    []string
	}{
		{"/", 200, []string{"<title>fileinfo</title>", "/static/app.js"}, nil},
		{"/static/app.js", 200, []string{"function route"}, nil},
		{"/static/vendor/cytoscape.min.js", 200, []string{"cytoscape"}, nil},
		{"/static/chroma.css", 200, []string{".chroma"}, nil},
		{"/nothing", 404, nil, nil},
		{"/api/tree", 200, []string{`"path":"m.py"`, `"status":"enriched"`, `"language":"python"`}, nil},
		{"/api/version", 200, []string{`"version":"v1"`}, nil},
		// The source is highlighted with classes and line anchors.
		{"/api/file?path=m.py", 200, []string{`class=\"chroma\"`, `id=\"L4\"`, `class=\"k\"`, `\u003ch1 id=\"mpy\"\u003em.py`, `\u003ctable\u003e`, `https://example.com`},
			// Raw HTML and javascript: links in an artifact do not reach the page.
			[]string{`\u003cscript`, `javascript:`}},
		{"/api/file?path=nope.py", 404, []string{"nope.py: no such file"}, nil},
		{"/api/file", 400, []string{"parameter path is missing"}, nil},
		{"/api/doc?path=README.md", 200, []string{`\u003ch1 id=\"readme\"\u003eReadme`}, nil},
		{"/api/doc?path=NO.md", 404, nil, nil},
		{"/api/graph?file=m.py&line=1&symbol=m.a&depth=2", 200, []string{`"qualified":"m.b"`, `"resolution":"local"`, `"side":1`, `"total":2`}, nil},
		{"/api/graph?symbol=missing", 404, []string{`no symbol is named`}, nil},
		{"/api/graph", 400, []string{"give the symbol"}, nil},
		{"/api/graph?symbol=m.a&depth=9", 400, []string{"depth: 9 is out of range (1 to 4)"}, nil},
		{"/api/graph?symbol=m.a&depth=x", 400, []string{"is not a number"}, nil},
		{"/api/graph?symbol=m.a&dir=up", 400, []string{"want callers, callees or both"}, nil},
		{"/api/search?q=a", 200, []string{`"kind":"code"`, `"kind":"docs"`}, nil},
		{"/api/search?q=" + strings.Repeat("x", maxQuery+1), 400, []string{"too long"}, nil},
	} {
		t.Run(tc.target[:min(len(tc.target), 40)], func(t *testing.T) {
			code, body, _ := get(t, h, tc.target, authed...)
			if code != tc.code {
				t.Fatalf("status %d, want %d; body %s", code, tc.code, body)
			}
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("body lacks %s:\n%.2000s", w, body)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(body, w) {
					t.Errorf("body holds %s:\n%.2000s", w, body)
				}
			}
		})
	}
}

func TestGraphDefaults(t *testing.T) {
	f := newFake()
	h := Handler(f, Options{Key: testKey})
	if code, body, _ := get(t, h, "/api/graph?file=m.py&line=1", authed...); code != 200 {
		t.Fatalf("status %d: %s", code, body)
	}
	want := GraphQuery{File: "m.py", Line: 1, Depth: 1, Dir: "both", MaxNodes: DefaultMaxNodes}
	if f.lastQ != want {
		t.Errorf("query %+v, want %+v", f.lastQ, want)
	}
	var g Graph
	_, body, _ := get(t, h, "/api/graph?file=m.py&line=1&max=500", authed...)
	if err := json.Unmarshal([]byte(body), &g); err != nil || len(g.Nodes) != 2 {
		t.Errorf("graph %s: %v", body, err)
	}
	if f.lastQ.MaxNodes != 500 {
		t.Errorf("max %d, want 500", f.lastQ.MaxNodes)
	}
}

// routes are a request of each route of the view: the page, its static
// files and the API.
var routes = []string{
	"/", "/static/app.js", "/static/graph.js", "/static/style.css", "/static/chroma.css", "/static/vendor/cytoscape.min.js",
	"/api/tree", "/api/file?path=m.py", "/api/doc?path=README.md", "/api/graph?symbol=m.a", "/api/search?q=a", "/api/version",
}

// TestKeyOnEveryRoute: no route answers without the view's key, or with
// a wrong one; each answers with it, however it comes.
func TestKeyOnEveryRoute(t *testing.T) {
	const token = "the-server-token"
	h := Handler(newFake(), Options{Key: testKey, Token: token})
	cookie := CookieName(testKey)
	for _, target := range routes {
		withQuery := func(q string) string {
			if strings.Contains(target, "?") {
				return target + "&" + q
			}
			return target + "?" + q
		}
		for _, tc := range []struct {
			name   string
			target string
			hdr    []string
			code   int
		}{
			{"no credential", target, nil, 401},
			{"wrong bearer", target, []string{"Authorization", "Bearer nope"}, 401},
			{"empty bearer", target, []string{"Authorization", "Bearer "}, 401},
			{"key minus a byte", target, []string{"Authorization", "Bearer " + testKey[:len(testKey)-1]}, 401},
			{"wrong cookie", target, []string{"Cookie", cookie + "=" + testKey[1:]}, 401},
			{"empty cookie", target, []string{"Cookie", cookie + "="}, 401},
			{"another view's cookie name", target, []string{"Cookie", cookiePrefix + "000000000000=" + testKey}, 401},
			{"the server's token in the query", withQuery("token=" + token), nil, 401},
			{"the server's token in the query, and the key", withQuery("token=" + token), authed, 401},
			{"a wrong key in the query", withQuery("token=nope"), nil, 401},
			{"bearer key", target, authed, 200},
			{"cookie", target, []string{"Cookie", cookie + "=" + testKey}, 200},
			{"the server's token as bearer", target, []string{"Authorization", "Bearer " + token}, 200},
		} {
			t.Run(target+"/"+tc.name, func(t *testing.T) {
				code, body, hdr := get(t, h, tc.target, tc.hdr...)
				if code != tc.code {
					t.Fatalf("status %d, want %d: %.200s", code, tc.code, body)
				}
				if code == 401 && !strings.HasPrefix(hdr.Get("WWW-Authenticate"), "Bearer") {
					t.Errorf("401 without a bearer challenge: %q", hdr.Get("WWW-Authenticate"))
				}
				if strings.Contains(body, testKey) || strings.Contains(body, token) {
					t.Errorf("the answer holds a secret: %.300s", body)
				}
			})
		}
	}
	// A route that does not exist is not told apart without the key.
	if code, _, _ := get(t, h, "/nothing"); code != 401 {
		t.Errorf("/nothing without the key: %d, want 401", code)
	}
	if code, _, _ := get(t, h, "/nothing", authed...); code != 404 {
		t.Errorf("/nothing with the key: %d, want 404", code)
	}
}

// TestLinkSetsCookie: the page's ?token=KEY link sets the key's cookie,
// which then opens every route; the key is taken from the page's link
// only, never from another route's.
func TestLinkSetsCookie(t *testing.T) {
	h := Handler(newFake(), Options{Key: testKey})
	code, body, hdr := get(t, h, "/?token="+testKey)
	if code != 200 || !strings.Contains(body, "<title>fileinfo</title>") {
		t.Fatalf("the link: %d %.200s", code, body)
	}
	c := hdr.Get("Set-Cookie")
	if !strings.HasPrefix(c, CookieName(testKey)+"="+testKey) || !strings.Contains(c, "HttpOnly") || !strings.Contains(c, "SameSite=Strict") || !strings.Contains(c, "Path=/") {
		t.Errorf("Set-Cookie %q", c)
	}
	for _, target := range routes[1:] {
		sep := "?"
		if strings.Contains(target, "?") {
			sep = "&"
		}
		if code, _, _ := get(t, h, target+sep+"token="+testKey); code != 401 {
			t.Errorf("%s with the key in its query: %d, want 401 (a key is taken from the page's link only)", target, code)
		}
	}
	if code, _, _ := get(t, h, "/?token="+testKey+"x"); code != 401 {
		t.Errorf("a wrong key in the link: %d, want 401", code)
	}
}

// TestShortKeyPanics: a view is never served without a real key.
func TestShortKeyPanics(t *testing.T) {
	for _, key := range []string{"", "short"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Handler with key %q did not panic", key)
				}
			}()
			Handler(newFake(), Options{Key: key})
		}()
	}
	if a, b := NewKey(), NewKey(); a == b || len(a) < MinKeyLen || strings.ContainsAny(a, "+/=") {
		t.Errorf("NewKey gave %q and %q", a, b)
	}
}

func TestGuard(t *testing.T) {
	h := Handler(newFake(), Options{Key: testKey})
	for _, tc := range []struct {
		name   string
		target string
		hdr    []string
		code   int
	}{
		{"loopback host", "/api/tree", []string{"Host", "localhost:1"}, 200},
		{"rebound host", "/api/tree", []string{"Host", "evil.example:80"}, 403},
		{"rebound page", "/", []string{"Host", "evil.example"}, 403},
		{"cross-site read", "/api/tree", []string{"Sec-Fetch-Site", "cross-site"}, 403},
		{"cross-site link to the page", "/", []string{"Sec-Fetch-Site", "cross-site"}, 200},
		{"same-origin read", "/api/tree", []string{"Sec-Fetch-Site", "same-origin"}, 200},
		{"script of another origin", "/api/tree", []string{"Origin", "https://evil.example"}, 403},
		{"script of another port", "/api/tree", []string{"Origin", "http://127.0.0.1:1"}, 403},
		{"opaque origin", "/api/tree", []string{"Origin", "null"}, 403},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body, hdr := get(t, h, tc.target, append(tc.hdr, authed...)...)
			if code != tc.code {
				t.Fatalf("status %d, want %d: %s", code, tc.code, body)
			}
			if code == 200 && hdr.Get("Content-Security-Policy") == "" {
				t.Error("no Content-Security-Policy")
			}
		})
	}
	// The page's own origin passes.
	srv := httptest.NewServer(h)
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL+"/api/tree", nil)
	req.Header.Set("Origin", srv.URL)
	req.Header.Set("Authorization", "Bearer "+testKey)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("a request of the view's own origin: %d", res.StatusCode)
	}
}

func TestViewAddrLoopback(t *testing.T) {
	for host, want := range map[string]bool{"127.0.0.1": true, "::1": true, "localhost": true, "LOCALHOST": true, "10.0.0.1": false, "example.com": false, "": false} {
		if got := isLoopback(host); got != want {
			t.Errorf("isLoopback(%q) = %v", host, got)
		}
	}
}
