package docsearch

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// osa is the optimal string alignment distance, computed the plain way.
func osa(a, b []rune) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// TestFuzzyMatchesBruteForce checks the trie walk of fuzzy, with its
// shared rows and pruned prefixes, against the distance computed for
// every term: random vocabularies over a small alphabet have many near
// neighbours, swaps among them.
func TestFuzzyMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	word := func() string {
		b := make([]rune, 1+r.IntN(7))
		for i := range b {
			b[i] = []rune("abcdé")[r.IntN(5)]
		}
		return string(b)
	}
	for round := range 50 {
		lex := newLexicon()
		var terms []termFreq
		seen := map[string]bool{}
		for range 300 {
			if w := word(); !seen[w] {
				seen[w] = true
				terms = append(terms, termFreq{term: w, tf: 1})
			}
		}
		slices.SortFunc(terms, func(a, b termFreq) int { return strings.Compare(a.term, b.term) })
		lex.add(terms)
		sorted := lex.sortedTerms()
		for range 20 {
			q, maxDist := word(), 1+r.IntN(2)
			ids, dists := lex.fuzzy(termOrder{ids: sorted, n: len(sorted)}, q, maxDist)
			got := map[string]int{}
			for i, id := range ids {
				got[lex.terms[id]] = dists[i]
			}
			for _, tf := range terms {
				d := osa([]rune(q), []rune(tf.term))
				if g, ok := got[tf.term]; d <= maxDist && tf.term != q && (!ok || g != d) || d > maxDist && ok {
					t.Fatalf("round %d: fuzzy(%q, %d) gives %q at %d (found %v); want distance %d", round, q, maxDist, tf.term, g, ok, d)
				}
			}
		}
	}
}

// TestSortedTermsAfterAdds: the term order built incrementally, the
// terms added between two calls merged into the order before, is the
// order of a sort of the whole vocabulary, whatever the batches; and the
// order a caller holds is not changed by a later merge.
func TestSortedTermsAfterAdds(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for round := range 30 {
		lex := newLexicon()
		var held, copies [][]uint32
		var want []string
		for batch := range 1 + r.IntN(6) {
			var terms []termFreq
			for range r.IntN(200) {
				b := make([]byte, 1+r.IntN(10))
				for i := range b {
					b[i] = "abz\x00é"[r.IntN(5)]
				}
				terms = append(terms, termFreq{term: string(b), tf: 1})
			}
			slices.SortFunc(terms, func(a, b termFreq) int { return strings.Compare(a.term, b.term) })
			terms = slices.CompactFunc(terms, func(a, b termFreq) bool { return a.term == b.term })
			lex.add(terms)
			if r.IntN(3) == 0 && batch > 0 {
				continue // not looked at after every batch
			}
			got := lex.sortedTerms()
			held, copies = append(held, got), append(copies, slices.Clone(got))
			want = slices.Sorted(slices.Values(lex.terms))
			if len(got) != len(want) {
				t.Fatalf("round %d: %d terms in order, %d in the vocabulary", round, len(got), len(want))
			}
			for i, id := range got {
				if lex.terms[id] != want[i] {
					t.Fatalf("round %d, batch %d: term %d of the order is %q, want %q", round, batch, i, lex.terms[id], want[i])
				}
			}
		}
		for i := range held {
			if !slices.Equal(held[i], copies[i]) {
				t.Fatalf("round %d: the order returned by call %d changed after it", round, i)
			}
		}
	}
}

// BenchmarkSortedTermsGrowing: the term order asked for after each of
// many small additions to a large vocabulary, as searches during the
// first pass's build ask for it.
func BenchmarkSortedTermsGrowing(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 8))
	word := func() string {
		w := make([]byte, 4+r.IntN(10))
		for i := range w {
			w[i] = byte('a' + r.IntN(26))
		}
		return string(w)
	}
	lex := newLexicon()
	add := func(n int) {
		terms := make([]termFreq, n)
		for i := range terms {
			terms[i] = termFreq{term: word(), tf: 1}
		}
		slices.SortFunc(terms, func(a, b termFreq) int { return strings.Compare(a.term, b.term) })
		lex.add(slices.CompactFunc(terms, func(a, b termFreq) bool { return a.term == b.term }))
	}
	add(1_000_000)
	lex.sortedTerms()
	b.ResetTimer()
	for range b.N {
		add(5_000)
		lex.sortedTerms()
	}
}
