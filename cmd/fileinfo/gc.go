package main

import (
	"os"
	"runtime/debug"
)

// batchGCPercent is the GOGC of the commands that hold a whole
// repository's graph until they print it. Their live heap only grows, so
// the default 100 lets the process reach twice what it holds: on Linux
// 6.1, 50 took peak RSS from 3.47 to 3.03 GB for 6 % more CPU (229 ->
// 242 user-s); on GOROOT/src, 1,094 -> 925 MB for 4 % (docs/bigrepos.md).
const batchGCPercent = 50

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
}
