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
// SSA builder, whose names half the module reads. Each is saved two
// ways, alternating with its original so that every Update changes
// something: "body" adds a statement to a function in the middle of the
// file, shifting the lines below it (what most saves do); "api" adds an
// exported function, which every file reading the file's names must see.
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
		for _, edit := range []string{"body", "api"} {
			edited := editedFile(b, dir, orig, edit)
			b.Run(path+"/"+edit, func(b *testing.B) {
				b.ReportAllocs()
				resolved := 0
				versions := []extract.File{*edited, *orig}
				for i := 0; b.Loop(); i++ {
					g.Update(versions[i%2:i%2+1], nil)
					resolved += g.lastResolved
				}
				b.ReportMetric(float64(resolved)/float64(b.N), "files/op")
			})
			g.Update([]extract.File{*orig}, nil)
		}
	}
}

// editedFile extracts orig as saved after an edit: "body" inserts a
// call before the closing brace of the function in the middle of the
// file, "api" appends an exported function. It extracts from a copy of
// the module's go.mod and the edited file, so the module path holds.
func editedFile(tb testing.TB, moduleDir string, orig *extract.File, edit string) *extract.File {
	tb.Helper()
	src, err := os.ReadFile(filepath.Join(moduleDir, orig.Path))
	if err != nil {
		tb.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	switch edit {
	case "body":
		var funcs []extract.Symbol
		for _, s := range orig.Symbols {
			if s.Kind == extract.KindFunction || s.Kind == extract.KindMethod {
				funcs = append(funcs, s)
			}
		}
		end := funcs[len(funcs)/2].EndLine - 1 // the closing brace, 0-based
		lines = append(lines[:end], append([]string{"\tprintln()"}, lines[end:]...)...)
	case "api":
		lines = append(lines, "", "// EditedHelper is new.", "func EditedHelper() {}")
	}
	tmp := tb.TempDir()
	gomod, err := os.ReadFile(filepath.Join(moduleDir, "go.mod"))
	if err != nil {
		tb.Fatal(err)
	}
	full := filepath.Join(tmp, filepath.FromSlash(orig.Path))
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
	f, err := ex.File(context.Background(), orig.Path)
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
