package server

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"
)

// TestFirstEditLeavesSlimGraphUnrestored: the first edit of a workspace
// whose graph is pending restores the saved graph once, over the full
// extractions, reading its edges from the saved state: the pending graph
// is never restored over the slim files beside it. The edited graph
// answers every lookup as a workspace that built the edited tree, and
// the lookups read the graph's own maps (lookup.NewGraph). The graph
// holds the calls of the files it does not resolve no longer
// (callgraph.Graph.LetGoOfCalls).
func TestFirstEditLeavesSlimGraphUnrestored(t *testing.T) {
	s2, ws, p := restartPending(t, slimTree())
	edits := []struct{ path, src string }{
		{"drivers/d007.c", "#include \"util.h\"\nstatic int local7(int v) { return helper(v) + twice(v); }\nint probe7(void) { return local7(7); }\n"},
		{"drivers/d200.c", "#include \"util.h\"\nint added200(void) { return probe7() + helper(2); }\n"},
		// A second definition of a name every driver reads: they are
		// re-resolved, their calls read again from graph.bin.
		{"lib/twice2.c", "int twice(int x) { return x + x; }\n"},
	}
	edited := slimTree()
	for i, e := range edits {
		writeTree(t, s2.root, map[string]string{e.path: e.src})
		edited[e.path] = e.src
		s2.ok("file_info", map[string]any{"path": e.path}, &map[string]any{}) // takes the change in
		if i == 0 && p.restored() != nil {
			t.Fatal("the first edit restored the pending graph over the slim files")
		}
		ws.mu.RLock()
		g := ws.callGraph()
		ws.mu.RUnlock()
		if g.Restored() {
			t.Fatalf("after edit %d the graph is not ready for updates", i+1)
		}
		// The C files' calls are read again from graph.bin when
		// resolved; the Python files' (flow-tracked) are held.
		if held := g.CallsHeld(); held > 3 {
			t.Errorf("after edit %d, %d files hold their calls; want the Python files' at most (3)", i+1, held)
		}
		expectFreshGraph(t, ws)
		want := connect(t, edited, Options{NoDocs: true, NoWatch: true})
		if _, err := want.srv.ready(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		sameAnswers(t, fmt.Sprintf("after edit %d", i+1), s2, want, []toolQuery{
			{"callers", map[string]any{"symbol": "helper"}},
			{"callers", map[string]any{"symbol": "probe7"}},
			{"callers", map[string]any{"symbol": "twice", "depth": 2}},
			{"callees", map[string]any{"symbol": "added200"}},
			{"callees", map[string]any{"symbol": "App.step"}},
			{"find_symbol", map[string]any{"query": "added200"}},
			{"find_symbol", map[string]any{"query": "probe"}},
			{"find_symbol", map[string]any{"query": "py/app.py:App"}},
			{"find_symbol", map[string]any{"query": "Base.run"}},
		})
	}
}

// TestFirstUpdateGivesPagesBack: making the graph for updates asks the
// update that follows to give the heap's free pages back, once.
func TestFirstUpdateGivesPagesBack(t *testing.T) {
	_, ws, _ := restartPending(t, slimTree())
	ws.prepareUpdate()
	if !ws.giveBack.Load() {
		t.Fatal("the graph for updates was made and nothing is to give pages back")
	}
	ws.updated()
	if ws.giveBack.Load() {
		t.Fatal("the pages are to be given back again after the first update")
	}
}

// TestUpdatesOfLargeGraphGivePagesBack: every update of a graph of
// giveBackNodes or more (renumbering or in place) gives the heap's free
// pages back once; of a smaller graph, none does.
func TestUpdatesOfLargeGraphGivePagesBack(t *testing.T) {
	defer func(n int, f func()) { giveBackNodes, giveBackPages = n, f }(giveBackNodes, giveBackPages)
	var given atomic.Int32
	giveBackPages = func() { given.Add(1) }
	s := connect(t, slimTree(), Options{NoDocs: true, NoWatch: true})
	if _, err := s.srv.ready(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	for i, e := range []struct {
		src   string
		nodes int // giveBackNodes
		want  int32
	}{
		{"#include \"util.h\"\nint added200(void) { return helper(2); }\n", 0, 1}, // a file added
		{"#include \"util.h\"\nint added200(void) { return twice(2); }\n", 0, 1},  // its body edited
		{"#include \"util.h\"\nint added201(void) { return twice(2); }\n", 1 << 30, 0},
		{"#include \"util.h\"\nint added201(void) { return helper(2); }\n", 1 << 30, 0},
	} {
		giveBackNodes = e.nodes
		writeTree(t, s.root, map[string]string{"drivers/d200.c": e.src})
		given.Store(0)
		s.ok("file_info", map[string]any{"path": "drivers/d200.c"}, &map[string]any{})
		deadline := time.Now().Add(5 * time.Second)
		for given.Load() < e.want && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond) // giveBackPages runs on a goroutine
		}
		time.Sleep(10 * time.Millisecond)
		if got := given.Load(); got != e.want {
			t.Errorf("edit %d (giveBackNodes %d): pages given back %d times, want %d", i+1, e.nodes, got, e.want)
		}
	}
}
