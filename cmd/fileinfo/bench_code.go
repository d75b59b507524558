package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing/fstest"
	"time"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/internal/codeindex"
	"github.com/fileinfo/fileinfo/internal/ftspeer"
)

// A code-search data set (docs/bench/code) is a directory of:
//
//	queries.jsonl  {"_id", "repo", "text", "source"} a line: a question in
//	               words, the repository it is about, and the docs page or
//	               issue it was written from (which names the answer)
//	qrels.tsv      query-id, repo, path, symbol, start, end (a header line
//	               first): the functions that answer it, by file and line
//	               range in the fetched repository
//
// The repositories are fetched by the data set's fetch.sh into --repos,
// one directory per repo name.

// codeQuery is one query of a code-search data set.
type codeQuery struct {
	ID   string `json:"_id"`
	Repo string `json:"repo"`
	Text string `json:"text"`
}

// span is a range of lines of a file.
type span struct {
	path       string
	start, end int
}

// codeMetrics are one ranker's scores; the JSON keys are fixed.
type codeMetrics struct {
	FuncNDCG10   float64 `json:"function_ndcg@10"`
	FuncExact10  float64 `json:"function_exact_ndcg@10"` // results matched by exactly
	FuncMRR10    float64 `json:"function_mrr@10"`
	FuncRecall10 float64 `json:"function_recall@10"`
	FileNDCG10   float64 `json:"file_ndcg@10"`
	FileMRR10    float64 `json:"file_mrr@10"`
	FileRecall10 float64 `json:"file_recall@10"`
	P50ms        float64 `json:"p50_ms"`
	IndexS       float64 `json:"index_s"`
}

// codeBench is what `bench code` reports.
type codeBench struct {
	Queries  int                    `json:"queries"`
	Repos    int                    `json:"repos"`
	Chunks   int                    `json:"chunks"`
	Rankers  map[string]codeMetrics `json:"rankers"`
	PerRepo  map[string]codeMetrics `json:"per_repo_fileinfo"`
	PeerNote string                 `json:"peer_note,omitempty"`
	// PeerTests says the peer indexed tests and examples too (--peer-tests).
	PeerTests bool `json:"peer_tests"`
	// Groups are the rankers' metrics per split and language
	// ("held/go"), for a data set with a repos.tsv.
	Groups map[string]map[string]codeMetrics `json:"groups,omitempty"`
}

// runBenchCode measures function-level and file-level retrieval of the
// code scope on real repositories, beside SQLite FTS5 over the same
// chunks in the same run.
func runBenchCode(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench code", "DATASET", stderr)
	repos := fs.String("repos", "/tmp/fileinfo-bench-code", "`dir` holding the repositories the data set's fetch.sh fetched")
	mode := fs.String("mode", "hybrid", "retrievers: hybrid, bm25 or vector")
	asJSON := fs.Bool("json", false, "print the metrics as JSON")
	scale := fs.String("scale", "", "instead, measure the code scope's build time, memory and search latency on the repository `dir` (e.g. golang.org/x/tools), with the data set's queries")
	perQuery := fs.String("per-query", "", "also write each query's first result and the rank of its first relevant function to this file (JSON lines)")
	depth := intFlag(fs, "depth", 10, benchDepth, "with --per-query, the rank of the first relevant function is looked for among `n` results (the metrics stay @10)")
	split := fs.String("split", "", "only the repositories of this split of the data set's repos.tsv: tune or held (\"\": all)")
	peerW := fs.String("peer-weights", "5,2,1", "the FTS5 peer's bm25 `weights` of name, path and body")
	peerTests := fs.Bool("peer-tests", false, "let the FTS5 peer index tests and examples too (by default it leaves them out, as the stronger peer: docs/code-search.md)")
	learn := fs.Bool("learn", false, "instead, fit the weights of the code ranking features on the data set's tuning split (all of it when it has no splits) and print them")
	learnAlso := fs.String("learn-also", "", "with --learn, `dataset=repos,...`: more data sets the weights are fitted on too, less the repositories held out in any of them")
	fit := fs.Bool("fit", false, "with --learn, fit every weight at once as a pairwise logistic model, its strength chosen by leaving one repository out, instead of coordinate ascent")
	fitCache := fs.String("fit-cache", "", "with --learn --fit, keep the candidates collected in this `file` and read them from it next time (the same features and data sets)")
	fitTreesFlag := fs.Bool("trees", false, "with --learn --fit, fit instead a boosted ensemble of regression trees over the features on top of the built-in weights, its depth and rounds chosen by leaving one repository out")
	codeW := fs.String("code-weights", "", "rank with these weights of the code ranking features, `feature=value,...`, the others built in (to check fitted weights)")
	asNames := fs.Bool("names", false, "ask instead for each judged function by its own name, answered by itself alone (identifier lookups; see nameQueries)")
	learnOnly := fs.String("learn-only", "", "with --learn, fit only these `features` (comma-separated names), the others kept at their built-in weights")
	codeOnly := fs.Bool("code-only", false, "index each repository's code alone, without its docs (README, docs/, other markdown), as the figures before 2026-12-07 (twenty-fifth session) were measured; by default the docs are indexed beside the code, as in a workspace, and the docs feature reads them")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fs.Usage()
		return errUsage
	}
	if *learn {
		only, err := learnFeatures(*learnOnly)
		if err != nil {
			return err
		}
		if *fit && *fitCache != "" {
			done, err := fitFromCache(*fitCache, pos[0], *repos, *learnAlso, only, *fitTreesFlag, stdout)
			if done || err != nil {
				return err
			}
		}
		sets, err := loadLearnSets(ctx, pos[0], *repos, *learnAlso, !*codeOnly, stderr)
		if err != nil {
			return err
		}
		if *fit {
			return runFit(ctx, sets, only, *fitCache, *fitTreesFlag, stdout)
		}
		_, err = learnCodeWeights(ctx, sets, only, 3, stdout)
		return err
	}
	read := readCodeSet
	if *asNames {
		read = nameQueries
	}
	queries, qrels, err := read(pos[0])
	if err != nil {
		return err
	}
	var ranking []float64
	if *codeW != "" {
		if ranking, err = parseCodeWeights(*codeW); err != nil {
			return fmt.Errorf("bench code: --code-weights: %w", err)
		}
	}
	var weights ftspeer.Weights
	if _, err := fmt.Sscanf(*peerW, "%g,%g,%g", &weights.Title, &weights.Path, &weights.Text); err != nil {
		return fmt.Errorf("bench code: --peer-weights %q: want three numbers, name,path,body: %w", *peerW, err)
	}
	// A generated data set says each repository's language and split.
	group := map[string]string{}
	if list, err := readGenRepos(pos[0]); err == nil {
		for _, r := range list {
			group[r.Name] = r.Split + "/" + r.Lang
		}
		if *split != "" {
			queries = slices.DeleteFunc(queries, func(q codeQuery) bool { return !strings.HasPrefix(group[q.Repo], *split+"/") })
		}
	} else if !os.IsNotExist(errors.Unwrap(err)) && !os.IsNotExist(err) {
		return err
	}
	if *scale != "" {
		texts := make([]string, len(queries))
		for i, q := range queries {
			texts[i] = q.Text
		}
		return benchCodeScale(ctx, *scale, texts, stdout)
	}
	byRepo := map[string][]codeQuery{}
	var names []string
	for _, q := range queries {
		if len(qrels[q.ID]) == 0 {
			continue
		}
		if byRepo[q.Repo] == nil {
			names = append(names, q.Repo)
		}
		byRepo[q.Repo] = append(byRepo[q.Repo], q)
	}
	slices.Sort(names)
	out := codeBench{Repos: len(names), Rankers: map[string]codeMetrics{}, PerRepo: map[string]codeMetrics{}, PeerTests: *peerTests}
	var ours, peer []codeOutcome
	groupOurs, groupPeer := map[string][]codeOutcome{}, map[string][]codeOutcome{}
	var ourLat, peerLat []time.Duration
	var ourIndex, peerIndex time.Duration
	for _, repo := range names {
		dir := filepath.Join(*repos, repo)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return fmt.Errorf("bench code: repository %s not at %s; fetch it with %s", repo, dir, filepath.Join(pos[0], "fetch.sh"))
		}
		start := time.Now()
		ix, files, err := repoIndex(ctx, dir, !*codeOnly)
		if err != nil {
			return fmt.Errorf("bench code: %s: %w", repo, err)
		}
		ourIndex += time.Since(start)
		docs, where, chunks := peerCodeDocs(files, *peerTests)
		out.Chunks += chunks
		qs := byRepo[repo]
		var repoOurs []codeOutcome
		zero := 0.0
		for _, q := range qs {
			t := time.Now()
			res, err := ix.Search(ctx, docsearch.Query{Text: q.Text, Scopes: []string{docsearch.ScopeCode}, Limit: *depth, MinScore: &zero, Mode: docsearch.Mode(*mode), CodeWeights: ranking})
			ourLat = append(ourLat, time.Since(t))
			if err != nil {
				return fmt.Errorf("bench code: %s: %w", q.ID, err)
			}
			var got []span
			for _, r := range res.Results {
				got = append(got, span{r.Path, r.Lines[0], r.Lines[1]})
			}
			o := scoreCode(q, got, qrels[q.ID])
			repoOurs = append(repoOurs, o)
		}
		texts := make([]string, len(qs))
		for i, q := range qs {
			texts[i] = q.Text
		}
		pr, err := ftspeer.RankWeighted(ctx, docs, texts, 10, weights)
		if err != nil {
			out.PeerNote = err.Error()
		} else {
			peerIndex += pr.IndexTime
			peerLat = append(peerLat, pr.QueryTimes...)
			for i, q := range qs {
				var got []span
				for _, id := range pr.IDs[i] {
					got = append(got, where[id])
				}
				o := scoreCode(q, got, qrels[q.ID])
				peer = append(peer, o)
				if g := group[repo]; g != "" {
					groupPeer[g] = append(groupPeer[g], o)
				}
				repoOurs[i].PeerRank, repoOurs[i].PeerFileRank = o.Rank, o.FileRank
			}
		}
		ours = append(ours, repoOurs...)
		if g := group[repo]; g != "" {
			groupOurs[g] = append(groupOurs[g], repoOurs...)
		}
		out.PerRepo[repo] = summarizeCode(repoOurs, nil, 0)
	}
	out.Queries = len(ours)
	out.Rankers["fileinfo"] = summarizeCode(ours, ourLat, ourIndex)
	if out.PeerNote == "" {
		out.Rankers["fts5"] = summarizeCode(peer, peerLat, peerIndex)
	}
	if len(groupOurs) > 0 {
		out.Groups = map[string]map[string]codeMetrics{}
		for g, os_ := range groupOurs {
			out.Groups[g] = map[string]codeMetrics{"fileinfo": summarizeCode(os_, nil, 0)}
			if out.PeerNote == "" {
				out.Groups[g]["fts5"] = summarizeCode(groupPeer[g], nil, 0)
			}
		}
	}
	if *perQuery != "" {
		if err := writeCodeOutcomes(*perQuery, ours); err != nil {
			return err
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	peerOf := "FTS5 without tests and examples"
	if out.PeerTests {
		peerOf = "FTS5 with tests and examples"
	}
	fmt.Fprintf(stdout, "dataset %s: %d queries over %d repositories, %d symbol chunks, mode %s; %s\n", pos[0], out.Queries, out.Repos, out.Chunks, *mode, peerOf)
	fmt.Fprintf(stdout, "%-9s %8s %8s %8s   %8s %8s %8s   %8s %8s\n", "", "fn nDCG", "fn MRR", "fn R@10", "file nDCG", "file MRR", "file R@10", "p50 ms", "index s")
	for _, name := range []string{"fileinfo", "fts5"} {
		m, ok := out.Rankers[name]
		if !ok {
			continue
		}
		fmt.Fprintf(stdout, "%-9s %8.3f %8.3f %8.3f   %8.3f %8.3f %8.3f   %8.2f %8.2f\n", name,
			m.FuncNDCG10, m.FuncMRR10, m.FuncRecall10, m.FileNDCG10, m.FileMRR10, m.FileRecall10, m.P50ms, m.IndexS)
	}
	if out.PeerNote != "" {
		fmt.Fprintf(stdout, "fts5: not measured: %s\n", out.PeerNote)
	}
	if len(out.Groups) > 0 {
		fmt.Fprintf(stdout, "%-18s %8s %8s   %9s %9s   %10s %10s   %s\n", "split/language", "fn ours", "fn fts5", "file ours", "file fts5", "exact ours", "exact fts5", "queries")
		for _, g := range slices.Sorted(maps.Keys(out.Groups)) {
			m, p := out.Groups[g]["fileinfo"], out.Groups[g]["fts5"]
			fmt.Fprintf(stdout, "%-18s %8.3f %8.3f   %9.3f %9.3f   %10.3f %10.3f   %d\n", g, m.FuncNDCG10, p.FuncNDCG10, m.FileNDCG10, p.FileNDCG10, m.FuncExact10, p.FuncExact10, len(groupOurs[g]))
		}
	}
	for _, repo := range names {
		m := out.PerRepo[repo]
		fmt.Fprintf(stdout, "  %-10s fn nDCG@10 %.3f  file nDCG@10 %.3f  (%d queries)\n", repo, m.FuncNDCG10, m.FileNDCG10, len(byRepo[repo]))
	}
	return nil
}

// readCodeSet reads a code-search data set's queries and qrels.
func readCodeSet(dir string) ([]codeQuery, map[string][]span, error) {
	f, err := openInput(filepath.Join(dir, "queries.jsonl"))
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	var queries []codeQuery
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var q codeQuery
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			return nil, nil, fmt.Errorf("%s:%d: %w", f.Name(), n, err)
		}
		queries = append(queries, q)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, err
	}
	rels, err := readCodeQrels(dir)
	if err != nil {
		return nil, nil, err
	}
	qrels := map[string][]span{}
	for _, r := range rels {
		qrels[r.id] = append(qrels[r.id], r.span)
	}
	return queries, qrels, nil
}

// qrel is one line of a data set's qrels.tsv: a function that answers a
// query.
type qrel struct {
	id, repo, symbol string
	span
}

// readCodeQrels reads a data set's qrels.tsv: query-id, repo, path,
// qualified symbol, start and end line, under an optional header.
func readCodeQrels(dir string) ([]qrel, error) {
	b, err := readInput(filepath.Join(dir, "qrels.tsv"))
	if err != nil {
		return nil, err
	}
	var out []qrel
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		cols := strings.Split(line, "\t")
		if i == 0 && cols[0] == "query-id" {
			continue
		}
		if len(cols) != 6 {
			return nil, fmt.Errorf("qrels.tsv:%d: %d columns, want 6 (query-id repo path symbol start end)", i+1, len(cols))
		}
		start, err1 := strconv.Atoi(cols[4])
		end, err2 := strconv.Atoi(cols[5])
		if err1 != nil || err2 != nil || start < 1 || end < start {
			return nil, fmt.Errorf("qrels.tsv:%d: bad line range %s-%s", i+1, cols[4], cols[5])
		}
		out = append(out, qrel{cols[0], cols[1], cols[3], span{cols[2], start, end}})
	}
	return out, nil
}

// codeOutcome is how one query did, function-level and file-level.
type codeOutcome struct {
	ID    string `json:"id"`
	Query string `json:"query"`
	Rank  int    `json:"rank"` // of the first relevant function, 1-based; 0 when not among the results ranked (10 unless --depth)
	// FileRank is the rank of the first relevant file among the files
	// of the results in order of first appearance, looked for as Rank is.
	FileRank int `json:"file_rank"`
	// PeerRank and PeerFileRank are FTS5's Rank and FileRank for the
	// query in the same run, among its first 10 results.
	PeerRank     int `json:"fts5_rank"`
	PeerFileRank int `json:"fts5_file_rank"`
	// Files are the distinct files of the first 10 results in order of
	// first appearance: the list file-level nDCG@10 scores.
	Files      []string `json:"files,omitempty"`
	FuncNDCG   float64  `json:"function_ndcg@10"`
	FuncExact  float64  `json:"function_exact_ndcg@10"`
	FuncRecall float64  `json:"-"`
	FileNDCG   float64  `json:"file_ndcg@10"`
	FileRR     float64  `json:"-"`
	FileRecall float64  `json:"-"`
	Top        string   `json:"top,omitempty"`
	// Results are the first 10 results, path:start-end, a relevant one
	// marked with a leading "*".
	Results []string `json:"results,omitempty"`
}

// matches reports whether a result answers a relevant range: same file,
// and at least half of the result's lines inside the range. A method of
// a relevant class counts; the class of a relevant method, or a file's
// top-level code, does not.
func matches(got, want span) bool {
	n := shared(got, want)
	return n > 0 && 2*n >= got.end-got.start+1
}

// shared returns how many lines two spans have in common: 0 in two files.
func shared(a, b span) int {
	if a.path != b.path {
		return 0
	}
	return max(min(a.end, b.end)-max(a.start, b.start)+1, 0)
}

// scoreCode scores a ranking (best first) against the relevant ranges:
// each relevant range is found once, by the first result that matches
// it; binary gains.
func scoreCode(q codeQuery, got, want []span) codeOutcome {
	o := codeOutcome{ID: q.ID, Query: q.Text}
	// Rank is looked for among all of got, the metrics in its first 10.
	relevant := make([]bool, len(got)) // got[i] answers a relevant range
	for i, g := range got {
		relevant[i] = slices.ContainsFunc(want, func(w span) bool { return matches(g, w) })
		if relevant[i] && o.Rank == 0 {
			o.Rank = i + 1
		}
	}
	files := map[string]bool{}
	for _, w := range want {
		files[w.path] = true
	}
	ranked := map[string]bool{}
	for _, g := range got {
		if ranked[g.path] {
			continue
		}
		ranked[g.path] = true
		if files[g.path] {
			o.FileRank = len(ranked)
			break
		}
	}
	if len(got) > 10 {
		got = got[:10]
	}
	if len(got) > 0 {
		o.Top = fmt.Sprintf("%s:%d-%d", got[0].path, got[0].start, got[0].end)
	}
	for i, g := range got {
		mark := ""
		if relevant[i] {
			mark = "*"
		}
		o.Results = append(o.Results, fmt.Sprintf("%s%s:%d-%d", mark, g.path, g.start, g.end))
	}
	found := make([]bool, len(want))
	var dcg float64
	hits := 0
	for i, g := range got {
		for j, w := range want {
			if !found[j] && matches(g, w) {
				found[j] = true
				dcg += 1 / math.Log2(float64(i+2))
				hits++
				break
			}
		}
	}
	o.FuncNDCG = dcg / idcg(len(want))
	o.FuncExact = exactNDCG(got, want)
	o.FuncRecall = float64(hits) / float64(len(want))
	// File level: the ranking's files in order of first appearance.
	seen := map[string]bool{}
	dcg, hits, rank := 0, 0, 0
	for _, g := range got {
		if seen[g.path] {
			continue
		}
		seen[g.path] = true
		o.Files = append(o.Files, g.path)
		rank++
		if files[g.path] {
			dcg += 1 / math.Log2(float64(rank+1))
			hits++
			if o.FileRR == 0 {
				o.FileRR = 1 / float64(rank)
			}
		}
	}
	o.FileNDCG = dcg / idcg(len(files))
	o.FileRecall = float64(hits) / float64(len(files))
	return o
}

// idcg is the DCG@10 of n relevant items ranked first.
func idcg(n int) float64 {
	var s float64
	for i := range min(n, 10) {
		s += 1 / math.Log2(float64(i+2))
	}
	return s
}

// summarizeCode averages outcomes; lat and index give the timings.
func summarizeCode(outs []codeOutcome, lat []time.Duration, index time.Duration) codeMetrics {
	var m codeMetrics
	if len(outs) == 0 {
		return m
	}
	for _, o := range outs {
		m.FuncNDCG10 += o.FuncNDCG
		m.FuncExact10 += o.FuncExact
		if o.Rank > 0 && o.Rank <= 10 { // --depth ranks deeper
			m.FuncMRR10 += 1 / float64(o.Rank)
		}
		m.FuncRecall10 += o.FuncRecall
		m.FileNDCG10 += o.FileNDCG
		m.FileMRR10 += o.FileRR
		m.FileRecall10 += o.FileRecall
	}
	n := float64(len(outs))
	m.FuncNDCG10, m.FuncMRR10, m.FuncRecall10 = m.FuncNDCG10/n, m.FuncMRR10/n, m.FuncRecall10/n
	m.FuncExact10 /= n
	m.FileNDCG10, m.FileMRR10, m.FileRecall10 = m.FileNDCG10/n, m.FileMRR10/n, m.FileRecall10/n
	if len(lat) > 0 {
		s := slices.Clone(lat)
		slices.Sort(s)
		m.P50ms = float64(s[len(s)/2].Microseconds()) / 1000
	}
	m.IndexS = index.Seconds()
	return m
}

// writeCodeOutcomes writes each outcome as a line of JSON.
func writeCodeOutcomes(name string, os_ []codeOutcome) error {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	for _, o := range os_ {
		if err := enc.Encode(o); err != nil {
			return err
		}
	}
	return os.WriteFile(name, []byte(b.String()), 0o644)
}

// peerCodeDocs returns the chunks the FTS5 peer ranks (one per symbol,
// keyed as ours), where each is, and how many symbols files hold in all
// (the chunks fileinfo ranks). The peer leaves out tests, examples,
// build tools' configuration and translations (docsearch.SideCode)
// unless withTests is set: they are what the code ranking demotes for a
// question that does not ask for them, and FTS5 has no such rule, so
// their callbacks, which repeat every name of the library, crowded its
// results (on docs/bench/codetests function-level nDCG@10 0.175 with
// them, 0.393 without).
func peerCodeDocs(files []docsearch.CodeFile, withTests bool) (docs []ftspeer.Doc, where map[string]span, chunks int) {
	where = map[string]span{}
	for _, f := range files {
		chunks += len(f.Symbols)
		if !withTests && docsearch.SideCode(f.Path) {
			continue
		}
		ids := docsearch.CodeKeys(f)
		for i, s := range f.Symbols {
			if !withTests && s.Test {
				continue
			}
			id := ids[i]
			where[id] = span{f.Path, s.Line, max(s.End, s.Line)}
			docs = append(docs, ftspeer.Doc{ID: id, Title: s.Name, Path: f.Path, Text: docsearch.CodeText(f.Path, s)})
		}
	}
	return docs, where, chunks
}

// repoIndex indexes a repository's code, and with withDocs its docs
// (README, docs/ and other markdown) in the docs scope, as a user's
// workspace is: code search reads them for the names the docs give
// (docsearch's featDocs). The repository stays open while the index
// lives: docs are read again at query time.
func repoIndex(ctx context.Context, dir string, withDocs bool) (*docsearch.Index, []docsearch.CodeFile, error) {
	files, err := codeindex.Files(ctx, dir)
	if err != nil {
		return nil, nil, err
	}
	var root fs.FS = fstest.MapFS{}
	if withDocs {
		r, err := os.OpenRoot(dir)
		if err != nil {
			return nil, nil, err
		}
		root = docsearch.RootFS(r)
	}
	ix, err := docsearch.Open(ctx, root, docsearch.Options{Embedder: defaultEmbedder()})
	if err != nil {
		return nil, nil, err
	}
	if err := ix.PutCode(ctx, files, nil); err != nil {
		return nil, nil, err
	}
	return ix, files, nil
}
