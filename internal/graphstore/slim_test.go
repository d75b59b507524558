package graphstore

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSlimDecodeEqualsSlim checks the load for Extractions decodes each
// file as Bare keeps it, and the read with the graph (slimFiles) as Slim
// does, with strings of their own (the file is unmapped after each: a
// string pointing into it would fault here), and the rest of the state
// as a full load does, the graph's edges and unresolved calls read after
// (see decodeStateSpans).
func TestSlimDecodeEqualsSlim(t *testing.T) {
	root := lazyTree(t, 300)
	if _, err := Sync(context.Background(), Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, ".artifacts", ".index", FileName)
	full, err := Load(file)
	if err != nil {
		t.Fatal(err)
	}
	slim, sf, err := load(file, true)
	if err != nil {
		t.Fatal(err)
	}
	defer sf.f.Close()
	runtime.GC()
	if len(slim.Files) != len(full.Files) {
		t.Fatalf("%d files slim, %d full", len(slim.Files), len(full.Files))
	}
	places := 0
	for i := range full.Files {
		if f := slim.Files[i].File; f != nil {
			places += len(f.Places)
		}
		a, b := slim.Files[i], full.Files[i]
		if a.File == nil || b.File == nil {
			if a.File != b.File {
				t.Fatalf("%s: slim %v, full %v", b.Path, a.File, b.File)
			}
			continue
		}
		if want := Bare(b.File); !reflect.DeepEqual(*a.File, want) {
			t.Fatalf("%s decoded slim differs from Bare of its full decode", b.Path)
		}
		a.File, b.File = nil, nil
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("entry %s: slim %+v, full %+v", b.Path, a, b)
		}
		if s := slim.Files[i].File; strings.Clone(s.Path+s.Language+s.Module) != s.Path+s.Language+s.Module {
			t.Fatal("a string changed")
		}
	}
	if places == 0 {
		t.Fatal("no file decoded slim kept its places (lib/places.go has one)")
	}
	// The files read slim when the graph is restored: Slim of each, with
	// strings of their own too.
	again, err := sf.slimFiles()
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	k := 0
	for i := range full.Files {
		if f := full.Files[i].File; f != nil {
			if !reflect.DeepEqual(again[k], Slim(f)) {
				t.Fatalf("%s read slim differs from Slim of its full decode", f.Path)
			}
			// Every string read, whole: one lent from the unmapped file
			// faults or differs.
			for _, s := range again[k].Symbols {
				if strings.Clone(s.Name+s.Qualified+s.Signature+s.Doc) != s.Name+s.Qualified+s.Signature+s.Doc {
					t.Fatal("a string changed")
				}
			}
			k++
		}
	}
	slim.Files, full.Files = nil, nil
	if slim.Edges != nil || slim.Unresolved != nil {
		t.Error("the slim load decoded the graph's edges or unresolved calls")
	}
	if err := sf.loadGraph(slim); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(slim, full) {
		t.Error("the rest of the state differs between the slim and the full load")
	}
}

// TestSlimLoadAllocates checks the load for Extractions allocates well
// under a full load: neither the payload (mapped) nor the files' calls,
// imports, references and expression tables (read past) go on the heap.
func TestSlimLoadAllocates(t *testing.T) {
	root := lazyTree(t, 300)
	if _, err := Sync(context.Background(), Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, ".artifacts", ".index", FileName)
	info, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	allocated := func(f func()) uint64 {
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		f()
		runtime.ReadMemStats(&b)
		return b.TotalAlloc - a.TotalAlloc
	}
	full := allocated(func() {
		if _, err := Load(file); err != nil {
			t.Fatal(err)
		}
	})
	slim := allocated(func() {
		_, sf, err := load(file, true)
		if err != nil {
			t.Fatal(err)
		}
		sf.f.Close()
	})
	t.Logf("file %d bytes; allocated: full load %d, slim %d", info.Size(), full, slim)
	if slim*2 > full {
		t.Errorf("the slim load allocated %d bytes, the full one %d: want under half", slim, full)
	}
}

// TestLazyStatChangedSavesWhole checks a Lazy Sync that only sees time
// stamps change (a touch) saves the files whole, read again from the
// file it loaded slim, and stays lazy.
func TestLazyStatChangedSavesWhole(t *testing.T) {
	root := lazyTree(t, 300)
	ctx := context.Background()
	if _, err := Sync(ctx, Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	older := time.Now().Add(-2 * time.Hour)
	os.Chtimes(filepath.Join(root, "pkg/m150.py"), older, older)
	snap, err := Sync(ctx, Options{Root: root, Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	if snap.Extractions() == nil {
		t.Fatal("a touch made the Sync not lazy")
	}
	defer snap.Extractions().Close()
	st, err := Load(filepath.Join(root, ".artifacts", ".index", FileName))
	if err != nil {
		t.Fatal(err)
	}
	_, byPath := freshByPath(t, root)
	touched := false
	for _, e := range st.Files {
		if e.File == nil {
			continue
		}
		if !reflect.DeepEqual(e.File, byPath[e.Path]) {
			t.Fatalf("%s saved differs from a fresh extraction", e.Path)
		}
		touched = touched || e.Path == "pkg/m150.py" && e.ModTime == older.UnixNano()
	}
	if !touched {
		t.Error("the new time stamp was not saved")
	}
}

// TestLazyChangedBuildsFromWhole checks a Lazy Sync that extracts a file
// and builds the graph whole builds it and saves its state from the
// other files whole. (One that updates the saved graph:
// TestUpdateEqualsBuild.)
func TestLazyChangedBuildsFromWhole(t *testing.T) {
	buildWhole(t)
	root := lazyTree(t, 300)
	ctx := context.Background()
	if _, err := Sync(ctx, Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	write(t, root, "pkg/m007.py", "def h():\n    g()\n")
	snap, err := Sync(ctx, Options{Root: root, Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	files, _, _ := fresh(t, root)
	if !reflect.DeepEqual(snap.Files, files) {
		t.Fatal("the files of a Lazy Sync that extracted differ from a fresh extraction")
	}
	_, saved := loadSaved(t, root)
	if !reflect.DeepEqual(saved, files) {
		t.Error("the state saved differs from a fresh extraction")
	}
}

// TestFaultsIsAnError checks a read of a mapping past the end of its
// file, truncated since it was mapped, is an error, not a crash.
func TestFaultsIsAnError(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("mappings of truncated files fault on Linux")
	}
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, make([]byte, 1<<16), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	data, err := syscall.Mmap(int(f.Fd()), 0, 1<<16, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		t.Skip(err)
	}
	defer syscall.Munmap(data)
	if err := os.Truncate(file, 0); err != nil {
		t.Fatal(err)
	}
	err = faults(func() error {
		sum := 0
		for _, b := range data {
			sum += int(b)
		}
		if sum < 0 {
			return os.ErrInvalid
		}
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "changed while read") {
		t.Errorf("faults = %v; want a fault as an error", err)
	}
	if err := faults(func() error { return nil }); err != nil {
		t.Error(err)
	}
}

// FuzzDecodeSlim: a payload decoded slim is an error or a state, never a
// panic; when it decodes whole, it decodes slim to Bare of each file,
// and its deferred graph, read after, to the whole decode's.
func FuzzDecodeSlim(f *testing.F) {
	root := lazyTree(f, 2) // f.TempDir: removed when the fuzz test ends
	if _, err := Sync(context.Background(), Options{Root: root}); err == nil {
		if data, err := os.ReadFile(filepath.Join(root, ".artifacts", ".index", FileName)); err == nil {
			f.Add(data[headerSize:])
		}
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, payload []byte) {
		slim, _, part, serr := decodeStateSpans(payload, true)
		var gerr error
		if serr == nil {
			gerr = decodeGraph(payload[part.start:part.end], slim)
		}
		full, _, _, err := decodeStateSpans(payload, false)
		if err != nil {
			return
		}
		if serr != nil {
			t.Fatalf("decodes whole, not slim: %v", serr)
		}
		if gerr != nil {
			t.Fatalf("decodes whole, not its graph read after: %v", gerr)
		}
		if !reflect.DeepEqual(slim.Edges, full.Edges) || !reflect.DeepEqual(slim.Unresolved, full.Unresolved) {
			t.Fatal("the graph read after differs from the whole decode's")
		}
		if part.n["Edges"] != len(full.Edges) || part.n["Unresolved"] != len(full.Unresolved) {
			t.Fatalf("counts %v, decoded %d edges, %d unresolved", part.n, len(full.Edges), len(full.Unresolved))
		}
		for i, e := range full.Files {
			if e.File != nil && !reflect.DeepEqual(*slim.Files[i].File, Bare(e.File)) {
				t.Fatalf("file %d slim differs from Bare of it whole", i)
			}
		}
	})
}
