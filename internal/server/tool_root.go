package server

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type setRootIn struct {
	Path string `json:"path" jsonschema:"absolute, or relative to the root"`
}

type setRootOut struct {
	Root       string `json:"root" jsonschema:"the new root, absolute"`
	Files      int    `json:"files" jsonschema:"source files extracted"`
	Skipped    int    `json:"skipped" jsonschema:"files left out: not extracted (unknown language, binary, too large...) or calls not resolved (internal error); index_status lists them"`
	Symbols    int    `json:"symbols"`
	Edges      int    `json:"edges" jsonschema:"resolved calls"`
	Unresolved int    `json:"unresolved" jsonschema:"calls with no target in the workspace"`
	ElapsedMS  int64  `json:"elapsed_ms"`
}

func (s *Server) setWorkspaceRoot(ctx context.Context, req *mcp.CallToolRequest, in setRootIn) (*mcp.CallToolResult, setRootOut, error) {
	var out setRootOut
	p := strings.TrimSpace(in.Path)
	if p == "" {
		return nil, out, fmt.Errorf("path is empty; give the directory of the project")
	}
	if strings.HasPrefix(p, "~") {
		return nil, out, fmt.Errorf("path %s: ~ is not expanded; give an absolute path", p)
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(s.workspace().root, p)
	}
	dir, viaClient, pending, err := s.admit(ctx, req, p)
	if err != nil || pending != nil {
		return pending, out, err
	}
	var via *mcp.ServerSession
	if viaClient {
		via = req.Session
	}
	start := time.Now()
	ws, err := s.switchTo(ctx, req, dir, via)
	if err != nil {
		return nil, out, err
	}
	ws.mu.RLock()
	out = setRootOut{
		Root:      ws.root,
		Files:     len(ws.files),
		Skipped:   len(ws.skippedNow()),
		ElapsedMS: time.Since(start).Milliseconds(),
	}
	out.Symbols, out.Edges, out.Unresolved = ws.graphCounts()
	ws.mu.RUnlock()
	text := fmt.Sprintf("Workspace root is now %s: %d files extracted (%d skipped), %d symbols, %d resolved calls, %d unresolved, in %d ms.",
		out.Root, out.Files, out.Skipped, out.Symbols, out.Edges, out.Unresolved, out.ElapsedMS)
	return textResult(text), out, nil
}
