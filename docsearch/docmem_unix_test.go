//go:build unix

package docsearch

import (
	"context"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"
)

// BenchmarkCollectCodeDocs measures a collection of the heap while it
// holds an index of 200,000 code documents, as a cold index's code pass
// does at each of its collections (docs/bigrepos.md): what the collector
// marks of the index. It reports the CPU of a collection and the heap's
// objects and bytes a document.
func BenchmarkCollectCodeDocs(b *testing.B) {
	batches := spillCode(40, 250, 20)
	// As fileinfo index builds: texts, vectors and postings past a
	// budget spilled (here 8 MB of 64), the saved file written at the end.
	ix, err := Open(context.Background(), mapFS(nil), Options{Workers: 2, Dir: b.TempDir(), SpillBytes: 8 << 20})
	if err != nil {
		b.Fatal(err)
	}
	if err := ix.PutCodeBatches(context.Background(), slices.Values(batches), nil); err != nil {
		b.Fatal(err)
	}
	batches = nil
	// The collector's CPU, not the wall, which the machine's load rules.
	cpu := func() time.Duration {
		var u syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
			b.Fatal(err)
		}
		return time.Duration(u.Utime.Nano() + u.Stime.Nano())
	}
	runtime.GC()
	start := cpu()
	for b.Loop() {
		runtime.GC()
	}
	b.ReportMetric(float64((cpu()-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	// What the index holds: the heap with it less the heap without it.
	n := float64(ix.Stats().Docs)
	var with, without runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&with)
	runtime.KeepAlive(ix)
	ix = nil
	runtime.GC()
	runtime.ReadMemStats(&without)
	b.ReportMetric(float64(int64(with.HeapObjects)-int64(without.HeapObjects))/n, "objects/doc")
	b.ReportMetric(float64(int64(with.HeapAlloc)-int64(without.HeapAlloc))/n, "heap-B/doc")
}
