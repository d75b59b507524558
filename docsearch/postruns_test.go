package docsearch

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// TestRunsInTermOrder checks that a run holds its terms in byte order,
// whatever order they were added in, that its pages are let go while it
// is written, and that reading the runs in that
// order (runCursor, as the save does) and one term at a time (eachRun,
// as a search does) give every term the postings a lexicon on the heap
// gives it, in chunk order.
func TestRunsInTermOrder(t *testing.T) {
	sp := scratchSpill(t)
	chunks := zipfChunks(3000, 20, 5000)
	// Terms added after larger ones in byte order.
	for i := range chunks {
		chunks[i] = append(chunks[i], termFreq{fmt.Sprintf("zz%d", 3000-i), 1}, termFreq{fmt.Sprintf("aa%d", i%97), 2})
	}
	// Windows of 64 postings: a run is written in many passes, and its
	// pages are let go as it is written, not once it is whole.
	old := runWindow
	runWindow = 512
	defer func() { runWindow = old }()
	heap, runs := newLexicon(), newLexicon()
	runs.spillTo, runs.runAt = func(int) *spill { return sp }, 7000
	for _, c := range chunks {
		heap.add(c)
		runs.add(c)
	}
	runs.flush()
	if len(runs.runs) < 5 {
		t.Fatalf("%d runs; want at least 5", len(runs.runs))
	}
	written := 0
	for _, r := range runs.runs {
		written += len(r.data) * 8
	}
	if want := written / runWindow; sp.releases < want {
		t.Errorf("%d releases while writing %d bytes of runs; want one a window, at least %d", sp.releases, written, want)
	}
	for i, r := range runs.runs {
		if !slices.IsSortedFunc(r.tids, func(a, b uint32) int { return strings.Compare(runs.terms[a], runs.terms[b]) }) {
			t.Fatalf("run %d: terms not in byte order", i)
		}
	}
	cur := runs.cursor()
	for _, id := range runs.sortedTerms() {
		want := heap.postings(heap.mustID(t, runs.terms[id]))
		var got []posting
		n := cur.count(id)
		runs.eachRun(id, func(ps []posting) { got = append(got, ps...) })
		if !slices.Equal(got, want) || n != len(want) {
			t.Fatalf("%q: eachRun %v, count %d; want %v", runs.terms[id], got, n, want)
		}
	}
	cur = runs.cursor()
	for _, id := range runs.sortedTerms() {
		var got []posting
		cur.each(id, func(ps []posting) { got = append(got, ps...) })
		if want := heap.postings(heap.mustID(t, runs.terms[id])); !slices.Equal(got, want) {
			t.Fatalf("%q: the cursor %v; want %v", runs.terms[id], got, want)
		}
	}
}

func (lex *lexicon) mustID(t *testing.T, term string) uint32 {
	t.Helper()
	id, ok := lex.id(term)
	if !ok {
		t.Fatalf("%q not in the lexicon", term)
	}
	return id
}

// TestLogGrowsWithoutCopies checks that the log of a spilled build
// allocates about its postings' bytes, once: grown by append, the log
// was copied at every growth, and a run's worth of the kernel's
// postings allocated 335 MB to hold 67. Its postings, read back, are
// the ones added, in order.
func TestLogGrowsWithoutCopies(t *testing.T) {
	terms := make([]termFreq, 50)
	for i := range terms {
		terms[i] = termFreq{fmt.Sprintf("w%dx", i), uint32(1 + i%3)}
	}
	const chunks = 20000
	lex := newLexicon()
	lex.spillTo, lex.runAt = func(int) *spill { return nil }, 1<<30
	lex.add(terms) // the terms' table and list, made once
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range chunks - 1 {
		lex.add(terms)
	}
	runtime.ReadMemStats(&after)
	logBytes := uint64(chunks * len(terms) * int(unsafe.Sizeof(logged{})))
	if got := after.TotalAlloc - before.TotalAlloc; got > logBytes+logBytes/4 {
		t.Errorf("adding %d postings allocated %d bytes; want at most %d (the log's %d and a quarter)",
			chunks*len(terms), got, logBytes+logBytes/4, logBytes)
	}
	if lex.log.len() != chunks*len(terms) {
		t.Fatalf("%d postings in the log; want %d", lex.log.len(), chunks*len(terms))
	}
	i := 0
	lex.log.parts(func(es []logged) {
		for _, e := range es {
			want := logged{uint32(i % len(terms)), uint32(i / len(terms)), terms[i%len(terms)].tf}
			if e != want {
				t.Fatalf("posting %d is %v; want %v", i, e, want)
			}
			i++
		}
	})
	if i != chunks*len(terms) {
		t.Errorf("parts gave %d postings; want %d", i, chunks*len(terms))
	}
}

// TestDFDuringSpilledBuild: while a spilling build has postings in runs,
// in post and in its log, a term's document frequency (counted without
// reading postings: the runs' offsets and the log's counts) is the number
// of postings a lexicon on the heap holds for it, after every chunk
// added; also after a run is written and after the log is settled.
func TestDFDuringSpilledBuild(t *testing.T) {
	sp := scratchSpill(t)
	chunks := zipfChunks(1500, 15, 800)
	heap, runs := newLexicon(), newLexicon()
	runs.spillTo, runs.runAt = func(int) *spill { return sp }, 3000
	check := func(when string) {
		t.Helper()
		for id := range uint32(len(runs.terms)) {
			want := len(heap.postings(heap.mustID(t, runs.terms[id])))
			if got := runs.df(id); got != want {
				t.Fatalf("%s: df(%q) = %d; want %d (%d runs, %d logged)", when, runs.terms[id], got, want, len(runs.runs), runs.log.len())
			}
		}
	}
	for i, c := range chunks {
		heap.add(c)
		runs.add(c)
		if i%97 == 0 {
			check(fmt.Sprintf("after chunk %d", i))
		}
	}
	if len(runs.runs) < 3 || runs.log.len() == 0 {
		t.Fatalf("%d runs and %d postings logged; want runs and a log", len(runs.runs), runs.log.len())
	}
	check("at the end")
	runs.settle()
	check("settled")
	runs.flush()
	check("flushed")
}

// scratchSpill returns a spill on a file in a scratch directory, closed
// when the test ends; the test is skipped where nothing can spill.
func scratchSpill(tb testing.TB) *spill {
	tb.Helper()
	if !canSpill {
		tb.Skip("no spill on this platform")
	}
	f, err := os.CreateTemp(tb.TempDir(), "spill")
	if err != nil {
		tb.Fatal(err)
	}
	sp := &spill{f: f}
	tb.Cleanup(sp.close)
	return sp
}
