// Package secret keeps credentials out of what fileinfo prints and out of
// requests to servers the user did not name. The LLM client of `fileinfo
// enrich` builds its errors through Error and Quote, which mask an API
// key, the credentials a URL carries and anything that looks like a
// token, and sends its requests through Client, which refuses a redirect
// to another origin. It uses the standard library only.
package secret

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Mask is what stands in for a secret.
const Mask = "[redacted]"

// minSecret is the shortest literal secret Redact masks. A key of one to
// three bytes protects nothing (it is guessed at once), and masking every
// "x" of a placeholder key like OPENAI_API_KEY=x would garble each message.
const minSecret = 4

// urlPattern finds URLs with an authority in free text: an error of
// net/http quotes its URL, so the quote ends it.
var urlPattern = regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.-]*://[^\s"'<>\x60]+`)

var schemePattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*$`)

// Redact returns s with every secret of four bytes or more, and its
// URL-escaped forms, replaced by Mask, and every URL in s replaced by
// RedactURL of it.
func Redact(s string, secrets ...string) string {
	s = urlPattern.ReplaceAllStringFunc(s, func(u string) string {
		// Punctuation ending a URL more likely ends the sentence.
		trimmed := strings.TrimRight(u, ".,:;!?)")
		return RedactURL(trimmed) + u[len(trimmed):]
	})
	var forms []string
	for _, sec := range secrets {
		if len(sec) < minSecret {
			continue
		}
		forms = append(forms, sec, url.QueryEscape(sec), url.PathEscape(sec))
	}
	// Longest first, so a secret holding another is masked whole.
	slices.SortFunc(forms, func(a, b string) int { return len(b) - len(a) })
	for _, f := range forms {
		s = strings.ReplaceAll(s, f, Mask)
	}
	return s
}

// RedactURL returns raw fit to print: its userinfo (a password, or a token
// given as the user name), the values of query parameters with a
// credential's name (key, api_key, token, secret, password, sig, …), any
// path segment or query value that looks like a token (20 bytes or more of
// letters and digits mixed, as API keys are) and its fragment are replaced
// by Mask. The rest is kept as written. A raw that does not parse, or
// has an authority but no host, gives its scheme and Mask only.
func RedactURL(raw string) string {
	// Userinfo is cut by hand: a masked one ("[redacted]@") or one with
	// characters net/url refuses would not parse, and the host is worth
	// keeping.
	prefix, rest := "", ""
	if scheme, r, ok := strings.Cut(raw, "://"); ok && schemePattern.MatchString(scheme) {
		prefix, rest = scheme+"://", r
	} else if r, ok := strings.CutPrefix(raw, "//"); ok {
		prefix, rest = "//", r
	}
	hadUser := false
	if auth := rest[:strings.IndexAny(rest+"/", "/?#")]; prefix != "" {
		if i := strings.LastIndex(auth, "@"); i >= 0 {
			raw, hadUser = prefix+rest[i+1:], true
		}
	}
	u, err := url.Parse(raw)
	if err != nil || u.Opaque != "" || prefix != "" && u.Host == "" {
		return prefix + Mask
	}
	var b strings.Builder
	if u.Scheme != "" {
		b.WriteString(u.Scheme + ":")
	}
	if prefix != "" {
		b.WriteString("//")
	}
	if hadUser {
		b.WriteString(Mask + "@")
	}
	b.WriteString(u.Host)
	segs := strings.Split(u.EscapedPath(), "/")
	for i, seg := range segs {
		if v, err := url.PathUnescape(seg); err != nil || looksLikeToken(v) {
			segs[i] = Mask
		}
	}
	b.WriteString(strings.Join(segs, "/"))
	if u.RawQuery != "" || u.ForceQuery {
		params := strings.Split(u.RawQuery, "&")
		for i, p := range params {
			name, value, _ := strings.Cut(p, "=")
			n, nerr := url.QueryUnescape(name)
			v, verr := url.QueryUnescape(value)
			switch {
			case nerr != nil || looksLikeToken(n):
				params[i] = Mask
			case value != "" && (verr != nil || credentialName(n) || looksLikeToken(v)):
				params[i] = name + "=" + Mask
			}
		}
		b.WriteString("?" + strings.Join(params, "&"))
	}
	if u.Fragment != "" {
		b.WriteString("#" + Mask)
	}
	return b.String()
}

// InURL returns the credentials raw holds, those RedactURL masks: the
// user name and password, query values and path segments, both as
// written and unescaped. A server may echo them in forms RedactURL cannot
// see (a path and query without the host), so a client passes them to
// Redact with its key.
func InURL(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	var out []string
	if u.User != nil {
		pw, _ := u.User.Password()
		out = append(out, u.User.Username(), pw)
	}
	for _, seg := range strings.Split(u.EscapedPath(), "/") {
		if v, err := url.PathUnescape(seg); err == nil && looksLikeToken(v) {
			out = append(out, seg, v)
		}
	}
	for _, p := range strings.Split(u.RawQuery, "&") {
		name, value, _ := strings.Cut(p, "=")
		n, _ := url.QueryUnescape(name)
		v, err := url.QueryUnescape(value)
		switch {
		case looksLikeToken(n):
			out = append(out, name, n)
		case err == nil && (credentialName(n) || looksLikeToken(v)):
			out = append(out, value, v)
		case err != nil && value != "":
			out = append(out, value)
		}
	}
	if u.Fragment != "" {
		out = append(out, u.EscapedFragment(), u.Fragment)
	}
	return slices.DeleteFunc(out, func(s string) bool { return s == "" })
}

// credentialName reports whether a query parameter's name says it holds a
// credential.
func credentialName(name string) bool {
	n := strings.ToLower(strings.NewReplacer("-", "", "_", "", ".", "").Replace(name))
	switch n {
	case "sig", "code", "jwt", "sas", "pw":
		return true
	}
	for _, part := range []string{"key", "token", "secret", "pass", "pwd", "auth", "signature", "credential", "session"} {
		if strings.Contains(n, part) {
			return true
		}
	}
	return false
}

// looksLikeToken reports whether s could be an API key or a token: 20
// bytes or more of the characters tokens are written with, letters and
// digits mixed. The API keys of the known providers are 32 bytes or
// more; words, versions ("v1", "2024-02-15-preview") and most model
// names are shorter or have no digit.
func looksLikeToken(s string) bool {
	if len(s) < 20 {
		return false
	}
	var letter, digit bool
	for _, r := range s {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z':
			letter = true
		case '0' <= r && r <= '9':
			digit = true
		case strings.ContainsRune("-_.~+/=:", r):
		default:
			return false
		}
	}
	return letter && digit
}

// Quote returns what an error may quote of a response body: at most max
// bytes of it (cut on a rune, "…" marking the cut), redacted as Redact
// does, with control characters (terminal escapes, newlines) turned into
// spaces and space trimmed. Redaction comes before the cut, so a secret
// the cut would halve is masked whole.
func Quote(body []byte, max int, secrets ...string) string {
	// Only the start is quoted; the window leaves room for a secret or a
	// URL that starts before max and ends after it.
	window := body[:min(len(body), max+4096)]
	s := Redact(strings.ToValidUTF8(string(window), "\uFFFD"), secrets...)
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	s = strings.TrimSpace(s)
	if len(s) <= max && len(window) == len(body) {
		return s
	}
	cut := min(max, len(s))
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strings.TrimSpace(s[:cut]) + "…"
}

// Error returns err with its text redacted as Redact does, or nil for nil.
// errors.Is and errors.As still see the errors err wraps; their own text
// is not redacted, so print the returned error, not what it wraps.
func Error(err error, secrets ...string) error {
	if err == nil {
		return nil
	}
	return &redacted{msg: Redact(err.Error(), secrets...), err: err}
}

type redacted struct {
	msg string
	err error
}

func (e *redacted) Error() string { return e.msg }
func (e *redacted) Unwrap() error { return e.err }

// ErrOtherOrigin is the error (wrapped in a *url.Error) of a request that
// Client refused to redirect to another origin.
var ErrOtherOrigin = errors.New("redirect to another origin refused")

// Client returns a copy of hc (http.DefaultClient when nil) that follows a
// redirect only within the origin (scheme, host and port) of the request
// it started from, then as hc's own CheckRedirect says, or up to 10 times
// when hc has none. A redirect elsewhere fails with ErrOtherOrigin before
// anything is sent there.
//
// net/http would keep the Authorization header on a redirect to another
// port of the same host, and on any redirect it would send the body of a
// 307 or 308 again: the key, and the user's code in a prompt or texts to
// embed. Stripping the header would still send the code, and an endpoint
// that moved (http to https, say) is better fixed in the URL the user
// gives, which the error names.
func Client(hc *http.Client) *http.Client {
	if hc == nil {
		hc = http.DefaultClient
	}
	c := *hc
	next := hc.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if from, to := origin(via[0].URL), origin(req.URL); from != to {
			return fmt.Errorf("%w: from %s to %s; give that URL if it is the endpoint", ErrOtherOrigin, from, to)
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return &c
}

// origin returns u's scheme, host and port, the port made explicit.
func origin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	host := strings.ToLower(u.Hostname())
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return scheme + "://" + host + ":" + port
}
