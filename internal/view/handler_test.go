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

func TestRoutes(t *testing.T) {
	h := Handler(newFake(), Options{})
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
			code, body, _ := get(t, h, tc.target)
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
	h := Handler(f, Options{})
	if code, body, _ := get(t, h, "/api/graph?file=m.py&line=1"); code != 200 {
		t.Fatalf("status %d: %s", code, body)
	}
	want := GraphQuery{File: "m.py", Line: 1, Depth: 1, Dir: "both", MaxNodes: DefaultMaxNodes}
	if f.lastQ != want {
		t.Errorf("query %+v, want %+v", f.lastQ, want)
	}
	var g Graph
	_, body, _ := get(t, h, "/api/graph?file=m.py&line=1&max=500")
	if err := json.Unmarshal([]byte(body), &g); err != nil || len(g.Nodes) != 2 {
		t.Errorf("graph %s: %v", body, err)
	}
	if f.lastQ.MaxNodes != 500 {
		t.Errorf("max %d, want 500", f.lastQ.MaxNodes)
	}
}

func TestGuard(t *testing.T) {
	open := Handler(newFake(), Options{})
	locked := Handler(newFake(), Options{Token: "s3cret"})
	for _, tc := range []struct {
		name   string
		h      http.Handler
		target string
		hdr    []string
		code   int
	}{
		{"loopback host", open, "/api/tree", []string{"Host", "localhost:1"}, 200},
		{"rebound host", open, "/api/tree", []string{"Host", "evil.example:80"}, 403},
		{"rebound page", open, "/", []string{"Host", "evil.example"}, 403},
		{"cross-site read", open, "/api/tree", []string{"Sec-Fetch-Site", "cross-site"}, 403},
		{"cross-site link to the page", open, "/", []string{"Sec-Fetch-Site", "cross-site"}, 200},
		{"same-origin read", open, "/api/tree", []string{"Sec-Fetch-Site", "same-origin"}, 200},
		{"no token", locked, "/api/tree", nil, 401},
		{"no token, page", locked, "/", nil, 401},
		{"wrong bearer", locked, "/api/tree", []string{"Authorization", "Bearer nope"}, 401},
		{"bearer", locked, "/api/tree", []string{"Authorization", "Bearer s3cret"}, 200},
		{"cookie", locked, "/api/tree", []string{"Cookie", cookieName + "=s3cret"}, 200},
		{"wrong cookie", locked, "/api/tree", []string{"Cookie", cookieName + "=s3cre"}, 401},
		{"link token", locked, "/?token=s3cret", nil, 200},
		{"wrong link token", locked, "/?token=nope", nil, 401},
		{"token elsewhere than the page", locked, "/api/tree?token=s3cret", nil, 401},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body, hdr := get(t, tc.h, tc.target, tc.hdr...)
			if code != tc.code {
				t.Fatalf("status %d, want %d: %s", code, tc.code, body)
			}
			if strings.Contains(tc.target, "token=") && code == 200 {
				if c := hdr.Get("Set-Cookie"); !strings.Contains(c, cookieName+"=s3cret") || !strings.Contains(c, "HttpOnly") || !strings.Contains(c, "SameSite=Strict") {
					t.Errorf("Set-Cookie %q", c)
				}
			}
			if code == 200 && hdr.Get("Content-Security-Policy") == "" {
				t.Error("no Content-Security-Policy")
			}
		})
	}
}

func TestViewAddrLoopback(t *testing.T) {
	for host, want := range map[string]bool{"127.0.0.1": true, "::1": true, "localhost": true, "LOCALHOST": true, "10.0.0.1": false, "example.com": false, "": false} {
		if got := isLoopback(host); got != want {
			t.Errorf("isLoopback(%q) = %v", host, got)
		}
	}
}
