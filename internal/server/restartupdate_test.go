package server

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRestartUpdatesSavedGraph: a server restarted on a tree where files
// were edited, added and removed while it was down applies them to the
// saved graph as an update (index_status says so) instead of building
// the graph whole; it starts slim, as a restart with nothing changed
// does, and answers every lookup and search as a server that built the
// edited tree whole, before an edit while serving and after one; until
// that edit its lookups read the symbols index saved with the update,
// not the graph restored. The
// state it saved is current: the next start opens it.
func TestRestartUpdatesSavedGraph(t *testing.T) {
	opt := Options{NoWatch: true}
	s := connect(t, slimTree(), opt)
	if _, err := s.srv.ready(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	s.srv.Close()
	edited := slimTree()
	for p, src := range map[string]string{
		"drivers/d007.c": "#include \"util.h\"\nstatic int local7(int v) { return helper(v) + twice(v); }\nint probe7(void) { return local7(7); }\n",
		"drivers/d200.c": "#include \"util.h\"\nint added200(void) { return probe7() + helper(2); }\n",
		// A second definition of a name every driver reads.
		"lib/twice2.c": "int twice(int x) { return x + x; }\n",
		"py/app.py":    edited["py/app.py"] + "\ndef extra():\n    App().step()\n",
	} {
		edited[p] = src
		writeTree(t, s.root, map[string]string{p: src})
	}
	delete(edited, "drivers/d010.c")
	if err := os.Remove(filepath.Join(s.root, "drivers/d010.c")); err != nil {
		t.Fatal(err)
	}
	defer func(n int) { pendingMinEdges = n }(pendingMinEdges)
	pendingMinEdges = 0 // the graph pending, however small
	s2, ws := restart(t, s, opt)
	ws.mu.RLock()
	current := ws.symIdxCurrent()
	ws.mu.RUnlock()
	if !current {
		t.Error("the load that updated the saved graph did not adopt the symbols index it saved")
	}
	ws.docsLoops.Wait()
	var st indexStatusOut
	s2.ok("index_status", nil, &st)
	if !strings.HasPrefix(st.Graph, "updated: 5 files changed") {
		t.Fatalf("index_status says the graph was %q; want updated: 5 files changed", st.Graph)
	}
	ws.mu.RLock()
	slim := ws.saved != nil
	for _, src := range ws.files {
		slim = slim && src.slim
	}
	ws.mu.RUnlock()
	if !slim {
		t.Error("the restart that updated the saved graph holds full extractions")
	}
	want := connect(t, edited, opt)
	wws, err := want.srv.ready(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	wws.docsLoops.Wait() // the code scope is complete
	var wst indexStatusOut
	want.ok("index_status", nil, &wst)
	if !strings.HasPrefix(wst.Graph, "built") {
		t.Fatalf("the fresh server's graph was %q, not built", wst.Graph)
	}
	queries := []toolQuery{
		{"callers", map[string]any{"symbol": "helper"}},
		{"callers", map[string]any{"symbol": "probe7"}},
		{"callers", map[string]any{"symbol": "twice", "depth": 2}},
		{"callers", map[string]any{"symbol": "probe10"}},
		{"callees", map[string]any{"symbol": "added200"}},
		{"callees", map[string]any{"symbol": "extra"}},
		{"callees", map[string]any{"symbol": "App.step"}},
		{"find_symbol", map[string]any{"query": "added200"}},
		{"find_symbol", map[string]any{"query": "probe"}},
		{"find_symbol", map[string]any{"query": "probe10"}},
		{"find_symbol", map[string]any{"query": "py/app.py:App"}},
		{"search_docs", map[string]any{"query": "added200 helper"}},
		{"search_docs", map[string]any{"query": "twice"}},
	}
	sameAnswers(t, "after the restart", s2, want, queries)
	ws.mu.RLock()
	restored := ws.unrestored() == nil
	ws.mu.RUnlock()
	if restored {
		t.Error("lookups after the restart restored the graph: they read the symbols index saved with the update")
	}

	// An edit while serving, on the graph read back.
	src := "#include \"util.h\"\nint added201(void) { return added200() + twice(1); }\n"
	edited["drivers/d201.c"] = src
	writeTree(t, s2.root, map[string]string{"drivers/d201.c": src})
	s2.ok("file_info", map[string]any{"path": "drivers/d201.c"}, &map[string]any{})
	expectFreshGraph(t, ws)
	want2 := connect(t, edited, opt)
	if wws, err = want2.srv.ready(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	wws.docsLoops.Wait()
	sameAnswers(t, "after an edit while serving", s2, want2, append(queries[:11:11],
		toolQuery{"callers", map[string]any{"symbol": "added200"}},
		toolQuery{"callees", map[string]any{"symbol": "added201"}}))

	s3, _ := restart(t, s2, opt)
	var st3 indexStatusOut
	s3.ok("index_status", nil, &st3)
	if !strings.HasPrefix(st3.Graph, "updated: 1 files changed") {
		t.Errorf("the start after an edit while serving says the graph was %q; want updated: 1 files changed", st3.Graph)
	}
	s4, _ := restart(t, s3, opt)
	var st4 indexStatusOut
	s4.ok("index_status", nil, &st4)
	if st4.Graph != "saved" {
		t.Errorf("the start after that says the graph was %q, not saved: the update was not saved", st4.Graph)
	}
	sameAnswers(t, "two starts later", s4, want2, queries[:11])
}

// TestRestartCorruptStateBuildsWhole: a restart whose graph.bin was
// damaged on disk builds the graph whole, says so, and answers as a
// fresh server.
func TestRestartCorruptStateBuildsWhole(t *testing.T) {
	opt := Options{NoDocs: true, NoWatch: true}
	s := connect(t, slimTree(), opt)
	if _, err := s.srv.ready(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	s.srv.Close()
	file := filepath.Join(s.root, ".artifacts", ".index", "graph.bin")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0xff
	// A new file, not a write in place (the saved state may be mapped).
	os.Remove(file)
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	edited := slimTree()
	edited["drivers/d007.c"] = "#include \"util.h\"\nint probe7(void) { return helper(70); }\n"
	writeTree(t, s.root, map[string]string{"drivers/d007.c": edited["drivers/d007.c"]})
	s2, _ := restart(t, s, opt)
	var st indexStatusOut
	s2.ok("index_status", nil, &st)
	if !strings.HasPrefix(st.Graph, "built: the saved graph cannot be read") {
		t.Errorf("index_status says the graph was %q; want built: the saved graph cannot be read", st.Graph)
	}
	want := connect(t, edited, opt)
	if _, err := want.srv.ready(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	sameAnswers(t, fmt.Sprintf("corrupt %s", filepath.Base(file)), s2, want, []toolQuery{
		{"callers", map[string]any{"symbol": "helper"}},
		{"callees", map[string]any{"symbol": "probe7"}},
		{"find_symbol", map[string]any{"query": "probe"}},
	})
}
