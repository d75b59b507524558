package graphstore

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/fileinfo/fileinfo/callgraph"
)

// TestLazyDefersGraph checks that a Lazy Sync of an unchanged tree
// leaves the graph's edges and unresolved calls in graph.bin until the
// graph is first asked for: the load decodes neither, GraphCounts and
// GraphSkipped answer without them, and the graph restored afterwards
// equals a fresh build's.
func TestLazyDefersGraph(t *testing.T) {
	snap, want := savedLazyBuilt(t)
	if len(want.Edges()) == 0 || want.NumUnresolved() == 0 {
		t.Fatal("the tree has no edges or no unresolved calls to defer")
	}
	if snap.deferred == nil || snap.saved.Edges != nil || snap.saved.Unresolved != nil || snap.built != nil {
		t.Fatalf("the load decoded the graph: deferred %v, %d edges, %d unresolved", snap.deferred != nil, len(snap.saved.Edges), len(snap.saved.Unresolved))
	}
	if e, u := snap.GraphCounts(); e != len(want.Edges()) || u != want.NumUnresolved() {
		t.Errorf("GraphCounts %d edges, %d unresolved; a fresh build has %d, %d", e, u, len(want.Edges()), want.NumUnresolved())
	}
	if !reflect.DeepEqual(snap.GraphSkipped(), want.Skipped()) {
		t.Errorf("GraphSkipped %v, a fresh build's %v", snap.GraphSkipped(), want.Skipped())
	}
	if snap.deferred == nil {
		t.Fatal("GraphCounts or GraphSkipped read the graph")
	}
	g, err := snap.RestoreGraph()
	if err != nil {
		t.Fatal(err)
	}
	if !g.Restored() || !reflect.DeepEqual(g.Nodes(), want.Nodes()) || !reflect.DeepEqual(g.Edges(), want.Edges()) ||
		!reflect.DeepEqual(g.Unresolved(), want.Unresolved()) {
		t.Fatal("the graph read afterwards differs from a fresh build")
	}
	if again := snap.Graph(); again != g {
		t.Error("a second Graph restored the graph again")
	}
	if e, u := snap.GraphCounts(); e != len(want.Edges()) || u != want.NumUnresolved() {
		t.Errorf("GraphCounts after the restore: %d, %d", e, u)
	}
}

// TestLazyGraphDamaged checks that graph.bin damaged in place after a
// Lazy Sync (its graph not yet read) makes RestoreGraph an error, never a
// graph, and that a save by rename since leaves the loaded graph as it
// was.
func TestLazyGraphDamaged(t *testing.T) {
	root := lazyTree(t, 200)
	ctx := context.Background()
	if _, err := Sync(ctx, Options{Root: root, Key: "test"}); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, ".artifacts", ".index", FileName)

	// Replaced by a rename: the open file is the one loaded.
	snap, err := Sync(ctx, Options{Root: root, Key: "test", Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeAtomic(file, []byte("garbage")); err != nil {
		t.Fatal(err)
	}
	if g, err := snap.RestoreGraph(); err != nil || len(g.Edges()) == 0 {
		t.Errorf("after a save by rename: %v", err)
	}
	snap.Extractions().Close()
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}

	// Damaged in place, in the graph's part (the payload's end).
	snap, err = Sync(ctx, Options{Root: root, Key: "test", Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Extractions().Close()
	flipGraphByte(t, snap, file)
	if g, err := snap.RestoreGraph(); err == nil {
		t.Fatalf("a damaged graph restored, %d edges", len(g.Edges()))
	}
	if g := snap.Graph(); g == nil {
		t.Fatal("Graph gave no graph for a damaged file")
	}
}

// TestDeferredFieldsLast checks that the deferred fields follow every
// field decoded at once, as decodeGraph takes them.
func TestDeferredFieldsLast(t *testing.T) {
	tp := reflect.TypeFor[State]()
	seen := 0
	for _, i := range exported(tp) {
		name := tp.Field(i).Name
		if deferred[name] {
			if _, ok := segmented[name]; !ok {
				t.Errorf("%s is deferred but not segmented", name)
			}
			seen++
		} else if seen > 0 {
			t.Errorf("%s follows a deferred field", name)
		}
	}
	if seen != len(deferred) {
		t.Errorf("%d deferred fields in State, want %d", seen, len(deferred))
	}
}

// TestLazyFilesBare checks that a Lazy Sync's snapshot holds its files
// bare, and that the graph restored afterwards reads them slim: the
// files as Slim keeps them, and a graph equal to a fresh build's.
func TestLazyFilesBare(t *testing.T) {
	root, snap := savedLazy(t, 300)
	defer snap.Extractions().Close()
	files, byPath := freshByPath(t, root)
	if len(snap.Files) != len(files) {
		t.Fatalf("%d files, want %d", len(snap.Files), len(files))
	}
	for i := range snap.Files {
		if f := &snap.Files[i]; !reflect.DeepEqual(*f, Bare(byPath[f.Path])) {
			t.Fatalf("%s is not bare", f.Path)
		}
	}
	want := callgraph.Build(files)
	g, err := snap.RestoreGraph()
	if err != nil {
		t.Fatal(err)
	}
	for i := range snap.Files {
		if f := &snap.Files[i]; !reflect.DeepEqual(*f, Slim(byPath[f.Path])) {
			t.Fatalf("%s, read with the graph, is not slim", f.Path)
		}
	}
	if !reflect.DeepEqual(g.Nodes(), want.Nodes()) || !reflect.DeepEqual(g.Edges(), want.Edges()) ||
		!reflect.DeepEqual(g.Unresolved(), want.Unresolved()) {
		t.Fatal("the graph restored over the files read again differs from a fresh build")
	}
}

// flipGraphByte damages file, snap's graph.bin, in place: one byte of the
// deferred graph's part, near its end.
func flipGraphByte(t *testing.T, snap *Snapshot, file string) {
	t.Helper()
	at := snap.deferred.base + int64(snap.deferred.graph.end) - 3
	f, err := os.OpenFile(file, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := make([]byte, 1)
	if _, err := f.ReadAt(b, at); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte{^b[0]}, at); err != nil {
		t.Fatal(err)
	}
}
