package server

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// cTree is a small C program: a header with a prototype and a static
// inline function, its definition, and callers through the include.
var cTree = map[string]string{
	"include/util.h": "int helper(int x);\nstatic inline int twice(int x) { return helper(x) * 2; }\n",
	"lib/util.c":     "#include <util.h>\nint helper(int x) { return x + 1; }\n",
	"src/a.c":        "#include <util.h>\nint run_a(void) { return helper(1) + twice(2); }\n",
	"src/b.c":        "#include <util.h>\nint run_b(void) { return helper(3); }\n",
	"src/c.c":        "int run_a(void);\nint run_b(void);\nint run_c(void) { return run_a() + run_b(); }\n",
}

// TestRestoredGraphEditResolvesEdited: after a start from the saved
// graph, an edit resolves the edited file's calls only (the graph for
// updates is the saved one restored over the full extractions, not a
// build of every file), and every lookup answers as a workspace that
// built the edited tree whole.
func TestRestoredGraphEditResolvesEdited(t *testing.T) {
	s := connect(t, cTree, Options{NoDocs: true, NoWatch: true})
	if _, err := s.srv.ready(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	s.srv.Close()
	old := time.Now().Add(-time.Hour)
	for p := range cTree {
		os.Chtimes(filepath.Join(s.root, p), old, old)
	}
	s2 := reconnect(t, s, Options{NoDocs: true, NoWatch: true})
	ws, err := s2.srv.ready(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ws.mu.RLock()
	restored := ws.callGraph().Restored()
	ws.mu.RUnlock()
	if !restored {
		t.Fatal("the second start built its graph instead of restoring the saved one")
	}
	edits := []struct{ path, src string }{
		{"src/b.c", "#include <util.h>\nint run_b(void) { return helper(3) + run_a(); }\n"},                                        // a body
		{"src/a.c", "#include <util.h>\nint run_a(void) { return helper(1) + twice(2); }\nint extra(void) { return twice(5); }\n"}, // a new function
	}
	edited := map[string]string{}
	for p, src := range cTree {
		edited[p] = src
	}
	for i, e := range edits {
		writeTree(t, s.root, map[string]string{e.path: e.src})
		edited[e.path] = e.src
		var info map[string]any
		s2.ok("file_info", map[string]any{"path": e.path}, &info) // takes the change in
		ws.mu.RLock()
		g := ws.callGraph()
		ws.mu.RUnlock()
		if g.Restored() || g.Resolved() != i+1 {
			t.Errorf("after edit %d (%s): graph restored %v, %d files resolved since the start; want false, %d", i+1, e.path, g.Restored(), g.Resolved(), i+1)
		}
		want := connect(t, edited, Options{NoDocs: true, NoWatch: true})
		if _, err := want.srv.ready(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		sameAnswers(t, fmt.Sprintf("after edit %d", i+1), s2, want, []toolQuery{
			{"callers", map[string]any{"symbol": "helper"}},
			{"callers", map[string]any{"symbol": "run_a"}},
			{"callers", map[string]any{"symbol": "twice"}},
			{"callees", map[string]any{"symbol": "run_c"}},
			{"callees", map[string]any{"symbol": "run_b"}},
			{"find_symbol", map[string]any{"query": "extra"}},
			{"find_symbol", map[string]any{"query": "run"}},
		})
	}
}
