package server

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/fileinfo/fileinfo/callgraph"
)

// TestRestartLeavesGraphPending: a start from the saved state with
// nothing changed does not restore the call graph for what reads the
// saved indexes (callers, callees, find_symbol, index_status, code
// queries by name while the code scope builds): their answers are the
// first start's, and the graph stays pending, the files held without
// their symbols. What reads the graph restores it (the symbols read
// again with it), and an edit builds it for updates.
func TestRestartLeavesGraphPending(t *testing.T) {
	opt := Options{NoDocs: true, NoWatch: true}
	s := connect(t, slimTree(), opt)
	ws1, err := s.srv.ready(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	type answers struct {
		callers, callees, find string
		status                 [3]int
		names                  []string
	}
	ask := func(s *session, ws *workspace) answers {
		var a answers
		a.callers = text(s.ok("callers", map[string]any{"symbol": "twice"}, &treeOut{}))
		a.callees = text(s.ok("callees", map[string]any{"symbol": "probe7"}, &treeOut{}))
		a.find = text(s.ok("find_symbol", map[string]any{"query": "helper"}, &map[string]any{}))
		var st indexStatusOut
		s.ok("index_status", map[string]any{}, &st)
		a.status = [3]int{st.Symbols, st.Edges, st.Unresolved}
		ws.mu.RLock()
		for _, r := range ws.nameResults("twice helper", 20) {
			a.names = append(a.names, r.Path+" "+r.Title+" "+r.Signature+" "+r.Summary)
		}
		ws.mu.RUnlock()
		return a
	}
	first := ask(s, ws1)
	if first.status[1] == 0 || len(first.names) == 0 {
		t.Fatalf("the first start answers nothing to compare: %+v", first)
	}

	s2, ws := restartUnchanged(t, s, opt)
	p := pendingOf(t, ws)
	ws.mu.RLock()
	for path, src := range ws.files {
		if src.file.Symbols != nil {
			t.Errorf("%s: its symbols are held while the graph is pending", path)
			break
		}
	}
	ws.mu.RUnlock()
	if got := ask(s2, ws); !reflect.DeepEqual(got, first) {
		t.Errorf("answers from the saved indexes:\n%+v\nthe first start's:\n%+v", got, first)
	}
	if g := p.restored(); g != nil {
		t.Fatal("callers, callees, find_symbol, index_status or a code query by name restored the graph")
	}

	// file_info reads the saved indexes too (see savedView); what reads
	// the graph itself (here the view's, through callGraph) restores it.
	s2.ok("file_info", map[string]any{"path": "lib/util.c"}, &map[string]any{})
	if p.restored() != nil {
		t.Fatal("file_info restored the graph")
	}
	ws.mu.RLock()
	ws.callGraph()
	ws.mu.RUnlock()
	if p.restored() == nil {
		t.Fatal("the graph was read without being restored")
	}
	if got := ask(s2, ws); !reflect.DeepEqual(got, first) {
		t.Errorf("answers with the graph restored:\n%+v\nthe first start's:\n%+v", got, first)
	}
	expectFreshGraph(t, ws)

	// An edit: d007 calls probe1 now, not helper.
	writeTree(t, s.root, map[string]string{"drivers/d007.c": "#include \"util.h\"\nint probe1(void);\nint probe7(void) { return probe1() + twice(7); }\n"})
	s2.ok("file_info", map[string]any{"path": "drivers/d007.c"}, &map[string]any{})
	ws.mu.RLock()
	pending, restored := ws.pending != nil, ws.held != nil && ws.held.Restored()
	ws.mu.RUnlock()
	if pending || restored {
		t.Fatalf("after an edit: pending %v, restored %v; want a graph built for updates", pending, restored)
	}
	expectFreshGraph(t, ws)
	var out treeOut
	s2.ok("callees", map[string]any{"symbol": "probe7"}, &out)
	if text := text(s2.ok("callees", map[string]any{"symbol": "probe7"}, &out)); text == first.callees {
		t.Errorf("callees of the edited probe7 unchanged:\n%s", text)
	}
}

// TestPendingGraphRebuilt: a saved graph that can no longer be read when
// first asked for (graph.bin damaged since the load) is built from the
// files' full extractions, never restored from the damage, and answers
// as a fresh build.
func TestPendingGraphRebuilt(t *testing.T) {
	s2, ws, p := restartPending(t, slimTree())
	p.snap = brokenGraph{p.snap}
	s2.ok("file_info", map[string]any{"path": "lib/util.c"}, &map[string]any{})
	if g := p.restored(); g == nil || g.Restored() {
		t.Fatal("the damaged graph was not built anew")
	}
	expectFreshGraph(t, ws)
}

// restartUnchanged restarts s twice (see restart): the second start
// finds nothing changed since the first saved, not even a file's time
// stamp. It returns the second, with what its load left to the
// background done.
func restartUnchanged(t testing.TB, s *session, opt Options) (*session, *workspace) {
	t.Helper()
	defer func(n int) { pendingMinEdges = n }(pendingMinEdges)
	pendingMinEdges = 0 // the graph pending, however small
	return restartTwice(t, s, opt)
}

// restartTwice is restartUnchanged with pendingMinEdges as it is.
func restartTwice(t testing.TB, s *session, opt Options) (*session, *workspace) {
	t.Helper()
	s1, _ := restart(t, s, opt)
	s1.srv.Close()
	s2 := reconnect(t, s1, opt)
	ws, err := s2.srv.ready(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ws.docsLoops.Wait()
	return s2, ws
}

// pendingOf returns ws's pending graph, failing t if the start restored it.
func pendingOf(t *testing.T, ws *workspace) *pendingGraph {
	t.Helper()
	ws.mu.RLock()
	defer ws.mu.RUnlock()
	if ws.pending == nil {
		t.Fatal("the start from the saved state restored its graph")
	}
	return ws.pending
}

// brokenGraph is a saved graph that cannot be read.
type brokenGraph struct{ savedGraph }

func (brokenGraph) RestoreGraph() (*callgraph.Graph, error) {
	return nil, errors.New("graph.bin changed since it was loaded")
}

func (brokenGraph) SavedGraph() (callgraph.Saved, error) {
	return callgraph.Saved{}, errors.New("graph.bin changed since it was loaded")
}

func (brokenGraph) UnresolvedIn(string) ([]callgraph.Unresolved, error) {
	return nil, errors.New("graph.bin changed since it was loaded")
}

// TestNamesCacheGivesPagesBack: what a code query by name maps of the
// saved symbols index (its nodes, read while the graph is pending) is
// given back when the code scope is complete, or at once after.
func TestNamesCacheGivesPagesBack(t *testing.T) {
	var n namesCache
	released := 0
	n.mapped(func() { released++ })
	if released != 0 {
		t.Fatal("given back while the names are read")
	}
	n.drop()
	if released != 1 {
		t.Fatalf("given back %d times at drop, want 1", released)
	}
	n.mapped(func() { released++ })
	if released != 2 {
		t.Fatal("a mapping after drop is not given back at once")
	}
	n.drop()
	if released != 2 {
		t.Fatal("given back twice")
	}
}

// TestSmallGraphRestoredAtStart: a graph under pendingMinEdges is
// restored during the load, as before graphs were left pending: the
// first file_info does not wait for it.
func TestSmallGraphRestoredAtStart(t *testing.T) {
	opt := Options{NoDocs: true, NoWatch: true}
	s := connect(t, slimTree(), opt)
	if _, err := s.srv.ready(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	_, ws := restartTwice(t, s, opt)
	ws.mu.RLock()
	defer ws.mu.RUnlock()
	if ws.pending != nil || ws.held == nil || !ws.held.Restored() || ws.saved == nil {
		t.Fatalf("a small graph: pending %v, restored at the start %v", ws.pending != nil, ws.held != nil && ws.held.Restored())
	}
}

// restartPending starts a server on files (no docs, no watch), waits for
// it to be ready and restarts it on the unchanged saved state, returning
// the restarted session, its workspace and its pending graph.
func restartPending(t *testing.T, files map[string]string) (*session, *workspace, *pendingGraph) {
	t.Helper()
	opt := Options{NoDocs: true, NoWatch: true}
	s := connect(t, files, opt)
	if _, err := s.srv.ready(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	s2, ws := restartUnchanged(t, s, opt)
	return s2, ws, pendingOf(t, ws)
}
