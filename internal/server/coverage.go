package server

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/internal/depindex"
	"github.com/fileinfo/fileinfo/internal/graphstore"
	"github.com/fileinfo/fileinfo/internal/lookup"
)

// codeProgress is how far the first indexing of the code scope has got:
// search answers say so while it runs, and fall back on symbol names.
type codeProgress struct {
	state       atomic.Int32 // codePending, codeIndexing or codeComplete
	done, total atomic.Int64 // files
}

const (
	codePending  = iota // the load or the doc index comes first
	codeIndexing        // files are being read into the code scope
	codeComplete        // every file's symbols are searchable
)

func (c *codeProgress) start(total int) {
	c.total.Store(int64(total))
	c.done.Store(0)
	c.state.Store(codeIndexing)
}
func (c *codeProgress) add(n int) { c.done.Add(int64(n)) }
func (c *codeProgress) finish()   { c.state.Store(codeComplete) }

// complete reports whether the code scope holds every file.
func (c *codeProgress) complete() bool { return c.state.Load() == codeComplete }

// String says how far the code scope is, for an answer.
func (c *codeProgress) String() string {
	switch c.state.Load() {
	case codeComplete:
		return "complete"
	case codeIndexing:
		return fmt.Sprintf("indexing: %d of %d files", c.done.Load(), c.total.Load())
	}
	return "not started yet (the workspace is loading)"
}

// coverage says, scope by scope, what a search covered: "complete", or
// how far an index that is still being built has got.
type coverage map[string]string

// line renders the scopes that are not complete as one sentence, or "".
func (c coverage) line() string {
	var parts []string
	for _, sc := range slices.Sorted(func(yield func(string) bool) {
		for k := range c {
			if !yield(k) {
				return
			}
		}
	}) {
		if c[sc] != "complete" {
			parts = append(parts, sc+" "+c[sc])
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Not complete yet: " + strings.Join(parts, "; ") + "."
}

// namesCache indexes the workspace graph's symbol names by word, built
// on first use and dropped with the graph it was built from: while the
// code scope is being indexed, code queries are answered from it. Once
// the code scope is complete nothing reads it: drop releases it (on the
// Linux kernel, the words of 1.1 million names) for good.
type namesCache struct {
	mu      sync.Mutex
	graph   any // the graphID the index is of
	byWord  map[string][]callgraph.SymbolID
	dropped bool   // words builds an index without keeping it
	release func() // gives back the pages code queries mapped (see mapped)
}

// nodeSource is what namesCache reads of a graph: *callgraph.Graph, or
// the saved symbols index that describes it.
type nodeSource interface {
	Len() int
	Node(callgraph.SymbolID) callgraph.Node
}

// drop releases the index, and keeps words from keeping another.
func (n *namesCache) drop() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.graph, n.byWord, n.dropped = nil, nil, true
	if n.release != nil {
		n.release()
		n.release = nil
	}
}

// adopt takes by, an index of graph id's names by word made elsewhere
// (the early answers', see endEarly), unless an index is kept already.
func (n *namesCache) adopt(id any, by map[string][]callgraph.SymbolID) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if by != nil && !n.dropped && n.byWord == nil {
		n.graph, n.byWord = id, by
	}
}

// mapped notes that a code query read nodes through a mapping that
// release gives back: at drop, or now if the index is dropped already.
func (n *namesCache) mapped(release func()) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.dropped {
		release()
		return
	}
	n.release = release
}

// words returns the index of graph id, whose nodes g holds, building it
// if id is new.
func (n *namesCache) words(id any, g nodeSource) map[string][]callgraph.SymbolID {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.graph == id && n.byWord != nil {
		return n.byWord
	}
	by := map[string][]callgraph.SymbolID{}
	for i := range g.Len() {
		id := callgraph.SymbolID(i)
		nd := g.Node(id)
		if nd.Kind == callgraph.KindModule {
			continue
		}
		for _, w := range lookup.Words(nd.Name) {
			if len(w) > 1 {
				by[w] = append(by[w], id)
			}
		}
	}
	if !n.dropped {
		n.graph, n.byWord = id, by
	}
	return by
}

// maxNameHits bounds the symbols one word may bring in: a word every
// tenth symbol has ("get", "new") ranks nothing.
const maxNameHits = 5000

// nameResults answers a code query from symbol names alone: the symbols
// whose names hold the most of the query's words, exact names first, at
// most limit, as results of the code scope. The caller holds w.mu for
// reading.
func (w *workspace) nameResults(query string, limit int) []docsearch.Result {
	var g nodeSource
	var release func()
	if w.unrestored() != nil && w.symIdxCurrent() {
		// The saved symbols index numbers the nodes as the graph it
		// describes, which is not restored for this.
		s := w.symIdx
		g, release = s, func() { s.DropPages() }
	}
	if g != nil {
		// The names and the nodes ranked are read from the mapping: its
		// pages go when the code scope is complete (see namesCache).
		var res []docsearch.Result
		err := graphstore.Guard(func() { res = w.rankNames(query, limit, g) })
		w.names.mapped(release)
		if err == nil {
			return res
		}
	}
	return w.rankNames(query, limit, w.callGraph())
}

// rankNames is nameResults over g, the nodes of the workspace's graph.
func (w *workspace) rankNames(query string, limit int, g nodeSource) []docsearch.Result {
	return rankNames(query, limit, w.names.words(w.graphID(), g), g.Node, func(_ callgraph.SymbolID, n callgraph.Node) (string, string) {
		if s := w.files[n.File]; s != nil {
			f := s.file
			if s.slim && w.saved != nil {
				// A slim file holds no symbols (graphstore.Bare).
				if full, err := w.saved.File(n.File); err == nil {
					f = full
				}
			}
			for i := range f.Symbols {
				if sym := &f.Symbols[i]; sym.Qualified == n.Qualified && sym.StartLine == n.Line {
					return sym.Signature, sym.Doc
				}
			}
		}
		return "", ""
	})
}

// rankNames ranks the symbols of by (their names by word) for a code
// query: those whose names hold the most of the query's words, exact
// names first, at most limit, as results of the code scope. node and
// detail (signature and doc) describe a symbol.
func rankNames(query string, limit int, by map[string][]callgraph.SymbolID, node func(callgraph.SymbolID) callgraph.Node,
	detail func(callgraph.SymbolID, callgraph.Node) (string, string)) []docsearch.Result {
	qw := lookup.Words(query)
	if len(qw) == 0 {
		return nil
	}
	score := map[callgraph.SymbolID]int{}
	for _, word := range slices.Compact(slices.Sorted(slices.Values(qw))) {
		ids := by[word]
		if len(ids) > maxNameHits {
			continue
		}
		for _, id := range ids {
			score[id]++
		}
	}
	type hit struct {
		id           callgraph.SymbolID
		n            callgraph.Node
		exact, share int
	}
	exact := strings.ToLower(strings.TrimSpace(query))
	hits := make([]hit, 0, len(score))
	for id, sc := range score {
		n := node(id)
		h := hit{id: id, n: n, share: sc * 1000 / max(len(lookup.Words(n.Name)), 1)}
		if strings.ToLower(n.Name) == exact || strings.ToLower(n.Qualified) == exact {
			h.exact = 1
		}
		hits = append(hits, h)
	}
	slices.SortFunc(hits, func(a, b hit) int {
		return cmp.Or(cmp.Compare(b.exact, a.exact), cmp.Compare(b.share, a.share), cmp.Compare(score[b.id], score[a.id]),
			cmp.Compare(a.n.File, b.n.File), cmp.Compare(a.n.Line, b.n.Line), cmp.Compare(a.id, b.id))
	})
	var out []docsearch.Result
	for _, h := range hits[:min(limit, len(hits))] {
		n := h.n
		r := docsearch.Result{Path: n.File, Title: n.Qualified, Scope: docsearch.ScopeCode, Symbol: n.Qualified,
			Kind: string(n.Kind), Lines: [2]int{n.Line, max(n.Line, n.EndLine)},
			Score: float64(score[h.id]) / float64(len(qw))}
		sig, doc := detail(h.id, n)
		r.Signature, r.Summary = sig, firstLine(doc)
		out = append(out, r)
	}
	return out
}

// firstLine is the first line of s, trimmed.
func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(line)
}

// defaultDocsWait is Options.DocsWait's default.
const defaultDocsWait = 3 * time.Second

// searchCoverage returns what a search of scopes (none: all but deps)
// covers now, and whether the doc index is open to search. It waits up to
// docsWait for the doc index to open.
func (w *workspace) searchCoverage(ctx context.Context, scopes []string, docsWait time.Duration) (coverage, bool) {
	open := true
	select {
	case <-w.docsReady:
	default:
		defer w.calls.waiting(ctx)()
		t := time.NewTimer(docsWait)
		select {
		case <-w.docsReady:
		case <-t.C:
			open = false
		case <-ctx.Done():
			open = false
		}
		t.Stop()
	}
	docs := "complete"
	switch {
	case !open:
		docs = "opening: not searched yet"
	case w.docIndex() == nil:
		docs = "not available in this workspace"
	}
	cov := coverage{}
	want := func(sc string) bool {
		return len(scopes) == 0 && !depindex.IsScope(sc) || slices.Contains(scopes, sc)
	}
	for _, sc := range []string{docsearch.ScopeDocs, docsearch.ScopeArtifacts} {
		if want(sc) {
			cov[sc] = docs
		}
	}
	if want(docsearch.ScopeCode) {
		cov[docsearch.ScopeCode] = w.code.String()
		if w.docIndex() == nil && open {
			cov[docsearch.ScopeCode] = "by symbol name only: there is no doc index"
		}
	}
	if want(docsearch.ScopeVendor) {
		held := func() bool { ix := w.docIndex(); return ix != nil && ix.HoldsVendor() }
		if c := w.sel.vendorCoverage(held, slices.Contains(scopes, docsearch.ScopeVendor)); c != "" {
			cov[docsearch.ScopeVendor] = c
		}
	}
	for _, sc := range scopes {
		if depindex.IsScope(sc) {
			st := w.deps.status()
			switch {
			case st.Indexing != "":
				cov[sc] = "indexing: " + st.Indexing + " dependency versions"
			case st.Indexed == 0:
				cov[sc] = "no dependency indexed"
			default:
				cov[sc] = "complete"
			}
		} else if _, ok := cov[sc]; !ok {
			cov[sc] = docs
		}
	}
	return cov, open && w.docIndex() != nil
}

// mergeNames adds name results to the code results of res that are not
// there already, after them; byScope puts them in res.ByScope too.
func mergeNames(res docsearch.Results, names []docsearch.Result, byScope bool) docsearch.Results {
	have := map[string]bool{}
	for _, r := range res.Results {
		if r.Scope == docsearch.ScopeCode {
			have[r.Path+"\x00"+r.Symbol] = true
		}
	}
	for _, r := range names {
		if have[r.Path+"\x00"+r.Symbol] {
			continue
		}
		res.Results = append(res.Results, r)
		if byScope {
			if res.ByScope == nil {
				res.ByScope = map[string][]docsearch.Result{}
			}
			res.ByScope[docsearch.ScopeCode] = append(res.ByScope[docsearch.ScopeCode], r)
		}
	}
	return res
}

// graphCoverage says what the call graph covers: "complete" when every
// source file of a known language was extracted and resolved, else how
// many were left out. Every lookup ends with it, so it counts without
// listing: skippedNow's sorted list of every file left out (21.9 k on the
// Linux kernel, most of no known language) cost more than the lookup.
// The caller holds w.mu for reading.
func (w *workspace) graphCoverage() string {
	n := 0
	for _, sk := range w.graphSkipped() {
		if !noLanguageRead(sk.Reason) {
			n++
		}
	}
	for _, r := range w.skipped {
		if !noLanguageRead(r) {
			n++
		}
	}
	if n == 0 {
		return "complete"
	}
	return fmt.Sprintf("%d files left out or not resolved (index_status lists them with the reason)", n)
}

// writeCoverage ends a lookup's text with what the graph leaves out, if
// anything.
func writeCoverage(b *strings.Builder, c string) {
	if rest, ok := strings.CutPrefix(c, earlyPrefix); ok {
		fmt.Fprintf(b, "(Answered while the workspace loads: %s.)\n", rest)
	} else if rest, ok := strings.CutPrefix(c, updatingPrefix); ok {
		fmt.Fprintf(b, "(Answered from the call graph as it was before an update in progress; that graph's coverage: %s.)\n", rest)
	} else if c != "complete" {
		fmt.Fprintf(b, "(The call graph is not complete: %s.)\n", c)
	}
}

// loadingCoverage is the coverage of a search of scopes (none: docs,
// artifacts and code) answered while the workspace loads: each says
// state.
func loadingCoverage(scopes []string, state string) coverage {
	if len(scopes) == 0 {
		scopes = []string{docsearch.ScopeDocs, docsearch.ScopeArtifacts, docsearch.ScopeCode}
	}
	cov := make(coverage, len(scopes))
	for _, sc := range scopes {
		cov[sc] = state
	}
	return cov
}
