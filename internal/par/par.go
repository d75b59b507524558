// Package par runs the iterations of a loop on several goroutines.
package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// For runs f(0), ..., f(n-1) on up to workers goroutines (0 or less: one
// a core), each taking the next i when done with one, so that items of
// unequal cost spread evenly; more workers than cores suit work that
// waits on the file system (a stat per file). With one worker, or one
// item, it runs on the caller's goroutine: the serial path, for
// profiling. f must be safe to call concurrently; writing out[i] of a
// slice made before is.
func For(workers, n int, f func(i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				f(i)
			}
		})
	}
	wg.Wait()
}
