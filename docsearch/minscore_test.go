package docsearch

import (
	"fmt"
	"testing"
)

// TestPick: the relevance threshold leaves out a result only when no
// result ranked after it in the window passes; past the window,
// results under it are skipped and later ones fill the list. Scores
// fall with the rank.
func TestPick(t *testing.T) {
	hits := func(scores ...float64) []hit {
		var hs []hit
		for i, s := range scores {
			hs = append(hs, hit{chunk: uint32(i), score: s})
		}
		return hs
	}
	show := func(hs []hit) string {
		var out []string
		for _, h := range hs {
			out = append(out, fmt.Sprintf("%d:%.1f", h.chunk, h.score))
		}
		return fmt.Sprint(out)
	}
	none := func(hit) string { return "" }
	for _, c := range []struct {
		scores []float64
		limit  int
		want   string
	}{
		{[]float64{0.4, 0.9, 0.8}, 3, "[0:0.9 1:0.9 2:0.8]"},                                                   // the first, raised: it ranks over kept ones
		{[]float64{0.9, 0.3, 0.3, 0.8, 0.2}, 3, "[0:0.9 1:0.8 2:0.8]"},                                         // ranked over a passing one in the window
		{append([]float64{0.9}, append(make([]float64, pickWindow), 0.8, 0.7)...), 3, "[0:0.9 11:0.8 12:0.7]"}, // past the window, the low ones are skipped
		{[]float64{0.4, 0.9}, 1, "[0:0.9]"},                                                                    // a search for one result gets the first
		{[]float64{0.9, 0.3, 0.6, 0.2}, 4, "[0:0.9 1:0.6 2:0.6]"},                                              // a low tail is cut
		{[]float64{0.2, 0.3}, 5, "[]"},                                                                         // nothing passes
		{[]float64{0.9, 0.8, 0.7, 0.6, 0.5, 0.9}, 3, "[0:0.9 1:0.8 2:0.7]"},                                    // the limit
	} {
		if got := show(pick(hits(c.scores...), none, c.limit, false, 0.5)); got != c.want {
			t.Errorf("pick(%v, limit %d) = %s, want %s", c.scores, c.limit, got, c.want)
		}
	}
	// Per scope, each scope's window is its own.
	scopes := []string{"code", "docs", "code", "docs"}
	got := show(pick(hits(0.3, 0.3, 0.9, 0.2), func(h hit) string { return scopes[h.chunk] }, 2, true, 0.5))
	if want := "[0:0.9 2:0.9]"; got != want {
		t.Errorf("per scope: %s, want %s", got, want)
	}
}
