package embed

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestEvalCoSQA measures retrieval on a BEIR-format set: every corpus
// document and query is embedded, documents are ranked by cosine, and
// nDCG@10, MRR@10, Recall@10 and Recall@100 are reported for the vector
// ranking, for a plain BM25 written here (the product's is package
// docsearch's), and for their fusion by reciprocal rank (k = 60). It runs
// only when FILEINFO_EVAL_BEIR names the set's directory:
//
//	FILEINFO_EVAL_BEIR=/work/shared/eval/search/cosqa-test go test -run EvalCoSQA -v ./docsearch/embed
//
// FILEINFO_EVAL_TABLES, a comma-separated list of table files, adds those
// tables to the embedded one; FILEINFO_EVAL_SWEEP=1 also tries vocabulary
// sizes, SIF weights and principal-component removal.
func TestEvalCoSQA(t *testing.T) {
	dir := os.Getenv("FILEINFO_EVAL_BEIR")
	if dir == "" {
		t.Skip("set FILEINFO_EVAL_BEIR to a BEIR set's directory")
	}
	set := loadBEIR(t, dir)
	bm := newBM25(set.docs)
	bmRuns := make([][]int, len(set.queries))
	for i, q := range set.queries {
		bmRuns[i] = bm.search(q.text, 1000)
	}
	report(t, "bm25 (test harness)", set, bmRuns)

	type config struct {
		label string
		table *Table
		opts  Options
	}
	type named struct {
		label string
		table *Table
	}
	def := mustDecode(t, defaultTable)
	tables := []named{{"default " + def.Name, def}}
	for _, path := range strings.Split(os.Getenv("FILEINFO_EVAL_TABLES"), ",") {
		if path == "" {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		tables = append(tables, named{filepath.Base(path), mustDecode(t, b)})
	}
	var configs []config
	for _, tab := range tables {
		configs = append(configs, config{tab.label, tab.table, Options{}})
		if os.Getenv("FILEINFO_EVAL_SWEEP") == "" {
			continue
		}
		for _, a := range []float64{-1, 1e-2, 1e-3, 1e-4, 3e-5} {
			configs = append(configs, config{fmt.Sprintf("%s sif=%g", tab.label, a), tab.table, Options{SIF: a}})
		}
		configs = append(configs,
			config{tab.label + " keep pcs", tab.table, Options{KeepPC: true}},
			config{tab.label + " keep keywords", tab.table, Options{KeepKeywords: true}},
			config{tab.label + " counts", tab.table, Options{Counts: true}},
			config{tab.label + " mean, keep pcs, keywords, counts", tab.table, Options{SIF: -1, KeepPC: true, KeepKeywords: true, Counts: true}},
		)
		if tab.table.Kind == KindWords {
			for _, n := range []int{10000, 20000, 40000, 60000, 100000, 200000} {
				if n < tab.table.Count {
					configs = append(configs, config{fmt.Sprintf("%s words=%d", tab.label, n), tab.table, Options{Words: n}})
				}
			}
		}
	}
	for _, c := range configs {
		m, err := New(c.table, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		runs := vectorRuns(t, m, set)
		report(t, c.label, set, runs)
		report(t, c.label+" + bm25 (rrf)", set, fuse(bmRuns, runs))
	}
}

type beirQuery struct{ id, text string }

type beirSet struct {
	docIDs  []string
	docs    []string
	queries []beirQuery
	rel     map[string]map[string]int // query → doc → grade
}

func loadBEIR(t *testing.T, dir string) *beirSet {
	t.Helper()
	s := &beirSet{rel: map[string]map[string]int{}}
	readJSONL(t, filepath.Join(dir, "corpus.jsonl"), func(m map[string]string) {
		s.docIDs = append(s.docIDs, m["_id"])
		s.docs = append(s.docs, m["title"]+"\n"+m["text"])
	})
	readJSONL(t, filepath.Join(dir, "queries.jsonl"), func(m map[string]string) {
		s.queries = append(s.queries, beirQuery{m["_id"], m["text"]})
	})
	b, err := os.ReadFile(filepath.Join(dir, "qrels", "test.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Split(line, "\t")
		if i == 0 || len(f) != 3 {
			continue
		}
		g, _ := strconv.Atoi(f[2])
		if s.rel[f[0]] == nil {
			s.rel[f[0]] = map[string]int{}
		}
		s.rel[f[0]][f[1]] = g
	}
	// Only queries with judgements count, as in BEIR.
	s.queries = slices.DeleteFunc(s.queries, func(q beirQuery) bool { return len(s.rel[q.id]) == 0 })
	return s
}

func readJSONL(t *testing.T, path string, f func(map[string]string)) {
	t.Helper()
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m map[string]string
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		f(m)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

func mustDecode(t *testing.T, b []byte) *Table {
	t.Helper()
	tab, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// vectorRuns ranks every document for every query by cosine, best first,
// keeping 1000.
func vectorRuns(t *testing.T, m *Model, s *beirSet) [][]int {
	t.Helper()
	ctx := context.Background()
	start, size := time.Now(), 0
	dv, err := m.Embed(ctx, s.docs)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range s.docs {
		size += len(d)
	}
	t.Logf("%s: embedded %.1f MB of documents at %.1f MB/s", m.Name(), float64(size)/1e6, float64(size)/1e6/time.Since(start).Seconds())
	qs := make([]string, len(s.queries))
	for i, q := range s.queries {
		qs[i] = q.text
	}
	qv, err := m.Embed(ctx, qs)
	if err != nil {
		t.Fatal(err)
	}
	runs := make([][]int, len(qv))
	scores := make([]float32, len(dv))
	for i, q := range qv {
		for d, v := range dv {
			var dot float32
			for j := range q {
				dot += q[j] * v[j]
			}
			scores[d] = dot
		}
		runs[i] = topK(scores, 1000)
	}
	return runs
}

// topK returns the indices of the k highest scores, best first, ties by
// index.
func topK(scores []float32, k int) []int {
	idx := make([]int, len(scores))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case scores[a] > scores[b]:
			return -1
		case scores[a] < scores[b]:
			return 1
		}
		return 0
	})
	return idx[:min(k, len(idx))]
}

// fuse merges two runs per query by reciprocal rank fusion, k = 60.
func fuse(a, b [][]int) [][]int {
	out := make([][]int, len(a))
	for i := range a {
		score := map[int]float64{}
		for r, d := range a[i] {
			score[d] += 1 / (60 + float64(r+1))
		}
		for r, d := range b[i] {
			score[d] += 1 / (60 + float64(r+1))
		}
		docs := make([]int, 0, len(score))
		for d := range score {
			docs = append(docs, d)
		}
		slices.SortFunc(docs, func(x, y int) int {
			switch {
			case score[x] > score[y]:
				return -1
			case score[x] < score[y]:
				return 1
			}
			return x - y
		})
		out[i] = docs
	}
	return out
}

// report logs nDCG@10, MRR@10, R@10 and R@100 of runs.
func report(t *testing.T, label string, s *beirSet, runs [][]int) {
	t.Helper()
	var ndcg, mrr, r10, r100 float64
	for i, q := range s.queries {
		rel := s.rel[q.id]
		var dcg, ideal float64
		var grades []int
		for _, g := range rel {
			grades = append(grades, g)
		}
		slices.Sort(grades)
		slices.Reverse(grades)
		for k, g := range grades[:min(10, len(grades))] {
			ideal += (math.Pow(2, float64(g)) - 1) / math.Log2(float64(k+2))
		}
		found10, found100, first := 0, 0, 0
		for k, d := range runs[i][:min(100, len(runs[i]))] {
			g, ok := rel[s.docIDs[d]]
			if !ok || g <= 0 {
				continue
			}
			if k < 10 {
				dcg += (math.Pow(2, float64(g)) - 1) / math.Log2(float64(k+2))
				found10++
				if first == 0 {
					first = k + 1
				}
			}
			found100++
		}
		if ideal > 0 {
			ndcg += dcg / ideal
		}
		if first > 0 {
			mrr += 1 / float64(first)
		}
		r10 += float64(found10) / float64(len(grades))
		r100 += float64(found100) / float64(len(grades))
	}
	n := float64(len(s.queries))
	t.Logf("| %-52s | %.3f | %.3f | %.3f | %.3f |", label, ndcg/n, mrr/n, r10/n, r100/n)
}

// bm25 is a plain Okapi BM25 (k1 = 1.2, b = 0.75) over the words of
// splitWords, with a light plural stemmer; it exists to measure fusion.
type bm25 struct {
	postings map[string][]posting
	docLen   []float64
	avgLen   float64
}

type posting struct {
	doc int
	tf  float64
}

func bmTerms(text string) []string {
	var terms []string
	splitWords(text, make([]byte, 0, 4*maxWord), func(w []byte) {
		s := string(w)
		if len(s) > 3 && strings.HasSuffix(s, "s") && !strings.HasSuffix(s, "ss") {
			s = s[:len(s)-1]
		}
		terms = append(terms, s)
	})
	return terms
}

func newBM25(docs []string) *bm25 {
	b := &bm25{postings: map[string][]posting{}, docLen: make([]float64, len(docs))}
	var total float64
	for d, text := range docs {
		tf := map[string]float64{}
		terms := bmTerms(text)
		for _, w := range terms {
			tf[w]++
		}
		keys := make([]string, 0, len(tf))
		for w := range tf {
			keys = append(keys, w)
		}
		slices.Sort(keys)
		for _, w := range keys {
			b.postings[w] = append(b.postings[w], posting{d, tf[w]})
		}
		b.docLen[d] = float64(len(terms))
		total += float64(len(terms))
	}
	b.avgLen = total / float64(len(docs))
	return b
}

func (b *bm25) search(q string, k int) []int {
	const k1, bb = 1.2, 0.75
	scores := make([]float32, len(b.docLen))
	n := float64(len(b.docLen))
	seen := map[string]bool{}
	for _, w := range bmTerms(q) {
		if seen[w] {
			continue
		}
		seen[w] = true
		ps := b.postings[w]
		idf := math.Log(1 + (n-float64(len(ps))+0.5)/(float64(len(ps))+0.5))
		for _, p := range ps {
			scores[p.doc] += float32(idf * p.tf * (k1 + 1) / (p.tf + k1*(1-bb+bb*b.docLen[p.doc]/b.avgLen)))
		}
	}
	return topK(scores, k)
}
