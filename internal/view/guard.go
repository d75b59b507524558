package view

import (
	"crypto/subtle"
	"net"
	"net/http"
	"strings"
)

// cookieName holds the token in a browser that opened the page's
// ?token= link.
const cookieName = "fileinfo_view"

// guard wraps h with the MCP endpoint's protections (see the package doc).
func guard(h http.Handler, token string) http.Handler {
	h = http.NewCrossOriginProtection().Handler(h)
	if token != "" {
		h = requireToken(h, token)
	}
	return noRebinding(headers(h))
}

// noRebinding refuses a request that reached a loopback address under a
// host name that is not loopback: a page of another site whose name was
// rebound to 127.0.0.1.
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
		h.ServeHTTP(w, r)
	})
}

// requireToken lets through requests that carry token: as a bearer
// header, as the cookie, or as ?token= on the page, which then sets the
// cookie (the page drops the token from the address bar). The page is
// served at once rather than through a redirect: a browser does not send
// a SameSite=Strict cookie on a redirect that a link from another site
// started.
func requireToken(h http.Handler, token string) http.Handler {
	same := func(got string) bool { return subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1 }
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if q := r.URL.Query().Get("token"); q != "" && r.URL.Path == "/" {
			if !same(q) {
				http.Error(w, "unauthorized: the token in the link is wrong; ask open_view for a new link", http.StatusUnauthorized)
				return
			}
			http.SetCookie(w, &http.Cookie{Name: cookieName, Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
			h.ServeHTTP(w, r)
			return
		}
		if auth, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && same(auth) {
			h.ServeHTTP(w, r)
			return
		}
		if c, err := r.Cookie(cookieName); err == nil && same(c.Value) {
			h.ServeHTTP(w, r)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="fileinfo"`)
		http.Error(w, "unauthorized: open the link open_view gives (it carries the token once), or send Authorization: Bearer <token>", http.StatusUnauthorized)
	})
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
