package server

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
)

// viewStatus sends a GET of target with the headers hdr (name, value...)
// and returns the status and the body.
func viewStatus(t *testing.T, c *http.Client, target string, hdr ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", target, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

// TestViewNeedsKey: the view that open_view starts answers no request
// without its key (issue 30: over serve --http --token, the source and
// artifacts were readable with no credential at all). The link open_view
// gives opens it; the server's token works as a bearer header, never in
// a query.
func TestViewNeedsKey(t *testing.T) {
	s := connect(t, shop, Options{NoWatch: true})
	const token = "the-server-token"
	s.srv.Handler(token) // as serve --http --token does
	var out openViewOut
	s.ok("open_view", map[string]any{"path": "lib/store.go"}, &out)
	u, err := url.Parse(out.URL)
	if err != nil || u.Hostname() != "127.0.0.1" {
		t.Fatalf("open_view URL %q: %v", out.URL, err)
	}
	if strings.Contains(out.URL, token) {
		t.Fatalf("open_view URL %q holds the server's token", out.URL)
	}
	base := u.Scheme + "://" + u.Host
	plain := &http.Client{}
	for _, p := range []string{"/", "/static/app.js", "/static/chroma.css", "/api/tree", "/api/version",
		"/api/file?path=lib/store.go", "/api/graph?file=lib/store.go&line=7", "/api/search?q=store", "/api/doc?path=README.md"} {
		if code, body := viewStatus(t, plain, base+p); code != http.StatusUnauthorized {
			t.Errorf("GET %s without a credential: %d, want 401: %.120s", p, code, body)
		}
		if code, _ := viewStatus(t, plain, base+p, "Authorization", "Bearer wrong"); code != http.StatusUnauthorized {
			t.Errorf("GET %s with a wrong bearer: %d, want 401", p, code)
		}
		if !strings.Contains(p, "?") {
			if code, _ := viewStatus(t, plain, base+p+"?token="+token); code != http.StatusUnauthorized {
				t.Errorf("GET %s?token=<the server's token>: %d, want 401", p, code)
			}
		}
		if code, _ := viewStatus(t, plain, base+p, "Authorization", "Bearer "+token); code == http.StatusUnauthorized {
			t.Errorf("GET %s with the server's token as bearer: 401", p)
		}
	}
	// The link, in a client that keeps cookies as a browser does, opens
	// the page and then the API.
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	if code, body := viewStatus(t, browser, out.URL); code != http.StatusOK || !strings.Contains(body, "<title>fileinfo</title>") {
		t.Fatalf("GET %s: %d %.200s", out.URL, code, body)
	}
	if code, body := viewStatus(t, browser, base+"/api/file?path=lib/store.go"); code != http.StatusOK || !strings.Contains(body, "NewStore") {
		t.Errorf("GET /api/file after the link: %d %.200s", code, body)
	}
	// Another client, without the cookie, still gets nothing.
	if code, _ := viewStatus(t, plain, base+"/api/file?path=lib/store.go"); code != http.StatusUnauthorized {
		t.Errorf("GET /api/file in another client: %d, want 401", code)
	}
}
