package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// heldTree is a tree whose load, with no saved state, extracts its
// largest files first: z/last.go, the smallest, comes last. One of the
// bigger files calls z.Zeta, a third calls that caller; another names
// Zeta only in a comment.
func heldTree() map[string]string {
	files := map[string]string{"go.mod": "module example.com/x\n", "z/last.go": "package z\n\n// Zeta is last.\nfunc Zeta() {}\n"}
	pad := "\n" + strings.Repeat("// padding to make the file big, so that it is extracted early\n", 40)
	for i := range runtime.GOMAXPROCS(0) + 4 {
		dir := fmt.Sprintf("a%d", i)
		src := fmt.Sprintf("package %s\n\nfunc Filler%d() {}\n", dir, i)
		switch i {
		case 0:
			src = "package a0\n\nimport \"example.com/x/z\"\n\n// Caller calls z.Zeta.\nfunc Caller() { z.Zeta() }\n"
		case 1:
			src += "\n// Not a call of Zeta, a mention.\n"
		case 2:
			src = "package a2\n\nimport \"example.com/x/a0\"\n\n// Top calls a0.Caller.\nfunc Top() { a0.Caller() }\n"
		}
		files[dir+"/"+dir+".go"] = src + pad
	}
	return files
}

// holdExtraction returns hooks that hold each of the load's extraction
// workers after its first file until release is closed: with more files
// than workers, the load cannot end, and z/last.go is never reached.
func holdExtraction(release chan struct{}) *testHooks {
	return &testHooks{streamed: func(string) { <-release }}
}

// callHeld calls a tool while the load is held: an answer that waits for
// the load never comes, and the call fails after a minute instead of
// hanging the test.
func (s *session) callHeld(tool string, args any) (*mcp.CallToolResult, error) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return s.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
}

// notExtracted fails the test if the held load has extracted rel: the
// test would not show what it means to.
func notExtracted(t *testing.T, s *session, rel string) {
	t.Helper()
	e := s.srv.workspace().early.Load()
	if e == nil {
		t.Fatal("the load ended while it was held")
	}
	e.stream.mu.RLock()
	defer e.stream.mu.RUnlock()
	if e.stream.has(rel) {
		t.Fatalf("the held load extracted %s", rel)
	}
}

// TestColdFindBeforeExtraction: with no saved state, find_symbol,
// callers and a code search of a name whose file the load extracts last
// answer before the load reaches it (the load is held), complete, from a
// scan of every file, and say so.
func TestColdFindBeforeExtraction(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	s := connect(t, heldTree(), Options{NoWatch: true, loadWait: time.Millisecond, hooks: holdExtraction(release)})

	res, err := s.callHeld("find_symbol", map[string]any{"query": "Zeta"})
	if err != nil || res.IsError {
		t.Fatalf("find_symbol Zeta while the load is held: %v %v", err, res)
	}
	var found findSymbolOut
	decode(t, res, &found)
	if len(found.Symbols) != 1 || found.Symbols[0].Path != "z/last.go" || found.Symbols[0].Doc != "Zeta is last." {
		t.Errorf("find_symbol Zeta: %+v", found.Symbols)
	}
	n := len(heldTree()) - 1 // go.mod is no source
	if want := fmt.Sprintf("complete by a scan of all %d source files", n); !strings.Contains(found.Coverage, want) ||
		!strings.Contains(text(res), "Answered while the workspace loads") {
		t.Errorf("coverage %q, want %q:\n%s", found.Coverage, want, text(res))
	}
	notExtracted(t, s, "z/last.go")
	res, err = s.callHeld("find_symbol", map[string]any{"query": "Zeta", "kind": "bogus"})
	if err != nil || !res.IsError || !strings.Contains(text(res), `unknown kind "bogus"`) {
		t.Errorf("find_symbol of an unknown kind while the load is held: %v %v", err, res)
	}

	res, err = s.callHeld("callers", map[string]any{"symbol": "z/last.go:Zeta"})
	if err != nil || res.IsError {
		t.Fatalf("callers Zeta while the load is held: %v %v", err, res)
	}
	var tree treeOut
	decode(t, res, &tree)
	if len(tree.Calls) != 1 || tree.Calls[0].Symbol != "example.com/x/a0.Caller" || tree.Calls[0].Site != "a0/a0.go:6" {
		t.Errorf("callers of Zeta: %+v\n%s", tree.Calls, text(res))
	}
	if !strings.Contains(tree.Coverage, "complete by a scan") || !strings.Contains(tree.Coverage, "calls through another name") {
		t.Errorf("callers' coverage does not say what it may miss: %q", tree.Coverage)
	}
	res, err = s.callHeld("callers", map[string]any{"symbol": "Zeta", "depth": 2})
	if err != nil || res.IsError {
		t.Fatalf("callers Zeta at depth 2 while the load is held: %v %v", err, res)
	}
	decode(t, res, &tree)
	if len(tree.Calls) != 2 || tree.Calls[1].Symbol != "example.com/x/a2.Top" || tree.Calls[1].Depth != 2 {
		t.Errorf("callers of Zeta at depth 2: %+v\n%s", tree.Calls, text(res))
	}

	res, err = s.callHeld("callees", map[string]any{"symbol": "Caller"})
	if err != nil || res.IsError {
		t.Fatalf("callees Caller while the load is held: %v %v", err, res)
	}
	decode(t, res, &tree)
	if len(tree.Calls) != 1 || tree.Calls[0].Symbol != "example.com/x/z.Zeta" || tree.Calls[0].Path != "z/last.go" {
		t.Errorf("callees of Caller: %+v\n%s", tree.Calls, text(res))
	}

	res, err = s.callHeld("search_docs", map[string]any{"query": "zeta"})
	if err != nil || res.IsError {
		t.Fatalf("search_docs zeta while the load is held: %v %v", err, res)
	}
	var out searchDocsOut
	decode(t, res, &out)
	if len(out.Results) == 0 || out.Results[0].Symbol != "example.com/x/z.Zeta" ||
		!strings.Contains(out.Coverage["code"], "whole names complete by a scan") {
		t.Errorf("search zeta: %+v %v\n%s", out.Results, out.Coverage, text(res))
	}
	notExtracted(t, s, "z/last.go")
}

// TestColdNegativeOnlyWhenEveryFileRead: a name no file holds is an
// honest, complete "no symbol" while the load is held, naming how many
// files were read, never a bare "no symbol matches"; when a file could
// not be read, the same question is not answered by the scan (its
// answer waits for the load), and a name that is found says the answer
// is partial.
func TestColdNegativeOnlyWhenEveryFileRead(t *testing.T) {
	t.Run("every file read", func(t *testing.T) {
		release := make(chan struct{})
		defer close(release)
		s := connect(t, heldTree(), Options{NoWatch: true, loadWait: time.Millisecond, hooks: holdExtraction(release)})
		res, err := s.callHeld("find_symbol", map[string]any{"query": "Nowhere"})
		if err != nil || !res.IsError {
			t.Fatalf("find_symbol Nowhere while the load is held: %v %v", err, res)
		}
		want := fmt.Sprintf("no definition of Nowhere in any of the %d source files, every one read", len(heldTree())-1)
		if txt := text(res); !strings.Contains(txt, want) || strings.Contains(txt, "no symbol matches") {
			t.Errorf("the negative does not say what it covers: %s", txt)
		}
		res, err = s.callHeld("callers", map[string]any{"symbol": "Nowhere"})
		if err != nil || !res.IsError || !strings.Contains(text(res), "every one read") {
			t.Errorf("callers Nowhere while the load is held: %v %v", err, res)
		}
	})
	t.Run("a file not read", func(t *testing.T) {
		release := make(chan struct{})
		free := sync.OnceFunc(func() { close(release) })
		defer free()
		hooks := holdExtraction(release)
		hooks.scanRead = func(p string) error {
			if p == "a1/a1.go" {
				return errors.New("read a1/a1.go: input/output error")
			}
			return nil
		}
		s := connect(t, heldTree(), Options{NoWatch: true, loadWait: time.Millisecond, hooks: hooks})
		res, err := s.callHeld("find_symbol", map[string]any{"query": "Zeta"})
		if err != nil || res.IsError {
			t.Fatalf("find_symbol Zeta: %v %v", err, res)
		}
		var found findSymbolOut
		decode(t, res, &found)
		if len(found.Symbols) != 1 || !strings.Contains(found.Coverage, "partial") || !strings.Contains(found.Coverage, "a1/a1.go") {
			t.Errorf("find_symbol Zeta with a file not read: %+v", found)
		}
		// Not answered before the load: the unread file may define it.
		answered := make(chan *mcp.CallToolResult, 1)
		go func() {
			res, _ := s.callHeld("find_symbol", map[string]any{"query": "Nowhere"})
			answered <- res
		}()
		free()
		res = <-answered
		if res == nil || !res.IsError || strings.Contains(text(res), "every one read") || !strings.Contains(text(res), `matches "Nowhere"`) {
			t.Errorf("find_symbol Nowhere with a file not read: %v", res)
		}
	})
}

// decode decodes a tool result's structured content into out.
func decode(t *testing.T, res *mcp.CallToolResult, out any) {
	t.Helper()
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	reflect.ValueOf(out).Elem().SetZero()
	if err := json.Unmarshal(data, out); err != nil {
		t.Fatalf("structured content %s: %v", data, err)
	}
}

// TestColdScanSeesEdits: a file edited while the load is held is
// extracted again by the next scan, not answered from the extraction an
// earlier scan kept.
func TestColdScanSeesEdits(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	s := connect(t, heldTree(), Options{NoWatch: true, loadWait: time.Millisecond, hooks: holdExtraction(release)})
	res, err := s.callHeld("find_symbol", map[string]any{"query": "Zeta"})
	if err != nil || res.IsError {
		t.Fatalf("find_symbol Zeta: %v %v", err, res)
	}
	writeTree(t, s.root, map[string]string{"z/last.go": "package z\n\n// Zeta is last.\nfunc Zeta() {}\n\nfunc Zed() {}\n"})
	res, err = s.callHeld("find_symbol", map[string]any{"query": "Zed"})
	if err != nil || res.IsError {
		t.Fatalf("find_symbol Zed after an edit: %v %v", err, res)
	}
	var found findSymbolOut
	decode(t, res, &found)
	if len(found.Symbols) != 1 || found.Symbols[0].Qualified != "example.com/x/z.Zed" {
		t.Errorf("find_symbol Zed after an edit: %+v", found.Symbols)
	}
}
