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

// setMemoryBudget makes the garbage collector keep the heap within
// budget bytes (a soft limit: debug.SetMemoryLimit), unless it is 0 or
// the user set GOMEMLIMIT, which then rules. The returned function puts
// the previous limit back.
func setMemoryBudget(budget int64) (restore func()) {
	if budget <= 0 || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	old := debug.SetMemoryLimit(budget)
	return func() { debug.SetMemoryLimit(old) }
}
