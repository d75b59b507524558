package view

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// MinKeyLen is the shortest Options.Key a Handler takes, in bytes: a
// key of NewKey's alphabet this long holds 132 bits.
const MinKeyLen = 22

// NewKey returns a new capability for a view: 256 bits from crypto/rand,
// as 43 characters of unpadded base64url, safe in a URL's query.
func NewKey() string {
	var b [32]byte
	rand.Read(b[:]) // never fails (crypto/rand's contract since Go 1.24)
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// cookiePrefix starts the name of the cookie that holds a view's key in
// a browser that opened the page's ?token= link. Browsers share cookies
// between the ports of a host, so the name also carries a digest of the
// key: two views on 127.0.0.1 do not overwrite each other's.
const cookiePrefix = "fileinfo_view_"

// CookieName is the name of the cookie holding key.
func CookieName(key string) string {
	sum := sha256.Sum256([]byte(key))
	return cookiePrefix + hex.EncodeToString(sum[:6])
}

// guard wraps h with the protections of the package doc.
func guard(h http.Handler, key, token string) http.Handler {
	h = requireKey(h, key, token)
	h = http.NewCrossOriginProtection().Handler(h)
	return noRebinding(headers(h))
}

// noRebinding refuses a request that reached a loopback address under a
// host name that is not loopback (a page of another site whose name was
// rebound to 127.0.0.1), and any request a page of another origin made.
func noRebinding(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok &&
			isLoopback(hostOf(local.String())) && !isLoopback(hostOf(r.Host)) {
			http.Error(w, "forbidden: a loopback server must be reached by a loopback host name (127.0.0.1, [::1] or localhost)", http.StatusForbidden)
			return
		}
		// A page of another site may link to the view (a navigation), but
		// not read its data: browsers mark such requests.
		if r.Header.Get("Sec-Fetch-Site") == "cross-site" && r.URL.Path != "/" {
			http.Error(w, "forbidden: cross-site request", http.StatusForbidden)
			return
		}
		// A script's request names the page that made it; the view's own
		// page is of the view's origin. Another port of the same host is
		// another origin (another program), though the same site.
		if o := r.Header.Get("Origin"); o != "" && !sameOrigin(o, r.Host) {
			http.Error(w, "forbidden: a request from a page of another origin ("+o+")", http.StatusForbidden)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// sameOrigin reports whether the Origin header origin names host (the
// request's Host) over http or https.
func sameOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Path == "" && strings.EqualFold(u.Host, host)
}

// requireKey lets through the requests that carry the view's key: as
// the cookie, as a bearer header, or as ?token= on the page, which then
// sets the cookie (the page drops the key from the address bar). token,
// the server's own bearer token, is accepted as a bearer header only:
// it is never put in a URL, so one in a query is refused. The page is
// served at once rather than through a redirect: a browser does not send
// a SameSite=Strict cookie on a redirect that a link from another site
// started. Every comparison takes constant time.
func requireKey(h http.Handler, key, token string) http.Handler {
	if len(key) < MinKeyLen {
		panic("view: Options.Key is shorter than MinKeyLen; use NewKey")
	}
	cookie := CookieName(key)
	is := func(got, want string) bool {
		return want != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if q := r.URL.Query(); q.Has("token") {
			got := q.Get("token")
			switch {
			case is(got, token):
				unauthorized(w, "the server's token is never accepted in a URL, where logs and history keep it: send it as Authorization: Bearer, or open the link open_view gives")
			case r.URL.Path != "/":
				unauthorized(w, "a link's token is taken on the page (/) only; send Authorization: Bearer <token> instead")
			case !is(got, key):
				unauthorized(w, "the token in the link is wrong; ask open_view for a new link")
			default:
				http.SetCookie(w, &http.Cookie{Name: cookie, Value: key, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
				h.ServeHTTP(w, r)
			}
			return
		}
		if auth, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && (is(auth, key) || is(auth, token)) {
			h.ServeHTTP(w, r)
			return
		}
		if c, err := r.Cookie(cookie); err == nil && is(c.Value, key) {
			h.ServeHTTP(w, r)
			return
		}
		unauthorized(w, "open the link open_view gives (it carries the view's key once), or send Authorization: Bearer <key>")
	})
}

// unauthorized answers 401 with a bearer challenge and why.
func unauthorized(w http.ResponseWriter, why string) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="fileinfo view"`)
	http.Error(w, "unauthorized: "+why, http.StatusUnauthorized)
}

// headers sets what every answer carries: no sniffing, no framing, no
// referrer (a ?token= link must not leak), and a policy that lets the
// page load only its own scripts.
func headers(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'")
		h.ServeHTTP(w, r)
	})
}

// hostOf returns the host of a host:port, or hostport when it has no port.
func hostOf(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.Trim(hostport, "[]")
}

// isLoopback reports whether host names this machine's loopback interface.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
