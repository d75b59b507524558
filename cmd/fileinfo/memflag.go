package main

import (
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// defaultIndexMemory is the memory budget of `fileinfo index`.
const defaultIndexMemory = 2 << 30

// byteSize is a flag of a size in bytes, written as a number with an
// optional unit: B, KB, MB, GB (powers of 1024, as KiB, MiB, GiB are
// also spelled), "0" for none.
type byteSize int64

func (b *byteSize) String() string {
	switch n := int64(*b); {
	case n == 0:
		return "0"
	case n%(1<<30) == 0:
		return fmt.Sprintf("%dGB", n>>30)
	case n%(1<<20) == 0:
		return fmt.Sprintf("%dMB", n>>20)
	}
	return strconv.FormatInt(int64(*b), 10)
}

func (b *byteSize) Set(s string) error {
	n, err := parseByteSize(s)
	if err != nil {
		return err
	}
	*b = byteSize(n)
	return nil
}

// parseByteSize reads a size such as 2GB, 1.5GiB, 512MB or 1048576.
func parseByteSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"KIB", 1 << 10}, {"MIB", 1 << 20}, {"GIB", 1 << 30}, {"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"B", 1}} {
		if rest, ok := strings.CutSuffix(t, u.suffix); ok {
			t, mult = strings.TrimSpace(rest), u.mult
			break
		}
	}
	x, err := strconv.ParseFloat(t, 64)
	if err != nil || x < 0 || math.IsNaN(x) || x*float64(mult) >= 1<<62 {
		return 0, fmt.Errorf("size %q: want a number of bytes with an optional unit, such as 2GB or 512MB", s)
	}
	return int64(x * float64(mult)), nil
}

// setMemoryBudget keeps the process within budget bytes: the garbage
// collector keeps the Go heap within the budget less memoryReserve (a
// soft limit: debug.SetMemoryLimit), unless budget is 0 or the user set
// GOMEMLIMIT, which then rules. The returned function puts the previous
// limit back.
func setMemoryBudget(budget int64) (restore func()) {
	if budget <= 0 || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	old := debug.SetMemoryLimit(heapLimit(budget))
	return func() { debug.SetMemoryLimit(old) }
}

// heapLimit is the Go heap's limit for a process budget of budget bytes:
// the budget less memoryReserve; 0 (no limit) stays 0.
func heapLimit(budget int64) int64 {
	if budget <= 0 {
		return 0
	}
	return budget - memoryReserve(budget)
}

// memoryReserve is the part of a memory budget the Go heap's limit
// leaves to what the process holds that the Go runtime neither counts
// nor bounds: the parsers' C heap while files are extracted, the
// binary's pages, and the pages of the doc index's spill file the build
// has read (file-backed, outside the heap). A quarter of the budget, at
// most maxMemoryReserve. Measured on Linux 6.1 (docs/bigrepos.md, sixth
// session): with the whole 2 GB given to the Go heap, the peak resident
// set was 2.28 GB, the heap at its limit with 271 MB of the spill's
// pages and 30-90 MB of anonymous memory beside it (h8-idxmem saw 332 MB
// of pages at another run's peak).
func memoryReserve(budget int64) int64 { return min(budget/4, maxMemoryReserve) }

// maxMemoryReserve bounds memoryReserve: what the process holds beside
// the heap does not grow with the budget.
const maxMemoryReserve = 512 << 20
