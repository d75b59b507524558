package server

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/graphstore"
)

// slimTree is C and Python calling across files, more files than a
// segment of graph.bin holds (128), so that reads decode several.
func slimTree() map[string]string {
	t := map[string]string{
		"include/util.h": "int helper(int x);\nint twice(int x);\n",
		"lib/util.c":     "#include \"util.h\"\nint helper(int x) { return twice(x) + 1; }\nint twice(int x) { return x * 2; }\n",
		"py/__init__.py": "",
		"py/base.py":     "class Base:\n    def run(self):\n        return self.step()\n\n    def step(self):\n        return 1\n",
	}
	for i := range 150 {
		t[fmt.Sprintf("drivers/d%03d.c", i)] = fmt.Sprintf("#include \"util.h\"\nstatic int local%d(int v) { return helper(v); }\nint probe%d(void) { return local%d(%d) + twice(%d); }\n", i, i, i, i, i)
	}
	t["py/app.py"] = "from py.base import Base\n\nclass App(Base):\n    def step(self):\n        return super().step()\n\ndef main():\n    App().run()\n"
	return t
}

// restart closes s and starts a server on its root again, the files
// dated an hour ago so that the start reuses every saved extraction.
func restart(t testing.TB, s *session, opt Options) (*session, *workspace) {
	t.Helper()
	s.srv.Close()
	old := time.Now().Add(-time.Hour)
	filepath.Walk(s.root, func(p string, _ os.FileInfo, _ error) error { return os.Chtimes(p, old, old) })
	s2 := reconnect(t, s, opt)
	ws, err := s2.srv.ready(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return s2, ws
}

// expectFreshGraph checks ws's graph answers as a graph built from a
// fresh extraction of its root: the same nodes, edges and unresolved
// calls.
func expectFreshGraph(t *testing.T, ws *workspace) {
	t.Helper()
	ex, err := extract.New(ws.root, extract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	files, _, err := ex.All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := callgraph.Build(files)
	ws.mu.RLock()
	defer ws.mu.RUnlock()
	g := ws.callGraph()
	if !reflect.DeepEqual(g.Nodes(), want.Nodes()) || !reflect.DeepEqual(g.Edges(), want.Edges()) ||
		!reflect.DeepEqual(g.Unresolved(), want.Unresolved()) {
		t.Fatalf("the graph differs from a fresh build: %d/%d nodes, %d/%d edges, %d/%d unresolved",
			g.Len(), want.Len(), len(g.Edges()), len(want.Edges()), len(g.Unresolved()), len(want.Unresolved()))
	}
}

// TestSlimStart: a start from the saved state holds each file's slim
// extraction only (graphstore.Slim); file_info reads the rest from
// graph.bin and answers as the first start did; the first edit builds
// the graph from the full extractions, so that the edited file's
// callers and callees, and everyone else's, equal a fresh build's.
func TestSlimStart(t *testing.T) {
	opt := Options{NoDocs: true, NoWatch: true}
	s := connect(t, slimTree(), opt)
	if _, err := s.srv.ready(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	paths := []string{"drivers/d007.c", "lib/util.c", "py/app.py", "drivers/d149.c"}
	first := map[string]string{}
	for _, p := range paths {
		first[p] = text(s.ok("file_info", map[string]any{"path": p}, &map[string]any{}))
	}
	s2, ws := restart(t, s, opt)
	ws.mu.RLock()
	if ws.saved == nil || !ws.callGraph().Restored() {
		t.Fatalf("second start: saved extractions %v, graph restored %v", ws.saved != nil, ws.callGraph().Restored())
	}
	for p, src := range ws.files {
		if !src.slim || src.file.Calls != nil || src.file.Imports != nil {
			t.Fatalf("%s is held whole after a start from the saved state", p)
		}
	}
	ws.mu.RUnlock()
	for _, p := range paths {
		if got := text(s2.ok("file_info", map[string]any{"path": p}, &map[string]any{})); got != first[p] {
			t.Errorf("file_info %s from graph.bin:\n%s\nfirst start's:\n%s", p, got, first[p])
		}
	}
	expectFreshGraph(t, ws)

	// An edit: d007 calls probe1 now, not helper.
	writeTree(t, s.root, map[string]string{"drivers/d007.c": "#include \"util.h\"\nint probe1(void);\nint probe7(void) { return probe1() + twice(7); }\n"})
	s2.ok("file_info", map[string]any{"path": "drivers/d007.c"}, &map[string]any{})
	expectFreshGraph(t, ws)
	var out treeOut
	s2.ok("callers", map[string]any{"symbol": "drivers/d001.c:probe1"}, &out)
	if out.Total != 1 {
		t.Errorf("callers of probe1 after the edit: %+v, want d007's probe7", out)
	}
	// The graph for updates reads the calls of the files it re-resolves
	// from graph.bin (callgraph.Graph.LetGoOfCalls): the sources the
	// edit did not change stay slim, and the graph holds the calls of
	// the Python files only (flow-tracked).
	ws.mu.RLock()
	var whole []string
	for p, src := range ws.files {
		if !src.slim {
			whole = append(whole, p)
		}
	}
	held := ws.callGraph().CallsHeld()
	ws.mu.RUnlock()
	if len(whole) != 1 || whole[0] != "drivers/d007.c" {
		t.Errorf("held whole after the edit: %v; want the edited file only", whole)
	}
	if held > 3 {
		t.Errorf("%d files' calls held after the edit; want the Python files' at most (3)", held)
	}
}

// TestSlimDamagedGraphFile: graph.bin damaged in place after the start
// (its segments fail their checksums) is never read as an extraction:
// file_info extracts the file again, and the first edit extracts the
// slim files again, so that the graph still equals a fresh build.
func TestSlimDamagedGraphFile(t *testing.T) {
	opt := Options{NoDocs: true, NoWatch: true}
	s := connect(t, slimTree(), opt)
	if _, err := s.srv.ready(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	first := text(s.ok("file_info", map[string]any{"path": "drivers/d100.c"}, &map[string]any{}))
	s2, ws := restart(t, s, opt)
	file := filepath.Join(s.root, ".artifacts", ".index", graphstore.FileName)
	st, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	fh, err := os.OpenFile(file, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	junk := make([]byte, st.Size()/2)
	for i := range junk {
		junk[i] = 0xa5
	}
	if _, err := fh.WriteAt(junk, st.Size()/4); err != nil {
		t.Fatal(err)
	}
	fh.Close()
	if got := text(s2.ok("file_info", map[string]any{"path": "drivers/d100.c"}, &map[string]any{})); got != first {
		t.Errorf("file_info with graph.bin damaged:\n%s\nwant:\n%s", got, first)
	}
	writeTree(t, s.root, map[string]string{"drivers/d007.c": "#include \"util.h\"\nint probe7(void) { return twice(7); }\n"})
	s2.ok("file_info", map[string]any{"path": "drivers/d007.c"}, &map[string]any{})
	expectFreshGraph(t, ws)
}
