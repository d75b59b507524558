package graphstore

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/fileinfo/fileinfo/callgraph"
)

// TestUnresolvedInWithoutRestore checks that a Lazy Sync's UnresolvedIn
// gives each file's unresolved calls as the restored graph does, without
// restoring it, and as the restored graph after.
func TestUnresolvedInWithoutRestore(t *testing.T) {
	snap, want := savedLazyBuilt(t)
	if want.NumUnresolved() == 0 {
		t.Fatal("the tree has no unresolved calls")
	}
	check := func(when string) {
		t.Helper()
		for _, p := range append(want.Files(), "no/such.py", "") {
			got, err := snap.UnresolvedIn(p)
			if err != nil {
				t.Fatalf("%s: UnresolvedIn(%q): %v", when, p, err)
			}
			if w := want.UnresolvedIn(p); len(got)+len(w) > 0 && !reflect.DeepEqual(got, w) {
				t.Fatalf("%s: UnresolvedIn(%q) = %v, a fresh build's %v", when, p, got, w)
			}
		}
	}
	check("pending")
	if snap.deferred == nil || snap.built != nil {
		t.Fatal("UnresolvedIn restored the graph")
	}
	if _, err := snap.RestoreGraph(); err != nil {
		t.Fatal(err)
	}
	check("restored")
}

// TestUnresolvedInSegments checks the search over many segments: every
// file's calls, those of a file between two, before the first and after
// the last, with a few calls a segment so that runs cross segments.
func TestUnresolvedInSegments(t *testing.T) {
	root := lazyTree(t, 40)
	files, _, _ := fresh(t, root)
	g := callgraph.Build(files)
	for _, per := range []int{1, 2, 3, 7, 8192} {
		var buf bytes.Buffer
		if err := writeUnresolved(&buf, g, per); err != nil {
			t.Fatal(err)
		}
		segs, end, err := segmentSpans(buf.Bytes(), 0)
		if err != nil || end != buf.Len() {
			t.Fatalf("per %d: %v, %d of %d bytes", per, err, end, buf.Len())
		}
		for _, p := range append(g.Files(), "", "pkg/m000.pyz", "pkg/m00", "zzz") {
			got, err := unresolvedInSegments(buf.Bytes(), segs, p)
			if err != nil {
				t.Fatal(err)
			}
			if w := g.UnresolvedIn(p); len(got)+len(w) > 0 && !reflect.DeepEqual(got, w) {
				t.Fatalf("per %d: %q: %d calls, want %d", per, p, len(got), len(w))
			}
		}
	}
}

// TestUnresolvedInDamaged checks that graph.bin damaged in place in the
// graph's part after a Lazy Sync makes UnresolvedIn an error, never an
// answer, for a file not read before the damage.
func TestUnresolvedInDamaged(t *testing.T) {
	root, snap := savedLazy(t, 50)
	defer snap.Extractions().Close()
	before, err := snap.UnresolvedIn("pkg/m002.py")
	if err != nil || len(before) == 0 {
		t.Fatalf("%d calls, %v", len(before), err)
	}
	file := filepath.Join(root, ".artifacts", ".index", FileName)
	flipGraphByte(t, snap, file)
	if u, err := snap.UnresolvedIn("pkg/m001.py"); err == nil {
		t.Fatalf("a damaged graph gave %d unresolved calls", len(u))
	}
	// Read from checked bytes before the damage: kept.
	if u, err := snap.UnresolvedIn("pkg/m002.py"); err != nil || !reflect.DeepEqual(u, before) {
		t.Fatalf("the calls read before the damage: %d, %v", len(u), err)
	}
	if err := os.Truncate(file, snap.deferred.base+int64(snap.deferred.graph.start)); err != nil {
		t.Fatal(err)
	}
	if u, err := snap.UnresolvedIn("pkg/m001.py"); err == nil {
		t.Fatalf("a truncated graph gave %d unresolved calls", len(u))
	}
}

// FuzzUnresolvedOfFile checks that the one-file reader of the deferred
// graph fields never panics on any bytes, and answers only calls of the
// file asked for.
func FuzzUnresolvedOfFile(f *testing.F) {
	root := lazyTree(f, 6)
	ctx := context.Background()
	if _, err := Sync(ctx, Options{Root: root, Key: "test"}); err != nil {
		f.Fatal(err)
	}
	snap, err := Sync(ctx, Options{Root: root, Key: "test", Lazy: true})
	if err != nil {
		f.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, ".artifacts", ".index", FileName))
	if err != nil {
		f.Fatal(err)
	}
	sf := snap.deferred
	f.Add(data[sf.base+int64(sf.graph.start):sf.base+int64(sf.graph.end)], "pkg/m001.py")
	snap.Extractions().Close()
	f.Add([]byte{0, 0, 1, 1, 1, 9}, "a")
	f.Fuzz(func(t *testing.T, buf []byte, file string) {
		us, err := unresolvedOfFile(buf, file)
		if err != nil {
			return
		}
		for _, u := range us {
			if u.File != file {
				t.Fatalf("asked for %q, got a call of %q", file, u.File)
			}
		}
	})
}
