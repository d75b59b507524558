package main

import "math"

// exactly reports whether a result is the relevant symbol itself, not a
// part of it: it matches the range (matches) and holds at least half of
// the range's lines. A callback inside a relevant function matches it but
// is not it; a function's chunk that starts at its decorator or doc
// comment is it.
func exactly(got, want span) bool {
	return matches(got, want) && 2*shared(got, want) >= want.end-want.start+1
}

// exactNDCG is function-level nDCG@10 of got (best first, its first 10
// read) with results matched by exactly: what a judge who counts only
// the symbol asked for would score.
func exactNDCG(got, want []span) float64 {
	found := make([]bool, len(want))
	var dcg float64
	for i, g := range got[:min(len(got), 10)] {
		for j, w := range want {
			if !found[j] && exactly(g, w) {
				found[j] = true
				dcg += 1 / math.Log2(float64(i+2))
				break
			}
		}
	}
	return dcg / idcg(len(want))
}
