package extract

import (
	"runtime"
	"time"
)

// cpuBudget bounds the queries over one file by the CPU time of the
// thread that runs them, not by the wall clock: on a loaded machine (a
// kernel's extraction beside other jobs, the tests under -race) the wall
// clock skipped files another run extracted, and served lists cut at
// different places. The zero budget is unlimited.
type cpuBudget struct {
	until time.Duration
	set   bool
}

// startBudget locks the calling goroutine to its thread, so that the
// thread's CPU clock counts this work only, and returns a budget of d
// from now with the function that ends it.
func startBudget(d time.Duration) (cpuBudget, func()) {
	runtime.LockOSThread()
	return cpuBudget{until: threadCPU() + d, set: true}, runtime.UnlockOSThread
}

// over says the budget is spent.
func (b cpuBudget) over() bool { return b.set && threadCPU() > b.until }

var processStart = time.Now()

// wallSinceStart is the wall clock's time since the process started, the
// budget's clock where no thread CPU clock answers.
func wallSinceStart() time.Duration { return time.Since(processStart) }
