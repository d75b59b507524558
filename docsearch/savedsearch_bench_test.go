//go:build unix

package docsearch_test

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/docsearch/embed"
)

// kernelQueries are searches an agent makes in a C tree such as Linux,
// in words and by identifier.
var kernelQueries = []string{
	"allocate an inode",
	"kmem_cache_create",
	"schedule a work item",
	"copy data to user space",
	"mutex lock",
	"parse device tree",
	"tcp retransmit timer",
	"page fault handler",
}

// BenchmarkSearchSaved measures hybrid searches with every scope on an
// index saved by `fileinfo index`, opened as the CLI and serve open it
// (in place, from the mapped file), after one search of each query:
// warm searches of a big tree. FILEINFO_SAVED_ROOT names the tree; the
// benchmark is skipped without it. Metrics: p50-ms and p95-ms, and
// cpu-ms/search, the process's CPU time (every thread, the collector's
// too) over the searches: on a shared machine the wall time follows the
// load more than the code.
func BenchmarkSearchSaved(b *testing.B) {
	root := os.Getenv("FILEINFO_SAVED_ROOT")
	if root == "" {
		b.Skip("FILEINFO_SAVED_ROOT is not set")
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	ix, err := docsearch.OpenSaved(b.Context(), docsearch.RootFS(r), docsearch.Options{
		Embedder: embed.Default(), Dir: filepath.Join(root, ".artifacts", ".index"),
	})
	if err != nil {
		b.Fatal(err)
	}
	for _, q := range kernelQueries {
		if _, err := ix.Search(b.Context(), docsearch.Query{Text: q, Limit: 5}); err != nil {
			b.Fatal(err)
		}
	}
	var times []time.Duration
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		for _, q := range kernelQueries {
			start := time.Now()
			if _, err := ix.Search(b.Context(), docsearch.Query{Text: q, Limit: 5}); err != nil {
				b.Fatal(err)
			}
			times = append(times, time.Since(start))
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(len(times)), "cpu-ms/search")
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(times[len(times)*95/100].Microseconds())/1000, "p95-ms")
}

// cpuTime returns the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
