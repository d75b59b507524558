package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing/fstest"
	"time"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/internal/ftspeer"
)

// The docs benchmark: graded questions over the documentation of real
// libraries, scored per page. A question set is a file SET.tsv in the
// benchmark directory, a question a line: the question, a tab, and the
// pages that answer it as "path:grade" separated by spaces (2: the page
// that answers it, 1: a page that helps); lines starting with # are
// comments. The pages of SET are the files under CORPORA/SET, each its
// own document; docs/bench/docs/fetch.sh makes them.

// docQuestion is one graded question of a docs set.
type docQuestion struct {
	Text  string
	Qrels map[string]int
}

// docsMetrics are the page-level figures of one ranker on one set (or
// on all of them).
type docsMetrics struct {
	Questions int     `json:"questions"`
	MRR10     float64 `json:"mrr@10"`
	Hit1      float64 `json:"hit@1"`
	Hit5      float64 `json:"hit@5"`
	NDCG10    float64 `json:"ndcg@10"`
	P50ms     float64 `json:"p50_ms"`
	BuildS    float64 `json:"build_s"`
}

// add accumulates one question's ranking into m (sums; see mean).
func (m *docsMetrics) add(ranked []string, rel map[string]int) {
	m.Questions++
	m.MRR10 += mrr(ranked, rel, 10)
	if r := firstRelevant(ranked, rel); r == 1 {
		m.Hit1++
	}
	if r := firstRelevant(ranked[:min(5, len(ranked))], rel); r > 0 {
		m.Hit5++
	}
	m.NDCG10 += ndcg(ranked, rel, 10)
}

// mean turns sums into means, rounded to three places.
func (m docsMetrics) mean() docsMetrics {
	if m.Questions == 0 {
		return m
	}
	n := float64(m.Questions)
	r := func(f float64) float64 { return math.Round(f*1000) / 1000 }
	m.MRR10, m.Hit1, m.Hit5, m.NDCG10 = r(m.MRR10/n), r(m.Hit1/n), r(m.Hit5/n), r(m.NDCG10/n)
	m.P50ms, m.BuildS = r(m.P50ms), r(m.BuildS)
	return m
}

// docsSetResult is one set's figures for fileinfo and the FTS5 peer.
type docsSetResult struct {
	Set      string       `json:"set"`
	Pages    int          `json:"pages"`
	Fileinfo docsMetrics  `json:"fileinfo"`
	FTS5     *docsMetrics `json:"fts5,omitempty"`
}

func runBenchDocs(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fset := newFlags("bench docs", "BENCHDIR", stderr)
	corpora := fset.String("corpora", "/tmp/fileinfo-docsbench", "`dir` holding one directory of pages per set (docs/bench/docs/fetch.sh makes it)")
	mode := fset.String("mode", "hybrid", "retrievers: hybrid, bm25 or vector")
	peer := fset.Bool("peer", true, "rank with SQLite FTS5 (python3's sqlite3) in the same run")
	asJSON := fset.Bool("json", false, "print the figures as JSON")
	perQuery := fset.String("per-query", "", "also write each question's outcome to this file, a JSON object a line")
	pos, err := parseInterspersed(fset, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fset.Usage()
		return errUsage
	}
	sets, err := filepath.Glob(filepath.Join(pos[0], "*.tsv"))
	if err != nil || len(sets) == 0 {
		return fmt.Errorf("bench docs: no SET.tsv question files in %s", pos[0])
	}
	slices.Sort(sets)
	var results []docsSetResult
	var each []queryOutcome
	var all, allPeer docsMetrics
	for _, file := range sets {
		set := strings.TrimSuffix(filepath.Base(file), ".tsv")
		qs, err := readDocQuestions(file)
		if err != nil {
			return err
		}
		docs, err := readDocsCorpus(filepath.Join(*corpora, set))
		if err != nil {
			return err
		}
		r, outs, err := benchDocsSet(ctx, set, docs, qs, docsearch.Mode(*mode), *peer)
		if err != nil {
			return err
		}
		results = append(results, r)
		each = append(each, outs...)
		merge(&all, r.Fileinfo)
		if r.FTS5 != nil {
			merge(&allPeer, *r.FTS5)
		}
	}
	total := docsSetResult{Set: "all", Fileinfo: all.mean()}
	for _, r := range results {
		total.Pages += r.Pages
	}
	if allPeer.Questions > 0 {
		p := allPeer.mean()
		total.FTS5 = &p
	}
	results = append(results, total)
	if *perQuery != "" {
		if err := writePerQuery(*perQuery, each); err != nil {
			return err
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(results)
	}
	fmt.Fprintf(stdout, "%-9s %-8s %5s %5s %6s %6s %6s %7s %8s %7s\n", "set", "ranker", "pages", "qs", "MRR@10", "Hit@1", "Hit@5", "nDCG@10", "p50 ms", "build s")
	for _, r := range results {
		line := func(name string, m docsMetrics) {
			fmt.Fprintf(stdout, "%-9s %-8s %5d %5d %6.3f %6.3f %6.3f %7.3f %8.2f %7.2f\n", r.Set, name, r.Pages, m.Questions, m.MRR10, m.Hit1, m.Hit5, m.NDCG10, m.P50ms, m.BuildS)
		}
		line("fileinfo", r.Fileinfo)
		if r.FTS5 != nil {
			line("fts5", *r.FTS5)
		}
	}
	return nil
}

// merge adds a set's mean figures into a total of sums over questions;
// times are summed for the build and kept as the largest median.
func merge(total *docsMetrics, m docsMetrics) {
	n := float64(m.Questions)
	total.Questions += m.Questions
	total.MRR10 += m.MRR10 * n
	total.Hit1 += m.Hit1 * n
	total.Hit5 += m.Hit5 * n
	total.NDCG10 += m.NDCG10 * n
	total.P50ms = max(total.P50ms, m.P50ms)
	total.BuildS += m.BuildS
}

// benchDocsSet indexes one set's pages, asks its questions of fileinfo
// and, with peer, of FTS5 over the same pages.
func benchDocsSet(ctx context.Context, set string, docs []docsearch.Document, qs []docQuestion, mode docsearch.Mode, peer bool) (docsSetResult, []queryOutcome, error) {
	r := docsSetResult{Set: set, Pages: len(docs)}
	start := time.Now()
	ix, err := docsearch.Open(ctx, fstest.MapFS{}, docsearch.Options{Embedder: defaultEmbedder()})
	if err != nil {
		return r, nil, err
	}
	if err := ix.Put(ctx, docs); err != nil {
		return r, nil, err
	}
	var m docsMetrics
	build := time.Since(start)
	var lat []time.Duration
	var outs []queryOutcome
	zero := 0.0
	for i, q := range qs {
		t := time.Now()
		res, err := ix.Search(ctx, docsearch.Query{Text: q.Text, Limit: 10, MinScore: &zero, Mode: mode})
		if err != nil {
			return r, nil, fmt.Errorf("%s question %d: %w", set, i+1, err)
		}
		lat = append(lat, time.Since(t))
		ranked := make([]string, len(res.Results))
		for j, x := range res.Results {
			ranked[j] = x.Path
		}
		m.add(ranked, q.Qrels)
		o := queryOutcome{ID: set + "-" + strconv.Itoa(i+1), Query: q.Text, Rank: firstRelevant(ranked, q.Qrels),
			NDCG10: math.Round(ndcg(ranked, q.Qrels, 10)*1000) / 1000}
		if len(ranked) > 0 {
			o.Top = ranked[0]
		}
		outs = append(outs, o)
	}
	m.BuildS = build.Seconds()
	m.P50ms = p50(lat)
	r.Fileinfo = m.mean()
	if !peer {
		return r, outs, nil
	}
	pd := make([]ftspeer.Doc, len(docs))
	for i, d := range docs {
		pd[i] = ftspeer.Doc{ID: d.Path, Text: d.Text}
	}
	texts := make([]string, len(qs))
	for i, q := range qs {
		texts[i] = q.Text
	}
	pr, err := ftspeer.Rank(ctx, pd, texts, 10)
	if err != nil {
		return r, nil, fmt.Errorf("%s: %w (pass --peer=false to skip)", set, err)
	}
	var pm docsMetrics
	for i, q := range qs {
		pm.add(pr.IDs[i], q.Qrels)
	}
	pm.BuildS = pr.IndexTime.Seconds()
	pm.P50ms = p50(pr.QueryTimes)
	pm = pm.mean()
	r.FTS5 = &pm
	return r, outs, nil
}

// p50 is the median of ds in milliseconds.
func p50(ds []time.Duration) float64 {
	if len(ds) == 0 {
		return 0
	}
	return float64(median(ds).Microseconds()) / 1000
}

// readDocQuestions reads a SET.tsv question file.
func readDocQuestions(name string) ([]docQuestion, error) {
	data, err := readInput(name)
	if err != nil {
		return nil, err
	}
	var qs []docQuestion
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		text, judged, ok := strings.Cut(line, "\t")
		if !ok || strings.TrimSpace(text) == "" {
			return nil, fmt.Errorf("%s:%d: want a question, a tab and path:grade pairs", name, i+1)
		}
		q := docQuestion{Text: strings.TrimSpace(text), Qrels: map[string]int{}}
		for _, f := range strings.Fields(judged) {
			p, g, ok := strings.Cut(f, ":")
			grade, err := strconv.Atoi(g)
			if !ok || err != nil || grade < 0 {
				return nil, fmt.Errorf("%s:%d: judgement %q; want path:grade", name, i+1, f)
			}
			q.Qrels[p] = grade
		}
		if len(q.Qrels) == 0 {
			return nil, fmt.Errorf("%s:%d: no judged pages", name, i+1)
		}
		qs = append(qs, q)
	}
	return qs, nil
}

// readDocsCorpus reads every document file under dir as a page, its path
// relative to dir, its format by extension.
func readDocsCorpus(dir string) ([]docsearch.Document, error) {
	var docs []docsearch.Document
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		format := ""
		switch strings.ToLower(filepath.Ext(p)) {
		case ".md", ".markdown", ".mdx":
			format = "markdown"
		case ".rst":
			format = "rst"
		case ".txt":
			format = "text"
		case ".html", ".htm":
			format = "html"
		default:
			return nil
		}
		data, err := readInput(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		docs = append(docs, docsearch.Document{Path: filepath.ToSlash(rel), Scope: docsearch.ScopeDocs, Text: string(data), Format: format})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("bench docs: read %s: %w (run docs/bench/docs/fetch.sh)", dir, err)
	}
	return docs, nil
}
