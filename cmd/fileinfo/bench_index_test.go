package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBenchIndex(t *testing.T) {
	dir := t.TempDir()
	var size int
	for i := range 12 {
		text := fmt.Sprintf("# Page %d\n\nHow to configure option%d.\n\n## Details\n\n%s\n", i, i, strings.Repeat("The server reads its config file. ", 40))
		size += len(text)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("p%02d.md", i)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, errb bytes.Buffer
	if err := runBenchIndex(t.Context(), []string{"--runs", "2", "--json", dir}, &out, &errb); err != nil {
		t.Fatalf("bench index: %v\n%s", err, errb.String())
	}
	var m indexMetrics
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if m.Docs != 12 || m.Chunks < 12 || m.Runs != 2 {
		t.Errorf("docs %d, chunks %d, runs %d; want 12 docs, at least 12 chunks, 2 runs", m.Docs, m.Chunks, m.Runs)
	}
	if want := float64(size) / 1e6; math.Abs(m.MB-want) > 0.0005 { // reported to three decimals
		t.Errorf("mb %.6f; want the pages' %.6f", m.MB, want)
	}
	if m.Seconds <= 0 || m.MBPerS <= 0 || m.Per100MB <= 0 || m.PeakRSSMB <= 0 {
		t.Errorf("non-positive measurement: %+v", m)
	}
	// Every figure is rounded to three decimals: on this small corpus
	// (a few hundredths of a MB) that rounding alone moves the ratio by
	// several percent, so the bounds take it in.
	const r = 0.0005
	lo, hi := (m.Seconds-r)*100/(m.MB+r), (m.Seconds+r)*100/(m.MB-r)
	if m.Per100MB < lo-r || m.Per100MB > hi+r {
		t.Errorf("s_per_100mb %.3f, but seconds %.3f and mb %.3f give %.3f to %.3f", m.Per100MB, m.Seconds, m.MB, lo, hi)
	}
	for _, args := range [][]string{{}, {"a", "b"}, {"--runs", "0", dir}} {
		if err := runBenchIndex(t.Context(), args, &out, &errb); !errors.Is(err, errUsage) {
			t.Errorf("bench index %q: %v; want the usage error", args, err)
		}
	}
	if err := runBenchIndex(t.Context(), []string{filepath.Join(dir, "missing")}, &out, &errb); err == nil {
		t.Error("bench index of a missing directory succeeded")
	}
}

// TestBenchIndexCPUProfile checks that -cpuprofile leaves a profile that
// go tool pprof can read: a gzipped protocol buffer.
func TestBenchIndexCPUProfile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte("# A\n\nSome text to index.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	prof := filepath.Join(t.TempDir(), "cpu.prof")
	var out, errb bytes.Buffer
	if err := runBenchIndex(t.Context(), []string{"--runs", "1", "--cpuprofile", prof, dir}, &out, &errb); err != nil {
		t.Fatalf("bench index: %v\n%s", err, errb.String())
	}
	data, err := os.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		t.Errorf("profile of %d bytes does not start as gzip", len(data))
	}
	if err := runBenchIndex(t.Context(), []string{"--cpuprofile", filepath.Join(dir, "no", "such", "dir", "p"), dir}, &out, &errb); err == nil {
		t.Error("a profile path that cannot be created did not fail")
	}
}
