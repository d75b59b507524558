package docsearch

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestTermTableMatchesMap checks the table against a map over terms that
// share prefixes, through growth from the smallest table.
func TestTermTableMatchesMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	tab := newTermTable(0)
	var terms []string
	want := map[string]uint32{}
	for i := range 20000 {
		s := fmt.Sprintf("t%x", r.IntN(30000))
		if i%7 == 0 {
			s = ""
		}
		if _, ok := want[s]; !ok {
			want[s] = uint32(len(terms))
			terms = append(terms, s)
			tab.insert(terms, uint32(len(terms)-1))
		}
		if id, ok := tab.find(terms, s); !ok || id != want[s] {
			t.Fatalf("find %q = %d, %v; want %d", s, id, ok, want[s])
		}
	}
	if tab.len() != len(want) {
		t.Errorf("len %d, want %d", tab.len(), len(want))
	}
	for i := range 1000 {
		s := fmt.Sprintf("u%d", i)
		if _, ok := tab.find(terms, s); ok {
			t.Errorf("found %q, never added", s)
		}
	}
	for s, id := range want {
		if got, ok := tab.find(terms, s); !ok || got != id {
			t.Errorf("find %q = %d, %v; want %d", s, got, ok, id)
		}
	}
}

// TestTermArenaCopies checks that an interned term is a copy, equal to
// the original, long ones too.
func TestTermArenaCopies(t *testing.T) {
	var a termArena
	for _, n := range []int{0, 1, 7, termBlock / 8, termBlock/8 + 1, 3 * termBlock} {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('a' + i%26)
		}
		s := a.intern(string(b))
		if len(b) > 0 {
			b[0] = '!'
		}
		if len(s) != n || n > 0 && s[0] != 'a' {
			t.Errorf("intern of %d bytes: %d bytes, %.10q", n, len(s), s)
		}
	}
}

// TestLexiconBytesPerTerm bounds what a vocabulary costs the heap while
// a spilled build adds to it: each term in one chunk, the postings in
// the log. A map of the terms and a slice per term held 93 bytes a term
// here (not counting the terms' strings, which were the caller's); the
// table, the log and the arena's copies of the strings 69.
func TestLexiconBytesPerTerm(t *testing.T) {
	const n = 200000
	terms := make([]string, n)
	for i := range terms {
		terms[i] = fmt.Sprintf("term%06x", i)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	lex := newLexicon()
	lex.spillTo, lex.runAt = func(int) *spill { return nil }, 1<<30
	tf := make([]termFreq, 1)
	for i := range terms {
		tf[0] = termFreq{terms[i], 1}
		lex.add(tf)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	per := float64(after.HeapAlloc-before.HeapAlloc) / n
	runtime.KeepAlive(lex)
	runtime.KeepAlive(terms)
	t.Logf("%.1f bytes a term", per)
	if per > 75 {
		t.Errorf("%.1f bytes a term; want at most 75", per)
	}
}

// BenchmarkLexiconAdd adds 4,000 chunks of 60 terms drawn from a
// vocabulary of 50,000 (Zipf), the postings going to the log as in a
// spilled build: the table's lookups and inserts are its hot path.
func BenchmarkLexiconAdd(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	z := rand.NewZipf(r, 1.1, 2, 49999)
	chunks := make([][]termFreq, 4000)
	for i := range chunks {
		seen := map[uint64]bool{}
		for len(chunks[i]) < 60 {
			n := z.Uint64()
			if !seen[n] {
				seen[n] = true
				chunks[i] = append(chunks[i], termFreq{fmt.Sprintf("w%dx", n), 1})
			}
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		lex := newLexicon()
		lex.spillTo, lex.runAt = func(int) *spill { return nil }, 1<<30
		for _, c := range chunks {
			lex.add(c)
		}
	}
}
