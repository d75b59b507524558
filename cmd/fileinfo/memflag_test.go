package main

import (
	"runtime/debug"
	"testing"
)

func TestParseByteSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"2GB", 2 << 30, true}, {"2gb", 2 << 30, true}, {"1.5GiB", 3 << 29, true}, {"512MB", 512 << 20, true},
		{"512 M", 512 << 20, true}, {"1048576", 1 << 20, true}, {"64KB", 64 << 10, true}, {"0", 0, true}, {"10B", 10, true},
		{"", 0, false}, {"GB", 0, false}, {"-1GB", 0, false}, {"2TB", 0, false}, {"NaN", 0, false}, {"1e30", 0, false},
	} {
		got, err := parseByteSize(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseByteSize(%q) = %d, %v; want %d, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func FuzzParseByteSize(f *testing.F) {
	for _, s := range []string{"2GB", "1.5GiB", "0", "x", "9e18"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := parseByteSize(s)
		if err == nil && n < 0 {
			t.Errorf("parseByteSize(%q) = %d", s, n)
		}
	})
}

// TestMemoryBudget checks the budget less its reserve becomes the
// collector's memory limit for the run, and the limit before it comes
// back.
func TestMemoryBudget(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	before := debug.SetMemoryLimit(-1)
	for _, tc := range []struct{ budget, limit int64 }{
		{2 << 30, 1536 << 20}, // the default: a quarter, the reserve's bound
		{1 << 30, 768 << 20},
		{400 << 20, 300 << 20},
		{8 << 30, 8<<30 - 512<<20},
	} {
		restore := setMemoryBudget(tc.budget)
		if got := debug.SetMemoryLimit(-1); got != tc.limit {
			t.Errorf("budget %d: limit during the run %d, want %d", tc.budget, got, tc.limit)
		}
		restore()
		if got := debug.SetMemoryLimit(-1); got != before {
			t.Errorf("limit after the run %d, want %d", got, before)
		}
	}
	t.Setenv("GOMEMLIMIT", "3GiB")
	restore := setMemoryBudget(1 << 30)
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("GOMEMLIMIT set: limit %d, want it left at %d", got, before)
	}
	restore()
}

// TestHeapLimit: serve's first start holds the Go heap to the budget
// less the reserve, as index does; no budget is no limit.
func TestHeapLimit(t *testing.T) {
	for budget, want := range map[int64]int64{0: 0, -1: 0, 2 << 30: 1536 << 20, 400 << 20: 300 << 20} {
		if got := heapLimit(budget); got != want {
			t.Errorf("heapLimit(%d) = %d, want %d", budget, got, want)
		}
	}
}
