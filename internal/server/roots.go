package server

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The roots a workspace may be: set_workspace_root switches only to a
// directory that is, or is inside, one of
//
//   - the root the server started with (Options.Root),
//   - Options.AllowRoots,
//   - the roots the client of the session declares (roots/list, file://
//     URIs only), unless the server serves HTTP: there anyone holding the
//     token could declare "/", so only the first two count.
//
// Both sides are compared with symbolic links evaluated: a root that is a
// link counts as its target, and a link inside a root that leads outside
// every root is refused. Nothing of a refused directory is read or
// written: the check runs before the workspace is opened.

// listRootsTimeout bounds how long set_workspace_root waits for the
// client's roots.
const listRootsTimeout = 5 * time.Second

// resolveDir returns dir absolute, with symbolic links evaluated, or an
// error naming name when it is not an existing directory.
func resolveDir(name, dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", name, dir, err)
	}
	if st, err := os.Stat(abs); err != nil {
		return "", fmt.Errorf("%s %s: %w", name, dir, err)
	} else if !st.IsDir() {
		return "", fmt.Errorf("%s %s is not a directory", name, dir)
	}
	return abs, nil
}

// resolveAsFar returns the absolute path p with the symbolic links of its
// longest existing prefix evaluated, and the error of evaluating all of
// it: a path that does not exist is judged by where it would be.
func resolveAsFar(p string) (string, error) {
	real, err := filepath.EvalSymlinks(p)
	if err == nil {
		return real, nil
	}
	dir, rest := p, ""
	for {
		parent := filepath.Dir(dir)
		if parent == dir {
			return p, err
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
		if r, e := filepath.EvalSymlinks(dir); e == nil {
			return filepath.Join(r, rest), err
		}
	}
}

// within reports whether the clean absolute path p is one of roots or
// inside one.
func within(roots []string, p string) bool {
	for _, r := range roots {
		if p == r || strings.HasPrefix(p, strings.TrimSuffix(r, string(filepath.Separator))+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// rootsKey names the roots request a set_workspace_root call returns on
// protocols from 2026-07-28.
const rootsKey = "roots"

// declaresRoots reports whether the client of ss may be asked for its
// roots: it has the capability, and the server does not serve HTTP.
func (s *Server) declaresRoots(ss *mcp.ServerSession) bool {
	if ss == nil || s.overHTTP.Load() {
		return false
	}
	ip := ss.InitializeParams()
	return ip != nil && ip.Capabilities != nil && ip.Capabilities.RootsV2 != nil
}

// clientRoots returns the directories the client of req declares as
// roots, resolved; none when it may not be asked (declaresRoots). On
// protocols from 2026-07-28, where a server may not send a request while
// it serves one, the first call returns the roots request for the tool to
// return (pending), and the client's retry carries the answer.
func (s *Server) clientRoots(ctx context.Context, req *mcp.CallToolRequest) (dirs []string, pending *mcp.CallToolResult) {
	if !s.declaresRoots(req.Session) {
		return nil, nil
	}
	if !multiRoundTrip(req) {
		return s.listRoots(ctx, req.Session), nil
	}
	resp, ok := req.Params.InputResponses[rootsKey].(*mcp.ListRootsResult)
	if !ok {
		return nil, &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{rootsKey: &mcp.ListRootsParams{}}}
	}
	return s.rootDirs(resp.Roots), nil
}

// listRoots asks the client of ss for its roots and returns them
// resolved; none if it fails.
func (s *Server) listRoots(ctx context.Context, ss *mcp.ServerSession) []string {
	ctx, cancel := context.WithTimeout(ctx, listRootsTimeout)
	defer cancel()
	res, err := ss.ListRoots(ctx, nil)
	if err != nil {
		s.log.Warn("the client's roots could not be listed", "err", err)
		return nil
	}
	return s.rootDirs(res.Roots)
}

// rootDirs returns the existing local directories of roots, resolved.
func (s *Server) rootDirs(roots []*mcp.Root) []string {
	var dirs []string
	for _, r := range roots {
		if r == nil {
			continue
		}
		dir, err := fileURIPath(r.URI)
		if err == nil {
			dir, err = resolveDir("client root", dir)
		}
		if err != nil {
			s.log.Debug("client root not used", "uri", r.URI, "err", err)
			continue
		}
		dirs = append(dirs, dir)
	}
	return dirs
}

// fileURIPath returns the local path a file:// URI names.
func fileURIPath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", err
	}
	if u.Scheme != "file" || u.Host != "" && u.Host != "localhost" || !filepath.IsAbs(u.Path) {
		return "", fmt.Errorf("%s is not a local file:// URI", uri)
	}
	return filepath.Clean(u.Path), nil
}

// admit returns the directory p (absolute) resolved, if it is inside an
// allowed root for req's session, and whether a root the client declares
// was needed; or the roots request to return first (see clientRoots). A
// path outside every root is refused, with the list of them, before
// anything says whether it exists.
func (s *Server) admit(ctx context.Context, req *mcp.CallToolRequest, p string) (dir string, viaClient bool, pending *mcp.CallToolResult, err error) {
	real, rerr := resolveAsFar(filepath.Clean(p))
	if !within(s.allowed, real) {
		client, pending := s.clientRoots(ctx, req)
		if pending != nil {
			return "", false, pending, nil
		}
		if !within(client, real) {
			return "", false, nil, s.refusal(p, append(slices.Clone(s.allowed), client...))
		}
		viaClient = true
	}
	if rerr != nil {
		return "", false, nil, fmt.Errorf("workspace root %s: %w", p, rerr)
	}
	dir, err = resolveDir("workspace root", real)
	return dir, viaClient, nil, err
}

// refusal is the error for a root outside every allowed one.
func (s *Server) refusal(p string, roots []string) error {
	slices.Sort(roots)
	roots = slices.Compact(roots)
	how := "more are allowed by starting fileinfo serve with --allow-root DIR"
	if !s.overHTTP.Load() {
		how += ", or as roots your MCP client declares"
	}
	return fmt.Errorf("path %s refused: not inside an allowed root; allowed: %s (%s)", p, strings.Join(roots, ", "), how)
}

// rootsChanged re-reads the roots of a client that says they changed. If
// the current workspace was allowed only by that client's roots and no
// root holds it any more, the server goes back to its starting root. A
// client on a protocol from 2026-07-28 cannot be asked outside a request:
// its change of roots is taken as dropping the workspace's.
func (s *Server) rootsChanged(_ context.Context, req *mcp.RootsListChangedRequest) {
	if req == nil || !s.declaresRoots(req.Session) {
		return
	}
	ss := req.Session
	// A notification's handler must not wait for the client: ask from
	// another goroutine, which Close waits for.
	s.goSwitch(func() {
		defer s.recoverBackground("re-reading the client's roots")
		ws := s.workspace()
		if ws.viaClient != ss {
			return
		}
		if ip := ss.InitializeParams(); ip != nil && ip.ProtocolVersion < multiRoundTripVersion &&
			within(s.listRoots(s.ctx, ss), ws.root) {
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.workspace() != ws {
			return // switched meanwhile
		}
		s.log.Warn("the client no longer declares a root holding the workspace: back to the starting root",
			"workspace", ws.root, "root", s.start)
		if _, err := s.switchLocked(s.ctx, nil, s.start, nil); err != nil {
			s.log.Error("switching back to the starting root failed", "root", s.start, "err", err)
		}
	})
}
