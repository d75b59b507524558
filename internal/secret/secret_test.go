package secret

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
)

func TestRedactURL(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"https://api.openai.com/v1", "https://api.openai.com/v1"},
		{"http://localhost:11434/api/embed", "http://localhost:11434/api/embed"},
		{"https://user:pw@h/v1", "https://[redacted]@h/v1"},
		{"https://tok@h/v1", "https://[redacted]@h/v1"},
		{"https://h/v1?key=abc&model=m", "https://h/v1?key=[redacted]&model=m"},
		{"https://h/v1?API_KEY=abc&Api-Key=d&access_token=e&x-goog-api-key=f&sig=g&code=h", "https://h/v1?API_KEY=[redacted]&Api-Key=[redacted]&access_token=[redacted]&x-goog-api-key=[redacted]&sig=[redacted]&code=[redacted]"},
		{"https://h/openai/deployments/gpt-4o/chat?api-version=2024-02-15-preview", "https://h/openai/deployments/gpt-4o/chat?api-version=2024-02-15-preview"},
		{"https://h/v1?q=sk0123456789abcdefghij", "https://h/v1?q=[redacted]"},
		{"https://h/v1?sk0123456789abcdefghij", "https://h/v1?[redacted]"},
		{"https://h/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/send", "https://h/[redacted]/send"},
		{"https://h/v1/sk-proj-0123456789abcdef/chat", "https://h/v1/[redacted]/chat"},
		{"https://h/v1#access_token=abc", "https://h/v1#[redacted]"},
		{"https://h/v1?key=%zz", "https://h/v1?key=[redacted]"},
		{"h/v1?key=abc", "h/v1?key=[redacted]"},
		{"http://u:[x]@h/", "http://[redacted]@h/"},
		{"http://[redacted]@h/v1?key=[redacted]", "http://[redacted]@h/v1?key=[redacted]"},
		{"http://a@b@h/", "http://[redacted]@h/"},
		{"http://h:bad port/", "http://[redacted]"},
		{"mailto:someone@example.com", "[redacted]"},
		{"http:///x", "http://[redacted]"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			if got := RedactURL(tc.in); got != tc.want {
				t.Errorf("RedactURL(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if again := RedactURL(tc.want); again != tc.want {
				t.Errorf("RedactURL(%q) = %q; want it unchanged", tc.want, again)
			}
		})
	}
}

func TestRedact(t *testing.T) {
	const key = "sk-0123/4567+89ab"
	for _, tc := range []struct {
		name, in, want string
		secrets        []string
	}{
		{"key in a body", "Incorrect API key provided: sk-0123/4567+89ab.", "Incorrect API key provided: [redacted].", []string{key}},
		{"key escaped in a query", "bad ?x=sk-0123%2F4567%2B89ab", "bad ?x=[redacted]", []string{key}},
		{"key escaped in a path", "bad /sk-0123%2F4567+89ab/", "bad /[redacted]/", []string{key}},
		{"url quoted by net/http", `Post "http://u:p@127.0.0.1:1/v1?key=k1&m=2": dial tcp 127.0.0.1:1: connect: connection refused`,
			`Post "http://[redacted]@127.0.0.1:1/v1?key=[redacted]&m=2": dial tcp 127.0.0.1:1: connect: connection refused`, nil},
		{"url at the end of a clause", "m at https://h/v1?token=t: HTTP 401", "m at https://h/v1?token=[redacted]: HTTP 401", nil},
		{"a secret holding another", "abcdefgh", "[redacted]", []string{"abcd", "abcdefgh"}},
		{"short secrets are left", "context deadline exceeded", "context deadline exceeded", []string{"x", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Redact(tc.in, tc.secrets...); got != tc.want {
				t.Errorf("Redact(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestQuote(t *testing.T) {
	const key = "sk-0123456789"
	for _, tc := range []struct {
		name, body string
		max        int
		want       string
	}{
		{"short", "  not found\n", 100, "not found"},
		{"control characters", "bad\x1b[31mred\r\nline", 100, "bad [31mred  line"},
		{"cut", "abcdefghij", 4, "abcd…"},
		{"cut on a rune", "aé", 2, "a…"},
		{"key across the cut", "xx sk-0123456789 yy", 6, "xx [re…"},
		{"invalid UTF-8", "a\xffb", 10, "a\uFFFDb"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Quote([]byte(tc.body), tc.max, key); got != tc.want {
				t.Errorf("Quote(%q, %d) = %q, want %q", tc.body, tc.max, got, tc.want)
			}
		})
	}
	if got := Quote([]byte(strings.Repeat("x", 1<<20)), 300); len(got) > 300+len("…") {
		t.Errorf("Quote of 1 MB: %d bytes", len(got))
	}
}

func TestError(t *testing.T) {
	if Error(nil, "k") != nil {
		t.Error("Error(nil) is not nil")
	}
	inner := &url.Error{Op: "Post", URL: "http://h/v1?key=sk-secret-1", Err: io.ErrUnexpectedEOF}
	err := Error(inner, "sk-secret-1")
	if strings.Contains(err.Error(), "sk-secret-1") || !strings.Contains(err.Error(), "unexpected EOF") {
		t.Errorf("Error() = %q", err)
	}
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Error("errors.Is does not see through the redaction")
	}
}

// TestClient redirects a request within its origin, then to another port
// of the same host, and checks that the first is followed with its
// header and the second is refused before anything reaches that port.
func TestClient(t *testing.T) {
	var otherSaw int
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		otherSaw++
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/same":
			http.Redirect(w, r, "/end", http.StatusTemporaryRedirect)
		case "/away":
			http.Redirect(w, r, other.URL+"/end", http.StatusTemporaryRedirect)
		case "/end":
			io.WriteString(w, r.Header.Get("Authorization"))
		}
	}))
	defer srv.Close()
	hc := Client(nil)
	if hc == http.DefaultClient || http.DefaultClient.CheckRedirect != nil {
		t.Fatal("Client changed http.DefaultClient")
	}
	get := func(path string) (string, error) {
		t.Helper()
		req, _ := http.NewRequestWithContext(t.Context(), "POST", srv.URL+path, strings.NewReader("code"))
		req.Header.Set("Authorization", "Bearer k")
		resp, err := hc.Do(req)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return string(b), err
	}
	if got, err := get("/same"); err != nil || got != "Bearer k" {
		t.Errorf("same origin: %q, %v; want the header followed", got, err)
	}
	if _, err := get("/away"); !errors.Is(err, ErrOtherOrigin) {
		t.Errorf("another port: %v, want ErrOtherOrigin", err)
	}
	if otherSaw != 0 {
		t.Errorf("the other port got %d requests", otherSaw)
	}
}

func TestOrigin(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{"http://h/x", "http://H:80/y"},
		{"https://h/x", "https://h:443/y"},
		{"http://[::1]:8/x", "http://[::1]:8/y"},
	} {
		a, _ := url.Parse(tc.a)
		b, _ := url.Parse(tc.b)
		if origin(a) != origin(b) {
			t.Errorf("origin(%s) = %s, origin(%s) = %s; want the same", tc.a, origin(a), tc.b, origin(b))
		}
	}
	for _, tc := range []struct{ a, b string }{
		{"http://h/x", "https://h/x"},
		{"http://h:1/x", "http://h:2/x"},
		{"http://h/x", "http://h.evil/x"},
	} {
		a, _ := url.Parse(tc.a)
		b, _ := url.Parse(tc.b)
		if origin(a) == origin(b) {
			t.Errorf("origin(%s) = origin(%s) = %s; want them apart", tc.a, tc.b, origin(a))
		}
	}
}

// FuzzRedactURL checks that RedactURL never panics and changes nothing
// more the second time, and that what it keeps of a URL never holds its
// password or the value of its key parameter.
func FuzzRedactURL(f *testing.F) {
	f.Add("https://u:pw@h/v1?key=abc", "pw-secret", "sk-abc")
	f.Add("http://h/%zz?key=%", "", "x")
	f.Fuzz(func(t *testing.T, raw, pw, key string) {
		if once := RedactURL(raw); RedactURL(once) != once {
			t.Errorf("RedactURL(%q) = %q, then %q", raw, once, RedactURL(once))
		}
		const skeleton = "https://\x00@h/v1?key=\x00"
		if len(pw) < minSecret || len(key) < minSecret || strings.Contains(skeleton, pw) || strings.Contains(skeleton, key) {
			return
		}
		u := &url.URL{Scheme: "https", Host: "h", Path: "/v1", User: url.UserPassword("u", pw), RawQuery: url.Values{"key": {key}}.Encode()}
		kept := strings.ReplaceAll(RedactURL(u.String()), Mask, "\x00")
		for _, s := range []string{pw, key, url.QueryEscape(pw), url.QueryEscape(key)} {
			if strings.Contains(kept, s) {
				t.Errorf("RedactURL(%q) = %q keeps %q", u, kept, s)
			}
		}
	})
}

func TestInURL(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"https://api.openai.com/v1?api-version=2024-02-15-preview", nil},
		{"https://u:p%40ss@h/v1", []string{"u", "p@ss"}},
		{"https://h/v1?key=a%2Fb&m=x", []string{"a%2Fb", "a/b"}},
		{"https://h/sk-proj-0123456789abcdef/v1", []string{"sk-proj-0123456789abcdef", "sk-proj-0123456789abcdef"}},
		{"https://h/v1#tok", []string{"tok", "tok"}},
	} {
		t.Run(tc.in, func(t *testing.T) {
			if got := InURL(tc.in); !slices.Equal(got, tc.want) {
				t.Errorf("InURL(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
