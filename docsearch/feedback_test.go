package docsearch

import "testing"

// TestFeedback checks that the best lexical hits pull the vector
// candidates like them up, and that scores stay cosines with the query.
func TestFeedback(t *testing.T) {
	// Chunks 0-3, one per document; 2-D unit vectors.
	ix := &Index{
		chunks: []chunkRec{{doc: 0}, {doc: 1}, {doc: 2}, {doc: 3}},
		vec: rowsOf(2, []float32{
			1, 0, // 0: the query's direction exactly
			0.8, 0.6, // 1: close to the query, and to the feedback
			0, 1, // 2: a lexical hit
			0, 1, // 3: a lexical hit
		}),
	}
	q := []float32{1, 0}
	vecHits := []scored{{0, 1}, {1, 0.8}}
	lexHits := []scored{{2, 9}, {3, 8}}
	got := ix.feedback(q, lexHits, vecHits)
	// Moved query (1, 0.5): chunk 1 scores 1.1, chunk 0 1.0, chunks 2 and
	// 3 0.5 each.
	want := []scored{{1, 0.8}, {0, 1}, {2, 0}, {3, 0}}
	if len(got) != len(want) {
		t.Fatalf("feedback = %v, want %v", got, want)
	}
	for i := range want {
		if got[i].chunk != want[i].chunk || abs32(got[i].score-want[i].score) > 1e-6 {
			t.Fatalf("feedback = %v, want %v", got, want)
		}
	}
	if got := ix.feedback(q, nil, vecHits); len(got) != 2 || got[0].chunk != 0 {
		t.Errorf("feedback without lexical hits = %v, want the vector hits", got)
	}
}

func abs32(x float32) float32 { return max(x, -x) }
