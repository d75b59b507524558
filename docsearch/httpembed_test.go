package docsearch

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// fakeEmbedServer answers Ollama and OpenAI embedding requests with
// vectors [len(text), 1, 0], failing the first fail requests with 503.
func fakeEmbedServer(t *testing.T, fail int32, requests *atomic.Int32) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := requests.Add(1)
		if n <= fail {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		if r.Header.Get("Authorization") != "" && r.Header.Get("Authorization") != "Bearer k" {
			http.Error(w, "bad key", http.StatusUnauthorized)
			return
		}
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "m" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		vec := func(s string) []float32 { return []float32{float32(len(s)), 1, 0} }
		switch r.URL.Path {
		case "/api/embed":
			var out [][]float32
			for _, s := range req.Input {
				out = append(out, vec(s))
			}
			json.NewEncoder(w).Encode(map[string]any{"embeddings": out})
		case "/v1/embeddings":
			var data []map[string]any
			for i := len(req.Input) - 1; i >= 0; i-- { // out of order on purpose
				data = append(data, map[string]any{"index": i, "embedding": vec(req.Input[i])})
			}
			json.NewEncoder(w).Encode(map[string]any{"data": data})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestHTTPEmbedders(t *testing.T) {
	for _, kind := range []string{"ollama", "openai"} {
		t.Run(kind, func(t *testing.T) {
			var requests atomic.Int32
			srv := fakeEmbedServer(t, 2, &requests)
			e := newHTTPEmbedder(kind, HTTPOptions{BaseURL: srv.URL + "/", Model: "m", APIKey: "k", Batch: 2})
			e.wait = func(time.Duration) {}
			vs, err := e.Embed(context.Background(), []string{"a", "bbb", "cc"})
			if err != nil {
				t.Fatal(err)
			}
			if len(vs) != 3 || e.Dim() != 3 || e.Name() != kind+":m" {
				t.Fatalf("got %d vectors of %d dims, name %s", len(vs), e.Dim(), e.Name())
			}
			// [3,1,0] normalised: the first component dominates.
			if vs[1][0] < 0.9 || vs[0][0] > 0.8 {
				t.Errorf("vectors not in input order or not normalised: %v", vs)
			}
			if got := requests.Load(); got != 4 { // 2 failures, 2 batches
				t.Errorf("%d requests, want 4", got)
			}
		})
	}
}

func TestHTTPEmbedderGivesUp(t *testing.T) {
	var requests atomic.Int32
	srv := fakeEmbedServer(t, 100, &requests)
	e := newHTTPEmbedder("ollama", HTTPOptions{BaseURL: srv.URL, Model: "m", Retries: 2})
	e.wait = func(time.Duration) {}
	_, err := e.Embed(context.Background(), []string{"x"})
	if err == nil || !strings.Contains(err.Error(), "503") {
		t.Fatalf("err = %v, want the 503", err)
	}
	if got := requests.Load(); got != 3 {
		t.Errorf("%d requests, want 3 (1 + 2 retries)", got)
	}
	// A client error is not retried.
	requests.Store(0)
	e = newHTTPEmbedder("openai", HTTPOptions{BaseURL: srv.URL, Model: "wrong"})
	requests.Store(100)
	if _, err := e.Embed(context.Background(), []string{"x"}); err == nil || requests.Load() != 101 {
		t.Errorf("err = %v after %d requests, want one failed request", err, requests.Load()-100)
	}
}

func TestHTTPEmbedderTimeout(t *testing.T) {
	block := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-block:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(block)
	e := newHTTPEmbedder("ollama", HTTPOptions{BaseURL: srv.URL, Model: "m", Timeout: 50 * time.Millisecond, Retries: -1})
	start := time.Now()
	if _, err := e.Embed(context.Background(), []string{"x"}); err == nil {
		t.Fatal("no error from a server that never answers")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

// TestHTTPEmbedderNeverPrintsCredentials makes requests fail in ways a
// hostile or broken server can choose, with credentials in the key and in
// the URL, and checks that no error names any of them.
func TestHTTPEmbedderNeverPrintsCredentials(t *testing.T) {
	const key = "sk-env-0123456789abcdefKEY"
	const inURL = "sk-url-9876543210fedcbaURL"
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "invalid key "+r.Header.Get("Authorization")+" for "+r.URL.String()+strings.Repeat(" pad", 1<<18), http.StatusUnauthorized)
	}))
	defer echo.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close() // connections are refused: the error comes from net/http and names the URL
	for _, tc := range []struct{ name, base string }{
		{"401 body echoing the key", echo.URL},
		{"key in a query", echo.URL + "/?api_key=" + inURL},
		{"key in a path segment", echo.URL + "/" + inURL},
		{"env key in a path segment", echo.URL + "/" + key},
		{"key in userinfo", "http://user:" + inURL + "@" + strings.TrimPrefix(echo.URL, "http://")},
		{"refused connection, key in a query", closed.URL + "/?key=" + inURL},
		{"refused connection, key in userinfo", "http://" + inURL + "@" + strings.TrimPrefix(closed.URL, "http://")},
	} {
		for _, kind := range []string{"ollama", "openai"} {
			t.Run(tc.name+"/"+kind, func(t *testing.T) {
				e := newHTTPEmbedder(kind, HTTPOptions{BaseURL: tc.base, Model: "m", APIKey: key, Retries: -1})
				_, err := e.Embed(t.Context(), []string{"x"})
				if err == nil {
					t.Fatal("no error")
				}
				if len(err.Error()) > 1000 {
					t.Errorf("error of %d bytes", len(err.Error()))
				}
				for _, s := range []string{key, inURL} {
					if strings.Contains(err.Error(), s) {
						t.Errorf("%.300q holds the secret %q", err, s)
					}
				}
			})
		}
	}
}

// TestHTTPEmbedderRedirects checks that a redirect within the server's
// origin is followed with the key, and one to another port of the same
// host is refused before anything is sent there.
func TestHTTPEmbedderRedirects(t *testing.T) {
	var requests, otherSaw atomic.Int32
	embeds := fakeEmbedServer(t, 0, &requests)
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		otherSaw.Add(1)
		if r.Header.Get("Authorization") != "" {
			t.Errorf("the other origin saw Authorization %q", r.Header.Get("Authorization"))
		}
		embeds.Config.Handler.ServeHTTP(w, r)
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p, ok := strings.CutPrefix(r.URL.Path, "/same/"); ok {
			http.Redirect(w, r, "/"+p, http.StatusPermanentRedirect)
			return
		}
		if p, ok := strings.CutPrefix(r.URL.Path, "/away/"); ok {
			http.Redirect(w, r, other.URL+"/"+p, http.StatusTemporaryRedirect)
			return
		}
		if r.Header.Get("Authorization") != "Bearer k" {
			http.Error(w, "no key", http.StatusUnauthorized)
			return
		}
		embeds.Config.Handler.ServeHTTP(w, r)
	}))
	defer srv.Close()
	same := newHTTPEmbedder("openai", HTTPOptions{BaseURL: srv.URL + "/same", Model: "m", APIKey: "k", Retries: -1})
	if _, err := same.Embed(t.Context(), []string{"x"}); err != nil {
		t.Errorf("same-origin redirect: %v", err)
	}
	away := newHTTPEmbedder("openai", HTTPOptions{BaseURL: srv.URL + "/away", Model: "m", APIKey: "k", Retries: -1})
	if vs, err := away.Embed(t.Context(), []string{"x"}); err == nil || !strings.Contains(err.Error(), "another origin") {
		t.Errorf("redirect to %s: %d vectors, %v; want it refused", other.URL, len(vs), err)
	}
	if n := otherSaw.Load(); n != 0 {
		t.Errorf("the other origin got %d requests", n)
	}
}

// TestHTTPEmbedderKeepsTheQuery checks that a query in BaseURL stays a
// query after the endpoint's path is added.
func TestHTTPEmbedderKeepsTheQuery(t *testing.T) {
	var requests atomic.Int32
	embeds := fakeEmbedServer(t, 0, &requests)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("api-version") != "1" {
			http.Error(w, "no api-version in "+r.URL.String(), http.StatusBadRequest)
			return
		}
		embeds.Config.Handler.ServeHTTP(w, r)
	}))
	defer srv.Close()
	for _, kind := range []string{"ollama", "openai"} {
		t.Run(kind, func(t *testing.T) {
			e := newHTTPEmbedder(kind, HTTPOptions{BaseURL: srv.URL + "/?api-version=1", Model: "m", Retries: -1})
			if _, err := e.Embed(t.Context(), []string{"x"}); err != nil {
				t.Error(err)
			}
		})
	}
}
