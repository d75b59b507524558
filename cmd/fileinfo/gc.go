package main

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// batchGCPercent is the GOGC of the commands that hold a whole
// repository's graph until they print it. Their live heap only grows, so
// the default 100 lets the process reach twice what it holds: on Linux
// 6.1, 50 took peak RSS from 3.47 to 3.03 GB for 6 % more CPU (229 ->
// 242 user-s); on GOROOT/src, 1,094 -> 925 MB for 4 % (docs/bigrepos.md).
const batchGCPercent = 50

// batchGCSet records that batchGC set the collector's policy, which
// loadGraph then tunes while it extracts (see heapFloor); false when the
// user's GOGC or GOMEMLIMIT rule, and in tests.
var batchGCSet bool

// batchGC sets the garbage collector's policy for the command in args:
// batchGCPercent for callgraph, unless the user set GOGC or GOMEMLIMIT,
// which then rule. main calls it, not run, so tests keep the default.
func batchGC(args []string) {
	if len(args) == 0 || args[0] != "callgraph" {
		return
	}
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(batchGCPercent)
	batchGCSet = true
}

// extractionHeapShare is the heap goal while callgraph extracts, as a
// share of the bytes it reads: the graph built next holds about 1.3
// times them and its collector lets the heap reach 1.5 times that
// (Linux 6.1: 1.52 GB live for 1.18 GB read), so extraction growing the
// heap to the size read raises the peak little (there 2.44 -> 2.53 GB
// on average, for 0.92x the CPU; docs/bigrepos.md). Extraction allocates
// 14 times what it keeps; at GOGC 50 alone, its small live heap early on
// was collected 191 times. A variable for the tests.
var extractionHeapShare = 1.0

// minHeapGoal is the runtime's least heap goal at GOGC 100 (its
// heapMinimum), which grows with GOGC: a live heap is taken as at least
// this, or a high GOGC on a tiny heap would set a goal past the floor.
const minHeapGoal = 4 << 20

// heapFloor keeps the collector's goal at a floor of bytes or above
// while it is in use: after each collection it sets GOGC so that the
// next one comes when the heap reaches the floor, never sooner than
// batchGCPercent would. A memory limit (debug.SetMemoryLimit) would cap
// the goal, not raise it, and would collect without end once the live
// heap passed it. Safe for concurrent use.
type heapFloor struct {
	mu      sync.Mutex
	floor   uint64
	cycles  uint64 // the collections seen at the last update
	samples []metrics.Sample
}

func newHeapFloor() *heapFloor {
	return &heapFloor{samples: []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}, {Name: "/gc/heap/live:bytes"}}}
}

// raise sets the floor to n bytes if that is higher, and GOGC after any
// collection since the last call. It costs a metrics read; a caller
// already updating gives way.
func (h *heapFloor) raise(n uint64) {
	if !h.mu.TryLock() {
		return
	}
	defer h.mu.Unlock()
	metrics.Read(h.samples)
	cycles, live := h.samples[0].Value.Uint64(), h.samples[1].Value.Uint64()
	if n <= h.floor && cycles == h.cycles {
		return
	}
	h.floor, h.cycles = max(h.floor, n), cycles
	debug.SetGCPercent(floorPercent(h.floor, live))
}

// end puts GOGC back to batchGCPercent.
func (h *heapFloor) end() {
	h.mu.Lock()
	defer h.mu.Unlock()
	debug.SetGCPercent(batchGCPercent)
}

// floorPercent is the GOGC that puts the heap goal of a live heap of
// live bytes at floor bytes, and never under batchGCPercent.
func floorPercent(floor, live uint64) int {
	live = max(live, minHeapGoal)
	if floor <= live {
		return batchGCPercent
	}
	return max(batchGCPercent, int(min((floor-live)*100/live, 1<<20)))
}
