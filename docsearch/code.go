package docsearch

import (
	"context"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Code. The code scope holds one document per symbol of source code:
// function, method, type and a file's top-level code. docsearch does not
// extract code (it never imports the extractors): a caller that did hands
// the symbols in as CodeFiles through PutCode, and again for each file
// that changes. A symbol's document is keyed "PATH#QUALIFIED" (with
// "@LINE" when a file declares the name twice) and holds one chunk of
// content type code, whose text is, line by line:
//
//	KIND QUALIFIED          (" (declaration)" after it for a Decl, then
//	                         " (test)" for a Test)
//	SIGNATURE
//	PATH:LINE-END
//	Purpose: ...            (enriched prose, "(stale) " before it when the
//	Implementation: ...      artifact was made from other source)
//	DOC COMMENT
//	BODY (its head, at most maxCodeBody bytes)
//	calls: NAMES
//
// The first three lines are what a result shows (kind, signature); they are
// read back from the saved text, so the on-disk format is the one of any
// Put document. Terms (analyzeCode) weigh the symbol's own name nameWeight
// times and the name of its scope (its class, or its module) scopeWeight
// times: a query word that is part of an identifier finds the symbol that
// bears it before the ones that use it.

// ScopeCode is the built-in scope of source code symbols (see PutCode).
const ScopeCode = "code"

// CodeSymbol is one symbol of a source file, as a caller extracted it.
type CodeSymbol struct {
	Name      string // qualified: "Flask.register_blueprint"
	Kind      string // function, method, class, module, ...
	Signature string
	Doc       string   // the doc comment or docstring
	Body      string   // the declaration's source text; only its head is indexed
	Calls     []string // names it calls, in order
	Line, End int      // 1-based line range
	// Purpose and Implementation are an enriched artifact's prose for the
	// symbol; Stale says the artifact was made from other source.
	Purpose, Implementation string
	Stale                   bool
	// Decl marks a declaration without a body (an interface's method, a
	// type declaration file's function): it ranks under the
	// implementations it declares.
	Decl bool
	// Test marks test-only code (extract.Symbol.Test): a symbol of a
	// test file, or one compiled only for tests inside another file
	// (Rust's #[cfg(test)] modules and #[test] functions). It ranks as a
	// test file's code does.
	Test bool
}

// CodeFile is the symbols of one source file (a slash path from the root).
type CodeFile struct {
	Path    string
	Symbols []CodeSymbol
	// Stamp, when not 0, names what the file's documents are made from
	// (the caller's choice: a hash of its source and prose, say); it is
	// kept with them, and CodeStamps returns it, so that a caller can
	// leave out a file that has not changed since.
	Stamp uint64
	// Vendor puts the file's documents in the vendor scope (ScopeVendor)
	// rather than the code scope.
	Vendor bool
	// Generated says a tool wrote the file (extract.File.Generated): its
	// symbols rank under hand-written code, as vendored code does.
	Generated bool
}

// Limits of a symbol's text.
const (
	maxCodeBody  = 1500 // bytes of body, about 400 tokens
	maxCodeCalls = 40   // names it calls
	maxCodeDoc   = 2000 // bytes of doc comment
	// nameWeight is how many times a symbol's own (unqualified) name
	// counts in its terms, and scopeWeight the name of the scope it is
	// declared in (see analyzeCode).
	nameWeight  = 4
	scopeWeight = 1
)

// PutCode replaces the code documents of files with their symbols and
// removes those of the paths in removed. A symbol whose text is as
// indexed is not processed again. The index is saved when it changed and
// has a Dir.
func (ix *Index) PutCode(ctx context.Context, files []CodeFile, removed []string) error {
	return ix.PutCodeBatches(ctx, func(yield func([]CodeFile) bool) { yield(files) }, removed)
}

// PutCodeBatches is PutCode over the files of every batch batches yields,
// each indexed before the next is asked for, so that a workspace's code
// is never held whole (the Linux kernel's is 700,000 symbols); the index
// is saved once, at the end. Searches between batches see the batches
// done. The paths in removed are dropped with the first batch.
func (ix *Index) PutCodeBatches(ctx context.Context, batches iter.Seq[[]CodeFile], removed []string) error {
	return ix.PutCodeBatchesThen(ctx, batches, removed, nil)
}

// PutCodeBatchesThen is PutCodeBatches calling put, when set, once every
// batch is in the index and searchable, and before the index is saved:
// on the Linux kernel the save takes 8-10 s, which a caller that
// publishes the index for search need not wait for. put is not called
// when a batch failed.
func (ix *Index) PutCodeBatchesThen(ctx context.Context, batches iter.Seq[[]CodeFile], removed []string, put func()) error {
	changed := false
	var err error
	var known codeKeys
	batches(func(files []CodeFile) bool {
		var c bool
		c, err = ix.putCode(ctx, files, removed, &known)
		changed, removed = changed || c, nil
		return err == nil
	})
	if err == nil && len(removed) > 0 { // no batch at all
		changed, err = ix.putCode(ctx, nil, removed, &known)
	}
	if err == nil && put != nil {
		put()
	}
	if changed && ix.opts.Dir != "" {
		start := time.Now()
		ix.update.Lock()
		ix.saved(ix.save())
		ix.update.Unlock()
		ix.opts.Logger.Debug("docsearch: code put, index saved", "dir", ix.opts.Dir, "save", time.Since(start))
	}
	return err
}

// putCode is PutCode without saving: it reports whether the index
// changed. known is what the PutCodeBatches it is part of knows; putCode
// brings it up to date with what it did.
func (ix *Index) putCode(ctx context.Context, files []CodeFile, removed []string, known *codeKeys) (changed bool, err error) {
	ix.update.Lock()
	defer ix.update.Unlock()
	want := map[string]bool{} // files gone or touched
	for _, p := range removed {
		want[p] = true
	}
	for _, f := range files {
		want[f.Path] = true
	}
	defer func() {
		known.batches++
		if err != nil {
			known.byFile = nil // not to be trusted: walk again
			return
		}
		if changed {
			ix.codeGen++
			ix.builds.reset()
		}
		if known.byFile == nil {
			return
		}
		known.gen = ix.codeGen
		for _, p := range removed {
			delete(known.byFile, p)
			delete(known.put, p)
		}
		for _, f := range files { // a file's documents are now what it put
			delete(known.byFile, f.Path)
			known.put[f.Path] = true
		}
		if keysKept != nil {
			n := 0
			for _, keys := range known.byFile {
				n += len(keys)
			}
			keysKept(n)
		}
	}()
	// The code documents there are now, by file.
	type old struct {
		hash      [16]byte
		stamp     uint64
		scope     string
		generated bool
	}
	have := map[string]old{}
	var drop []string
	ix.mu.RLock()
	ix.codeDocs(known, want, func(_ string, id uint32) {
		d := ix.doc(id)
		have[d.path] = old{d.hash, d.stamp, d.scope, d.generated}
		drop = append(drop, d.path)
	})
	ix.mu.RUnlock()

	type job struct {
		key, text, title, lead, name, path string
		scope                              string
		line, end                          int
		stamp                              uint64
		generated                          bool
	}
	var jobs []job
	keep := map[string]bool{}
	texts := codeTexts(files, ix.opts.Workers)
	for fi, f := range files {
		keys := CodeKeys(f)
		for i, s := range f.Symbols {
			key := keys[i]
			keep[key] = true
			text := texts[fi][i]
			if o, ok := have[key]; ok && o.hash == codeDocHash(text) && o.stamp == f.Stamp && o.scope == codeScope(f) && o.generated == f.Generated {
				continue
			}
			jobs = append(jobs, job{key: key, text: text, title: s.Name, lead: codeLead(s), name: localName(s.Name),
				path: f.Path, scope: codeScope(f), line: s.Line, end: max(s.End, s.Line), stamp: f.Stamp, generated: f.Generated})
		}
	}
	var removedKeys []string
	for _, k := range drop {
		if !keep[k] {
			removedKeys = append(removedKeys, k)
		}
	}
	slices.Sort(removedKeys)
	if len(jobs) == 0 && len(removedKeys) == 0 {
		return false, nil
	}
	ws, err := known.analyzers(ix.opts.Workers, ix.opts.ChunkTokens)
	if err != nil {
		return false, err
	}
	ps := make([]processed, len(jobs))
	var firstErr error
	done := make(chan error, len(ws))
	for i, w := range ws {
		go func() {
			for j := i; j < len(jobs); j += len(ws) {
				if err := ctx.Err(); err != nil {
					done <- err
					return
				}
				jb := jobs[j]
				d := &doc{path: jb.key, scope: jb.scope, title: jb.title, summary: truncate(jb.lead, maxSummary), prose: noProse,
					text: jb.text, put: true, size: int64(len(jb.text)), hash: codeDocHash(jb.text), format: formatText, stamp: jb.stamp, generated: jb.generated}
				c := chunk{title: jb.title, embedTitle: embedName(jb.title), text: jb.text, lead: jb.lead, line: jb.line, end: jb.end, ctype: Code}
				terms := w.analyzeCode(jb.name, jb.title, jb.path, jb.lead, jb.text)
				if ix.opts.Embedder == nil {
					c.text, c.lead = "", ""
				}
				ps[j] = processed{doc: d, chunks: []chunk{c}, terms: [][]termFreq{terms}}
			}
			done <- nil
		}()
	}
	for range ws {
		if err := <-done; err != nil && firstErr == nil {
			firstErr = err
		}
	}
	if firstErr != nil {
		return false, firstErr
	}
	changed = false
	for _, part := range commitParts(ps) {
		c, err := ix.commit(ctx, part, nil, nil, false)
		if err != nil {
			return changed, fmt.Errorf("index code: %w", err)
		}
		changed = changed || c
	}
	c, err := ix.commit(ctx, nil, removedKeys, nil, false)
	if err != nil {
		return changed, fmt.Errorf("index code: %w", err)
	}
	changed = changed || c
	ix.mu.Lock()
	ix.vec.extendSketch()
	ix.mu.Unlock()
	return changed, nil
}

// CodeKeys returns the document keys of f's symbols, in order:
// "PATH#QUALIFIED", with "@LINE" (and ".N" after it) for a name the file
// declares again.
func CodeKeys(f CodeFile) []string {
	keys := make([]string, len(f.Symbols))
	seen := make(map[string]bool, len(f.Symbols))
	for i, s := range f.Symbols {
		key := f.Path + "#" + s.Name
		if seen[key] {
			key += "@" + strconv.Itoa(s.Line)
			for n := 2; seen[key]; n++ {
				key = f.Path + "#" + s.Name + "@" + strconv.Itoa(s.Line) + "." + strconv.Itoa(n)
			}
		}
		seen[key] = true
		keys[i] = key
	}
	return keys
}

// analyzeCode returns the term frequencies of a symbol's chunk (text is
// its CodeText): its own name nameWeight times, the name of its scope
// (scopeName) scopeWeight times, its path, kind, signature, doc comment,
// body and calls once, and its lead once more than the text it is part
// of.
//
// The scope and the path count once. They counted three to five times
// (the qualified name titleWeight times and once more in the text's
// first line, the path once and again in its third), and they are the
// same for every member of a class and every symbol of a file: a query
// word that named the class or the file matched all of them alike, at a
// frequency that saturated BM25, and the member with the least text of
// its own won on density ("right file, wrong symbol", issue 34). The
// rest of the qualified name (the module path before the scope) is in
// the path. Measured (docs/code-search.md, 2026-12-05, fourth session),
// function / file nDCG@10: tuning split of docs/bench/codegen 0.232 /
// 0.745 -> 0.244 / 0.737 (function level up in every language, Go's
// file level down 0.791 -> 0.768); written questions (docs/bench/code)
// 0.704 / 0.928 -> 0.708 / 0.933. Leaving the path out as well gave the
// tuning split 0.250 / 0.740 and lowered the written questions.
func (w *worker) analyzeCode(name, qualified, path, lead, text string) []termFreq {
	clear(w.counts)
	out := w.terms[:0]
	add := func(weight uint32) func(string, bool) {
		return func(t string, _ bool) {
			if i, ok := w.counts[t]; ok {
				out[i].tf += weight
				return
			}
			w.counts[t] = uint32(len(out))
			out = append(out, termFreq{t, weight})
		}
	}
	kind, signature := codeMeta(text)
	w.names.analyze(name, add(nameWeight))
	w.an.analyze(scopeName(qualified), add(scopeWeight))
	w.an.analyze(strings.ReplaceAll(path, "/", " "), add(1))
	w.an.analyze(kind, add(1))
	w.an.analyze(signature, add(1))
	w.an.analyze(lead, add(leadWeight))
	w.an.analyze(codeBody(text), add(1))
	w.terms = out
	return slices.Clone(out)
}

// codeTerms names the rules by which a code chunk's terms are made
// (analyzeCode); it is part of the hash a code document records, so that
// an index saved under other rules makes its code documents' terms again
// when it is next put to, rather than mixing terms of two rules. Their
// vectors are kept: the embedded text is unchanged, and a chunk reuses the
// vector of its hash (commit). "2": the scope and path once (2026-12-05).
// "3": the stop words of the symbol's own name kept (2026-12-07).
const codeTerms = "terms 3"

// codeDocHash is the hash a code document records: its text's and the
// rules of its terms' (codeTerms).
func codeDocHash(text string) [16]byte {
	return contentHashOf(codeTerms+"\x00", text)
}

// scopeName is the last part of a qualified name before the symbol's
// own: its class ("flask.app.Flask.make_config" -> Flask), or its module
// or package for a top-level symbol ("flask.app.make_response" -> app,
// "github.com/spf13/cobra.OnlyValidArgs" -> cobra); "" for a name of one
// part. A place in angle brackets is one part, as in localName.
func scopeName(q string) string {
	i := lastSep(q, ".:")
	if i <= 0 {
		return ""
	}
	q = strings.TrimRight(q[:i], ".:")
	return q[lastSep(q, ".:/")+1:]
}

// embedName is what a symbol's qualified name is embedded as, titleWeight
// times before its text: its last two parts after the last slash, the
// class and member or the module and function
// ("github.com/spf13/cobra.Command.SetErrPrefix" -> Command.SetErrPrefix,
// "flask.app.Flask.make_config" -> Flask.make_config). The package path
// before them is the same for every symbol of a file or package, and
// repeated titleWeight times it drew the vectors of all of them towards
// one another; the text's first line still names it once. Measured
// (docs/code-search.md, 2026-12-05), function / file nDCG@10, the whole
// name against the last two parts against the last one: tuning split of
// docs/bench/codegen 0.228 / 0.732, 0.234 / 0.733, 0.231 / 0.734;
// docs/bench/code 0.703 / 0.933, 0.706 / 0.938, 0.704 / 0.934.
func embedName(qualified string) string {
	q := qualified[lastSep(qualified, "/")+1:]
	i := lastSep(q, ".")
	if i <= 0 {
		return q
	}
	if j := lastSep(q[:i], "."); j >= 0 {
		return q[j+1:]
	}
	return q
}

// lastSep returns the index of the last byte of q that is one of seps
// outside angle brackets, or -1. A JavaScript function without a name is
// named by its place, one part of its qualified name however many dots
// and slashes it holds ("lib.app.<callback of app.get('/users')>",
// "mocha.<callback of (…)>.CorkedRequest"); so are a C++ or Rust
// name's template arguments. A '>' left open (C++'s "operator>") falls
// back to the last of seps anywhere.
func lastSep(q, seps string) int {
	depth := 0
	for i := len(q) - 1; i >= 0; i-- {
		switch c := q[i]; {
		case c == '>':
			depth++
		case c == '<':
			depth = max(depth-1, 0)
		case depth == 0 && strings.IndexByte(seps, c) >= 0:
			return i
		}
	}
	if depth > 0 {
		return strings.LastIndexAny(q, seps)
	}
	return -1
}

// codeFileOf returns the file path of a code document's key.
func codeFileOf(key string) string {
	if i := strings.LastIndexByte(key, '#'); i >= 0 {
		return key[:i]
	}
	return key
}

// localName is the last part of a qualified name: a place in angle
// brackets whole ("<callback of .forEach>", not "forEach>", which
// weighed the callee's name as the function's own).
func localName(q string) string {
	if i := lastSep(q, ".:"); i >= 0 && i < len(q)-1 {
		return q[i+1:]
	}
	return q
}

// codeResult fills in what a result of the code scope shows: the file's
// path, the symbol, its kind and signature, and the document to fetch.
func codeResult(r *Result, d *doc) {
	r.DocPath = d.path
	r.Path = codeFileOf(d.path)
	r.Symbol = d.title
	kind, sig := codeMeta(d.text)
	// The text may lie in the mapped index file, which a result outlives.
	r.Kind, r.Signature = strings.Clone(kind), strings.Clone(sig)
	r.Heading = ""
	r.Generated = d.generated
}

// CodeStamps returns the Stamp of every file with code documents, by
// path: 0 for a file put without one, or whose documents disagree.
func (ix *Index) CodeStamps() map[string]uint64 { return ix.stamps(ScopeCode) }

// VendorStamps is CodeStamps of the vendor scope.
func (ix *Index) VendorStamps() map[string]uint64 { return ix.stamps(ScopeVendor) }

// stamps is CodeStamps of scope.
func (ix *Index) stamps(scope string) map[string]uint64 {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	out := map[string]uint64{}
	for key, id := range ix.paths() {
		if ix.docScope(id) != scope {
			continue
		}
		file, stamp := codeFileOf(key), ix.docStamp(id)
		if st, ok := out[file]; ok && st != stamp {
			out[file] = 0
		} else if !ok {
			out[strings.Clone(file)] = stamp // a loaded path aliases the mapping
		}
	}
	return out
}

// CodeFiles returns the paths of the source files the code scope holds
// symbols of, sorted.
func (ix *Index) CodeFiles() []string { return ix.files(ScopeCode) }

// VendorFiles is CodeFiles of the vendor scope.
func (ix *Index) VendorFiles() []string { return ix.files(ScopeVendor) }

// HoldsVendor reports whether the index holds a document of the vendor
// scope. It reads the documents' scopes up to the first such one, but
// for a saved table whose scopes (those its documents have) lack it:
// then only the documents put since (Linux's table is 1.1 million).
func (ix *Index) HoldsVendor() bool {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	var from uint32
	if t := ix.tab; t != nil && !slices.Contains(t.scopes, ScopeVendor) {
		from = uint32(len(t.docs))
	}
	for id := from; id < uint32(ix.ndocs()); id++ {
		if ix.docScope(id) == ScopeVendor {
			return true
		}
	}
	return false
}

// files is CodeFiles of scope.
func (ix *Index) files(scope string) []string {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	var out []string
	for key, id := range ix.paths() {
		if ix.docScope(id) == scope {
			out = append(out, codeFileOf(key))
		}
	}
	slices.Sort(out)
	out = slices.Compact(out)
	for i, f := range out {
		out[i] = strings.Clone(f) // a loaded path aliases the mapping
	}
	return out
}
