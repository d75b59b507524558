package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
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
			defer func(set bool) { batchGCSet = set }(batchGCSet)
			batchGCSet = false
			batchGC(tc.args)
			if batchGCSet != tc.wantChange {
				t.Errorf("batchGC(%q): batchGCSet %v, want %v", tc.args, batchGCSet, tc.wantChange)
			}
			got := debug.SetGCPercent(sentinel)
			if want := map[bool]int{true: batchGCPercent, false: sentinel}[tc.wantChange]; got != want {
				t.Errorf("batchGC(%q) with GOGC=%q GOMEMLIMIT=%q: GC percent %d, want %d", tc.args, tc.gogc, tc.mem, got, want)
			}
		})
	}
}

func TestFloorPercent(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		floor, live uint64
		want        int
	}{
		{1000 * mb, 100 * mb, 900},            // the goal is the floor
		{1000 * mb, 600 * mb, 66},             // (1000-600)/600
		{1000 * mb, 700 * mb, batchGCPercent}, // 1.5x live is past the floor
		{1000 * mb, 2000 * mb, batchGCPercent},
		{0, 0, batchGCPercent},
		{1000 * mb, 0, (1000*mb - minHeapGoal) * 100 / minHeapGoal}, // before any collection
		{1000 * mb, 1 * mb, (1000*mb - minHeapGoal) * 100 / minHeapGoal},
	} {
		if got := floorPercent(tc.floor, tc.live); got != tc.want {
			t.Errorf("floorPercent(%d MB, %d MB) = %d, want %d", tc.floor/mb, tc.live/mb, got, tc.want)
		}
	}
}

// TestHeapFloor checks that a floor raises GOGC while the live heap is
// below it, and that end puts batchGCPercent back.
func TestHeapFloor(t *testing.T) {
	old := debug.SetGCPercent(batchGCPercent)
	defer debug.SetGCPercent(old)
	runtime.GC()
	h := newHeapFloor()
	h.raise(1 << 40)
	if got := debug.SetGCPercent(batchGCPercent); got <= 10*batchGCPercent {
		t.Errorf("GOGC with a 1 TB floor = %d, want far above %d", got, batchGCPercent)
	}
	h.raise(1 << 40) // no collection since: GOGC stays
	if got := debug.SetGCPercent(-1); got != batchGCPercent {
		t.Errorf("GOGC after a second raise with no collection between = %d, want it left (%d)", got, batchGCPercent)
	}
	runtime.GC()
	h.raise(1) // a collection since: GOGC is set again, from the higher floor
	if got := debug.SetGCPercent(batchGCPercent); got <= 10*batchGCPercent {
		t.Errorf("GOGC after a collection, with a 1 TB floor = %d, want far above %d", got, batchGCPercent)
	}
	h.end()
	if got := debug.SetGCPercent(old); got != batchGCPercent {
		t.Errorf("GOGC after end = %d, want %d", got, batchGCPercent)
	}
}

// TestLoadGraphEndsFloor checks that loadGraph, under batchGC's policy,
// leaves GOGC at batchGCPercent once it has extracted.
func TestLoadGraphEndsFloor(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.c"), []byte("int f(void) { return g(); }\nint g(void) { return 0; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	defer func(set bool) { batchGCSet = set }(batchGCSet)
	batchGCSet = true
	defer func(share float64) { extractionHeapShare = share }(extractionHeapShare)
	extractionHeapShare = 1e9 // a floor of tens of GB: GOGC far up while extracting
	old := debug.SetGCPercent(batchGCPercent)
	defer debug.SetGCPercent(old)
	g, _, err := loadGraph(context.Background(), dir, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if g.Len() == 0 {
		t.Fatal("no nodes")
	}
	if got := debug.SetGCPercent(batchGCPercent); got != batchGCPercent {
		t.Errorf("GOGC after loadGraph = %d, want %d", got, batchGCPercent)
	}
}
