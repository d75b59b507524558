package server

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/extract"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// heldWithPace connects to heldTree with its load held (its workers
// wait after their first file, before reporting progress) and a wait
// for the load (loadWait, coldWait) of an hour, and gives the load a pace: one
// byte of 1,000 read, ago ago. The longer ago, the slower the load looks.
func heldWithPace(t *testing.T, ago time.Duration) (*session, func()) {
	t.Helper()
	release := make(chan struct{})
	s := connect(t, heldTree(), Options{NoWatch: true, loadWait: time.Hour, coldWait: time.Hour, hooks: holdExtraction(release)})
	p := &s.srv.workspace().tried
	p.saw(extract.Progress{Done: 1, Total: len(heldTree()) - 1, Read: 1, Size: 1000})
	p.mu.Lock()
	p.start = time.Now().Add(-ago)
	p.mu.Unlock()
	return s, func() { close(release) }
}

// TestColdSearchAnswersWhenTheLoadIsSlow: a code search during a cold
// load whose pace says it ends long after the wait answers at once from
// a scan of the names, saying how far extraction has got and that the
// docs are not searched yet; it does not wait its hour for the load.
func TestColdSearchAnswersWhenTheLoadIsSlow(t *testing.T) {
	s, release := heldWithPace(t, 24*time.Hour)
	defer release()
	res, err := s.callHeld("search_docs", map[string]any{"query": "Zeta"})
	if err != nil || res.IsError {
		t.Fatalf("search_docs Zeta while a slow load is held: %v %v", err, res)
	}
	var out searchDocsOut
	decode(t, res, &out)
	if len(out.Results) == 0 || out.Results[0].Symbol != "example.com/x/z.Zeta" {
		t.Errorf("search Zeta: %+v\n%s", out.Results, text(res))
	}
	n := len(heldTree()) - 1
	code := out.Coverage["code"]
	if !strings.Contains(code, "complete by a scan of all") || !strings.Contains(code, "files extracted so far") ||
		!strings.Contains(code, " of ") || out.Coverage["docs"] != "loading: not searched yet" {
		t.Errorf("coverage of a search during a slow load (%d files): %v", n, out.Coverage)
	}
	notExtracted(t, s, "z/last.go")
}

// TestColdSearchWaitsForALoadAboutToEnd: a search during a cold load
// whose pace says it ends within the wait waits for it (it searches the
// docs too), here until the client gives up.
func TestColdSearchWaitsForALoadAboutToEnd(t *testing.T) {
	s, release := heldWithPace(t, 0)
	defer release()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	res, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_docs", Arguments: map[string]any{"query": "Zeta"}})
	if err == nil {
		t.Errorf("search_docs answered before a load about to end, instead of waiting for it: %s", text(res))
	}
}

// TestColdTreeHoldsTheLoad: a cold callers answer builds its call graph
// with the load's extraction held, not only while it scans.
func TestColdTreeHoldsTheLoad(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	hooks := holdExtraction(release)
	var held []bool
	var mu sync.Mutex
	hooks.scanGraph = func(h bool) {
		mu.Lock()
		held = append(held, h)
		mu.Unlock()
	}
	s := connect(t, heldTree(), Options{NoWatch: true, loadWait: time.Millisecond, hooks: hooks})
	res, err := s.callHeld("callers", map[string]any{"symbol": "z/last.go:Zeta"})
	if err != nil || res.IsError {
		t.Fatalf("callers Zeta while the load is held: %v %v", err, res)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(held) == 0 || slices.Contains(held, false) {
		t.Errorf("the load's extraction held while each call graph was built: %v, want all true", held)
	}
}

// TestColdScanAgainReadsOnlyChanges: a second scan for the same name
// reads no file that has not changed since the first, and a file changed
// since is read again: what the change adds is in the answer.
func TestColdScanAgainReadsOnlyChanges(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	s := connect(t, heldTree(), Options{NoWatch: true, loadWait: time.Millisecond, hooks: holdExtraction(release)})
	findZetaHeld(t, s, 1)
	c := s.srv.workspace().early.Load().cold
	first := c.reads.Load()
	if first < int64(len(heldTree())-1) {
		t.Fatalf("the first scan read %d files of %d", first, len(heldTree())-1)
	}
	findZetaHeld(t, s, 1)
	if n := c.reads.Load() - first; n != 0 {
		t.Errorf("the same scan again read %d files, none changed", n)
	}
	writeTree(t, s.root, map[string]string{"a3/a3.go": "package a3\n\n// Zeta is here too.\nfunc Zeta() {}\n"})
	before := c.reads.Load()
	findZetaHeld(t, s, 2)
	if n := c.reads.Load() - before; n != 1 {
		t.Errorf("after one file changed the scan read %d files, want 1", n)
	}
}

// TestColdSearchWaitsNoLongerThanColdWait: before a cold load's first
// file there is no pace to judge it by; a search then waits coldWait,
// not loadWait, and answers from a scan of the names, saying so.
func TestColdSearchWaitsNoLongerThanColdWait(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	s := connect(t, heldTree(), Options{NoWatch: true, loadWait: time.Hour, coldWait: 50 * time.Millisecond, hooks: holdExtraction(release)})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_docs", Arguments: map[string]any{"query": "Zeta"}})
	if err != nil || res.IsError {
		t.Fatalf("search_docs Zeta while a load without a pace is held: %v %v", err, res)
	}
	var out searchDocsOut
	decode(t, res, &out)
	if len(out.Results) == 0 || out.Results[0].Symbol != "example.com/x/z.Zeta" {
		t.Errorf("search Zeta: %+v\n%s", out.Results, text(res))
	}
	if code := out.Coverage["code"]; !strings.Contains(code, "complete by a scan of all") {
		t.Errorf("coverage of a search before the load's pace is known: %v", out.Coverage)
	}
}

// findZetaHeld checks that find_symbol Zeta, asked while s's load is
// held, answers with want definitions.
func findZetaHeld(t *testing.T, s *session, want int) {
	t.Helper()
	res, err := s.callHeld("find_symbol", map[string]any{"query": "Zeta"})
	if err != nil || res.IsError {
		t.Fatalf("find_symbol Zeta while the load is held: %v %v", err, res)
	}
	var found findSymbolOut
	decode(t, res, &found)
	if len(found.Symbols) != want {
		t.Errorf("find_symbol Zeta: %d definitions, want %d: %+v", len(found.Symbols), want, found.Symbols)
	}
}
