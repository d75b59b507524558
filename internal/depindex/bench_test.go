package depindex

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/docsearch/embed"
	"github.com/fileinfo/fileinfo/internal/deps"
)

// xtoolsDeps resolves golang.org/x/tools@v0.42.0's direct dependencies
// from its go.mod in the module cache, skipping the benchmark when that
// or none of them is on disk (go mod download fetches them).
func xtoolsDeps(b *testing.B) []deps.Dep {
	b.Helper()
	tools, err := deps.Resolve(filepath.Join("..", ".."), deps.Options{All: true})
	if err != nil {
		b.Fatal(err)
	}
	i := slices.IndexFunc(tools, func(d deps.Dep) bool { return d.Name == "golang.org/x/tools" && d.Status == deps.Present })
	if i < 0 {
		b.Skip("golang.org/x/tools is not in the module cache")
	}
	root := b.TempDir()
	data, err := os.ReadFile(filepath.Join(tools[i].Dir, "go.mod"))
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), data, 0o644); err != nil {
		b.Fatal(err)
	}
	ds, err := deps.Resolve(root, deps.Options{})
	if err != nil {
		b.Fatal(err)
	}
	var present []deps.Dep
	for _, d := range ds {
		if d.Status == deps.Present {
			present = append(present, d)
		} else {
			b.Logf("not on disk: %s (%s)", d.ID(), d.Fetch)
		}
	}
	if len(present) == 0 {
		b.Skip("none of x/tools' dependencies is in the module cache")
	}
	return present
}

func openBench(b *testing.B) *docsearch.Index {
	b.Helper()
	ix, err := OpenIndex(context.Background(), "", embed.Default(), docsearch.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return ix
}

// BenchmarkFirstIndexXTools builds x/tools' direct dependencies into an
// empty cache and a new index: a project's first dependency index.
// Target ≤ 10 s.
func BenchmarkFirstIndexXTools(b *testing.B) {
	ds := xtoolsDeps(b)
	for b.Loop() {
		ix := openBench(b)
		if _, err := Sync(context.Background(), ix, ds, Cache{Dir: b.TempDir()}, Options{}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSecondProjectXTools syncs a new index from a warm cache: a
// second project locking the same versions. Target ≤ 1 s.
func BenchmarkSecondProjectXTools(b *testing.B) {
	ds := xtoolsDeps(b)
	c := Cache{Dir: b.TempDir()}
	if _, err := Sync(context.Background(), openBench(b), ds, c, Options{}, nil); err != nil {
		b.Fatal(err)
	}
	cpu := cpuTime()
	for b.Loop() {
		if _, err := Sync(context.Background(), openBench(b), ds, c, Options{}, nil); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
}

// cpuTime is the CPU time this process has used, user and system: on a
// shared machine it moves with the work done, where wall time moves with
// the other processes too.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per op since start as cpu-ms/op.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// BenchmarkSearchXTools searches x/tools' dependencies: p50 target ≤ 5 ms.
func BenchmarkSearchXTools(b *testing.B) {
	ds := xtoolsDeps(b)
	ix := openBench(b)
	counts, err := Sync(context.Background(), ix, ds, Cache{Dir: b.TempDir()}, Options{}, nil)
	if err != nil {
		b.Fatal(err)
	}
	queries := []string{"wait for goroutines and return the first error", "parse a go.mod file", "render markdown to HTML",
		"compare two values and print a diff", "http2 server push", "semantic version comparison", "limit concurrent work with a semaphore"}
	var times []time.Duration
	i := 0
	for b.Loop() {
		start := time.Now()
		if _, err := Search(context.Background(), ix, counts, docsearch.Query{Text: queries[i%len(queries)]}, []string{Scope}); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
		i++
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
}

// BenchmarkDigestXTools computes the cache key of x/tools' direct
// dependencies: what a second project pays, over reading the cache, to
// be served only APIs built from the bytes it holds. Its bytes/s is of
// the files read.
func BenchmarkDigestXTools(b *testing.B) {
	ds := xtoolsDeps(b)
	var n int64
	for _, d := range ds {
		s, err := open(context.Background(), d, Options{MaxFiles: 5000})
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range append(s.sources, s.docs...) {
			if fi, err := s.root.Stat(filepath.FromSlash(p)); err == nil {
				n += fi.Size()
			}
		}
		s.close()
	}
	b.SetBytes(n)
	cpu := cpuTime()
	for b.Loop() {
		for _, d := range ds {
			if _, err := Digest(context.Background(), d, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	reportCPU(b, cpu)
}
