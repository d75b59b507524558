package docsearch

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Mode is which retrievers a search uses.
type Mode string

const (
	Hybrid  Mode = "hybrid" // lexical and vector, fused; lexical alone without an embedder
	Lexical Mode = "bm25"
	Vector  Mode = "vector"
)

// DefaultMinScore is the relevance below which results are dropped unless
// a query says otherwise.
const DefaultMinScore = 0.5

// Query is one search.
type Query struct {
	Text   string
	Scopes []string // nil: every scope; given: results are also grouped per scope
	// Limit is the number of results (per scope when Scopes are given); 0
	// takes the query type's default.
	Limit int
	// MinScore drops results of lower relevance; nil means
	// DefaultMinScore, 0 keeps everything.
	MinScore *float64
	// ContentType keeps only chunks of this type; "" keeps all (the query
	// type then only prefers one).
	ContentType ContentType
	Mode        Mode // "" is Hybrid
	// CodeWeights, when not nil, replace the weights of the code ranking
	// features (CodeWeights, CodeFeatureNames): for learning them.
	CodeWeights []float64
	// CodeCandidates, when not nil, is given the first code candidates
	// with every feature computed, before their weights apply: for
	// fitting the weights (CodeCandidate).
	CodeCandidates func([]CodeCandidate)
}

// Result is one document found.
type Result struct {
	Path     string   `json:"path"`
	Title    string   `json:"title"`
	Summary  string   `json:"summary,omitempty"`
	Entities []string `json:"entities,omitempty"`
	// Score is the relevance, 0 to 1: half how the document scores
	// against the best one, half how much of the query it covers (or how
	// close its meaning is), the higher of the lexical and semantic
	// values. Results are in rank order, which scores need not follow.
	Score   float64 `json:"score"`
	Scope   string  `json:"scope"`
	Updated string  `json:"updated,omitempty"` // RFC 3339
	// Heading is the heading path of the best-matching chunk: pass its
	// last part to Fetch for just that section.
	Heading     string      `json:"heading,omitempty"`
	ContentType ContentType `json:"content_type,omitempty"`
	// Lines are the first and last line of the best chunk and the
	// neighbours it is expanded by.
	Lines [2]int `json:"lines"`
	// Symbol, Kind and Signature describe a result of the code scope, whose
	// Path is the source file and Lines the symbol's; DocPath is its
	// document, for Fetch.
	Symbol    string `json:"symbol,omitempty"`
	Kind      string `json:"kind,omitempty"`
	Signature string `json:"signature,omitempty"`
	DocPath   string `json:"doc_path,omitempty"`
	// Generated says the code result's file was written by a tool
	// (CodeFile.Generated): a change belongs in what it is made from.
	Generated bool `json:"generated,omitempty"`
}

// Results is the answer to a Query.
type Results struct {
	Query   string              `json:"query"`
	Type    QueryType           `json:"query_type"`
	Results []Result            `json:"results"`
	ByScope map[string][]Result `json:"results_by_scope,omitempty"`
	Message string              `json:"message,omitempty"`
}

// maxQueryBytes bounds the query text read; the rest is ignored.
const maxQueryBytes = 2048

// candidates is how many chunks each retriever passes to fusion.
const candidates = 200

// rrfK is the k of reciprocal rank fusion: rank r contributes 1/(k+r).
const rrfK = 60

// ErrEmptyQuery is returned for a query with no text.
var ErrEmptyQuery = errors.New("empty query: give words or an identifier to search for")

// noResults is the message of an empty result list.
const noResults = "No matching documents found. Try broader terms, or a lower min_score."

// Search finds the documents that best match q.
func (ix *Index) Search(ctx context.Context, q Query) (Results, error) {
	text := strings.TrimSpace(q.Text)
	if text == "" {
		return Results{}, ErrEmptyQuery
	}
	if len(text) > maxQueryBytes {
		cut := maxQueryBytes
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
	}
	for _, s := range q.Scopes {
		if !ix.scopes.has(s) {
			return Results{}, ix.scopes.errUnknownScope(s)
		}
	}
	switch q.ContentType {
	case "", Prose, Code, APIReference:
	default:
		return Results{}, fmt.Errorf("content type %q; want prose, code or api-reference", q.ContentType)
	}
	plan := PlanFor(classify(text))
	limit := q.Limit
	if limit <= 0 {
		limit = plan.Limit
	}
	minScore := DefaultMinScore
	if q.MinScore != nil {
		minScore = *q.MinScore
	}
	mode := q.Mode
	switch mode {
	case "":
		mode = Hybrid
	case Hybrid, Lexical, Vector:
	default:
		return Results{}, fmt.Errorf("mode %q; want hybrid, bm25 or vector", mode)
	}
	emb := ix.opts.Embedder
	if mode == Vector && emb == nil {
		return Results{}, errors.New("vector search needs an embedder; none is configured")
	}
	var qvec []float32
	if emb != nil && mode != Lexical {
		vs, err := emb.Embed(ctx, []string{text})
		if err != nil {
			return Results{}, fmt.Errorf("embed query: %w", err)
		}
		if len(vs) != 1 {
			return Results{}, fmt.Errorf("embed query: %d vectors for 1 text", len(vs))
		}
		qvec = vs[0]
		normalize(qvec)
	}

	ix.mu.RLock()
	keep, dead := ix.keeper(q)
	// The two retrievers read the index and nothing else: on a large
	// index the vector scan runs beside the lexical one, on another core
	// when there is one (on the Linux kernel each is about half of a
	// search's CPU); on a small one, handing it over costs more than it
	// saves.
	var vecHits []scored
	var vecDone sync.WaitGroup
	byVector := qvec != nil && ix.vec.dim == len(qvec)
	if byVector {
		all := func(c uint32) bool { return !dead.has(c) && (keep == nil || keep(c)) }
		if ix.vec.chunks() >= sketchMin {
			vecDone.Go(func() { vecHits = ix.vec.search(qvec, candidates, all) })
		} else {
			vecHits = ix.vec.search(qvec, candidates, all)
		}
	}
	var lexHits, docsHits []scored
	var cov map[uint32]float64
	if mode != Vector {
		var also func(uint32) bool
		reads := ix.readsDocs(q, plan.Type)
		if reads {
			also, _ = ix.keeper(Query{Scopes: []string{ScopeDocs}})
		}
		lexHits, cov, docsHits = ix.lexicalSearchAlso(text, keep, also, dead)
		if reads && len(docsHits) == 0 {
			// The search's own scopes hold the docs (or it has none to
			// find): they are among lexHits, and docNamed takes only theirs.
			docsHits = lexHits
		}
		lexHits = ix.dedupe(lexHits)
	}
	vecDone.Wait()
	if byVector {
		if mode == Hybrid {
			vecHits = ix.feedback(qvec, lexHits, vecHits)
		}
		vecHits = ix.dedupe(vecHits)
	}
	ranked := ix.fuse(lexHits, cov, vecHits, plan, mode != Vector)
	if mode != Vector {
		ranked = ix.pageSignal(text, ranked)
	}
	if mode != Vector && oneWord(text) {
		ranked = ix.namedHits(ranked, text, keep, dead)
		slices.SortStableFunc(ranked, byFused)
	}
	ranked = ix.rankCode(ctx, ranked, text, qvec, plan.Type, lexHits, vecHits, docsHits, q.CodeWeights, q.CodeCandidates)
	perScope := len(q.Scopes) > 0
	res := Results{Query: text, Type: plan.Type}
	var all []Result
	scopeOf := func(h hit) string { return ix.doc(ix.chunkDoc(h.chunk)).scope }
	for _, h := range pick(ranked, scopeOf, limit, perScope, minScore) {
		all = append(all, ix.result(h, plan))
	}
	ix.mu.RUnlock()

	all, err := ix.opts.Reranker.Rerank(ctx, text, plan.Type, all)
	if err != nil {
		return Results{}, fmt.Errorf("rerank: %w", err)
	}
	descendingScores(all)
	if perScope {
		res.ByScope = map[string][]Result{}
		for _, s := range q.Scopes {
			res.ByScope[s] = []Result{}
		}
		for _, r := range all {
			res.ByScope[r.Scope] = append(res.ByScope[r.Scope], r)
		}
		if len(all) > limit {
			all = all[:limit]
		}
	}
	if all == nil {
		all = []Result{}
		res.Message = noResults
	}
	res.Results = all
	return res, nil
}

// keeper returns what keeps a chunk for q: keep, whether it is of one of
// q's scopes and of its content type, nil when every chunk is (looking
// each one up would cost a cache miss or two per candidate, a quarter of
// a vector search); and dead, the chunks of removed documents, nil when
// none. A loaded index's chunk entries name their scope: a chunk is kept
// or not without its document. dead is a bit a chunk, tested apart, so
// that an index with removed documents (an edit, a saved delta) does not
// make every search look up every chunk its postings reach: on Linux 6.1
// that was a third of a search's CPU. Callers hold ix.mu.
func (ix *Index) keeper(q Query) (keep func(uint32) bool, dead bitSet) {
	dead = ix.deadChunks // nil while ix.dead is 0: killChunks sets both
	if len(q.Scopes) == 0 && q.ContentType == "" {
		return nil, dead
	}
	if t := ix.tab; t != nil {
		in := make([]bool, len(t.scopes))
		for i, s := range t.scopes {
			in[i] = len(q.Scopes) == 0 || slices.Contains(q.Scopes, s)
		}
		return func(c uint32) bool {
			if int(c) >= len(t.chunks) {
				// The overlay's (see overlay.go).
				k := int(c) - len(t.chunks)
				if k >= len(ix.chunks) {
					return false
				}
				rec := &ix.chunks[k]
				d := ix.ovDoc(rec.doc)
				return d != nil && (len(q.Scopes) == 0 || slices.Contains(q.Scopes, d.scope)) &&
					(q.ContentType == "" || rec.ctype == q.ContentType)
			}
			f := &t.chunks[c]
			return int(f.scope) < len(in) && in[f.scope] &&
				(q.ContentType == "" || int(f.ctype) < len(ctypeCodes) && ctypeCodes[f.ctype] == q.ContentType)
		}, dead
	}
	return func(c uint32) bool {
		rec := &ix.chunks[c]
		d := ix.docs[rec.doc]
		return d != nil && (len(q.Scopes) == 0 || slices.Contains(q.Scopes, d.scope)) &&
			(q.ContentType == "" || rec.ctype == q.ContentType)
	}, dead
}

// hit is a document's best chunk and its fused score and relevance.
type hit struct {
	chunk uint32
	fused float64
	score float64
}

// fuse merges the lexical and vector candidates by reciprocal rank fusion
// over documents (a document ranks by its best chunk in each list) and
// prefers the plan's content type. It returns documents in fused order
// with their relevance (see relevance and matchedNothing). lexical says
// whether lexical search ran.
func (ix *Index) fuse(lexHits []scored, cov map[uint32]float64, vecHits []scored, plan Plan, lexical bool) []hit {
	type acc struct {
		best     uint32
		bestRank int
		fused    float64
		rel      float64
	}
	docs := map[uint32]*acc{}
	var order []uint32
	add := func(list []scored, rel func(scored) float64) {
		rank := 0
		seen := map[uint32]bool{}
		for _, s := range list {
			d := ix.chunkDoc(s.chunk)
			if seen[d] {
				continue // a document ranks by its best chunk
			}
			seen[d] = true
			rank++
			a := docs[d]
			if a == nil {
				a = &acc{best: s.chunk, bestRank: rank}
				docs[d] = a
				order = append(order, d)
			} else if rank < a.bestRank {
				a.best, a.bestRank = s.chunk, rank
			}
			a.fused += 1 / float64(rrfK+rank)
			a.rel = max(a.rel, rel(s))
		}
	}
	// Ratio to the best is how a result ranks among the query's matches;
	// when the query matched nothing, the best of them earns nothing.
	standing := 1.0
	if lexical && matchedNothing(lexHits, cov, vecHits) {
		standing = 0
	}
	if len(lexHits) > 0 {
		top := float64(lexHits[0].score)
		add(lexHits, func(s scored) float64 { return relevance(standing*float64(s.score)/top, cov[s.chunk]) })
	}
	if len(vecHits) > 0 {
		top := float64(max(vecHits[0].score, 1e-6))
		add(vecHits, func(s scored) float64 {
			return relevance(standing*max(float64(s.score), 0)/top, semanticRelevance(s.score))
		})
	}
	out := make([]hit, 0, len(order))
	for _, d := range order {
		a := docs[d]
		if plan.Prefer != "" && ix.chunk(a.best).ctype == plan.Prefer {
			a.fused *= preferBoost
		}
		out = append(out, hit{chunk: a.best, fused: a.fused, score: a.rel})
	}
	slices.SortStableFunc(out, byFused)
	return out
}

// relevance is a document's 0-1 relevance from one retriever: half its
// score against the best document's for the query (ratio), half an
// absolute measure of match (for BM25 the coverage of the query's IDF
// weight, for vectors the calibrated cosine). The mix is measured, not
// tuned per data set: on CoSQA-test BM25, dropping results under 0.5
// keeps 97% of the relevant documents of the top 10 and removes 18% of
// the others, for nDCG@10 0.405 -> 0.401. Coverage alone removes 59% of
// them but loses 40% of the relevant; the ratio alone removes 7%. The
// relevance of a result is not its rank: results stay in fused order.
func relevance(ratio, absolute float64) float64 {
	return 0.5*min(max(ratio, 0), 1) + 0.5*min(max(absolute, 0), 1)
}

// preferBoost multiplies the fused score of a document whose best chunk
// has the content type the query type prefers.
const preferBoost = 1.15

// Evidence that a query matched something: some chunk's terms cover
// minCoverage of the query's weight, or some chunk's vector is within
// cosine minCosine of it.
const (
	minCoverage = 0.1
	minCosine   = 0.45
)

// matchedNothing reports whether a query's candidates are all junk: no
// chunk has a tenth of its words (lexical coverage under minCoverage:
// the words are in no document, not even within the typo tolerance) and
// no vector is close (cosine under minCosine). Then the best candidate
// is only the best of nothing, and relevance gives it no credit for its
// rank: its relevance is half its absolute evidence, under 0.35, and the
// default threshold leaves "No matching documents". It needs the lexical
// evidence: a vector alone cannot tell an unknown word from a rare one.
//
// The bounds come from where real and junk queries fall. Of 100 queries
// of 2-5 made-up words ("kopu visaxi codenu") over CoSQA-test's 6,267
// functions, 100 returned results at the threshold before, with the
// first scored up to 0.88; 90 fall under both bounds (the best vector of
// the median one is at cosine 0.32; the others match a word within the
// typo tolerance). Of the real queries of CoSQA-test and the four
// known-item sets (7,604), 2 do: in every set 95% of them have a best
// coverage of 0.24 or more, and the median best cosine is 0.50-0.56.
// With the default threshold, nDCG@10 moved on none of the five but
// the JavaScript set (0.478 -> 0.477). Questions about something else
// ("how long should i boil an egg") share words with any corpus and
// still return their best, weak, matches (20 of 20 such questions).
func matchedNothing(lexHits []scored, cov map[uint32]float64, vecHits []scored) bool {
	for _, h := range lexHits {
		if cov[h.chunk] >= minCoverage {
			return false
		}
	}
	for _, h := range vecHits {
		if h.score >= minCosine {
			return false
		}
	}
	return true
}

// semanticRelevance maps a cosine similarity to 0-1, linearly between 0.1
// (relevance 0) and 0.6 (relevance 1). The ends follow the default
// embedder's cosines on CoSQA-test: a query and a random function have a
// median cosine of 0.00 (90th percentile 0.10), a query and its relevant
// function 0.45 (25th percentile 0.31, 75th 0.55). With the default
// threshold, nDCG@10 stays 0.447 and Recall@10 0.628; the map 0.2-0.7,
// made for the untuned table's cosines (random 0.15, relevant 0.51),
// cost 0.004-0.011 nDCG@10 on two known-item sets of Go doc comments
// once the table was tuned. The table tuned on Debian's Python as well
// (2026-11-26) puts them alike: relevant median 0.45 (25th percentile
// 0.33), random 90th percentile 0.14 against 0.15 before, in a plain
// embedding of the texts; the threshold costs CoSQA-test no nDCG@10.
// The table with whole words (the same day) leaves them there: relevant
// median 0.46 (25th percentile 0.31), random median 0.02 and 90th
// percentile 0.15; the threshold costs CoSQA-test 0.001.
func semanticRelevance(cos float32) float64 {
	return min(max((float64(cos)-0.1)/0.5, 0), 1)
}

// result turns a hit into a Result, with the line range expanded to the
// neighbouring chunks the plan asks for.
func (ix *Index) result(h hit, plan Plan) Result {
	rec := ix.chunk(h.chunk)
	d := ix.doc(rec.doc)
	r := Result{
		Path: d.path, Title: d.title, Summary: d.summary, Entities: d.entities,
		Score: math.Round(h.score*1000) / 1000, Scope: d.scope,
		Heading: strings.Clone(rec.title), ContentType: rec.ctype, // a loaded title aliases the mapping
		Lines: [2]int{int(rec.line), int(rec.end)},
	}
	if !d.updated.IsZero() {
		r.Updated = d.updated.UTC().Format(time.RFC3339)
	}
	if isCodeScope(d.scope) {
		codeResult(&r, d)
		return r
	}
	if n := plan.Adjacent[rec.ctype]; n > 0 {
		lo := max(int(h.chunk)-n, int(d.first))
		hi := min(int(h.chunk)+n, int(d.first+d.count)-1)
		r.Lines = [2]int{int(ix.chunk(uint32(lo)).line), int(ix.chunk(uint32(hi)).end)}
	}
	return r
}

// byFused orders hits by fused score, best first, then by chunk: the
// order of every ranked list.
func byFused(a, b hit) int {
	switch {
	case a.fused > b.fused:
		return -1
	case a.fused < b.fused:
		return 1
	}
	return int(a.chunk) - int(b.chunk)
}
