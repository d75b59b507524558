package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fileinfo/fileinfo/docsearch"
)

// TestCoSQAOrdering checks, on the CoSQA test set when it is at hand
// (../shared/eval, outside the repository), that hybrid search beats
// lexical search, which beats SQLite FTS5's bm25 on the same data (nDCG@10
// 0.397).
func TestCoSQAOrdering(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "eval", "search", "cosqa-test")
	if _, err := os.Stat(filepath.Join(dir, "corpus.jsonl")); err != nil {
		t.Skip("CoSQA not at hand:", err)
	}
	if testing.Short() {
		t.Skip("short")
	}
	docs, err := readBEIRCorpus(filepath.Join(dir, "corpus.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	queries, err := readBEIRQueries(filepath.Join(dir, "queries.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	qrels, err := readQrels(filepath.Join(dir, "qrels", "test.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	score := map[docsearch.Mode]float64{}
	for _, mode := range []docsearch.Mode{docsearch.Hybrid, docsearch.Lexical} {
		m, _, err := benchSearch(t.Context(), docs, queries, qrels, mode, 0, defaultEmbedder())
		if err != nil {
			t.Fatal(err)
		}
		score[mode] = m.NDCG10
		t.Logf("%s: nDCG@10 %.3f, MRR@10 %.3f, R@10 %.3f, p50 %.2f ms", mode, m.NDCG10, m.MRR10, m.Recall10, m.P50ms)
	}
	const fts5 = 0.397
	if !(score[docsearch.Hybrid] > score[docsearch.Lexical] && score[docsearch.Lexical] > fts5) {
		t.Errorf("nDCG@10: hybrid %.3f, bm25 %.3f, FTS5 %.3f; want hybrid > bm25 > FTS5", score[docsearch.Hybrid], score[docsearch.Lexical], fts5)
	}
}
