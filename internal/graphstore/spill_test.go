package graphstore

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// cSource is a C file of n functions, each calling functions of other
// files (declared in a shared header), one of its own and calls
// nothing defines (unresolved).
func cSource(r *rand.Rand, file, files, n int) string {
	var b strings.Builder
	b.WriteString("#include \"api.h\"\n\n")
	for i := range n {
		fmt.Fprintf(&b, "int f%d_%d(int x)\n{\n", file, i)
		for range 6 {
			fmt.Fprintf(&b, "\tx += f%d_%d(x);\n", r.IntN(files), r.IntN(n))
		}
		fmt.Fprintf(&b, "\tx += f%d_%d(x - 1);\n\tmissing_%d(x);\n\treturn x;\n}\n\n", file, (i+1)%n, r.IntN(50))
	}
	return b.String()
}

// cTree writes a C tree of files files of n functions each under root.
func cTree(t testing.TB, root string, files, n int) {
	t.Helper()
	r := rand.New(rand.NewPCG(3, 4))
	var h strings.Builder
	for f := range files {
		for i := range n {
			fmt.Fprintf(&h, "int f%d_%d(int x);\n", f, i)
		}
	}
	write(t, root, "include/api.h", h.String())
	for f := range files {
		write(t, root, fmt.Sprintf("src/d%d/f%d.c", f%7, f), cSource(r, f, files, n))
	}
}

// mixedTree writes a tree of Go, Python, JavaScript and C under root.
func mixedTree(t testing.TB, root string) {
	t.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	const n = 6
	write(t, root, "go.mod", "module example.com/x\n")
	write(t, root, "lib/lib.go", goSource(r, 3))
	for i := range n {
		write(t, root, fmt.Sprintf("pkg/m%d.py", i), pySource(r, i, n))
	}
	write(t, root, "pkg/__init__.py", "")
	write(t, root, "web/a.js", jsSource(r, "a", "b"))
	write(t, root, "web/b.js", jsSource(r, "b", "a"))
	cTree(t, filepath.Join(root, "native"), 12, 4)
	write(t, root, "bad.py", "def f(:\n    g(\n") // a syntax error, extracted anyway
}

// dateTree dates every regular file under root at when.
func dateTree(root string, when time.Time) {
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			os.Chtimes(p, when, when)
		}
		return nil
	})
}

// savedFiles returns what Sync left in root's index directory: graph.bin and
// symbols.idx.
func savedFiles(t *testing.T, root string) (graph, symbols []byte) {
	t.Helper()
	dir := filepath.Join(root, ".artifacts", ".index")
	graph, err := os.ReadFile(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	symbols, err = os.ReadFile(filepath.Join(dir, SymbolsFile))
	if err != nil {
		t.Fatal(err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".graph-run-*"))
	if len(left) > 0 {
		t.Fatalf("run files left behind: %v", left)
	}
	return graph, symbols
}

// TestSpillSameOutput checks that a Sync whose entries go through a run
// file saves the same graph.bin and symbols.idx, byte for byte, and
// returns the same snapshot as one that holds them on the heap: built
// from scratch, then after an edit (a Sync that reuses most entries),
// with batches that do not fall on the run file's segments, with and
// without Each.
func TestSpillSameOutput(t *testing.T) {
	for _, tree := range []string{"mixed", "c"} {
		t.Run(tree, func(t *testing.T) {
			root := t.TempDir()
			if tree == "mixed" {
				mixedTree(t, root)
			} else {
				cTree(t, root, 300, 3)
			}
			when := time.Now().Add(-time.Hour) // as a checkout's: no racy time stamps
			edited := "src/d1/f1.c"
			if tree == "mixed" {
				edited = "pkg/m1.py"
			}
			orig, err := os.ReadFile(filepath.Join(root, edited))
			if err != nil {
				t.Fatal(err)
			}
			type result struct {
				graph, symbols [2][]byte
				files          [2][]extract.File
				edges          [2][]callgraph.Edge
				unresolved     [2][]callgraph.Unresolved
				passed         [2]int
			}
			run := func(hold, each bool) result {
				var res result
				os.RemoveAll(filepath.Join(root, ".artifacts"))
				write(t, root, edited, string(orig))
				dateTree(root, when)
				for step := range 2 {
					if step == 1 {
						write(t, root, edited, string(orig)+"\n\n/* edited */ int added_fn(void) { return 0; }\n")
						if strings.HasSuffix(edited, ".py") {
							write(t, root, edited, string(orig)+"\n\ndef added_fn():\n    return f0()\n")
						}
						dateTree(root, when.Add(time.Minute))
					}
					opt := Options{Root: root, Key: "test", Batch: 37, Hold: hold}
					if each {
						opt.Each = func(_ context.Context, xs []Extracted) error {
							res.passed[step] += len(xs)
							return nil
						}
						opt.Want = func(string, int64, int64) bool { return true }
					}
					snap, err := Sync(context.Background(), opt)
					if err != nil {
						t.Fatal(err)
					}
					res.graph[step], res.symbols[step] = savedFiles(t, root)
					g := snap.Graph()
					res.files[step], res.edges[step], res.unresolved[step] = snap.Files, g.Edges(), g.Unresolved()
				}
				return res
			}
			for _, each := range []bool{false, true} {
				held, spilled := run(true, each), run(false, each)
				for step := range 2 {
					switch {
					case !bytes.Equal(held.graph[step], spilled.graph[step]):
						t.Errorf("each %v, step %d: graph.bin differs: %d bytes held, %d spilled", each, step, len(held.graph[step]), len(spilled.graph[step]))
					case !bytes.Equal(held.symbols[step], spilled.symbols[step]):
						t.Errorf("each %v, step %d: symbols.idx differs", each, step)
					case !reflect.DeepEqual(held.files[step], spilled.files[step]):
						t.Errorf("each %v, step %d: the snapshot's files differ", each, step)
					case !reflect.DeepEqual(held.edges[step], spilled.edges[step]) || !reflect.DeepEqual(held.unresolved[step], spilled.unresolved[step]):
						t.Errorf("each %v, step %d: the graph differs", each, step)
					case held.passed[step] != spilled.passed[step]:
						t.Errorf("each %v, step %d: Each saw %d files held, %d spilled", each, step, held.passed[step], spilled.passed[step])
					}
				}
				if len(held.edges[1]) == 0 || len(held.unresolved[1]) == 0 {
					t.Fatalf("the fixture has %d edges and %d unresolved calls: it tests nothing", len(held.edges[1]), len(held.unresolved[1]))
				}
			}
		})
	}
}

// TestDiscardSavesSame checks that a Sync that lets go of its files and
// graph before writing symbols.idx (Options.Discard) saves what one that
// keeps them does, and returns no files and no graph.
func TestDiscardSavesSame(t *testing.T) {
	root := t.TempDir()
	mixedTree(t, root)
	dateTree(root, time.Now().Add(-time.Hour))
	var graph, symbols [2][]byte
	for i, discard := range []bool{false, true} {
		os.RemoveAll(filepath.Join(root, ".artifacts"))
		snap, err := Sync(context.Background(), Options{Root: root, Discard: discard})
		if err != nil {
			t.Fatal(err)
		}
		graph[i], symbols[i] = savedFiles(t, root)
		if discard && (snap.Files != nil || snap.Graph() != nil) {
			t.Errorf("discarded: %d files, graph %v", len(snap.Files), snap.Graph() != nil)
		}
		if !discard && (len(snap.Files) == 0 || snap.Graph() == nil) {
			t.Errorf("kept: %d files, graph %v", len(snap.Files), snap.Graph() != nil)
		}
	}
	if !bytes.Equal(graph[0], graph[1]) || !bytes.Equal(symbols[0], symbols[1]) {
		t.Error("the saved files differ with Discard")
	}
}

// TestRunFileRemovedOnError checks that a pass stopped by Each's error
// leaves no run file behind, and saves nothing.
func TestRunFileRemovedOnError(t *testing.T) {
	root := t.TempDir()
	cTree(t, root, 40, 2)
	batches := 0
	_, err := Sync(context.Background(), Options{Root: root, Batch: 10, Each: func(context.Context, []Extracted) error {
		if batches++; batches == 2 {
			return fmt.Errorf("stop here")
		}
		return nil
	}})
	if err == nil || !strings.Contains(err.Error(), "stop here") {
		t.Fatalf("Sync: %v, want Each's error", err)
	}
	dir := filepath.Join(root, ".artifacts", ".index")
	if left, _ := filepath.Glob(filepath.Join(dir, ".graph-run-*")); len(left) > 0 {
		t.Errorf("run files left behind: %v", left)
	}
	if _, err := os.Stat(filepath.Join(dir, FileName)); !os.IsNotExist(err) {
		t.Errorf("graph.bin after a stopped pass: %v", err)
	}
}

// liveHeap is the heap in use after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestSpillBoundsHeap checks that the extractions of a pass leave the
// heap batch by batch: the live heap at the last batch's Each is not
// much above the first's, where holding every extraction until the
// graph's build made it grow with the files extracted (5.8 MB over
// this pass, 21 KB a file; spilled it does not grow measurably).
func TestSpillBoundsHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("extracts 300 files")
	}
	root := t.TempDir()
	const files, batch = 300, 30
	cTree(t, root, files, 24)
	var first, last uint64
	batches := 0
	opt := Options{Root: root, Batch: batch, Each: func(_ context.Context, xs []Extracted) error {
		batches++
		h := liveHeap()
		if batches == 1 {
			first = h
		}
		last = h
		return nil
	}}
	if _, err := Sync(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	if batches != files/batch+1 { // the header is a file too
		t.Fatalf("%d batches, want %d", batches, files/batch+1)
	}
	grew := last - min(last, first)
	const bound = 1536 * (files - batch) // bytes: 1.5 KB a file
	t.Logf("heap grew %d KB over the pass (bound %d KB)", grew>>10, bound>>10)
	if grew > bound {
		t.Errorf("the live heap grew %d KB over the pass of %d files, over %d KB: the extractions stay on the heap", grew>>10, files, bound>>10)
	}
}

// TestRunFileDamaged checks that a run file damaged on disk is an error
// naming it when read back or copied, whatever byte is hit.
func TestRunFileDamaged(t *testing.T) {
	root := t.TempDir()
	mixedTree(t, root)
	ex, err := extract.New(root, extract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	files, _, err := ex.All(context.Background())
	ex.Close()
	if err != nil {
		t.Fatal(err)
	}
	var es []Entry
	for i := range files {
		es = append(es, Entry{Path: files[i].Path, Size: int64(i), Hash: "h", File: &files[i]})
	}
	es = append(es, Entry{Path: "gone.c", Skip: "too large"})
	for _, damage := range []string{"flip", "truncate"} {
		for _, at := range []int{0, 1, 100, 1000, -1} {
			r, err := newRunFile(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			if err := r.add(es[:5]); err != nil {
				t.Fatal(err)
			}
			if err := r.add(es[5:]); err != nil {
				t.Fatal(err)
			}
			if err := r.done(); err != nil {
				t.Fatal(err)
			}
			if at == 0 && damage == "flip" {
				got, err := r.entries()
				if err != nil || !reflect.DeepEqual(got, es) {
					t.Fatalf("undamaged run file read back: %v, equal %v", err, reflect.DeepEqual(got, es))
				}
			}
			data, _ := os.ReadFile(r.name)
			pos := at
			if pos < 0 || pos >= len(data) {
				pos = len(data) - 1
			}
			if damage == "flip" {
				data[pos] ^= 0x40
			} else {
				data = data[:pos]
			}
			os.WriteFile(r.name, data, 0o644)
			_, err = r.entries()
			if err == nil || !strings.Contains(err.Error(), r.name) {
				t.Errorf("%s at %d: read back: %v, want an error naming %s", damage, pos, err, r.name)
			}
			if err := r.writeFiles(&bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), r.name) {
				t.Errorf("%s at %d: copied: %v, want an error naming %s", damage, pos, err, r.name)
			}
			r.close()
			if _, err := os.Stat(r.name); !os.IsNotExist(err) {
				t.Errorf("run file %s not removed: %v", r.name, err)
			}
		}
	}
}

// TestSaveStreamsEncode checks that Save, which streams, writes what
// Encode returns, and that a state whose unresolved calls come from the
// graph saves as one that holds them.
func TestSaveStreamsEncode(t *testing.T) {
	root := t.TempDir()
	mixedTree(t, root)
	snap, err := Sync(context.Background(), Options{Root: root, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	g := snap.Graph()
	s := g.Save()
	st := &State{Key: "k", GraphSkipped: s.Skipped, Edges: s.Edges, Unresolved: s.Unresolved}
	for i := range snap.Files {
		st.Files = append(st.Files, Entry{Path: snap.Files[i].Path, File: &snap.Files[i], Hash: snap.Digests[snap.Files[i].Path]})
	}
	want, err := Encode(st)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "g.bin")
	if err := Save(file, st); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(file); !bytes.Equal(got, want) {
		t.Fatalf("Save wrote %d bytes, Encode gives %d, or they differ", len(got), len(want))
	}
	lean := *st
	lean.Unresolved = nil
	if err := saveState(file, &lean, saveFrom{graph: g}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(file); !bytes.Equal(got, want) {
		t.Fatal("unresolved calls streamed from the graph save otherwise than held")
	}
	if len(s.Unresolved) == 0 {
		t.Fatal("no unresolved calls: the fixture tests nothing")
	}
	if err := Save(filepath.Join(dir, "missing", "\x00", "g.bin"), st); err == nil {
		t.Error("Save to a bad path: no error")
	}
}

// FuzzRunSegment checks that decoding any bytes as a run file's segment
// never panics, and that what decodes encodes again to a segment that
// decodes to the same entries.
func FuzzRunSegment(f *testing.F) {
	root := f.TempDir()
	write(f, root, "m.py", "import os\n\ndef f(a):\n    x = g(a, k=[a.b, *a])\n    return os.path.join(x)\n")
	write(f, root, "a.c", "#include <x.h>\nint f(int a) { return g(a) + h(a->b); }\n")
	ex, err := extract.New(root, extract.Options{})
	if err != nil {
		f.Fatal(err)
	}
	files, _, err := ex.All(context.Background())
	ex.Close()
	if err != nil {
		f.Fatal(err)
	}
	r, err := newRunFile(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	defer r.close()
	var es []Entry
	for i := range files {
		es = append(es, Entry{Path: files[i].Path, ModTime: time.Now().UnixNano(), File: &files[i]})
	}
	r.add(append(es, Entry{Path: "x", Skip: "why"}))
	r.done()
	seg, err := r.segment(0, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seg, uint8(len(es)+1))
	f.Add([]byte{1, 0}, uint8(1))
	f.Add([]byte{}, uint8(0))
	full, err := planOf(reflect.TypeFor[Entry]())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, rec []byte, n uint8) {
		out := make([]Entry, n)
		if err := decodeRunSegment(rec, out, full); err != nil {
			return
		}
		again, err := newRunFile(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		defer again.close()
		if err := again.add(out); err != nil {
			t.Fatal(err)
		}
		back, err := again.entries()
		if err != nil {
			t.Fatalf("decoded entries do not read back: %v", err)
		}
		if len(back) != len(out) {
			t.Fatalf("%d entries read back, %d written", len(back), len(out))
		}
	})
}

// BenchmarkRunFile spills the entries of a C tree (300 files of 12
// functions) and reads them back, as Sync does between a pass and the
// graph's build.
func BenchmarkRunFile(b *testing.B) {
	root := b.TempDir()
	cTree(b, root, 300, 12)
	ex, err := extract.New(root, extract.Options{})
	if err != nil {
		b.Fatal(err)
	}
	files, _, err := ex.All(context.Background())
	ex.Close()
	if err != nil {
		b.Fatal(err)
	}
	es := make([]Entry, len(files))
	for i := range files {
		es[i] = Entry{Path: files[i].Path, Size: 1, ModTime: 2, Hash: "0123456789abcdef", File: &files[i]}
	}
	dir := b.TempDir()
	b.ReportAllocs()
	var size int64
	for b.Loop() {
		r, err := newRunFile(dir)
		if err != nil {
			b.Fatal(err)
		}
		for lo := 0; lo < len(es); lo += 37 {
			if err := r.add(es[lo:min(lo+37, len(es))]); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := r.entries(); err != nil {
			b.Fatal(err)
		}
		size = r.off
		r.close()
	}
	b.ReportMetric(float64(size)/float64(len(es)), "run-bytes/file")
}
