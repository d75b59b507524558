package llm

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

func TestParse(t *testing.T) {
	for _, tc := range []struct{ spec, model, base, err string }{
		{"openai:gpt-4o-mini@https://api.openai.com/v1", "gpt-4o-mini", "https://api.openai.com/v1", ""},
		{"openai:llama3.1:8b@http://localhost:11434", "llama3.1:8b", "http://localhost:11434/v1", ""},
		{"openai:m@http://h:1/api/v1/", "m", "http://h:1/api/v1", ""},
		{"anthropic:x@http://h", "", "", "openai:MODEL@URL"},
		{"openai:@http://h", "", "", "openai:MODEL@URL"},
		{"openai:m@ftp://h", "", "", "not an http(s) URL"},
		{"openai:m@https://user:pw@h/v1", "", "", "credentials"},
	} {
		c, err := Parse(tc.spec, "k")
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Parse(%q) = %v, %v; want error %q", tc.spec, c, err, tc.err)
			}
			continue
		}
		if err != nil || c.Model != tc.model || c.BaseURL != tc.base {
			t.Errorf("Parse(%q) = %+v, %v", tc.spec, c, err)
		}
	}
}

func TestComplete(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer sk-secret" {
			http.Error(w, "bad request", 400)
			return
		}
		if n == 1 {
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write([]byte(`{"error":{"message":"slow down"}}`))
			return
		}
		var req request
		json.NewDecoder(r.Body).Decode(&req)
		if req.Model != "m" || len(req.Messages) != 2 || req.Messages[0].Role != "system" {
			http.Error(w, "bad body", 400)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": "answer to " + req.Messages[1].Content}}}})
	}))
	defer srv.Close()
	c, err := Parse("openai:m@"+srv.URL, "sk-secret")
	if err != nil {
		t.Fatal(err)
	}
	c.Backoff = time.Millisecond
	got, err := c.Complete(context.Background(), "sys", "hi")
	if err != nil || got != "answer to hi" || calls.Load() != 2 {
		t.Errorf("Complete = %q, %v after %d calls", got, err, calls.Load())
	}
}

func TestCompleteErrorsKeepTheKeySecret(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(`{"error":{"message":"invalid key"}}`))
	}))
	defer srv.Close()
	c, _ := Parse("openai:m@"+srv.URL, "sk-very-secret")
	c.Backoff = time.Millisecond
	_, err := c.Complete(context.Background(), "s", "u")
	if err == nil || !strings.Contains(err.Error(), "HTTP 401: invalid key") || strings.Contains(err.Error(), "sk-very-secret") {
		t.Errorf("err = %v", err)
	}
	// A server that hangs is cut off by the timeout, and retried.
	stop := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	defer hang.Close()
	defer close(stop)
	c, _ = Parse("openai:m@"+hang.URL, "")
	c.Timeout, c.Retries, c.Backoff = 20*time.Millisecond, 1, time.Millisecond
	start := time.Now()
	if _, err := c.Complete(context.Background(), "s", "u"); err == nil || time.Since(start) > 2*time.Second {
		t.Errorf("hanging server: %v after %v", err, time.Since(start))
	}
}
