package server

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// writeTree writes files (slash path → content) under root.
func writeTree(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// session is a client connected to a server over in-memory transports.
type session struct {
	t    testing.TB
	srv  *Server
	cs   *mcp.ClientSession
	root string
}

// connect starts a server on a workspace holding files and connects a
// client to it.
func connect(t testing.TB, files map[string]string, opt Options) *session {
	t.Helper()
	root := t.TempDir()
	writeTree(t, root, files)
	if opt.Root == "" {
		opt.Root = root
	}
	if opt.DocsWait == 0 {
		// A loaded machine may take seconds to open a small doc index;
		// tests of what a search finds wait for it (the answer while it
		// opens is TestFirstSearchSaysWhatItCovers's).
		opt.DocsWait = time.Minute
	}
	if opt.coldWait == 0 {
		// Likewise a cold load of a small tree: tests of what a first
		// search finds wait for the load as long as loadWait says (the
		// answer after coldWait is TestColdSearchWaitsNoLongerThanColdWait's).
		opt.coldWait = time.Minute
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	srv, err := New(ctx, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return &session{t: t, srv: srv, cs: cs, root: root}
}

// call calls a tool and returns its result; a protocol error fails the test.
func (s *session) call(tool string, args any) *mcp.CallToolResult {
	s.t.Helper()
	res, err := s.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		s.t.Fatalf("%s: %v", tool, err)
	}
	return res
}

// toolQuery is one tool call of sameAnswers.
type toolQuery struct {
	tool string
	args map[string]any
}

// sameAnswers fails the test where got answers a query otherwise than
// want: its error flag, text or structured content.
func sameAnswers(t *testing.T, label string, got, want *session, qs []toolQuery) {
	t.Helper()
	for _, q := range qs {
		g, w := got.call(q.tool, q.args), want.call(q.tool, q.args)
		gj, _ := json.Marshal(g.StructuredContent)
		wj, _ := json.Marshal(w.StructuredContent)
		if g.IsError != w.IsError || text(g) != text(w) || string(gj) != string(wj) {
			t.Errorf("%s, %s %v:\n got %s %s\nwant %s %s", label, q.tool, q.args, text(g), gj, text(w), wj)
		}
	}
}

// text returns a result's text content.
func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// ok calls a tool that must succeed and decodes its structured content
// into out.
func (s *session) ok(tool string, args any, out any) *mcp.CallToolResult {
	s.t.Helper()
	res := s.call(tool, args)
	decodeOK(s.t, tool, args, res, out)
	return res
}

// decodeOK fails the test if res, the result of a call of tool, is an
// error, and decodes its structured content into out.
func decodeOK(t testing.TB, tool string, args any, res *mcp.CallToolResult, out any) {
	t.Helper()
	if res.IsError {
		t.Fatalf("%s(%v) failed: %s", tool, args, text(res))
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	reflect.ValueOf(out).Elem().SetZero()
	if err := json.Unmarshal(data, out); err != nil {
		t.Fatalf("%s: structured content %s: %v", tool, data, err)
	}
}

// fails calls a tool that must fail with a tool error containing each of
// wants, and returns the error text.
func (s *session) fails(tool string, args any, wants ...string) string {
	s.t.Helper()
	res, err := s.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	var msg string
	switch {
	case err != nil:
		msg = err.Error()
	case !res.IsError:
		s.t.Fatalf("%s(%v) succeeded, want an error: %s", tool, args, text(res))
	default:
		msg = text(res)
	}
	for _, w := range wants {
		if !strings.Contains(msg, w) {
			s.t.Errorf("%s(%v) error %q does not say %q", tool, args, msg, w)
		}
	}
	return msg
}

// exists reports whether the slash path p exists under the root.
func (s *session) exists(p string) bool {
	_, err := os.Lstat(filepath.Join(s.root, filepath.FromSlash(p)))
	return err == nil
}

// read returns the content of the slash path p under the root.
func (s *session) read(p string) string {
	s.t.Helper()
	data, err := os.ReadFile(filepath.Join(s.root, filepath.FromSlash(p)))
	if err != nil {
		s.t.Fatal(err)
	}
	return string(data)
}

// discard is a logger that drops everything.
func discard() *slog.Logger { return slog.New(slog.DiscardHandler) }

func osReadFile(root, rel string) ([]byte, error) {
	return os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
}
