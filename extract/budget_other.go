//go:build !linux

package extract

import "time"

// threadCPU falls back to the wall clock where the thread's CPU clock is
// not read: the budget is then load-dependent, as it was before.
func threadCPU() time.Duration { return wallSinceStart() }
