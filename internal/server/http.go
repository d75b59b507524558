package server

import (
	"context"
	"crypto/subtle"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPPath is where Handler serves MCP.
const HTTPPath = "/mcp"

// Handler serves s over streamable HTTP at HTTPPath. It keeps the SDK's
// DNS-rebinding protection (a request reaching a loopback address must
// name a loopback Host) and adds cross-origin protection (a browser page
// of another origin cannot post to it). With a token, every request must
// carry it as "Authorization: Bearer <token>". A body over DefaultMaxLine
// is refused with 413; HTTPServer bounds the rest of a request. Every
// answer to a POST is JSON-RPC, and echoes the call's id exactly as sent
// (see rpcFront). From the
// first call on, the roots clients declare no longer allow a workspace
// (see roots.go): only Options.Root and Options.AllowRoots do.
func (s *Server) Handler(token string) http.Handler {
	return s.handler(token, DefaultMaxLine)
}

// handler is Handler with a limit on a request's body.
func (s *Server) handler(token string, maxBody int64) http.Handler {
	// Anyone holding the token could declare "/" a root.
	s.overHTTP.Store(true)
	s.httpToken.Store(&token)
	var h http.Handler = mcp.NewStreamableHTTPHandler(
		func(*http.Request) *mcp.Server { return s.mcp },
		&mcp.StreamableHTTPOptions{Logger: s.log, MaxRequestBodyBytes: maxBody},
	)
	h = &rpcFront{next: h, maxBody: maxBody, log: s.log}
	h = http.NewCrossOriginProtection().Handler(h)
	if token != "" {
		verify := func(_ context.Context, got string, _ *http.Request) (*auth.TokenInfo, error) {
			if subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
				return nil, auth.ErrInvalidToken
			}
			return &auth.TokenInfo{Expiration: time.Now().Add(time.Hour)}, nil
		}
		h = challenge(auth.RequireBearerToken(verify, nil)(h))
	}
	mux := http.NewServeMux()
	mux.Handle(HTTPPath, h)
	return mux
}

// challenge adds the WWW-Authenticate header RFC 6750 asks of a 401 when
// the handler did not set one.
func challenge(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(challenger{w}, r)
	})
}

type challenger struct{ http.ResponseWriter }

func (c challenger) WriteHeader(code int) {
	if code == http.StatusUnauthorized && c.Header().Get("WWW-Authenticate") == "" {
		c.Header().Set("WWW-Authenticate", `Bearer realm="fileinfo"`)
	}
	c.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the writer's Flush and
// deadlines, which streaming responses need.
func (c challenger) Unwrap() http.ResponseWriter { return c.ResponseWriter }
