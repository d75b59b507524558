package graphstore

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// buildTree writes a tree whose extraction has what a build decode
// leaves out and what it must keep: C with doc comments and syntax
// errors, JavaScript typed by JSDoc @param (which the build reads), Go
// and Python.
func buildTree(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	write(t, root, "lib/server.js", `class App {
  listen(port) {}
}
class Other {
  listen() {}
}
/**
 * @param {App} app the application
 * @param {?Other=} [other]
 */
function start(app, other) {
  app.listen(80);
  other.listen();
}
module.exports = { App, Other, start };
`)
	for i := range 3 {
		var b strings.Builder
		fmt.Fprintf(&b, "#include \"h%d.h\"\n", (i+1)%3)
		for k := range 20 {
			fmt.Fprintf(&b, "/**\n * f%d_%d() - %s\n */\nint f%d_%d(int a) { return f%d_%d(a) + g(a; }\n", i, k, strings.Repeat("does a thing ", 20), i, k, (i+1)%3, k)
		}
		write(t, root, fmt.Sprintf("c/f%d.c", i), b.String())
		write(t, root, fmt.Sprintf("c/h%d.h", i), fmt.Sprintf("/* h%d */\nint f%d_0(int a);\n", i, i))
	}
	write(t, root, "go.mod", "module example.com/x\n")
	write(t, root, "g/g.go", "package g\n\n// F does.\nfunc F() { G() }\n\n// G does.\nfunc G() {}\n")
	write(t, root, "p/m.py", "def f():\n    \"\"\"Doc.\"\"\"\n    g(\n\ndef g():\n    pass\n")
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			os.Chtimes(p, old, old)
		}
		return nil
	})
	return root
}

// spilled extracts the files of root into a run file and returns it.
func spilled(t testing.TB, root string) (*runFile, []extract.File) {
	t.Helper()
	ex, err := extract.New(root, extract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	files, _, err := ex.All(context.Background())
	ex.Close()
	if err != nil {
		t.Fatal(err)
	}
	r, err := newRunFile(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.close)
	var es []Entry
	for i := range files {
		es = append(es, Entry{Path: files[i].Path, Size: int64(i), ModTime: time.Now().UnixNano(), Hash: "h", File: &files[i]})
	}
	if err := r.add(append(es, Entry{Path: "z.bin", Skip: "binary"})); err != nil {
		t.Fatal(err)
	}
	return r, files
}

// TestBuildDecodeEqualsForBuild checks that a run file's entries decoded
// for the build are its entries with each file ForBuild, and that the
// graph built over them is the one built over the whole extractions.
func TestBuildDecodeEqualsForBuild(t *testing.T) {
	r, files := spilled(t, buildTree(t))
	whole, err := r.entries()
	if err != nil {
		t.Fatal(err)
	}
	built, err := r.buildEntries()
	if err != nil {
		t.Fatal(err)
	}
	if len(built) != len(whole) {
		t.Fatalf("%d entries for the build, %d whole", len(built), len(whole))
	}
	var docs, errs int
	var full, forBuild []extract.File
	for i := range whole {
		a, b := built[i], whole[i]
		if (a.File == nil) != (b.File == nil) {
			t.Fatalf("entry %s: file %v for the build, %v whole", b.Path, a.File, b.File)
		}
		if b.File != nil {
			if want := ForBuild(b.File); !reflect.DeepEqual(*a.File, want) {
				t.Fatalf("%s decoded for the build differs from ForBuild of it whole", b.Path)
			}
			errs += len(b.File.Errors) - len(a.File.Errors)
			for k := range b.File.Symbols {
				if a.File.Symbols[k].Doc != b.File.Symbols[k].Doc {
					docs++
				}
				if strings.Contains(a.File.Symbols[k].Doc, "@param") != (b.File.Language == "javascript" && strings.Contains(b.File.Symbols[k].Doc, "@param")) {
					t.Errorf("%s: a JavaScript symbol's doc left out", b.Path)
				}
			}
			full, forBuild = append(full, *b.File), append(forBuild, *a.File)
		}
		a.File, b.File = nil, nil
		if a != b {
			t.Fatalf("entry %+v for the build, %+v whole", a, b)
		}
	}
	if docs == 0 || errs == 0 {
		t.Fatalf("the build decode left out %d docs and %d syntax errors: the tree has some of each", docs, errs)
	}
	if len(files) != len(full) {
		t.Fatalf("%d files extracted, %d read back", len(files), len(full))
	}
	g, h := callgraph.Build(full), callgraph.Build(forBuild)
	for _, c := range []struct {
		what string
		a, b any
	}{
		{"nodes", g.Nodes(), h.Nodes()},
		{"edges", g.Edges(), h.Edges()},
		{"unresolved", g.Unresolved(), h.Unresolved()},
		{"skipped", g.Skipped(), h.Skipped()},
	} {
		if !reflect.DeepEqual(c.a, c.b) {
			t.Errorf("the graph built over the build decode has other %s", c.what)
		}
	}
	if len(g.Edges()) < 40 {
		t.Errorf("%d edges: the tree's calls did not resolve", len(g.Edges()))
	}
}

// allocated returns the bytes f allocates on the heap.
func allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestBuildDecodeSmaller checks the build decode allocates less than
// the whole one on files with docs and syntax errors.
func TestBuildDecodeSmaller(t *testing.T) {
	r, _ := spilled(t, buildTree(t))
	whole := allocated(func() { r.entries() })
	built := allocated(func() { r.buildEntries() })
	t.Logf("allocated: whole %d, for the build %d", whole, built)
	if built*10 > whole*9 {
		t.Errorf("the build decode allocated %d bytes, the whole one %d: want under 90%%", built, whole)
	}
}

// TestDiscardSavesAsHold checks a Sync for `fileinfo index` (Discard:
// the graph built over the build decode, the symbols index over the
// files read again slim) saves the same graph.bin and symbols.idx as
// one that holds every extraction whole.
func TestDiscardSavesAsHold(t *testing.T) {
	root := buildTree(t)
	saved := map[bool][2][]byte{}
	for _, discard := range []bool{false, true} {
		dir := t.TempDir()
		if _, err := Sync(context.Background(), Options{Root: root, Dir: dir, Discard: discard, Hold: !discard}); err != nil {
			t.Fatal(err)
		}
		g, err := os.ReadFile(filepath.Join(dir, FileName))
		if err != nil {
			t.Fatal(err)
		}
		s, err := os.ReadFile(filepath.Join(dir, SymbolsFile))
		if err != nil {
			t.Fatal(err)
		}
		saved[discard] = [2][]byte{g, s}
	}
	if string(saved[true][0]) != string(saved[false][0]) {
		t.Error("graph.bin differs")
	}
	if string(saved[true][1]) != string(saved[false][1]) {
		t.Error("symbols.idx differs")
	}
	if !strings.Contains(string(saved[true][1]), "does a thing") {
		t.Error("symbols.idx has no C doc")
	}
}

// FuzzBuildDecode: a run file's segment decoded for the build is an
// error or entries, never a panic; when it decodes whole, it decodes
// for the build to ForBuild of each file.
func FuzzBuildDecode(f *testing.F) {
	seedSegments(f)
	full, err := planOf(reflect.TypeFor[Entry]())
	if err != nil {
		f.Fatal(err)
	}
	bp, err := buildEntryPlan()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, rec []byte, n uint8) {
		built := make([]Entry, n)
		berr := decodeRunSegment(rec, built, bp)
		whole := make([]Entry, n)
		if err := decodeRunSegment(rec, whole, full); err != nil {
			return
		}
		if berr != nil {
			t.Fatalf("decodes whole, not for the build: %v", berr)
		}
		for i := range whole {
			if whole[i].File != nil && !reflect.DeepEqual(*built[i].File, ForBuild(whole[i].File)) {
				t.Fatalf("file %d for the build differs from ForBuild of it whole", i)
			}
		}
	})
}

// TestDiscardBuildsOverBuildDecode checks a Sync for `fileinfo index`
// builds its graph over the files decoded for the build: no syntax
// errors, no C docs, JavaScript's kept.
func TestDiscardBuildsOverBuildDecode(t *testing.T) {
	root := buildTree(t)
	var got []extract.File
	buildHook = func(files []extract.File) { got = slices.Clone(files) } // the build takes files over
	defer func() { buildHook = nil }()
	if _, err := Sync(context.Background(), Options{Root: root, Discard: true}); err != nil {
		t.Fatal(err)
	}
	js := false
	for _, f := range got {
		if len(f.Errors) > 0 {
			t.Errorf("%s: %d syntax errors handed to the build", f.Path, len(f.Errors))
		}
		for _, s := range f.Symbols {
			switch {
			case f.Language == "javascript" && strings.Contains(s.Doc, "@param"):
				js = true
			case f.Language == "c" && s.Doc != "":
				t.Errorf("%s: %s's doc handed to the build", f.Path, s.Name)
			}
		}
	}
	if len(got) == 0 || !js {
		t.Errorf("%d files built, JavaScript's docs kept: %v", len(got), js)
	}
}

// seedSegments adds the segments of buildTree's run file to f's corpus,
// each with its count of entries, and a segment that claims one entry
// and holds none.
func seedSegments(f *testing.F) {
	f.Helper()
	r, _ := spilled(f, buildTree(f))
	if err := r.done(); err != nil {
		f.Fatal(err)
	}
	for j := range r.segs {
		seg, err := r.segment(j, nil)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(seg, uint8(r.segs[j].n))
	}
	f.Add([]byte{1, 0}, uint8(1))
}

// buildEntryPlan returns the plan of an Entry whose File is decoded for
// the build with every file's calls (see ForBuild): what Sync decoded
// before C's calls were streamed (streamedEntries), kept as the
// reference the build decode's tests hold it to.
func buildEntryPlan() (*plan, error) {
	buildOnce.Do(func() { buildEnt, buildErr = makeBuildEntryPlan(nil) })
	return buildEnt, buildErr
}

var (
	buildOnce sync.Once
	buildEnt  *plan
	buildErr  error
)

// buildEntries reads every entry back as entries does, each file
// decoded for the graph's build only (see buildEntryPlan).
func (r *runFile) buildEntries() ([]Entry, error) {
	p, err := buildEntryPlan()
	if err != nil {
		return nil, err
	}
	return r.entriesAs(p)
}
