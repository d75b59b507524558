package llm

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
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
	// A server that hangs is cut off by the timeout, and retried. The
	// timeout is the test's, small; what is checked is that the error says
	// the deadline passed and that two requests went out, not how long
	// they took. A client that ignored its timeout would wait for the
	// server until the test gives up, a minute later.
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
	var sent atomic.Int32
	c.HTTP = &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
		sent.Add(1)
		return http.DefaultTransport.RoundTrip(r)
	})}
	done := make(chan error, 1)
	go func() {
		_, err := c.Complete(context.Background(), "s", "u")
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "deadline exceeded") || sent.Load() != 2 {
			t.Errorf("hanging server: %v after %d requests, want a deadline exceeded after 2", err, sent.Load())
		}
	case <-time.After(time.Minute):
		t.Fatal("hanging server: Complete still waiting after a minute; its timeout is 20ms")
	}
}

// roundTrip is an http.RoundTripper of a function.
type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestCompleteNeverPrintsCredentials sends requests that fail in ways a
// hostile or broken endpoint can choose, with credentials in the key and
// in the URL, and checks that no error names any of them.
func TestCompleteNeverPrintsCredentials(t *testing.T) {
	const key = "sk-env-0123456789abcdefKEY"
	const inURL = "sk-url-9876543210fedcbaURL"
	// echo answers 401 with a body quoting every credential it was sent.
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{
			"message": "Incorrect API key provided: " + r.Header.Get("Authorization") + " for " + r.URL.String(),
		}})
	}))
	defer echo.Close()
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no such key "+strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "), http.StatusServiceUnavailable)
	}))
	defer plain.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close() // connections are refused: the error comes from net/http and names the URL
	for _, tc := range []struct{ name, base string }{
		{"401 body echoing the key", echo.URL + "/v1"},
		{"key in a query", echo.URL + "/v1?api_key=" + inURL},
		{"key in a query, url-encoded", echo.URL + "/v1?key=" + url.QueryEscape(inURL+"/+")},
		{"key in a path segment", echo.URL + "/v1/" + inURL},
		{"env key in a path segment", echo.URL + "/" + key + "/v1"},
		{"plain-text body echoing the key", plain.URL + "/v1?token=" + inURL},
		{"refused connection, key in a query", closed.URL + "/v1?api-key=" + inURL},
		{"refused connection, key in a path", closed.URL + "/" + inURL + "/v1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse("openai:m@"+tc.base, key)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			c.Retries, c.Backoff = 1, time.Millisecond
			_, err = c.Complete(t.Context(), "s", "u")
			if err == nil {
				t.Fatal("no error")
			}
			expectNoSecret(t, err.Error(), key, inURL)
		})
	}
}

// TestParseNeverPrintsCredentials checks the refusals of Parse.
func TestParseNeverPrintsCredentials(t *testing.T) {
	const pw = "hunter2-0123456789abcdef"
	for _, tc := range []struct{ spec, err string }{
		{"openai:m@https://user:" + pw + "@h/v1", "credentials"},
		{"openai:m@https://" + pw + "@h/v1", "credentials"},
		{"openai:m@ftp://h/v1?key=" + pw, "not an http(s) URL"},
		{"openai:m@h/v1?key=" + pw, "not an http(s) URL"},
		{pw, "openai:MODEL@URL"},
		{"openai:" + pw, "openai:MODEL@URL"},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			_, err := Parse(tc.spec, pw)
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("Parse(%q) = %v, want error %q", tc.spec, err, tc.err)
			}
			expectNoSecret(t, err.Error(), pw)
		})
	}
}

// TestCompleteQuotesLittleOfABody checks that a huge error message is cut.
func TestCompleteQuotesLittleOfABody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"message": "bad\x1b[31m " + strings.Repeat("x", 1<<20)}})
	}))
	defer srv.Close()
	c, _ := Parse("openai:m@"+srv.URL, "")
	_, err := c.Complete(t.Context(), "s", "u")
	if err == nil || len(err.Error()) > 1000 || !strings.Contains(err.Error(), "HTTP 400: bad") {
		t.Fatalf("error of %d bytes: %.200v", len(err.Error()), err)
	}
	if strings.Contains(err.Error(), "\x1b") {
		t.Errorf("the error carries a terminal escape: %q", err)
	}
}

// TestCompleteRedirects checks that a redirect within the endpoint's
// origin is followed with the key, and one to another port of the same
// host is refused before anything is sent there.
func TestCompleteRedirects(t *testing.T) {
	var otherSaw atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		otherSaw.Add(1)
		if r.Header.Get("Authorization") != "" {
			t.Errorf("the other origin saw Authorization %q", r.Header.Get("Authorization"))
		}
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"content": "stolen"}}}})
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/chat/completions":
			http.Redirect(w, r, "/v2/chat/completions", http.StatusTemporaryRedirect)
		case "/v2/chat/completions":
			if r.Header.Get("Authorization") != "Bearer sk-secret" {
				http.Error(w, "no key", http.StatusUnauthorized)
				return
			}
			json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"content": "ok"}}}})
		case "/away/chat/completions":
			http.Redirect(w, r, other.URL+"/v1/chat/completions", http.StatusTemporaryRedirect)
		}
	}))
	defer srv.Close()
	c, _ := Parse("openai:m@"+srv.URL, "sk-secret")
	c.Backoff = time.Millisecond
	if got, err := c.Complete(t.Context(), "s", "u"); err != nil || got != "ok" {
		t.Errorf("same-origin redirect: %q, %v", got, err)
	}
	c, _ = Parse("openai:m@"+srv.URL+"/away", "sk-secret")
	c.Backoff = time.Millisecond
	got, err := c.Complete(t.Context(), "s", "u")
	if err == nil || !strings.Contains(err.Error(), "another origin") {
		t.Errorf("redirect to %s: %q, %v; want it refused", other.URL, got, err)
	}
	if n := otherSaw.Load(); n != 0 {
		t.Errorf("the other origin got %d requests", n)
	}
}

// expectNoSecret fails the test if text holds any of the secrets, or
// their URL-escaped forms.
func expectNoSecret(t *testing.T, text string, secrets ...string) {
	t.Helper()
	for _, s := range secrets {
		for _, form := range []string{s, url.QueryEscape(s), url.PathEscape(s)} {
			if strings.Contains(text, form) {
				t.Errorf("%q holds the secret %q", text, form)
				break
			}
		}
	}
}

// TestCompleteKeepsTheQuery checks that a query in the endpoint's URL
// (Azure's api-version, a key some servers take there) stays a query
// after the path is added.
func TestCompleteKeepsTheQuery(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" || r.URL.Query().Get("api-version") != "2024-02-15" {
			http.Error(w, "wrong URL "+r.URL.String(), http.StatusNotFound)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"content": "ok"}}}})
	}))
	defer srv.Close()
	for _, base := range []string{srv.URL + "?api-version=2024-02-15", srv.URL + "/v1/?api-version=2024-02-15"} {
		t.Run(base, func(t *testing.T) {
			c, err := Parse("openai:m@"+base, "")
			if err != nil {
				t.Fatal(err)
			}
			if got, err := c.Complete(t.Context(), "s", "u"); err != nil || got != "ok" {
				t.Errorf("Complete = %q, %v", got, err)
			}
		})
	}
}
