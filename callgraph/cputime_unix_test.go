//go:build unix

package callgraph

import (
	"syscall"
	"time"
)

// processCPU returns the user and system CPU time this process has used,
// every thread's (the garbage collector's too).
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
