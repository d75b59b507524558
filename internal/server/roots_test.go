package server

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// realpath returns dir with symbolic links evaluated.
func realpath(t *testing.T, dir string) string {
	t.Helper()
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

// untouched fails the test if dir holds a .artifacts directory.
func untouched(t *testing.T, dir string) {
	t.Helper()
	if _, err := os.Lstat(filepath.Join(dir, ".artifacts")); err == nil {
		t.Errorf("%s/.artifacts was created", dir)
	}
}

func TestSetWorkspaceRootOnlyInsideAllowedRoots(t *testing.T) {
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"x.py": "def f():\n    pass\n"})
	s := connect(t, shop, Options{})
	root := realpath(t, s.root)
	if err := os.Symlink(outside, filepath.Join(s.root, "link")); err != nil {
		t.Fatal(err)
	}
	_, etcBefore := os.Lstat("/etc/.artifacts")

	for _, p := range []string{"/etc", outside, "link", "../", filepath.Join(outside, "nope")} {
		s.fails("set_workspace_root", map[string]any{"path": p}, "refused: not inside an allowed root", "allowed: "+root)
	}
	untouched(t, outside)
	if _, err := os.Lstat("/etc/.artifacts"); err == nil && etcBefore != nil {
		t.Error("/etc/.artifacts was created")
	}
	// The workspace is unchanged: its files still answer.
	var fi fileInfoOut
	s.ok("file_info", map[string]any{"path": "main.go"}, &fi)

	// Inside the root: a subdirectory works, a missing one says so.
	writeTree(t, s.root, map[string]string{"sub/y.py": "def g():\n    pass\n"})
	var out setRootOut
	s.ok("set_workspace_root", map[string]any{"path": filepath.Join(s.root, "sub")}, &out)
	s.fails("set_workspace_root", map[string]any{"path": filepath.Join(s.root, "gone")}, "no such file")
	// Switching back to the starting root works.
	s.ok("set_workspace_root", map[string]any{"path": s.root}, &out)
	if out.Root != root {
		t.Errorf("back at the start: %+v", out)
	}
}

func TestAllowRoots(t *testing.T) {
	other := t.TempDir()
	writeTree(t, other, map[string]string{"a/x.py": "def f():\n    pass\n"})
	// An allowed root given as a link counts as its target.
	link := filepath.Join(t.TempDir(), "other")
	if err := os.Symlink(other, link); err != nil {
		t.Fatal(err)
	}
	s := connect(t, shop, Options{AllowRoots: []string{link}})
	var out setRootOut
	s.ok("set_workspace_root", map[string]any{"path": filepath.Join(other, "a")}, &out)
	if out.Root != realpath(t, filepath.Join(other, "a")) || out.Files != 1 {
		t.Errorf("set_workspace_root inside an allowed root: %+v", out)
	}
	s.ok("set_workspace_root", map[string]any{"path": link}, &out)
	s.fails("set_workspace_root", map[string]any{"path": t.TempDir()}, "refused", realpath(t, other), realpath(t, s.root))
	s.ok("set_workspace_root", map[string]any{"path": s.root}, &out)

	if _, err := New(context.Background(), Options{Root: s.root, AllowRoots: []string{filepath.Join(other, "missing")}}); err == nil ||
		!strings.Contains(err.Error(), "allowed root") {
		t.Errorf("New with a missing allowed root: %v", err)
	}
}

// connectClient connects client to a server on a workspace of files.
func connectClient(t *testing.T, files map[string]string, opt Options, client *mcp.Client, copt *mcp.ClientSessionOptions) *session {
	t.Helper()
	s := connect(t, files, opt)
	st, ct := mcp.NewInMemoryTransports()
	ctx := t.Context()
	ss, err := s.srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := client.Connect(ctx, ct, copt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	s.cs = cs
	return s
}

// TestClientRoots declares a root from the client: the server may switch
// there, and goes back to its starting root when the client drops it. The
// server asks for the roots during the call on protocols before
// 2026-07-28, and returns the request on later ones.
func TestClientRoots(t *testing.T) {
	for _, version := range []string{"2025-11-25", ""} {
		t.Run("protocol "+version, func(t *testing.T) {
			declared := t.TempDir()
			writeTree(t, declared, map[string]string{"x.py": "def f():\n    pass\n"})
			client := mcp.NewClient(&mcp.Implementation{Name: "roots", Version: "1"}, nil)
			client.AddRoots(&mcp.Root{URI: "file://" + declared, Name: "declared"}, &mcp.Root{URI: "https://example.com/x"})
			s := connectClient(t, shop, Options{NoWatch: true}, client, &mcp.ClientSessionOptions{ProtocolVersion: version})

			var out setRootOut
			s.ok("set_workspace_root", map[string]any{"path": declared}, &out)
			if out.Root != realpath(t, declared) || out.Files != 1 {
				t.Errorf("set_workspace_root to a client root: %+v", out)
			}
			client.RemoveRoots("file://" + declared)
			waitFor(t, "the server to go back to its starting root", func() bool {
				return s.srv.workspace().root == realpath(t, s.root)
			})
			s.fails("set_workspace_root", map[string]any{"path": declared}, "not inside an allowed root")
		})
	}
}

// TestHTTPIgnoresClientRoots: over HTTP a client's roots allow nothing;
// the server's own do.
func TestHTTPIgnoresClientRoots(t *testing.T) {
	declared, allowed := t.TempDir(), t.TempDir()
	writeTree(t, declared, map[string]string{"x.py": "def f():\n    pass\n"})
	writeTree(t, allowed, map[string]string{"y.py": "def g():\n    pass\n"})
	s := connect(t, shop, Options{NoWatch: true, AllowRoots: []string{allowed}})
	ts := httptest.NewServer(s.srv.Handler(""))
	defer ts.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "http-roots", Version: "1"}, nil)
	client.AddRoots(&mcp.Root{URI: "file://" + declared})
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: ts.URL + HTTPPath, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	s.cs = cs
	msg := s.fails("set_workspace_root", map[string]any{"path": declared}, "not inside an allowed root", realpath(t, allowed))
	if strings.Contains(msg, "client declares") {
		t.Errorf("over HTTP the refusal offers client roots: %s", msg)
	}
	untouched(t, declared)
	var out setRootOut
	s.ok("set_workspace_root", map[string]any{"path": allowed}, &out)
	s.ok("set_workspace_root", map[string]any{"path": s.root}, &out)
}
