package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bearer adds a bearer token to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

func TestHTTP(t *testing.T) {
	s := connect(t, shop, Options{})
	const token = "s3cret-token"
	ts := httptest.NewServer(s.srv.Handler(token))
	defer ts.Close()
	ctx := context.Background()

	// With the token: the tools work.
	client := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:   ts.URL + HTTPPath,
		HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "file_info", Arguments: map[string]any{"path": "lib/store.go"}})
	if err != nil || res.IsError || !strings.Contains(text(res), "## Source Code") {
		t.Fatalf("file_info over HTTP: %v %v", err, res)
	}

	var lastHeader http.Header
	post := func(header map[string]string) int {
		t.Helper()
		req, _ := http.NewRequest("POST", ts.URL+HTTPPath, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range header {
			if k == "Host" {
				req.Host = v
				continue
			}
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		lastHeader = resp.Header
		return resp.StatusCode
	}
	if code := post(nil); code != http.StatusUnauthorized || !strings.HasPrefix(lastHeader.Get("WWW-Authenticate"), "Bearer") {
		t.Errorf("no token: status %d, WWW-Authenticate %q; want 401 with a Bearer challenge", code, lastHeader.Get("WWW-Authenticate"))
	}
	if code := post(map[string]string{"Authorization": "Bearer wrong"}); code != http.StatusUnauthorized {
		t.Errorf("wrong token: status %d, want 401", code)
	}
	// A page of another origin cannot post to the server.
	if code := post(map[string]string{"Authorization": "Bearer " + token, "Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}); code != http.StatusForbidden {
		t.Errorf("cross-origin request: status %d, want 403", code)
	}
	// DNS rebinding: a loopback server named by another host is refused.
	if code := post(map[string]string{"Authorization": "Bearer " + token, "Host": "evil.example"}); code != http.StatusForbidden {
		t.Errorf("foreign Host: status %d, want 403", code)
	}
	if resp, err := http.Get(ts.URL + "/other"); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /other: %v, %v", resp, err)
	}
}

func TestHTTPWithoutToken(t *testing.T) {
	s := connect(t, shop, Options{})
	ts := httptest.NewServer(s.srv.Handler(""))
	defer ts.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL + HTTPPath}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
}
