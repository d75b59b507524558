package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing/fstest"
	"time"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/docsearch/embed"
)

// defaultEmbedder is the embedder of hybrid and vector search, for the
// CLI and the bench alike. nil searches lexically only.
func defaultEmbedder() docsearch.Embedder { return embed.Default() }

// searchMetrics are what `bench search` reports; the JSON keys are fixed.
type searchMetrics struct {
	NDCG10    float64 `json:"ndcg@10"`
	MRR10     float64 `json:"mrr@10"`
	Recall10  float64 `json:"recall@10"`
	Recall100 float64 `json:"recall@100"`
	P50ms     float64 `json:"p50_ms"`
	P95ms     float64 `json:"p95_ms"`
	BuildS    float64 `json:"build_s"`
	Docs      int     `json:"docs"`
	Queries   int     `json:"queries"`
}

// runBenchSearch measures retrieval on a BEIR data set: corpus.jsonl,
// queries.jsonl and qrels/test.tsv in one directory.
func runBenchSearch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench search", "DATASET", stderr)
	mode := fs.String("mode", "hybrid", "retrievers: hybrid, bm25 or vector")
	asJSON := fs.Bool("json", false, "print the metrics as JSON")
	minScore := floatFlag(fs, "min-score", 0, minScoreRange, "drop results below this relevance (the search default is 0.5; 0 ranks everything)")
	perQuery := fs.String("per-query", "", "also write each query's outcome to this file, a JSON object a line: id, query, rank of the first relevant document (0: not in the first 100), its nDCG@10, the first result")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fs.Usage()
		return errUsage
	}
	dir := pos[0]
	docs, err := readBEIRCorpus(filepath.Join(dir, "corpus.jsonl"))
	if err != nil {
		return err
	}
	queries, err := readBEIRQueries(filepath.Join(dir, "queries.jsonl"))
	if err != nil {
		return err
	}
	qrels, err := readQrels(filepath.Join(dir, "qrels", "test.tsv"))
	if err != nil {
		return err
	}
	m, each, err := benchSearch(ctx, docs, queries, qrels, docsearch.Mode(*mode), *minScore, defaultEmbedder())
	if err != nil {
		return err
	}
	if *perQuery != "" {
		if err := writePerQuery(*perQuery, each); err != nil {
			return err
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(m)
	}
	fmt.Fprintf(stdout, "dataset      %s (%d docs, %d queries, mode %s, min score %.2f)\n", dir, m.Docs, m.Queries, *mode, *minScore)
	fmt.Fprintf(stdout, "nDCG@10      %.3f\n", m.NDCG10)
	fmt.Fprintf(stdout, "MRR@10       %.3f\n", m.MRR10)
	fmt.Fprintf(stdout, "Recall@10    %.3f\n", m.Recall10)
	fmt.Fprintf(stdout, "Recall@100   %.3f\n", m.Recall100)
	fmt.Fprintf(stdout, "query        %.2f ms p50, %.2f ms p95\n", m.P50ms, m.P95ms)
	fmt.Fprintf(stdout, "build        %.2f s\n", m.BuildS)
	return nil
}

// queryOutcome is how one query of a benchmark did.
type queryOutcome struct {
	ID     string  `json:"id"`
	Query  string  `json:"query"`
	Rank   int     `json:"rank"` // of the first relevant document, 1-based; 0 when not in the first 100
	NDCG10 float64 `json:"ndcg@10"`
	Top    string  `json:"top,omitempty"` // the first result
}

// writePerQuery writes each outcome as a line of JSON to the file name.
func writePerQuery(name string, each []queryOutcome) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for _, o := range each {
		if err := enc.Encode(o); err != nil {
			return err
		}
	}
	return os.WriteFile(name, b.Bytes(), 0o644)
}

// benchSearch indexes docs, runs every query that has judgements and
// scores the ranking, overall and per query.
func benchSearch(ctx context.Context, docs []docsearch.Document, queries map[string]string, qrels map[string]map[string]int,
	mode docsearch.Mode, minScore float64, emb docsearch.Embedder) (searchMetrics, []queryOutcome, error) {
	var m searchMetrics
	var each []queryOutcome
	start := time.Now()
	ix, err := docsearch.Open(ctx, fstest.MapFS{}, docsearch.Options{Embedder: emb})
	if err != nil {
		return m, nil, err
	}
	if err := ix.Put(ctx, docs); err != nil {
		return m, nil, err
	}
	m.BuildS = time.Since(start).Seconds()
	m.Docs = len(docs)
	ids := make([]string, 0, len(qrels))
	for id := range qrels {
		if _, ok := queries[id]; ok {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	var lat []time.Duration
	for _, id := range ids {
		t := time.Now()
		res, err := ix.Search(ctx, docsearch.Query{Text: queries[id], Limit: 100, MinScore: &minScore, Mode: mode})
		if err != nil && err != docsearch.ErrEmptyQuery {
			return m, nil, fmt.Errorf("query %s: %w", id, err)
		}
		lat = append(lat, time.Since(t))
		ranked := make([]string, len(res.Results))
		for i, r := range res.Results {
			ranked[i] = r.Path
		}
		rel := qrels[id]
		n := ndcg(ranked, rel, 10)
		o := queryOutcome{ID: id, Query: queries[id], Rank: firstRelevant(ranked, rel), NDCG10: math.Round(n*1000) / 1000}
		if len(ranked) > 0 {
			o.Top = ranked[0]
		}
		each = append(each, o)
		m.NDCG10 += n
		m.MRR10 += mrr(ranked, rel, 10)
		m.Recall10 += recall(ranked, rel, 10)
		m.Recall100 += recall(ranked, rel, 100)
	}
	m.Queries = len(ids)
	if n := float64(len(ids)); n > 0 {
		m.NDCG10 /= n
		m.MRR10 /= n
		m.Recall10 /= n
		m.Recall100 /= n
		slices.Sort(lat)
		m.P50ms = float64(lat[len(lat)/2].Microseconds()) / 1000
		m.P95ms = float64(lat[len(lat)*95/100].Microseconds()) / 1000
	}
	for _, p := range []*float64{&m.NDCG10, &m.MRR10, &m.Recall10, &m.Recall100, &m.P50ms, &m.P95ms, &m.BuildS} {
		*p = math.Round(*p*1000) / 1000
	}
	return m, each, nil
}

// ndcg is the normalised discounted cumulative gain of the first k
// results, with the judgements' grades as gains.
func ndcg(ranked []string, rel map[string]int, k int) float64 {
	dcg := 0.0
	for i, id := range ranked[:min(k, len(ranked))] {
		if g := rel[id]; g > 0 {
			dcg += float64(g) / math.Log2(float64(i+2))
		}
	}
	var grades []int
	for _, g := range rel {
		if g > 0 {
			grades = append(grades, g)
		}
	}
	slices.SortFunc(grades, func(a, b int) int { return b - a })
	ideal := 0.0
	for i, g := range grades[:min(k, len(grades))] {
		ideal += float64(g) / math.Log2(float64(i+2))
	}
	if ideal == 0 {
		return 0
	}
	return dcg / ideal
}

// mrr is the reciprocal rank of the first relevant result within k.
func mrr(ranked []string, rel map[string]int, k int) float64 {
	if r := firstRelevant(ranked[:min(k, len(ranked))], rel); r > 0 {
		return 1 / float64(r)
	}
	return 0
}

// firstRelevant is the rank, from 1, of the first relevant result; 0 when
// there is none.
func firstRelevant(ranked []string, rel map[string]int) int {
	for i, id := range ranked {
		if rel[id] > 0 {
			return i + 1
		}
	}
	return 0
}

// recall is the share of relevant documents within the first k.
func recall(ranked []string, rel map[string]int, k int) float64 {
	total, found := 0, 0
	for _, g := range rel {
		if g > 0 {
			total++
		}
	}
	for _, id := range ranked[:min(k, len(ranked))] {
		if rel[id] > 0 {
			found++
		}
	}
	if total == 0 {
		return 0
	}
	return float64(found) / float64(total)
}

// readBEIRCorpus reads corpus.jsonl as documents of plain text: BEIR text
// is not markdown (CoSQA's is Python, whose comments would read as
// headings).
func readBEIRCorpus(name string) ([]docsearch.Document, error) {
	var docs []docsearch.Document
	err := readJSONL(name, func(line []byte) error {
		var d struct {
			ID    string `json:"_id"`
			Title string `json:"title"`
			Text  string `json:"text"`
		}
		if err := json.Unmarshal(line, &d); err != nil {
			return err
		}
		docs = append(docs, docsearch.Document{Path: d.ID, Scope: docsearch.ScopeDocs, Title: d.Title, Text: d.Text, Format: "text"})
		return nil
	})
	return docs, err
}

func readBEIRQueries(name string) (map[string]string, error) {
	qs := map[string]string{}
	err := readJSONL(name, func(line []byte) error {
		var q struct {
			ID   string `json:"_id"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal(line, &q); err != nil {
			return err
		}
		qs[q.ID] = q.Text
		return nil
	})
	return qs, err
}

func readJSONL(name string, f func([]byte) error) error {
	file, err := openInput(name)
	if err != nil {
		return err
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	n := 0
	for sc.Scan() {
		n++
		if len(strings.TrimSpace(sc.Text())) == 0 {
			continue
		}
		if err := f(sc.Bytes()); err != nil {
			return fmt.Errorf("%s:%d: %w", name, n, err)
		}
	}
	return sc.Err()
}

// readQrels reads query-id, corpus-id, score lines after a header.
func readQrels(name string) (map[string]map[string]int, error) {
	data, err := readInput(name)
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]int{}
	for i, line := range strings.Split(string(data), "\n") {
		f := strings.Split(strings.TrimSpace(line), "\t")
		if i == 0 || len(f) != 3 {
			continue
		}
		g, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: score %q", name, i+1, f[2])
		}
		if out[f[0]] == nil {
			out[f[0]] = map[string]int{}
		}
		out[f[0]][f[1]] = g
	}
	return out, nil
}
