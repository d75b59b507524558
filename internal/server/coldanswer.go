package server

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/lookup"
)

// maxScanNames bounds the names a callers or callees tree scans for at
// its next level (the callers of a hub's callers): past it, the deeper
// levels wait for the load.
const maxScanNames = 64

// scanName is the name a query's symbol is defined by, as its file
// writes it: the query's last part after a ":", "." or "/"
// ("go/ssa/create.go:NewProgram", "lib.Store.Put", "ssa.NewProgram").
func scanName(query string) string {
	q := strings.TrimSpace(query)
	return q[strings.LastIndexAny(q, ":./")+1:]
}

// namesOf indexes the symbols of files by name, as streamNames does the
// load's.
func namesOf(files []*extract.File) *streamNames {
	s := newStreamNames()
	for _, f := range files {
		s.add(f)
	}
	return s
}

// scanCoverage says what an answer from a scan covers.
func (w *workspace) scanCoverage(e *earlySymbols, h scanHits, what string) string {
	e.stream.mu.RLock()
	done := e.stream.files
	e.stream.mu.RUnlock()
	var b strings.Builder
	b.WriteString(earlyPrefix)
	if h.complete() {
		fmt.Fprintf(&b, "complete by a scan of all %d source files", h.total)
	} else {
		fmt.Fprintf(&b, "partial, a scan of %d source files of which %d could not be read (%s)", h.total, len(h.missed), strings.Join(h.missed[:min(3, len(h.missed))], ", "))
	}
	fmt.Fprintf(&b, " for %s: %d files mention it and were extracted ahead of the load (%d of %d files extracted so far)", what, len(h.files), done, h.total)
	if len(h.left) > 0 {
		fmt.Fprintf(&b, "; %d files left out, as the load leaves them out (%s)", len(h.left), strings.Join(h.left[:min(3, len(h.left))], "; "))
	}
	return b.String()
}

// noSymbol is the answer for a name no file holds, every file read.
func noSymbol(query string, h scanHits) error {
	return fmt.Errorf("no symbol %q: no definition of %s in any of the %d source files, every one read while the workspace loads; near names can be asked for once the load ends",
		strings.TrimSpace(query), scanName(query), h.total)
}

// coldFind answers find_symbol from a scan for the query's name (see
// coldScan): complete when every file was read. ok is false when the
// scan has no answer: it failed, or it found nothing while some files
// could not be read. Near names are left to the load: the files that
// hold a name are not where its near names are.
func (w *workspace) coldFind(ctx context.Context, e *earlySymbols, query, kind string) (a earlyAnswer, err error, ok bool) {
	e.cold.gate.enter() // the answer goes ahead of the load, not only its scans
	defer e.cold.gate.leave()
	name := scanName(query)
	if name == "" {
		return a, nil, false
	}
	h, err := e.cold.find(ctx, []string{name}, false, 0)
	if err != nil {
		return a, nil, false
	}
	ns := namesOf(h.files)
	ix := lookup.NewSaved(ns, ns)
	ms, ferr := ix.Find(query, kind)
	var nf *lookup.NotFound
	if ferr != nil && !errors.As(ferr, &nf) {
		a.complete = true // a bad query or kind: the answer whatever the files hold
		return a, ferr, true
	}
	for _, m := range ms {
		if m.How != lookup.Fuzzy {
			a.syms = append(a.syms, ix.Symbol(m))
		}
	}
	a.complete = h.complete()
	a.coverage = w.scanCoverage(e, h, fmt.Sprintf("%q", name))
	if q := strings.TrimSpace(query); strings.HasSuffix(q[:len(q)-len(name)], ".") && !strings.Contains(q, ":") {
		a.coverage += "; members a class inherits from a base class come once the load ends"
	}
	if len(a.syms) == 0 {
		if !a.complete {
			return a, nil, false
		}
		return a, noSymbol(query, h), true
	}
	return a, nil, true
}

// coldTree answers callers or callees from scans: the files that
// mention the symbol's name (its definitions and, for callers, the calls
// of it by name), then level by level the files that mention the names
// the tree reaches, extracted and put in a call graph of their own. ok
// is false when the scans cannot answer: one failed, a level reaches
// more than maxScanNames new names, or the symbol is not found while
// some files could not be read.
func (w *workspace) coldTree(ctx context.Context, e *earlySymbols, spec string, callers bool, depth int) (a treeAnswer, ok bool) {
	// The answer goes ahead of the load, not only its scans: the call
	// graph of the files found was 0.15-0.9 s of x/tools' first callers
	// (the Go resolver reading the packages they import) while the load's
	// workers took the other core.
	e.cold.gate.enter()
	defer e.cold.gate.leave()
	name := scanName(spec)
	if name == "" {
		return a, false
	}
	files := map[string]*extract.File{}
	seen := map[string]bool{}
	var last scanHits
	missed, left := map[string]bool{}, map[string]bool{}
	scan := func(names []string) bool {
		h, err := e.cold.find(ctx, names, false, 0)
		if err != nil {
			return false
		}
		for _, n := range names {
			seen[n] = true
		}
		for _, f := range h.files {
			files[f.Path] = f
		}
		for _, p := range h.missed {
			missed[p] = true
		}
		for _, p := range h.left {
			left[p] = true
		}
		last = h
		return true
	}
	if !scan([]string{name}) {
		return a, false
	}
	// reach is the depth of the tree the files scanned so far hold in
	// full: a caller of a symbol calls it by name, so its file is among
	// those that mention the name; a callee's definition is found only
	// once the names the symbol calls are scanned for.
	reach := 1
	if !callers {
		reach = 0
	}
	for {
		all := slices.Sorted(maps.Keys(files))
		list := make([]extract.File, len(all))
		for i, p := range all {
			list[i] = *files[p]
		}
		if w.hooks != nil && w.hooks.scanGraph != nil {
			w.hooks.scanGraph(e.cold.gate.held())
		}
		start := time.Now()
		ix := lookup.New(callgraph.Build(list), func(p string) *extract.File { return files[p] })
		w.log.Debug("a call graph of the files scanned while loading", "files", len(list), "elapsed", time.Since(start))
		ids, err := ix.Resolve(spec)
		h := scanHits{files: last.files, total: last.total, missed: slices.Sorted(maps.Keys(missed)), left: slices.Sorted(maps.Keys(left))}
		var unknown *lookup.Unknown
		if err != nil && (!h.complete() || !errors.As(err, &unknown)) {
			// Ambiguous is an answer; an unknown name is one only when
			// every file was read.
			if !errors.As(err, &unknown) {
				a.err = err
				a.coverage = w.scanCoverage(e, h, fmt.Sprintf("%q", name))
				return a, true
			}
			return a, false
		}
		if err != nil {
			a.err = noSymbol(spec, h)
			a.coverage = w.scanCoverage(e, h, fmt.Sprintf("%q", name))
			return a, true
		}
		var want []string
		if reach < depth {
			want = frontierNames(ix, ids, files, callers, reach, depth)
			want = slices.DeleteFunc(want, func(n string) bool { return seen[n] })
		}
		if len(want) == 0 || reach >= depth {
			a.sym = ix.Symbol(lookup.Match{ID: ids[0], How: lookup.Exact})
			a.rows, a.truncated = ix.Tree(ids, callers, depth)
			h.files = slices.Collect(maps.Values(files))
			what := "callers"
			if !callers {
				what = "callees"
			}
			a.coverage = w.scanCoverage(e, h, fmt.Sprintf("the names of %s %d levels deep", what, depth)) +
				"; calls through another name (an alias, an interface, a function value) come once the load ends"
			if depth == 1 {
				a.coverage = w.scanCoverage(e, h, fmt.Sprintf("%q", name)) +
					"; calls through another name (an alias, an interface, a function value) come once the load ends"
			}
			return a, true
		}
		if len(want) > maxScanNames || !scan(want) {
			return a, false
		}
		reach++
	}
}

// frontierNames are the names to scan for to take the tree of ids from
// reach levels to one more: for callers, the names of the callers at
// level reach; for callees, the names the symbols at level reach call
// (the roots at level 0).
func frontierNames(ix *lookup.Index, ids []callgraph.SymbolID, files map[string]*extract.File, callers bool, reach, depth int) []string {
	var syms []callgraph.Node
	if reach == 0 {
		for _, id := range ids {
			syms = append(syms, ix.Node(id))
		}
	} else {
		rows, _ := ix.Tree(ids, callers, reach)
		for _, r := range rows {
			if r.Depth == reach && r.Repeat == "" && !r.Guess {
				syms = append(syms, callgraph.Node{Qualified: r.Symbol, File: r.Path, Line: r.Line})
			}
		}
	}
	set := map[string]bool{}
	for _, n := range syms {
		if callers {
			set[scanName(n.Qualified)] = true
			continue
		}
		if f := files[n.File]; f != nil {
			for _, c := range f.Calls {
				if c.Caller == n.Qualified && c.Name != "()" && c.Name != "" {
					set[c.Name] = true
				}
			}
		}
	}
	delete(set, "")
	return slices.Sorted(maps.Keys(set))
}

// coldNamesBudget is how long a search's scan extracts the files that
// mention the query's name (see coldScan.find), those that likely
// define it first; the rest wait for the next search or the load. On
// the Linux kernel a name as common as mutex_lock is in 5,221 files,
// minutes of extraction on 2 cores. A variable for the tests.
var coldNamesBudget = 1500 * time.Millisecond

// coldNames answers a code query by symbol name from a scan for the
// query as one whole name ("NewProgram", "new program", "new_program"
// in any case): the symbols so named in the files that mention it, all
// of them or those extracted within coldNamesBudget, with the symbols
// of the files the load has extracted so far whose names share the
// query's words. ok is false when the scan has no answer: it failed, or
// some files could not be read.
func (w *workspace) coldNames(ctx context.Context, e *earlySymbols, query string, limit int) (_ []docsearch.Result, coverage string, ok bool) {
	e.cold.gate.enter() // the answer goes ahead of the load, not only its scans
	defer e.cold.gate.leave()
	qw := lookup.Words(query)
	forms := map[string]bool{}
	if q := strings.ToLower(strings.TrimSpace(query)); q != "" && !strings.ContainsAny(q, " \t\n") {
		forms[q] = true
	}
	if len(qw) > 0 {
		forms[strings.Join(qw, "")] = true
		forms[strings.Join(qw, "_")] = true
	}
	if len(forms) == 0 {
		return nil, "", false
	}
	pats := slices.Sorted(maps.Keys(forms))
	h, err := e.cold.find(ctx, pats, true, coldNamesBudget)
	if err != nil || !h.read() {
		return nil, "", false
	}
	whole := func(n callgraph.Node) bool {
		l := strings.ToLower(n.Name)
		return forms[l] || forms[strings.ReplaceAll(l, "_", "")]
	}
	ns := namesOf(h.files)
	var out []docsearch.Result
	for _, r := range rankNames(query, limit, ns.byWord, ns.Node, func(id callgraph.SymbolID, _ callgraph.Node) (string, string) {
		return ns.syms[id].Signature, ns.syms[id].Doc
	}) {
		if ids := ns.Qualified(r.Symbol); len(ids) > 0 && whole(ns.Node(ids[0])) {
			out = append(out, r)
		}
	}
	// Words of names: from what the load has extracted so far.
	have := map[string]bool{}
	for _, r := range out {
		have[r.Symbol] = true
	}
	e.stream.mu.RLock()
	done := e.stream.files
	for _, r := range rankNames(query, limit, e.stream.byWord, e.stream.Node, func(id callgraph.SymbolID, _ callgraph.Node) (string, string) {
		return e.stream.syms[id].Signature, e.stream.syms[id].Doc
	}) {
		if !have[r.Symbol] {
			out = append(out, r)
		}
	}
	e.stream.mu.RUnlock()
	slices.SortStableFunc(out, func(a, b docsearch.Result) int { return cmp.Compare(b.Score, a.Score) })
	if h.pending == 0 {
		coverage = fmt.Sprintf("%swhole names complete by a scan of all %d source files (%d mention %s)", earlyPrefix, h.total, h.mentioned, strings.Join(pats, " or "))
	} else {
		coverage = fmt.Sprintf("%swhole names partial: a scan of all %d source files found %d that mention %s, of which %d were extracted in time, those with a line that looks like a definition first (the next search extracts more)",
			earlyPrefix, h.total, h.mentioned, strings.Join(pats, " or "), h.mentioned-h.pending)
	}
	coverage += fmt.Sprintf("; names sharing words with the query from %d of %d files extracted so far", done, h.total)
	return out[:min(limit, len(out))], coverage, true
}
