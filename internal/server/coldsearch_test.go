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
// for the load (loadWait) of an hour, and gives the load a pace: one
// byte of 1,000 read, ago ago. The longer ago, the slower the load looks.
func heldWithPace(t *testing.T, ago time.Duration) (*session, func()) {
	t.Helper()
	release := make(chan struct{})
	s := connect(t, heldTree(), Options{NoWatch: true, loadWait: time.Hour, hooks: holdExtraction(release)})
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
