package callgraph

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/fileinfo/fileinfo/extract"
)

var xtools struct {
	once  sync.Once
	files []extract.File
	err   error
}

// xtoolsFiles extracts golang.org/x/tools@v0.39.0 once per test binary,
// or skips tb when the module cannot be fetched.
func xtoolsFiles(tb testing.TB) []extract.File {
	tb.Helper()
	dir := downloadModule(tb, "golang.org/x/tools@v0.39.0")
	xtools.once.Do(func() {
		ex, err := extract.New(dir, extract.Options{})
		if err != nil {
			xtools.err = err
			return
		}
		defer ex.Close()
		xtools.files, _, xtools.err = ex.All(context.Background())
	})
	if xtools.err != nil {
		tb.Fatal(xtools.err)
	}
	return xtools.files
}

// BenchmarkBuildXTools builds the graph of golang.org/x/tools@v0.39.0
// from its extracted files; the bar is 1.5 s and 300 MB. It
// reports the heap the graph keeps (MB-kept) besides allocations.
func BenchmarkBuildXTools(b *testing.B) {
	files := xtoolsFiles(b)
	var g *Graph
	b.ReportAllocs()
	for b.Loop() {
		g = Build(files)
	}
	b.StopTimer()
	g = nil
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	g = Build(files)
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "MB-kept")
	b.ReportMetric(float64(len(g.Edges())), "edges")
	runtime.KeepAlive(g)
}

// BenchmarkBuildToSaveXTools is BenchmarkBuildXTools for a graph built to
// be saved, over a copy of the files each time (the build takes them
// over), their calls given by a source as graphstore gives C's. It
// reports the heap the graph keeps (MB-kept), its files' calls and
// symbols not counted (the benchmark's own files hold them).
func BenchmarkBuildToSaveXTools(b *testing.B) {
	files := xtoolsFiles(b)
	calls := make(map[string][]extract.Call, len(files))
	for _, f := range files {
		calls[f.Path] = f.Calls
	}
	source := func(p string) ([]extract.Call, error) { return calls[p], nil }
	build := func() *Graph {
		taken := make([]extract.File, len(files))
		for i, f := range files {
			f.Calls = nil
			taken[i] = f
		}
		g, err := BuildToSave(context.Background(), taken, source)
		if err != nil {
			b.Fatal(err)
		}
		return g
	}
	var g *Graph
	b.ReportAllocs()
	for b.Loop() {
		g = build()
	}
	b.StopTimer()
	g = nil
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	g = build()
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "MB-kept")
	b.ReportMetric(float64(len(g.Edges())), "edges")
	runtime.KeepAlive(g)
}

// BenchmarkUpdateXTools re-resolves after one file of
// golang.org/x/tools@v0.39.0 changes; the bar is 20 ms. The
// files are a leaf (a small analyzer), a typical library file and the
// SSA builder, whose names half the module reads. Each is saved in the
// ways editedFile makes, alternating with its original so that every
// Update changes something ("new" adds a file beside it, then removes
// it): "body" adds a statement to a function in the middle of the file,
// shifting the lines below it (what most saves do); the others change
// the file's API, which every file reading the file's names must see.
// It reports the process's CPU time per update (cpu-ms/op: every
// thread's, the collector's too), steadier than the time on a loaded
// machine.
func BenchmarkUpdateXTools(b *testing.B) {
	files := xtoolsFiles(b)
	dir := downloadModule(b, "golang.org/x/tools@v0.39.0")
	g := Build(files)
	g.PrepareUpdates() // as a server does after its load, in the background
	for _, path := range []string{
		"go/analysis/passes/bools/bools.go",
		"go/packages/packages.go",
		"go/ssa/builder.go",
	} {
		var orig *extract.File
		for i := range files {
			if files[i].Path == path {
				orig = &files[i]
			}
		}
		if orig == nil {
			b.Fatalf("no %s in x/tools", path)
		}
		for _, edit := range editKinds {
			edited := editedFile(b, dir, orig, edit)
			b.Run(path+"/"+edit, func(b *testing.B) {
				benchEdits(b, g, orig, edited)
			})
		}
	}
}

// editKinds are the edits editedFile makes.
var editKinds = []string{"body", "api", "remove", "rename", "new"}

// benchEdits updates g with edited and back with orig, in turn (a new
// file comes and goes), reporting the files re-resolved and the CPU time
// of each update. g is as it was when it returns.
func benchEdits(b *testing.B, g *Graph, orig, edited *extract.File) {
	b.ReportAllocs()
	update := func(i int) {
		switch {
		case edited.Path != orig.Path && i%2 == 0:
			g.Update([]extract.File{*edited}, nil)
		case edited.Path != orig.Path:
			g.Update(nil, []string{edited.Path})
		case i%2 == 0:
			g.Update([]extract.File{*edited}, nil)
		default:
			g.Update([]extract.File{*orig}, nil)
		}
	}
	resolved, n := 0, 0
	cpu0, cpuOK := processCPU()
	for b.Loop() {
		update(n)
		resolved += g.lastResolved
		n++
	}
	cpu1, ok := processCPU()
	b.StopTimer()
	b.ReportMetric(float64(resolved)/float64(n), "files/op")
	if ok && cpuOK {
		b.ReportMetric(float64(cpu1-cpu0)/1e6/float64(n), "cpu-ms/op")
	}
	if n%2 == 1 {
		update(n)
	}
}

// editedFile extracts orig as saved after an edit: "body" inserts a
// call before the closing brace of the function in the middle of the
// file, "api" appends an exported function, "remove" deletes the last
// function, "rename" renames the function in the middle of the file
// where it is declared, "new" is a new file of the same package beside
// it, declaring a function. It extracts from a copy of the module's
// go.mod and the edited file, so the module path holds.
func editedFile(tb testing.TB, moduleDir string, orig *extract.File, edit string) *extract.File {
	tb.Helper()
	src, err := os.ReadFile(filepath.Join(moduleDir, orig.Path))
	if err != nil {
		tb.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	var funcs []extract.Symbol
	for _, s := range orig.Symbols {
		if s.Kind == extract.KindFunction || s.Kind == extract.KindMethod {
			funcs = append(funcs, s)
		}
	}
	path := orig.Path
	switch edit {
	case "body":
		end := funcs[len(funcs)/2].EndLine - 1 // the closing brace, 0-based
		lines = append(lines[:end], append([]string{"\tprintln()"}, lines[end:]...)...)
	case "api":
		lines = append(lines, "", "// EditedHelper is new.", "func EditedHelper() {}")
	case "remove":
		last := funcs[len(funcs)-1]
		lines = append(lines[:last.StartLine-1], lines[last.EndLine:]...)
	case "rename":
		f := funcs[len(funcs)/2]
		decl := lines[f.StartLine-1]
		if !strings.Contains(decl, " "+f.Name+"(") {
			tb.Fatalf("rename edit of %s: no %s( on line %d: %q", orig.Path, f.Name, f.StartLine, decl)
		}
		lines[f.StartLine-1] = strings.Replace(decl, " "+f.Name+"(", " "+f.Name+"Renamed(", 1)
	case "new":
		var pkg string
		for _, l := range lines {
			if rest, ok := strings.CutPrefix(l, "package "); ok {
				pkg = strings.TrimSpace(rest)
				break
			}
		}
		path = strings.TrimSuffix(orig.Path, ".go") + "_edited.go"
		lines = []string{"package " + pkg, "", "// EditedNew is new.", "func EditedNew() { println() }"}
	default:
		tb.Fatalf("no edit %q", edit)
	}
	tmp := tb.TempDir()
	gomod, err := os.ReadFile(filepath.Join(moduleDir, "go.mod"))
	if err != nil {
		tb.Fatal(err)
	}
	full := filepath.Join(tmp, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "go.mod"), gomod, 0o644); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		tb.Fatal(err)
	}
	ex, err := extract.New(tmp, extract.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	defer ex.Close()
	f, err := ex.File(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	if len(f.Errors) > 0 {
		tb.Fatalf("%s edit of %s has syntax errors: %v", edit, orig.Path, f.Errors)
	}
	return f
}

// BenchmarkUpdateXToolsRestored is BenchmarkUpdateXTools on a graph
// restored from what Build saved, as a server started from its saved
// state holds: "first" is the first update (completing the restored
// graph, then an api edit of go/packages/packages.go), from a graph
// restored anew each time; the others update one completed restored
// graph as BenchmarkUpdateXTools does (its files' lookups unknown: see
// complete).
func BenchmarkUpdateXToolsRestored(b *testing.B) {
	files := xtoolsFiles(b)
	dir := downloadModule(b, "golang.org/x/tools@v0.39.0")
	saved := Build(files).Save()
	restore := func() *Graph {
		r, err := Restore(files, saved)
		if err != nil {
			b.Fatal(err)
		}
		return r
	}
	orig := func(path string) *extract.File {
		for i := range files {
			if files[i].Path == path {
				return &files[i]
			}
		}
		b.Fatalf("no %s in x/tools", path)
		return nil
	}
	api := editedFile(b, dir, orig("go/packages/packages.go"), "api")
	b.Run("first", func(b *testing.B) {
		b.ReportAllocs()
		resolved := 0
		for b.Loop() {
			b.StopTimer()
			g := restore()
			b.StartTimer()
			g.PrepareUpdates()
			g.Update([]extract.File{*api}, nil)
			resolved += g.lastResolved
		}
		b.ReportMetric(float64(resolved)/float64(b.N), "files/op")
	})
	g := restore()
	g.PrepareUpdates()
	for _, path := range []string{"go/analysis/passes/bools/bools.go", "go/packages/packages.go", "go/ssa/builder.go"} {
		o := orig(path)
		for _, edit := range []string{"body", "api"} {
			edited := editedFile(b, dir, o, edit)
			b.Run(path+"/"+edit, func(b *testing.B) {
				b.ReportAllocs()
				resolved := 0
				versions := []extract.File{*edited, *o}
				for i := 0; b.Loop(); i++ {
					g.Update(versions[i%2:i%2+1], nil)
					resolved += g.lastResolved
				}
				b.ReportMetric(float64(resolved)/float64(b.N), "files/op")
			})
			g.Update([]extract.File{*o}, nil)
		}
	}
}
