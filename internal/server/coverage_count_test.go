package server

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/callgraph"
)

// kernelSkips is a workspace left out of as the Linux kernel's is: of
// 21.9 k files, most of no language the graph reads.
func kernelSkips(n int) *workspace {
	w := &workspace{held: callgraph.Build(nil), skipped: map[string]string{}}
	for i := range n {
		reason := "unknown language"
		switch i % 100 {
		case 1:
			reason = "language yaml is not extracted"
		case 2:
			reason = "too large: 3000000 bytes"
		}
		w.skipped[fmt.Sprintf("drivers/d%03d/f%05d.txt", i%997, i)] = reason
	}
	return w
}

// TestGraphCoverageCounts checks the count of files left out is that of
// the full list, without the files of no language the graph reads.
func TestGraphCoverageCounts(t *testing.T) {
	for _, n := range []int{0, 1, 3, 250} {
		w := kernelSkips(n)
		want := 0
		for _, sk := range w.skippedNow() {
			if sk.Reason != "unknown language" && !strings.HasPrefix(sk.Reason, "language ") {
				want++
			}
		}
		got := w.graphCoverage()
		if (want == 0) != (got == "complete") || want > 0 && !strings.HasPrefix(got, fmt.Sprintf("%d files left out", want)) {
			t.Errorf("%d skipped: %q, want %d left out", n, got, want)
		}
	}
}

// BenchmarkGraphCoverage measures what every lookup pays for its
// coverage line on a kernel-sized list of files left out.
func BenchmarkGraphCoverage(b *testing.B) {
	w := kernelSkips(21868)
	b.ReportAllocs()
	for b.Loop() {
		w.graphCoverage()
	}
}
