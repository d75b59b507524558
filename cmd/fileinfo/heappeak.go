package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"sync"
	"time"
)

// heapPeak keeps, in one file, the heap profile of the largest live heap
// a run has had. A streaming command (`index` on a big tree) is at its
// largest somewhere in the middle, and has let go of nearly everything
// by the time it returns, so a profile taken at the end shows nothing of
// its peak.
//
// The heap profile describes the heap as of the last completed
// collection, and so does /gc/heap/live:bytes: each poll that finds the
// live heap past the largest written by heapGrowth writes the profile
// again (to a temporary file renamed over the last).
type heapPeak struct {
	path string
	stop chan struct{}
	done chan struct{}

	mu      sync.Mutex
	largest uint64 // live bytes of the profile written, 0 before the first collection
	err     error  // the first write that failed
}

// heapGrowth is how much larger than the last written profile's live
// heap a new one must be to be written: a write costs a few milliseconds
// a time, and a heap that grows by steps would write at every collection.
const heapGrowth = 1.05

// heapPoll is how often the watcher reads the live heap.
const heapPoll = 100 * time.Millisecond

// watchHeap starts keeping the profile of the largest heap in path.
func watchHeap(path string) *heapPeak {
	h := &heapPeak{path: path, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(h.done)
		t := time.NewTicker(heapPoll)
		defer t.Stop()
		for {
			select {
			case <-h.stop:
				return
			case <-t.C:
				h.check()
			}
		}
	}()
	return h
}

// liveHeap returns the bytes the last collection found live.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// check writes the profile if the live heap is the largest yet.
func (h *heapPeak) check() {
	h.mu.Lock()
	defer h.mu.Unlock()
	live := liveHeap()
	if live == 0 || float64(live) < float64(h.largest)*heapGrowth {
		return // no collection yet, or not past the one written
	}
	if err := writeHeapProfile(h.path); err != nil {
		if h.err == nil {
			h.err = err
		}
		return
	}
	h.largest = live
}

// mark is a point the caller knows to matter (the work done, its result
// still held): after a collection, so that the profile shows only what
// is live, it is written if its heap is the largest yet. It returns the
// first write that failed.
func (h *heapPeak) mark() error {
	runtime.GC()
	h.check()
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.err
}

// close stops the watcher.
func (h *heapPeak) close() {
	close(h.stop)
	<-h.done
}

// writeHeapProfile writes the heap profile to path through a temporary
// file in its directory, so that path holds a whole profile at every
// moment.
func writeHeapProfile(path string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("memprofile %s: %w", path, err)
	}
	err = pprof.Lookup("heap").WriteTo(tmp, 0)
	if err == nil {
		err = tmp.Chmod(0o644) // as os.Create makes it; CreateTemp's are the owner's only
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("memprofile %s: %w", path, err)
	}
	return nil
}
