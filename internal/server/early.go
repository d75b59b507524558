package server

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/graphstore"
	"github.com/fileinfo/fileinfo/internal/lookup"
)

// earlySymbols answers find_symbol, callers, callees and code search by
// symbol name while the workspace's first load runs (on the Linux
// kernel it decodes a saved state of gigabytes for tens of seconds, or
// extracts for minutes): from the symbols index the last run saved,
// read in place (graphstore.OpenSymbolsChanged), with the files changed
// since overlaid from extraction as it re-extracts them; or, with no
// usable index, from the files extraction has finished so far.
type earlySymbols struct {
	mu      sync.RWMutex        // held for reading by each answer; close takes it to unmap saved
	closed  bool                // the load has ended: answer from the workspace
	saved   *graphstore.Symbols // nil: none
	changed map[string]bool     // files changed since saved was: not described by it
	words   wordIndex           // saved's names by word
	stream  *streamNames        // never nil
	cold    *coldScan           // with no saved index: answers by scanning the files
}

// close unmaps the saved index once no answer reads it.
func (e *earlySymbols) close() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.closed = true
	if e.saved != nil {
		e.saved.Close()
		e.saved = nil
	}
}

// isClosed reports whether the load has ended.
func (e *earlySymbols) isClosed() bool {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.closed
}

// errEarlyClosed is what an early answer returns once the load has
// ended, or when the saved index is found damaged: the caller asks the
// loaded workspace.
var errEarlyClosed = errors.New("the first load has ended")

// wordIndex is the saved index's names by word, built in the background
// a chunk of nodes at a time (the Linux kernel's 1.1 million symbols
// took 50 s on a machine at load 25): until it is done, a search matches
// whole names.
type wordIndex struct {
	start  sync.Once
	mu     sync.Mutex
	byWord map[string][]callgraph.SymbolID // nil until built
}

// savedWords returns the saved index's names by word, nil until built;
// the first call starts the build.
func (e *earlySymbols) savedWords() map[string][]callgraph.SymbolID {
	e.words.start.Do(func() { go e.buildWords() })
	e.words.mu.Lock()
	defer e.words.mu.Unlock()
	return e.words.byWord
}

// buildWords indexes the saved index's names by word, taking mu for
// reading a chunk at a time so that close never waits long; it gives up
// when the index is closed or damaged.
func (e *earlySymbols) buildWords() {
	by := map[string][]callgraph.SymbolID{}
	const chunk = 1 << 14
	for lo := 0; ; lo += chunk {
		e.mu.RLock()
		if e.closed || e.saved == nil {
			e.mu.RUnlock()
			return
		}
		n := e.saved.Len()
		err := graphstore.Guard(func() {
			for i := lo; i < min(lo+chunk, n); i++ {
				id := callgraph.SymbolID(i)
				if nd := e.saved.Node(id); nd.Kind != callgraph.KindModule {
					addWords(by, nd.Name, id)
				}
			}
		})
		e.mu.RUnlock()
		if err != nil {
			return
		}
		if lo+chunk >= n {
			break
		}
	}
	e.words.mu.Lock()
	e.words.byWord = by
	e.words.mu.Unlock()
}

// wholeNames is savedWords' stand-in while it builds: the symbols named
// as the query is written, or its words joined by "_" or by nothing,
// under each of the query's words (so that rankNames scores them whole).
func wholeNames(s *graphstore.Symbols, query string) map[string][]callgraph.SymbolID {
	qw := lookup.Words(query)
	by := map[string][]callgraph.SymbolID{}
	seen := map[string]bool{}
	for _, name := range []string{strings.ToLower(strings.TrimSpace(query)), strings.Join(qw, "_"), strings.Join(qw, "")} {
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		for _, id := range s.Named(name) {
			for _, w := range qw {
				by[w] = append(by[w], id)
			}
		}
	}
	return by
}

// addWords indexes id under the words of name (of two letters or more).
func addWords(by map[string][]callgraph.SymbolID, name string, id callgraph.SymbolID) {
	for _, w := range lookup.Words(name) {
		if len(w) > 1 {
			by[w] = append(by[w], id)
		}
	}
}

// streamNames indexes the symbols of files as extraction hands them
// over: a lookup.Graph without edges and its lookup.Names. add takes mu
// for writing; the readers' caller holds it for reading.
type streamNames struct {
	mu     sync.RWMutex
	nodes  []callgraph.Node
	syms   []*extract.Symbol
	byQual map[string][]callgraph.SymbolID
	byName map[string][]callgraph.SymbolID
	byFile map[string][]callgraph.SymbolID
	byWord map[string][]callgraph.SymbolID
	files  int
	after  func(path string) // a test hook, called after each file
}

func newStreamNames() *streamNames {
	return &streamNames{byQual: map[string][]callgraph.SymbolID{}, byName: map[string][]callgraph.SymbolID{},
		byFile: map[string][]callgraph.SymbolID{}, byWord: map[string][]callgraph.SymbolID{}}
}

// add indexes the symbols of f; it is an extract.Options.Extracted.
func (s *streamNames) add(f *extract.File) {
	s.mu.Lock()
	s.files++
	s.byFile[f.Path] = s.byFile[f.Path][:0:0] // known, even with no symbols
	for i := range f.Symbols {
		sym := &f.Symbols[i]
		id := callgraph.SymbolID(len(s.nodes))
		s.nodes = append(s.nodes, callgraph.Node{Qualified: sym.Qualified, Name: sym.Name, Kind: sym.Kind, Parent: sym.Parent,
			File: f.Path, Line: sym.StartLine, EndLine: sym.EndLine, Language: f.Language, Declaration: sym.Declaration})
		s.syms = append(s.syms, sym)
		s.byQual[sym.Qualified] = append(s.byQual[sym.Qualified], id)
		lower := strings.ToLower(sym.Name)
		s.byName[lower] = append(s.byName[lower], id)
		s.byFile[f.Path] = append(s.byFile[f.Path], id)
		addWords(s.byWord, sym.Name, id)
	}
	s.mu.Unlock()
	if s.after != nil {
		s.after(f.Path)
	}
}

func (s *streamNames) Len() int                                    { return len(s.nodes) }
func (s *streamNames) Node(id callgraph.SymbolID) callgraph.Node   { return s.nodes[id] }
func (s *streamNames) Callers(callgraph.SymbolID) []callgraph.Edge { return nil }
func (s *streamNames) Callees(callgraph.SymbolID) []callgraph.Edge { return nil }
func (s *streamNames) Qualified(q string) []callgraph.SymbolID     { return s.byQual[q] }
func (s *streamNames) Named(lower string) []callgraph.SymbolID     { return s.byName[lower] }
func (s *streamNames) InFile(path string) []callgraph.SymbolID     { return s.byFile[path] }
func (s *streamNames) EachName(f func(string) bool) {
	for name := range s.byName {
		if !f(name) {
			return
		}
	}
}
func (s *streamNames) Detail(id callgraph.SymbolID) (string, string, []string) {
	sym := s.syms[id]
	return sym.Signature, sym.Doc, sym.Bases
}

// has reports whether extraction has handed over path. The caller holds mu.
func (s *streamNames) has(path string) bool { _, ok := s.byFile[path]; return ok }

// earlyAnswer is what the early symbols found for a query, and what
// they cover.
type earlyAnswer struct {
	syms     []lookup.Symbol
	fuzzy    bool
	complete bool   // every file is covered: the answer is final
	coverage string // for the answer
}

// find answers find_symbol: from the saved index, but for the files
// changed since, which come from extraction as far as it has got.
func (w *workspace) earlyFind(ctx context.Context, e *earlySymbols, query, kind string) (earlyAnswer, error) {
	if e.cold != nil && !e.isClosed() {
		if a, err, ok := w.coldFind(ctx, e, query, kind); ok {
			return a, err
		}
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.closed {
		return earlyAnswer{}, errEarlyClosed
	}
	e.stream.mu.RLock()
	defer e.stream.mu.RUnlock()
	var a earlyAnswer
	a.coverage, a.complete = w.earlyCoverage(e)
	var ms []lookup.Match
	var serr error
	if e.saved != nil {
		ix := lookup.NewSaved(e.saved, e.saved)
		if err := graphstore.Guard(func() {
			ms, serr = ix.Find(query, kind)
			for _, m := range ms {
				if sym := ix.Symbol(m); !e.changed[sym.Path] || !e.stream.has(sym.Path) {
					a.syms = append(a.syms, sym)
					a.fuzzy = a.fuzzy || m.How == lookup.Fuzzy
				}
			}
		}); err != nil {
			w.log.Warn("the saved symbols index is damaged; waiting for the load", "root", w.root, "err", err)
			return a, errEarlyClosed
		}
	}
	if e.saved == nil || len(e.changed) > 0 {
		ix := lookup.NewSaved(e.stream, e.stream)
		sms, err := ix.Find(query, kind)
		for _, m := range sms {
			if sym := ix.Symbol(m); e.saved == nil || e.changed[sym.Path] {
				a.syms = append(a.syms, sym)
				a.fuzzy = a.fuzzy || m.How == lookup.Fuzzy
			}
		}
		if serr == nil && e.saved == nil {
			serr = err
		}
	}
	if len(a.syms) == 0 {
		if serr == nil {
			serr = fmt.Errorf("no symbol matches %q", query)
		}
		return a, serr
	}
	// Exact and partial matches stand; near names only when nothing else.
	if slices.ContainsFunc(a.syms, func(s lookup.Symbol) bool { return s.Match != lookup.Fuzzy }) {
		a.syms = slices.DeleteFunc(a.syms, func(s lookup.Symbol) bool { return s.Match == lookup.Fuzzy })
		a.fuzzy = false
	}
	return a, nil
}

// treeAnswer is a callers or callees tree and what it covers.
type treeAnswer struct {
	sym       lookup.Symbol
	rows      []lookup.Row
	truncated bool
	coverage  string
	err       error // the symbol's resolution failed: for the model
	// state is the graph the loaded workspace made the tree from; zero
	// for an answer while it loads.
	state treeState
}

// earlyTree answers callers or callees from the saved index, read in
// place; ok is false when it cannot: no saved index, the load has
// ended, or a symbol it does not know while files changed since it was
// saved (the load will know).
func (w *workspace) earlyTree(ctx context.Context, e *earlySymbols, spec string, callers bool, depth int) (a treeAnswer, ok bool) {
	if e.cold != nil && !e.isClosed() {
		if a, ok := w.coldTree(ctx, e, spec, callers, depth); ok {
			return a, true
		}
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.closed || e.saved == nil {
		return a, false
	}
	e.stream.mu.RLock()
	a.coverage, _ = w.earlyCoverage(e)
	e.stream.mu.RUnlock()
	ix := lookup.NewSaved(e.saved, e.saved)
	if err := graphstore.Guard(func() {
		var ids []callgraph.SymbolID
		if ids, a.err = ix.Resolve(spec); a.err == nil {
			a.sym = ix.Symbol(lookup.Match{ID: ids[0], How: lookup.Exact})
			a.rows, a.truncated = ix.Tree(ids, callers, depth)
		}
	}); err != nil {
		w.log.Warn("the saved symbols index is damaged; waiting for the load", "root", w.root, "err", err)
		return a, false
	}
	if a.err != nil && len(e.changed) > 0 {
		return a, false
	}
	if a.err == nil && e.changed[a.sym.Path] {
		a.coverage += "; " + a.sym.Path + " changed since and is described as it was"
	}
	return a, true
}

// earlyNames answers a code query by symbol name from the early
// symbols, as nameResults does from the graph.
func (w *workspace) earlyNames(ctx context.Context, e *earlySymbols, query string, limit int) (_ []docsearch.Result, coverage string, _ error) {
	if e.cold != nil && !e.isClosed() {
		if rs, cov, ok := w.coldNames(ctx, e, query, limit); ok {
			return rs, cov, nil
		}
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.closed {
		return nil, "", errEarlyClosed
	}
	e.stream.mu.RLock()
	defer e.stream.mu.RUnlock()
	coverage, _ = w.earlyCoverage(e)
	var out []docsearch.Result
	if e.saved != nil {
		by := e.savedWords()
		if by == nil {
			coverage += " (whole names only until its index of words is built)"
		}
		if err := graphstore.Guard(func() {
			if by == nil {
				by = wholeNames(e.saved, query)
			}
			rs := rankNames(query, limit+len(e.changed), by, e.saved.Node, func(id callgraph.SymbolID, _ callgraph.Node) (string, string) {
				sig, doc, _ := e.saved.Detail(id)
				return sig, doc
			})
			for _, r := range rs {
				if !e.changed[r.Path] || !e.stream.has(r.Path) {
					out = append(out, r)
				}
			}
		}); err != nil {
			w.log.Warn("the saved symbols index is damaged; waiting for the load", "root", w.root, "err", err)
			return nil, "", errEarlyClosed
		}
	}
	if e.saved == nil || len(e.changed) > 0 {
		rs := rankNames(query, limit, e.stream.byWord, e.stream.Node, func(id callgraph.SymbolID, _ callgraph.Node) (string, string) {
			return e.stream.syms[id].Signature, e.stream.syms[id].Doc
		})
		for _, r := range rs {
			if e.saved == nil || e.changed[r.Path] {
				out = append(out, r)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b docsearch.Result) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	return out[:min(limit, len(out))], coverage, nil
}

// earlyPrefix starts the coverage of an answer from the early symbols.
const earlyPrefix = "while loading: "

// earlyCoverage says what the early symbols cover, and whether that is
// every file: the saved index's, with every file changed since it was
// saved extracted again. The caller holds e.mu and e.stream.mu for reading.
func (w *workspace) earlyCoverage(e *earlySymbols) (string, bool) {
	if e.saved != nil {
		if len(e.changed) == 0 {
			return earlyPrefix + "complete as of the symbols index the last run saved", true
		}
		paths := slices.Sorted(func(yield func(string) bool) {
			for p := range e.changed {
				if !yield(p) {
					return
				}
			}
		})
		redone := 0
		for _, p := range paths {
			if e.stream.has(p) {
				redone++
			}
		}
		list := strings.Join(paths[:min(len(paths), 5)], ", ")
		if len(paths) > 5 {
			list += fmt.Sprintf(" and %d more", len(paths)-5)
		}
		return fmt.Sprintf("%sfrom the symbols index the last run saved; %d files changed since (%s), %d of them extracted again so far",
			earlyPrefix, len(paths), list, redone), redone == len(paths)
	}
	done, total := e.stream.files, 0
	if st := w.tried.status(); st != nil {
		total = st.Total
	}
	if total == 0 {
		return fmt.Sprintf("%spartial, symbols of %d files extracted so far, of a tree still being walked", earlyPrefix, done), false
	}
	return fmt.Sprintf("%spartial, symbols of %d of %d files extracted so far; calls come once the load ends", earlyPrefix, done, total), false
}

// complete reports whether the early symbols cover every file.
func (e *earlySymbols) complete() bool { return e.saved != nil && len(e.changed) == 0 }

// earlySearch returns the current workspace and, while its first load
// runs, its early symbols, waiting until they are open (a walk and a
// stat per file); nil once the load has ended: the caller then waits
// with ready. A search searches the docs too, which the early symbols do
// not, so one whose early symbols do not cover every file first waits up
// to loadWait for the load to end (a small tree's load ends within it,
// and the answer is whole) — but during a cold load only while the
// load's pace says it can end within the wait: on golang.org/x/tools the
// load takes 2-6 s, and a search at 0.5 s waited its 3 s for nothing, to
// answer from names all the same (see waitLoad); and never longer than
// coldWait, since before its first files a cold load has no pace.
func (s *Server) earlySearch(ctx context.Context) (*workspace, *earlySymbols) {
	return s.earlyFor(ctx, false)
}

// earlyNow returns the current workspace and its early symbols as they
// are, while its first load runs and they are open; nil otherwise. It
// waits for nothing: a search answered from the first pass's index (see
// firstSearch) merges the names of the files not indexed yet, and the
// load it would wait for lasts minutes (earlySearch's wait for a small
// tree's load to end cost each such search on the Linux kernel 0.3 s).
func (s *Server) earlyNow() (*workspace, *earlySymbols) {
	ws := s.workspace()
	select {
	case <-ws.ready:
		return ws, nil
	default:
	}
	select {
	case <-ws.earlyDone:
		return ws, ws.early.Load()
	default:
		return ws, nil
	}
}

// earlyLookup is earlySearch for find_symbol, callers and callees, which
// a scan answers completely at once (see coldScan).
func (s *Server) earlyLookup(ctx context.Context) (*workspace, *earlySymbols) {
	return s.earlyFor(ctx, true)
}

func (s *Server) earlyFor(ctx context.Context, lookup bool) (*workspace, *earlySymbols) {
	ws := s.workspace()
	select {
	case <-ws.ready:
		return ws, nil
	case <-ws.earlyDone:
	case <-ctx.Done():
		return ws, nil
	}
	e := ws.early.Load()
	if e == nil {
		return ws, nil
	}
	if !(e.complete() || lookup && e.cold != nil) {
		wait := cmp.Or(s.opt.loadWait, defaultLoadWait)
		if e.cold != nil {
			wait = min(wait, cmp.Or(s.opt.coldWait, defaultColdWait))
		}
		ws.waitLoad(ctx, wait, e.cold != nil)
	}
	select {
	case <-ws.ready:
		return ws, nil
	default:
	}
	return ws, e
}

// loadPaceEvery is how often waitLoad looks at the load's pace.
const loadPaceEvery = 50 * time.Millisecond

// waitLoad waits up to wait for the first load to end; paced, it stops
// waiting as soon as the extraction's pace so far says the load cannot
// end within what is left of wait (loadProgress.endsAfter). Before the
// first file there is no pace, and it waits.
func (w *workspace) waitLoad(ctx context.Context, wait time.Duration, paced bool) {
	deadline := time.Now().Add(wait)
	t := time.NewTimer(wait)
	defer t.Stop()
	var tick <-chan time.Time
	if paced {
		tk := time.NewTicker(loadPaceEvery)
		defer tk.Stop()
		tick = tk.C
	}
	for {
		if paced && w.tried.endsAfter(time.Until(deadline)) {
			w.log.Debug("not waiting for the load: at its pace it ends after the wait", "root", w.root, "wait", time.Until(deadline).Round(time.Millisecond))
			return
		}
		select {
		case <-w.ready:
			return
		case <-ctx.Done():
			return
		case <-t.C:
			return
		case <-tick:
		}
	}
}
