package callgraph

import (
	"context"
	"runtime"
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

// BenchmarkUpdateXTools re-resolves after one file of
// golang.org/x/tools@v0.39.0 changes; the bar is 20 ms. The
// files are a leaf (a small analyzer), a typical library file and the
// SSA builder, whose names half the module reads.
func BenchmarkUpdateXTools(b *testing.B) {
	files := xtoolsFiles(b)
	g := Build(files)
	for _, path := range []string{
		"go/analysis/passes/bools/bools.go",
		"go/packages/packages.go",
		"go/ssa/builder.go",
	} {
		var f *extract.File
		for i := range files {
			if files[i].Path == path {
				f = &files[i]
			}
		}
		if f == nil {
			b.Fatalf("no %s in x/tools", path)
		}
		b.Run(path, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				g.Update([]extract.File{*f}, nil)
			}
		})
	}
}
