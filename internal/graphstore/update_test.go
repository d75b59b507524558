package graphstore

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// buildWhole makes every Sync that finds a file changed build the graph
// whole, for the test's duration.
func buildWhole(t *testing.T) {
	t.Helper()
	m, s := updateMin, updateShare
	updateMin, updateShare = 0, 0
	t.Cleanup(func() { updateMin, updateShare = m, s })
}

// countBuilds counts the graphs Sync builds whole, for the test's
// duration.
func countBuilds(t *testing.T) *int {
	t.Helper()
	n := new(int)
	buildHook = func([]extract.File) { *n++ }
	t.Cleanup(func() { buildHook = nil })
	return n
}

// updateTree is a tree of C (a header every driver includes), Go and
// Python (whose flow is tracked across files), dated an hour ago.
func updateTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"go.mod":         "module example.com/u\n",
		"include/util.h": "int helper(int x);\nint twice(int x);\n",
		"lib/util.c":     "#include \"util.h\"\nint helper(int x) { return twice(x) + 1; }\nint twice(int x) { return x * 2; }\n",
		"lib/lib.go":     "package lib\n\nfunc Run() int { return step() }\n\nfunc step() int { return 1 }\n",
		"cmd/main.go":    "package main\n\nimport \"example.com/u/lib\"\n\nfunc main() { lib.Run() }\n",
		"py/__init__.py": "",
		"py/base.py":     "class Base:\n    def run(self):\n        return self.step()\n\n    def step(self):\n        return 1\n",
		"py/app.py":      "from py.base import Base\n\nclass App(Base):\n    def step(self):\n        return super().step()\n\ndef main():\n    App().run()\n",
	}
	for i := range 40 {
		files[fmt.Sprintf("drivers/d%03d.c", i)] = fmt.Sprintf("#include \"util.h\"\nstatic int local%d(int v) { return helper(v); }\nint probe%d(void) { return local%d(%d) + twice(%d); }\n", i, i, i, i, i)
	}
	for p, src := range files {
		write(t, root, p, src)
	}
	old := time.Now().Add(-time.Hour)
	filepath.Walk(root, func(p string, _ os.FileInfo, _ error) error { return os.Chtimes(p, old, old) })
	return root
}

// expectSavedFresh checks that the state saved under root holds a fresh
// extraction of it and the graph a Build of that makes.
func expectSavedFresh(t *testing.T, root, label string) {
	t.Helper()
	files, _, _ := fresh(t, root)
	want := callgraph.Build(files)
	st, saved := loadSaved(t, root)
	if !reflect.DeepEqual(saved, files) {
		t.Errorf("%s: the files saved differ from a fresh extraction", label)
	}
	ws := want.Save()
	if !reflect.DeepEqual(st.Edges, ws.Edges) || !reflect.DeepEqual(st.Unresolved, ws.Unresolved) ||
		!reflect.DeepEqual(st.GraphSkipped, ws.Skipped) {
		t.Errorf("%s: the graph saved differs from a build: %d/%d edges, %d/%d unresolved, %d/%d skipped", label,
			len(st.Edges), len(ws.Edges), len(st.Unresolved), len(ws.Unresolved), len(st.GraphSkipped), len(ws.Skipped))
	}
}

// loadSaved loads the state saved under root, and returns it with the
// extractions it holds.
func loadSaved(t *testing.T, root string) (*State, []extract.File) {
	t.Helper()
	st, err := Load(filepath.Join(root, ".artifacts", ".index", FileName))
	if err != nil {
		t.Fatal(err)
	}
	var saved []extract.File
	for _, e := range st.Files {
		if e.File != nil {
			saved = append(saved, *e.File)
		}
	}
	return st, saved
}

// expectGraphFresh checks that g answers as a Build of a fresh
// extraction of root.
func expectGraphFresh(t *testing.T, g *callgraph.Graph, root, label string) {
	t.Helper()
	files, nodes, edges := fresh(t, root)
	want := callgraph.Build(files)
	if !reflect.DeepEqual(g.Nodes(), nodes) || !reflect.DeepEqual(g.Edges(), edges) ||
		!reflect.DeepEqual(g.Unresolved(), want.Unresolved()) {
		t.Errorf("%s: the graph differs from a build: %d/%d nodes, %d/%d edges", label, g.Len(), len(nodes), len(g.Edges()), len(edges))
	}
}

// TestUpdateEqualsBuild: a Sync that finds a few files changed, added
// or removed since the save applies them to the saved graph as an
// update, builds nothing whole, and saves what a build would save: the
// next Sync finds nothing changed. A body edit, a new definition that
// every driver reads, an added file, a removed one, a Python edit (its
// flow is global) and a Go one: Lazy (serve), held, and as `fileinfo
// index` syncs (Discard, with Each seeing the pass as
// codeindex.SyncGraph's does: the changed files, no others).
func TestUpdateEqualsBuild(t *testing.T) {
	for _, mode := range []string{"lazy", "held", "index"} {
		t.Run(mode, func(t *testing.T) {
			lazy, index := mode == "lazy", mode == "index"
			root := updateTree(t)
			ctx := context.Background()
			if _, err := Sync(ctx, Options{Root: root, Discard: index}); err != nil {
				t.Fatal(err)
			}
			builds := countBuilds(t)
			steps := []struct {
				name    string
				write   map[string]string
				remove  []string
				updated int
			}{
				{"body", map[string]string{"drivers/d007.c": "#include \"util.h\"\nstatic int local7(int v) { return helper(v) + twice(v); }\nint probe7(void) { return local7(7); }\n"}, nil, 1},
				{"added", map[string]string{"drivers/d100.c": "#include \"util.h\"\nint added100(void) { return probe7() + helper(2); }\n"}, nil, 1},
				{"new definition", map[string]string{"lib/twice2.c": "int twice(int x) { return x + x; }\n"}, nil, 1},
				{"removed", nil, []string{"drivers/d003.c", "lib/twice2.c"}, 2},
				{"python", map[string]string{"py/app.py": "from py.base import Base\n\nclass App(Base):\n    def step(self):\n        return 2\n\ndef main():\n    App().run()\n    App().step()\n"}, nil, 1},
				{"go and c", map[string]string{"lib/lib.go": "package lib\n\nfunc Run() int { return step() + Other() }\n\nfunc step() int { return 1 }\n\nfunc Other() int { return 2 }\n",
					"drivers/d010.c": "int probe10(void) { return 10; }\n"}, nil, 2},
			}
			for _, step := range steps {
				for p, src := range step.write {
					write(t, root, p, src)
				}
				for _, p := range step.remove {
					if err := os.Remove(filepath.Join(root, p)); err != nil {
						t.Fatal(err)
					}
				}
				opt := Options{Root: root, Lazy: lazy}
				var passed []string
				if index {
					opt.Discard = true
					opt.Want = func(string, int64, int64) bool { return false }
					opt.Each = func(_ context.Context, xs []Extracted) error {
						for _, x := range xs {
							passed = append(passed, x.Path)
						}
						return nil
					}
				}
				snap, err := Sync(ctx, opt)
				if err != nil {
					t.Fatal(err)
				}
				if snap.How != GraphUpdated || snap.Updated != step.updated || *builds != 0 {
					t.Fatalf("%s: graph %s (%s), %d files updated, %d builds; want updated, %d, no build", step.name, snap.How, snap.Why, snap.Updated, *builds, step.updated)
				}
				if lazy != (snap.Extractions() != nil) {
					t.Errorf("%s: Extractions %v with Lazy %v", step.name, snap.Extractions() != nil, lazy)
				}
				expectSavedFresh(t, root, step.name)
				if index {
					if want := slices.Sorted(maps.Keys(step.write)); !reflect.DeepEqual(passed, want) {
						t.Errorf("%s: Each saw %v, want the changed files %v", step.name, passed, want)
					}
					if snap.Files != nil {
						t.Errorf("%s: Discard left %d files in the Snapshot", step.name, len(snap.Files))
					}
				} else {
					expectGraphFresh(t, snap.Graph(), root, step.name)
				}
				if x := snap.Extractions(); x != nil {
					x.Close()
				}
				again, err := Sync(ctx, Options{Root: root, Lazy: true})
				if err != nil {
					t.Fatal(err)
				}
				if again.How != GraphSaved {
					t.Errorf("%s: the Sync after the update found the graph %s (%s), not saved", step.name, again.How, again.Why)
				}
				if x := again.Extractions(); x != nil {
					x.Close()
				}
			}
		})
	}
}

// TestUpdateReadsBackLazy: a Lazy Sync that updated the saved graph
// returns the state read back as one that found nothing changed does:
// the files bare, their full extractions read from graph.bin, the
// graph restored when first read; the digests are the files' now.
func TestUpdateReadsBackLazy(t *testing.T) {
	root := updateTree(t)
	ctx := context.Background()
	if _, err := Sync(ctx, Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	src := "#include \"util.h\"\nint probe7(void) { return helper(70); }\n"
	write(t, root, "drivers/d007.c", src)
	snap, err := Sync(ctx, Options{Root: root, Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	if snap.How != GraphUpdated || snap.Extracted != 1 {
		t.Fatalf("graph %s (%s), %d extracted; want updated, 1", snap.How, snap.Why, snap.Extracted)
	}
	x := snap.Extractions()
	if x == nil {
		t.Fatal("no Extractions after an update")
	}
	defer x.Close()
	for _, f := range snap.Files {
		if !reflect.DeepEqual(f, Bare(&f)) {
			t.Fatalf("%s is not bare", f.Path)
		}
	}
	all, err := x.All()
	if err != nil {
		t.Fatal(err)
	}
	files, _, _ := fresh(t, root)
	if !reflect.DeepEqual(all, files) {
		t.Error("the extractions read back differ from a fresh extraction")
	}
	if snap.Digests["drivers/d007.c"] != digest([]byte(src)) {
		t.Error("the changed file's digest is not its content's")
	}
	if saved, err := snap.SavedGraph(); err != nil || len(saved.Edges) == 0 {
		t.Errorf("SavedGraph: %d edges, %v", len(saved.Edges), err)
	}
	expectGraphFresh(t, snap.Graph(), root, "read back")
}

// TestUpdateLimitBuildsWhole: past updateLimit changed files, and with
// a go.mod changed, the graph is built whole, saying why.
func TestUpdateLimitBuildsWhole(t *testing.T) {
	root := updateTree(t)
	ctx := context.Background()
	if _, err := Sync(ctx, Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	m, s := updateMin, updateShare
	updateMin, updateShare = 2, 0
	t.Cleanup(func() { updateMin, updateShare = m, s })
	builds := countBuilds(t)
	for i := range 3 {
		write(t, root, fmt.Sprintf("drivers/d%03d.c", i), fmt.Sprintf("int probe%d(void) { return 0; }\n", i))
	}
	snap, err := Sync(ctx, Options{Root: root, Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	if snap.How != GraphBuilt || !strings.Contains(snap.Why, "3 files changed, more than 2") || *builds != 1 {
		t.Errorf("3 files changed: graph %s (%s), %d builds; want built, more than 2, 1 build", snap.How, snap.Why, *builds)
	}
	expectSavedFresh(t, root, "past the limit")
	write(t, root, "go.mod", "module example.com/v\n")
	if snap, err = Sync(ctx, Options{Root: root, Lazy: true}); err != nil {
		t.Fatal(err)
	}
	if snap.How != GraphBuilt || snap.Why != "a go.mod changed" || *builds != 2 {
		t.Errorf("go.mod changed: graph %s (%s), %d builds; want built, a go.mod changed", snap.How, snap.Why, *builds)
	}
	expectSavedFresh(t, root, "go.mod")
}

// TestUpdateCorruptStateBuildsWhole: a graph.bin damaged on disk is
// never updated: the graph is built whole from a fresh extraction and
// saved.
func TestUpdateCorruptStateBuildsWhole(t *testing.T) {
	root := updateTree(t)
	ctx := context.Background()
	if _, err := Sync(ctx, Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, ".artifacts", ".index", FileName)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0xff
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	write(t, root, "drivers/d007.c", "#include \"util.h\"\nint probe7(void) { return helper(70); }\n")
	builds := countBuilds(t)
	snap, err := Sync(ctx, Options{Root: root, Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	if snap.How != GraphBuilt || !strings.Contains(snap.Why, "cannot be read") || *builds != 1 {
		t.Errorf("graph %s (%s), %d builds; want built because the saved graph cannot be read", snap.How, snap.Why, *builds)
	}
	if snap.Extracted != len(snap.Files) {
		t.Errorf("%d of %d files extracted; want all", snap.Extracted, len(snap.Files))
	}
	expectSavedFresh(t, root, "corrupt")
	expectGraphFresh(t, snap.Graph(), root, "corrupt")
}

// TestIndexUpdateSavesBuildBytes: `fileinfo index` (Discard) after an
// edit, an added file and a removed one updates the saved graph, and
// saves graph.bin and symbols.idx byte for byte as a whole build of the
// same tree does.
func TestIndexUpdateSavesBuildBytes(t *testing.T) {
	root := updateTree(t)
	ctx := context.Background()
	if _, err := Sync(ctx, Options{Root: root, Discard: true}); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour) // not racy: both save the times
	write(t, root, "drivers/d007.c", "#include \"util.h\"\nint probe7(void) { return helper(70) + added(); }\n")
	write(t, root, "lib/added.c", "int added(void) { return twice(3); }\n")
	for _, p := range []string{"drivers/d007.c", "lib/added.c"} {
		os.Chtimes(filepath.Join(root, p), old, old)
	}
	if err := os.Remove(filepath.Join(root, "drivers/d003.c")); err != nil {
		t.Fatal(err)
	}
	snap, err := Sync(ctx, Options{Root: root, Discard: true})
	if err != nil {
		t.Fatal(err)
	}
	if snap.How != GraphUpdated || snap.Updated != 3 {
		t.Fatalf("graph %s (%s), %d files updated; want updated, 3", snap.How, snap.Why, snap.Updated)
	}
	dir := filepath.Join(root, ".artifacts", ".index")
	read := func() (graph, symbols []byte) {
		t.Helper()
		var err error
		if graph, err = os.ReadFile(filepath.Join(dir, FileName)); err != nil {
			t.Fatal(err)
		}
		if symbols, err = os.ReadFile(filepath.Join(dir, SymbolsFile)); err != nil {
			t.Fatal(err)
		}
		return graph, symbols
	}
	graph, symbols := read()
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if snap, err = Sync(ctx, Options{Root: root, Discard: true}); err != nil || snap.How != GraphBuilt {
		t.Fatalf("graph %v, %v; want built", snap.How, err)
	}
	wantGraph, wantSymbols := read()
	if !bytes.Equal(graph, wantGraph) {
		t.Errorf("graph.bin updated (%d bytes) differs from a build's (%d bytes)", len(graph), len(wantGraph))
	}
	if !bytes.Equal(symbols, wantSymbols) {
		t.Errorf("symbols.idx updated (%d bytes) differs from a build's (%d bytes)", len(symbols), len(wantSymbols))
	}
}

// TestUpdateOverBudgetBuildsWhole: `fileinfo index` (Discard) under a
// memory limit too small for an update of the saved state builds the
// graph whole, saying why; a Sync without Discard updates all the same.
func TestUpdateOverBudgetBuildsWhole(t *testing.T) {
	root := updateTree(t)
	ctx := context.Background()
	if _, err := Sync(ctx, Options{Root: root, Discard: true}); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(filepath.Join(root, ".artifacts", ".index", FileName))
	if err != nil {
		t.Fatal(err)
	}
	limit := memoryLimit
	memoryLimit = func() int64 { return info.Size() * updateHeapFactor / 2 }
	t.Cleanup(func() { memoryLimit = limit })
	builds := countBuilds(t)
	write(t, root, "drivers/d007.c", "#include \"util.h\"\nint probe7(void) { return helper(70); }\n")
	snap, err := Sync(ctx, Options{Root: root, Discard: true})
	if err != nil {
		t.Fatal(err)
	}
	if snap.How != GraphBuilt || !strings.Contains(snap.Why, "memory limit") || *builds != 1 {
		t.Errorf("index under a tight limit: graph %s (%s), %d builds; want built for the memory limit", snap.How, snap.Why, *builds)
	}
	expectSavedFresh(t, root, "over budget")
	write(t, root, "drivers/d008.c", "#include \"util.h\"\nint probe8(void) { return helper(80); }\n")
	if snap, err = Sync(ctx, Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	if snap.How != GraphUpdated || *builds != 1 {
		t.Errorf("a Sync without Discard under the same limit: graph %s (%s), %d builds; want updated", snap.How, snap.Why, *builds)
	}
	expectSavedFresh(t, root, "without Discard")
}

// TestWholeBuildLetsGoOfSavedGraph: a Sync that builds the graph whole
// drops the saved state's edges once it has decided so, not after the
// build (the kernel's are 269 MB); one that updates, or finds nothing
// changed, keeps them, as it reads them.
func TestWholeBuildLetsGoOfSavedGraph(t *testing.T) {
	root := updateTree(t)
	ctx := context.Background()
	if _, err := Sync(ctx, Options{Root: root, Discard: true}); err != nil {
		t.Fatal(err)
	}
	var edges, unresolved []int
	checkedHook = func(old *State) {
		edges, unresolved = append(edges, len(old.Edges)), append(unresolved, len(old.Unresolved))
	}
	t.Cleanup(func() { checkedHook = nil })
	sync := func(what string, want How) {
		t.Helper()
		edges, unresolved = nil, nil
		snap, err := Sync(ctx, Options{Root: root, Discard: true})
		if err != nil {
			t.Fatal(err)
		}
		if snap.How != want {
			t.Fatalf("%s: graph %s (%s), want %s", what, snap.How, snap.Why, want)
		}
		kept := len(edges) == 1 && edges[0] > 0 && unresolved[0] > 0
		dropped := len(edges) == 1 && edges[0] == 0 && unresolved[0] == 0
		if want == GraphBuilt && !dropped || want != GraphBuilt && !kept {
			t.Errorf("%s (%s): the check left the saved state with %v edges, %v unresolved calls", what, want, edges, unresolved)
		}
	}
	sync("nothing changed", GraphSaved)
	write(t, root, "drivers/d007.c", "#include \"util.h\"\nint probe7(void) { return helper(70) + missing7(); }\n")
	sync("one file changed", GraphUpdated)
	buildWhole(t)
	write(t, root, "drivers/d008.c", "#include \"util.h\"\nint probe8(void) { return helper(80) + missing8(); }\n")
	sync("built whole", GraphBuilt)
	expectSavedFresh(t, root, "after a whole build")
}
