package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fileinfo/fileinfo/internal/view"
)

// viewState is the web view a server serves, once started.
type viewState struct {
	mu   sync.Mutex
	srv  *http.Server
	done chan struct{} // closed when srv is stopped
	link string        // http://host:port/?token=KEY, the page with its key
}

// StartView serves the web view (see internal/view) at addr until ctx is
// done or the server is closed, and returns the link to its page:
// http://host:port/?token=KEY. KEY is a new capability (view.NewKey)
// that every request to the view must carry; the link hands it to a
// browser once (the page keeps it in a cookie). token, the server's
// bearer token when it has one, is taken too, as a bearer header only:
// it never goes into a link. The link is logged at info level, for the
// person who started the server (as Jupyter does). addr must already be
// checked (cmd refuses a non-loopback one without a token). A view
// already running is kept: its link is returned.
func (s *Server) StartView(ctx context.Context, addr, token string) (string, error) {
	v := &s.view
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.srv != nil {
		return v.link, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("web view at %s: %w", addr, err)
	}
	key := view.NewKey()
	lim := HTTPLimits{}.withDefaults()
	srv := &http.Server{
		Handler:           view.Handler(viewSource{s}, view.Options{Key: key, Token: token}),
		ReadHeaderTimeout: lim.ReadHeaderTimeout,
		ReadTimeout:       lim.ReadTimeout,
		WriteTimeout:      2 * time.Minute, // no streams here: answers are JSON or files
		IdleTimeout:       lim.IdleTimeout,
		MaxHeaderBytes:    lim.MaxHeaderBytes,
	}
	done := make(chan struct{})
	v.srv, v.done = srv, done
	v.link = "http://" + urlHost(ln.Addr()) + "/?" + url.Values{"token": {key}}.Encode()
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Warn("web view stopped", "err", err)
		}
	}()
	go func() {
		select {
		case <-ctx.Done():
			s.stopView()
		case <-done:
		}
	}()
	s.log.Info("serving the web view; open this link (it holds the view's key) in a browser", "url", v.link, "bearer_token", token != "")
	return v.link, nil
}

// urlHost is the host:port to link to a listener at: an unspecified
// address (all interfaces) is named by the machine's host name.
func urlHost(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		if name, err := os.Hostname(); err == nil && name != "" {
			host = name
		}
	}
	return net.JoinHostPort(host, port)
}

// stopView stops the web view, if one runs.
func (s *Server) stopView() {
	v := &s.view
	v.mu.Lock()
	srv, done := v.srv, v.done
	v.srv, v.done = nil, nil
	v.mu.Unlock()
	if srv != nil {
		close(done)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	}
}

type openViewIn struct {
	Path string `json:"path,omitempty" jsonschema:"a file to open"`
	Line int    `json:"line,omitempty" jsonschema:"line to scroll to"`
}

type openViewOut struct {
	URL string `json:"url"`
}

// addViewTool registers open_view.
func (s *Server) addViewTool() {
	no := false
	addTool(s, &mcp.Tool{
		Name: "open_view",
		// Read-only: it starts a local page at most, and changes nothing.
		Description: "URL of a local web page for a person: file tree, artifacts beside source, call graphs, search.",
		Annotations: &mcp.ToolAnnotations{Title: "Open web view", ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no},
	}, s.openView)
}

func (s *Server) openView(ctx context.Context, _ *mcp.CallToolRequest, in openViewIn) (*mcp.CallToolResult, openViewOut, error) {
	frag := "#/"
	if in.Path != "" {
		rel, err := s.workspace().rel(in.Path)
		if err != nil {
			return nil, openViewOut{}, err
		}
		p := url.Values{"path": {rel}}
		if in.Line > 0 {
			p.Set("line", strconv.Itoa(in.Line))
		}
		frag = "#/file?" + p.Encode()
	}
	// Without --view, the first call starts one on a loopback port,
	// which takes the server's HTTP token as a bearer header too.
	link, err := s.StartView(s.ctx, "127.0.0.1:0", s.token())
	if err != nil {
		return nil, openViewOut{}, err
	}
	u := link + frag
	return textResult("Open " + u + " in a browser on this machine; the link holds the view's key, so share it only with who may read this workspace. " +
		"The page follows changes to the workspace."), openViewOut{URL: u}, nil
}
