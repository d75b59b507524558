package extract

import (
	"bytes"
	"embed"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
)

//go:embed queries/*.scm
var queryFS embed.FS

// Language is one entry of the language table: a grammar, how files are
// recognised, the query that finds declarations, calls and imports, and the
// hooks for what a query cannot express. Every hook is optional.
type Language struct {
	Name         string   // "go", "python", ...
	Extensions   []string // with the dot: ".go"
	Filenames    []string // exact base names: "Rakefile"
	Interpreters []string // shebang interpreters: "python3"

	grammar func() *sitter.Language
	// queryFile names queries/<queryFile>.scm; default Name. Grammars
	// with one node set share a file (tsx uses typescript's).
	queryFile string
	// queryShared names queries/<queryShared>.scm, read before the
	// language's own file: patterns that several grammars write with the
	// same node names (JavaScript's and TypeScript's imports).
	queryShared string

	// Comment syntax, used to find doc comments above a declaration.
	lineComments  []string    // "//", "#"
	blockComments [][2]string // {"/*", "*/"}
	// wrappers are node types that wrap a declaration (decorators, export,
	// templates); doc comments are looked for above the outermost wrapper.
	wrappers map[string]bool
	// attributes are line prefixes of attributes that may stand between a
	// doc comment and its declaration as siblings: "#[" in Rust.
	attributes []string
	// docAcrossBlank reports whether a block comment (its lines trimmed,
	// top-down) separated from a declaration by blank lines is still the
	// declaration's doc, when no comment stands directly above it: JSDoc's
	// `/** */`. Nil: a blank line ends every doc comment.
	docAcrossBlank func(block []string) bool

	// module names the file's module, given the file and the text of the
	// @package capture ("" when the file declares none).
	module func(f *fileInfo, declared string) string
	// imports turns an @import node into imports.
	imports func(n *sitter.Node, f *fileInfo) []Import
	// exports lists the names the file exports (JavaScript, TypeScript).
	exports func(f *fileInfo) []Export
	// refine adjusts a declaration after the generic pass: split a
	// qualified name into parent and name, fix a kind, drop it (return false).
	refine func(d *decl, f *fileInfo) bool
	// signature post-processes the generic signature text.
	signature func(d *decl, sig string) string
	// doc returns a documentation string found inside the declaration
	// (Python docstrings); it wins over a comment above.
	doc func(d *decl, f *fileInfo) string
	// exported reports whether the declaration is visible outside its
	// module. Default: true.
	exported func(d *decl, f *fileInfo) bool
	// testOnly reports whether the declaration itself is compiled only
	// for tests (Rust's #[cfg(test)], #[test]); what it encloses is too.
	// Test files are found by their path (IsTestPath).
	testOnly func(d *decl, f *fileInfo) bool
	// bindings decodes a @binding node into bindings; the engine fills in
	// their scope.
	bindings func(n *sitter.Node, f *fileInfo) []Binding
	// bases lists the base types of a class-like declaration.
	bases func(d *decl, f *fileInfo) []string
	// params lists a function's parameter names, for flow tracking.
	params func(d *decl, f *fileInfo) []string
	// expr converts an expression (a binding's value or target, a call's
	// receiver, callee or argument list) into an Expr, within the
	// builder's bounds; without it calls and bindings carry text only.
	expr func(x *exprBuilder, n *sitter.Node, depth int) exprNode
	// exprShared reports the node types whose Exprs recur (a call site's
	// arguments inside an assignment): the builder stores them once.
	exprShared func(n *sitter.Node) bool
	// guard returns what narrows the type of a call's receiver recv in
	// the branch around the call at byte at (Call.Guard), or "".
	guard func(recv *sitter.Node, at uint32, f *fileInfo) string
	// places names the @place captures outside named functions, and
	// labelled callbacks inside them (File.Places); nil for a language
	// without them.
	places *placeRules
	// scopedImports: an import in a function or class body binds its
	// names there only; the engine sets Import.Scope (Python).
	scopedImports bool
	// repair finds the places where the grammar misread the file in a way
	// a same-length rewrite of the source fixes (C statement macros); the
	// extractor rewrites them and parses again. nodes are the captures of
	// repairQuery in the tree under root, in query order; skip holds the
	// places rewritten in earlier rounds.
	repair func(f *fileInfo, root *sitter.Node, nodes []*sitter.Node, skip map[uint32]bool) []macroSite
	// repairQuery holds the patterns whose captures, named @repair, repair
	// reads. They join the language's query, so that one walk over a tree
	// finds both what repair reads and what run reads (see repairTree).
	repairQuery string
	// walk, when set, finds the matches of the language's query and its
	// @repair captures without the query cursor (C: cWalk); ok false
	// leaves them to the query.
	walk func(root *sitter.Node, cq *compiledQuery) (matches []*sitter.QueryMatch, repair []*sitter.Node, ok bool)
	// plain reports, from the text alone, a file whose tree would have no
	// error and nothing the query captures: it is extracted without a
	// parse, as plainFile (C headers of object-like macros only). For a
	// language without a module hook.
	plain func(src []byte) bool
	// detect, for a shared extension, reports whether src is this language.
	detect func(src []byte) bool
	// reparse, for a file whose parse has errors, returns another reading
	// of src to parse instead, of the same length and with the same line
	// breaks, or nil; the extraction keeps the parse with fewer errors and
	// reads text from src either way.
	reparse func(src []byte) []byte
	// blankErrors recovers the structure around what the grammar cannot
	// read, when a file's parse has lost it (structureLost): its error
	// lines are blanked and it is parsed again (blankErrorLines). The
	// errors reported are the parse's before.
	blankErrors bool
	// docOnly makes the doc hook's answer final: "" means no doc, without
	// falling back to the comment above (Ruby magic comments, shebangs).
	docOnly bool
	// ignoreCalls are call names never reported (shell builtins); a set is
	// cheaper than one query predicate per name.
	ignoreCalls map[string]bool
	// serial parses one file of this language at a time: the grammar's
	// scanner keeps global state (go-tree-sitter's Lua).
	serial  bool
	parseMu sync.Mutex

	once  sync.Once
	q     *compiledQuery
	qErr  error
	gOnce sync.Once
	g     *sitter.Language
}

var languages = map[string]*Language{}

// register adds l to the table; it panics on a duplicate name, which is a
// programming error caught by any test.
func register(l *Language) {
	if _, dup := languages[l.Name]; dup {
		panic("extract: duplicate language " + l.Name)
	}
	languages[l.Name] = l
}

// Languages returns the names of the supported languages, sorted.
func Languages() []string {
	names := make([]string, 0, len(languages))
	for n := range languages {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// byExt and byName index the table; built once, after every init has
// registered its language.
var (
	indexOnce sync.Once
	byExt     map[string][]*Language // sorted by name
	byName    map[string]*Language
)

func buildIndex() {
	byExt, byName = map[string][]*Language{}, map[string]*Language{}
	for _, name := range Languages() {
		l := languages[name]
		for _, e := range l.Extensions {
			byExt[e] = append(byExt[e], l)
		}
		for _, fn := range l.Filenames {
			byName[fn] = l
		}
	}
}

// LanguageOf returns the language of the file at path (slash or OS path),
// looking at the base name, the extension and, for extension-less files,
// the shebang line of head (the first bytes of the file; may be nil). A
// shared extension (.h) is settled by the languages' detect hooks on head.
// It returns nil for an unknown language.
func LanguageOf(p string, head []byte) *Language {
	indexOnce.Do(buildIndex)
	base := p[strings.LastIndexAny(p, "/\\")+1:]
	if l := byName[base]; l != nil {
		return l
	}
	ext := path.Ext(base)
	candidates := byExt[ext]
	if candidates == nil {
		candidates = byExt[strings.ToLower(ext)]
	}
	switch {
	case len(candidates) == 1:
		return candidates[0]
	case len(candidates) > 1:
		for _, l := range candidates {
			if l.detect != nil && l.detect(head) {
				return l
			}
		}
		for _, l := range candidates {
			if l.detect == nil {
				return l
			}
		}
		return candidates[0]
	case ext != "":
		// Only extension-less files are recognised by their shebang.
		return nil
	}
	return languageOfShebang(head)
}

// languageOfShebang reads "#!/usr/bin/env python3 -u" or "#!/bin/bash".
func languageOfShebang(head []byte) *Language {
	if !bytes.HasPrefix(head, []byte("#!")) {
		return nil
	}
	line := head[2:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	fields := strings.Fields(string(line))
	if len(fields) == 0 {
		return nil
	}
	interp := path.Base(fields[0])
	if interp == "env" {
		interp = ""
		for _, f := range fields[1:] {
			if !strings.HasPrefix(f, "-") && !strings.Contains(f, "=") {
				interp = f
				break
			}
		}
	}
	for _, name := range Languages() {
		l := languages[name]
		for _, i := range l.Interpreters {
			if interp == i || strings.HasPrefix(interp, i) && isVersionSuffix(interp[len(i):]) {
				return l
			}
		}
	}
	return nil
}

// isVersionSuffix reports whether s looks like "3", "3.11" or "".
func isVersionSuffix(s string) bool {
	for _, r := range s {
		if (r < '0' || r > '9') && r != '.' {
			return false
		}
	}
	return true
}

// grammarOf returns the tree-sitter language, created once.
func (l *Language) grammarOf() *sitter.Language {
	l.gOnce.Do(func() { l.g = l.grammar() })
	return l.g
}

// query returns the compiled query, compiled once and shared by all
// workers: a compiled tree-sitter query is immutable, only cursors are not.
func (l *Language) query() (*compiledQuery, error) {
	l.once.Do(func() {
		file := l.queryFile
		if file == "" {
			file = l.Name
		}
		src, err := queryFS.ReadFile("queries/" + file + ".scm")
		if err != nil {
			l.qErr = fmt.Errorf("query for %s: %w", l.Name, err)
			return
		}
		if l.queryShared != "" {
			shared, err := queryFS.ReadFile("queries/" + l.queryShared + ".scm")
			if err != nil {
				l.qErr = fmt.Errorf("query for %s: %w", l.Name, err)
				return
			}
			src = append(append(shared, '\n'), src...)
		}
		if l.repairQuery != "" {
			src = append(append(src, '\n'), l.repairQuery...)
		}
		l.q, l.qErr = compileQuery(src, l.grammarOf())
		if l.qErr != nil {
			l.qErr = fmt.Errorf("query for %s: %w", l.Name, l.qErr)
		}
	})
	return l.q, l.qErr
}
