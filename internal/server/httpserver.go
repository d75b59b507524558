package server

import (
	"net/http"
	"time"
)

// HTTPLimits bound what one HTTP client can hold of a server: a
// connection, through slow or silent requests, and memory, through large
// ones. The zero value takes the defaults. There is no write timeout: a
// response of streamable HTTP may be an event stream as long as the
// session.
type HTTPLimits struct {
	// ReadHeaderTimeout bounds reading a request's headers. Default 10 s.
	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds reading a whole request, headers and body; a
	// client that stalls is disconnected. Go's server lifts it once the
	// body has been read, so it does not cut the event streams that
	// answer a request or a GET. Default 30 s: a 16 MiB body at 0.5 MB/s.
	ReadTimeout time.Duration
	// IdleTimeout closes a kept-alive connection that sends no request.
	// Default 60 s.
	IdleTimeout time.Duration
	// MaxHeaderBytes bounds a request's headers (net/http allows 4 KiB
	// more); beyond, the answer is 431. Default 64 KiB.
	MaxHeaderBytes int
	// MaxBodyBytes bounds a request's body; beyond, the answer is 413.
	// Default DefaultMaxLine (16 MiB), the limit of a message over stdio.
	MaxBodyBytes int64
}

// withDefaults returns lim with each zero field set to its default.
func (lim HTTPLimits) withDefaults() HTTPLimits {
	if lim.ReadHeaderTimeout <= 0 {
		lim.ReadHeaderTimeout = 10 * time.Second
	}
	if lim.ReadTimeout <= 0 {
		lim.ReadTimeout = 30 * time.Second
	}
	if lim.IdleTimeout <= 0 {
		lim.IdleTimeout = 60 * time.Second
	}
	if lim.MaxHeaderBytes <= 0 {
		lim.MaxHeaderBytes = 64 << 10
	}
	if lim.MaxBodyBytes <= 0 {
		lim.MaxBodyBytes = DefaultMaxLine
	}
	return lim
}

// HTTPServer returns an http.Server serving s.Handler(token) within lim,
// for the caller to Serve and Shutdown.
func (s *Server) HTTPServer(token string, lim HTTPLimits) *http.Server {
	lim = lim.withDefaults()
	return &http.Server{
		Handler:           s.handler(token, lim.MaxBodyBytes),
		ReadHeaderTimeout: lim.ReadHeaderTimeout,
		ReadTimeout:       lim.ReadTimeout,
		IdleTimeout:       lim.IdleTimeout,
		MaxHeaderBytes:    lim.MaxHeaderBytes,
	}
}
