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
