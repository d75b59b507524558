package graphstore

import (
	"context"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// lazyTree writes a tree of n Python modules (more than a segment of
// files) and a Go package, dated an hour ago so that Sync trusts their
// time stamps.
func lazyTree(t testing.TB, n int) string {
	t.Helper()
	r := rand.New(rand.NewPCG(3, 4))
	root := t.TempDir()
	write(t, root, "go.mod", "module example.com/x\n")
	write(t, root, "lib/lib.go", goSource(r, 3))
	write(t, root, "pkg/__init__.py", "")
	for i := range n {
		write(t, root, fmt.Sprintf("pkg/m%03d.py", i), pySource(r, i, n))
	}
	old := time.Now().Add(-time.Hour)
	filepath.Walk(root, func(p string, _ os.FileInfo, _ error) error { return os.Chtimes(p, old, old) })
	return root
}

// freshByPath extracts root afresh (fresh) and returns the files and
// each by its path.
func freshByPath(t *testing.T, root string) ([]extract.File, map[string]*extract.File) {
	t.Helper()
	files, _, _ := fresh(t, root)
	byPath := make(map[string]*extract.File, len(files))
	for i := range files {
		byPath[files[i].Path] = &files[i]
	}
	return files, byPath
}

// savedLazy saves a lazyTree of n modules, then loads it again as serve
// does (Lazy, nothing changed), and returns its root and snapshot.
func savedLazy(t *testing.T, n int) (string, *Snapshot) {
	t.Helper()
	root := lazyTree(t, n)
	ctx := context.Background()
	if _, err := Sync(ctx, Options{Root: root, Key: "test"}); err != nil {
		t.Fatal(err)
	}
	snap, err := Sync(ctx, Options{Root: root, Key: "test", Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	return root, snap
}

// TestLazyEqualsFull checks that a Lazy Sync of an unchanged tree gives
// bare files (slim once the graph is read), a restored graph that answers as a fresh build, and saved
// extractions equal to a fresh extraction, one at a time, in bulk and
// all at once.
func TestLazyEqualsFull(t *testing.T) {
	root, snap := savedLazy(t, 300)
	x := snap.Extractions()
	if x == nil {
		t.Fatal("an unchanged Lazy Sync gave no Extractions")
	}
	defer x.Close()
	files, byPath := freshByPath(t, root)
	if len(snap.Files) != len(files) {
		t.Fatalf("%d files, want %d", len(snap.Files), len(files))
	}
	for i := range snap.Files {
		f := &snap.Files[i]
		if f.Calls != nil || f.Imports != nil || f.Refs != nil || f.Bindings != nil {
			t.Fatalf("%s is not slim", f.Path)
		}
		if want := Bare(byPath[f.Path]); !reflect.DeepEqual(*f, want) {
			t.Fatalf("bare %s differs from the fresh one's", f.Path)
		}
	}
	g, want := snap.Graph(), callgraph.Build(files)
	for i := range snap.Files {
		f := &snap.Files[i]
		if want := Slim(byPath[f.Path]); !reflect.DeepEqual(*f, want) {
			t.Fatalf("slim %s, read with the graph, differs from the fresh one's", f.Path)
		}
	}
	if !g.Restored() || !reflect.DeepEqual(g.Nodes(), want.Nodes()) || !reflect.DeepEqual(g.Edges(), want.Edges()) ||
		!reflect.DeepEqual(g.Unresolved(), want.Unresolved()) {
		t.Fatal("the graph restored over slim files differs from a fresh build")
	}
	for id := range g.Len() {
		if a, b := g.Signature(callgraph.SymbolID(id)), want.Signature(callgraph.SymbolID(id)); a != b {
			t.Fatalf("node %d: signature %q, fresh %q", id, a, b)
		}
	}
	for _, p := range []string{"pkg/m000.py", "pkg/m299.py", "pkg/m150.py", "lib/lib.go", "pkg/m000.py"} {
		f, err := x.File(p)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(f, byPath[p]) {
			t.Fatalf("%s read back differs from a fresh extraction", p)
		}
	}
	if _, err := x.File("pkg/none.py"); err == nil {
		t.Error("a file not saved was read")
	}
	some := []string{"pkg/m299.py", "pkg/m001.py", "pkg/m200.py", "pkg/none.py"}
	got := map[string]bool{}
	if err := x.Files(some, func(f *extract.File) {
		got[f.Path] = true
		if !reflect.DeepEqual(f, byPath[f.Path]) {
			t.Errorf("%s read in bulk differs from a fresh extraction", f.Path)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Errorf("bulk read gave %v, want the three saved files", got)
	}
	all, err := x.All()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(files) {
		t.Fatalf("All: %d files, want %d", len(all), len(files))
	}
	for i := range all {
		if !reflect.DeepEqual(&all[i], byPath[all[i].Path]) {
			t.Fatalf("All: %s differs from a fresh extraction", all[i].Path)
		}
	}
}

// TestLazyOnlyUnchanged checks that Extractions comes only with an
// unchanged tree: a Sync that extracts and builds the graph whole holds
// the full files it built its graph from. (One that updates the saved
// graph reads its state back slim: TestUpdateReadsBackLazy.)
func TestLazyOnlyUnchanged(t *testing.T) {
	buildWhole(t)
	root := lazyTree(t, 3)
	ctx := context.Background()
	snap, err := Sync(ctx, Options{Root: root, Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	if snap.Extractions() != nil {
		t.Error("a first Sync gave Extractions")
	}
	write(t, root, "pkg/m001.py", "def h():\n    pass\n")
	if snap, err = Sync(ctx, Options{Root: root, Lazy: true}); err != nil {
		t.Fatal(err)
	}
	if snap.Extractions() != nil {
		t.Error("a Sync that extracted gave Extractions")
	}
	for _, f := range snap.Files {
		if f.Path == "pkg/m002.py" && f.Calls == nil {
			t.Error("files are slim after a Sync that extracted")
		}
	}
}

// TestLazyReadsLoadedFile checks that a read sees the graph.bin Sync
// loaded, not the one saved since (a rename over it), and that a
// segment damaged in place since its load is an error, never an
// extraction.
func TestLazyReadsLoadedFile(t *testing.T) {
	root := lazyTree(t, 300)
	ctx := context.Background()
	if _, err := Sync(ctx, Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	snap, err := Sync(ctx, Options{Root: root, Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	x := snap.Extractions()
	defer x.Close()
	want, _, _ := fresh(t, root)
	// Another save replaces graph.bin: a file edited, the state saved.
	write(t, root, "pkg/m000.py", "def changed():\n    pass\n")
	// Dated back: the Sync that follows saves its time, and the next one
	// has nothing to save (a save would replace the file damaged below).
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(root, "pkg/m000.py"), old, old)
	if _, err := Sync(ctx, Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	f, err := x.File("pkg/m000.py")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(f.Symbols, want[slicesIndex(want, "pkg/m000.py")].Symbols) {
		t.Error("the read saw the graph.bin saved after the load")
	}

	// Damage in place, in the bytes of the last segment of files.
	again, err := Sync(ctx, Options{Root: root, Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	y := again.Extractions()
	if y == nil {
		t.Fatal("no Extractions")
	}
	defer y.Close()
	sp := y.saved.spans[len(y.saved.spans)-1]
	file := filepath.Join(root, ".artifacts", ".index", FileName)
	fh, err := os.OpenFile(file, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fh.WriteAt([]byte{0xff, 0xfe, 0xfd}, y.saved.base+int64(sp.start+(sp.end-sp.start)/2)); err != nil {
		t.Fatal(err)
	}
	fh.Close()
	if _, err := y.File("pkg/m299.py"); err == nil || !strings.Contains(err.Error(), "changed since it was loaded") {
		t.Errorf("a damaged segment read: %v", err)
	}
	if _, err := y.All(); err == nil {
		t.Error("All read a damaged segment")
	}
	if _, err := y.File("pkg/m001.py"); err != nil { // another segment
		t.Errorf("an undamaged segment: %v", err)
	}
}

func slicesIndex(files []extract.File, p string) int {
	for i := range files {
		if files[i].Path == p {
			return i
		}
	}
	return -1
}

// FuzzExtractions: a segment of any bytes, with a checksum that passes,
// decodes to an error or to entries, never a panic or a hang.
func FuzzExtractions(f *testing.F) {
	root := lazyTree(&testing.T{}, 2)
	if _, err := Sync(context.Background(), Options{Root: root}); err == nil {
		if data, err := os.ReadFile(filepath.Join(root, ".artifacts", ".index", FileName)); err == nil {
			f.Add(data[headerSize:])
		}
	}
	f.Add([]byte{0})
	f.Fuzz(func(t *testing.T, seg []byte) {
		file := filepath.Join(t.TempDir(), "seg")
		if err := os.WriteFile(file, seg, 0o644); err != nil {
			t.Fatal(err)
		}
		fh, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		sf := &openState{f: fh, name: file, spans: []span{{0, 3, 0, len(seg)}}, sums: []uint32{crc32.Checksum(seg, castagnoli)}}
		x := newExtractions(sf, []Entry{{Path: "a", File: &extract.File{}}, {Path: "b", File: &extract.File{}}, {Path: "c", File: &extract.File{}}})
		defer x.Close()
		x.File("b")
		x.All()
		x.Files([]string{"a", "c"}, func(*extract.File) {})
	})
}

// savedLazyBuilt is savedLazy over 300 files, whose Extractions the test's
// end closes, and the graph a fresh build of the tree gives, to compare
// the deferred graph with.
func savedLazyBuilt(t *testing.T) (*Snapshot, *callgraph.Graph) {
	t.Helper()
	root, snap := savedLazy(t, 300)
	x := snap.Extractions()
	t.Cleanup(func() { x.Close() })
	files, _, _ := fresh(t, root)
	return snap, callgraph.Build(files)
}
