package main

import (
	"runtime/debug"
	"testing"
)

func TestBatchGC(t *testing.T) {
	for _, tc := range []struct {
		name       string
		args       []string
		gogc, mem  string
		wantChange bool
	}{
		{"callgraph", []string{"callgraph", "--root", "."}, "", "", true},
		{"user GOGC", []string{"callgraph"}, "200", "", false},
		{"user GOMEMLIMIT", []string{"callgraph"}, "", "1GiB", false},
		{"extract streams", []string{"extract"}, "", "", false},
		{"serve", []string{"serve"}, "", "", false},
		{"no command", nil, "", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("GOGC", tc.gogc)
			t.Setenv("GOMEMLIMIT", tc.mem)
			const sentinel = 123
			old := debug.SetGCPercent(sentinel)
			defer debug.SetGCPercent(old)
			batchGC(tc.args)
			got := debug.SetGCPercent(sentinel)
			if want := map[bool]int{true: batchGCPercent, false: sentinel}[tc.wantChange]; got != want {
				t.Errorf("batchGC(%q) with GOGC=%q GOMEMLIMIT=%q: GC percent %d, want %d", tc.args, tc.gogc, tc.mem, got, want)
			}
		})
	}
}
