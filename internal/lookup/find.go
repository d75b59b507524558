// Package lookup answers symbol questions over a call graph: the
// definitions a name may mean (exact, partial, inherited or fuzzy) and
// the callers or callees of a symbol as a tree. Graph nodes and edges
// and the extracted symbols go in; plain data and text lines come out.
// The MCP tools and the CLI share it, so both match names alike.
package lookup

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// Graph is what lookup reads of a call graph; *callgraph.Graph and
// *Static have it.
type Graph interface {
	Len() int
	Node(callgraph.SymbolID) callgraph.Node
	Callers(callgraph.SymbolID) []callgraph.Edge
	Callees(callgraph.SymbolID) []callgraph.Edge
}

// Index finds symbols of one graph. It is read-only once made and safe
// for concurrent use.
type Index struct {
	g     Graph
	names Names
}

// Names indexes the nodes of a Graph by name. New builds one in memory;
// a symbols index saved on disk (graphstore.Symbols) is one too, read in
// place.
type Names interface {
	// Qualified, Named and InFile return the nodes of a qualified name,
	// of a lower-case name and of a file, in increasing ID order.
	Qualified(q string) []callgraph.SymbolID
	Named(lower string) []callgraph.SymbolID
	InFile(path string) []callgraph.SymbolID
	// EachName calls f with each distinct lower-case name until f
	// returns false.
	EachName(f func(lower string) bool)
	// Detail returns the signature, doc comment and base classes of a
	// node's symbol in its file's extraction, empty when there is none.
	// The signature may be cut after 200 bytes and the doc after the
	// first sentence's first 160.
	Detail(id callgraph.SymbolID) (signature, doc string, bases []string)
}

// byName is an in-memory index of nodes by lower-case name: the Named
// and EachName of New's and NewGraph's Names.
type byName map[string][]callgraph.SymbolID

// add indexes id under its name, lower-cased.
func (b byName) add(name string, id callgraph.SymbolID) {
	lower := strings.ToLower(name)
	b[lower] = append(b[lower], id)
}

func (b byName) Named(lower string) []callgraph.SymbolID { return b[lower] }

func (b byName) EachName(f func(string) bool) {
	for name := range b {
		if !f(name) {
			return
		}
	}
}

// memNames is the Names that New builds.
type memNames struct {
	byName
	syms        []*extract.Symbol // by node; nil for modules and unknown
	byQualified map[string][]callgraph.SymbolID
	byFile      map[string][]callgraph.SymbolID
}

func (m *memNames) Qualified(q string) []callgraph.SymbolID { return m.byQualified[q] }
func (m *memNames) InFile(path string) []callgraph.SymbolID { return m.byFile[path] }
func (m *memNames) Detail(id callgraph.SymbolID) (string, string, []string) {
	if s := m.syms[id]; s != nil {
		return s.Signature, s.Doc, s.Bases
	}
	return "", "", nil
}

// NewSaved returns the index of a graph whose names are indexed already,
// as a saved symbols index is.
func NewSaved(g Graph, names Names) *Index { return &Index{g: g, names: names} }

// New indexes g; file returns the extraction of a path (nil if none), for
// signatures, docs and base classes.
func New(g Graph, file func(path string) *extract.File) *Index {
	ix := &memNames{syms: make([]*extract.Symbol, g.Len()),
		byQualified: map[string][]callgraph.SymbolID{}, byName: byName{}, byFile: map[string][]callgraph.SymbolID{}}
	type key struct {
		q    string
		line int
	}
	var cur string
	var syms map[key]*extract.Symbol
	for i := range g.Len() {
		id := callgraph.SymbolID(i)
		n := g.Node(id)
		ix.byQualified[n.Qualified] = append(ix.byQualified[n.Qualified], id)
		ix.add(n.Name, id)
		ix.byFile[n.File] = append(ix.byFile[n.File], id)
		if n.Kind == callgraph.KindModule {
			continue
		}
		if n.File != cur || syms == nil {
			cur, syms = n.File, map[key]*extract.Symbol{}
			if f := file(n.File); f != nil {
				for j := range f.Symbols {
					s := &f.Symbols[j]
					syms[key{s.Qualified, s.StartLine}] = s
				}
			}
		}
		ix.syms[id] = syms[key{n.Qualified, n.Line}]
	}
	return &Index{g: g, names: ix}
}

// Kinds are the kinds a query may ask for.
var Kinds = []string{"function", "method", "class", "struct", "interface", "trait", "enum", "type", "module", "namespace", "object"}

// How a match was found, best first.
const (
	Exact     = "exact"     // the qualified name, or path:Name
	Partial   = "partial"   // the name, or the end of the qualified name
	Inherited = "inherited" // Class.member where a base class defines member
	Fuzzy     = "fuzzy"     // a near name: no exact or partial match
)

// Match is one definition a query may mean.
type Match struct {
	ID  callgraph.SymbolID
	How string
	// Via is, for an inherited member, the class the query named.
	Via string
}

// Symbol is a matched definition as plain data.
type Symbol struct {
	Qualified string `json:"qualified"`
	Kind      string `json:"kind"`
	Path      string `json:"path"`
	Line      int    `json:"line"`
	EndLine   int    `json:"end_line"`
	Signature string `json:"signature,omitempty"`
	Doc       string `json:"doc,omitempty"` // the first sentence of its doc comment
	Match     string `json:"match"`         // Exact, Partial, Inherited or Fuzzy
	Via       string `json:"via,omitempty"`
}

// Symbol describes m.
func (ix *Index) Symbol(m Match) Symbol {
	n := ix.g.Node(m.ID)
	s := Symbol{Qualified: n.Qualified, Kind: string(n.Kind), Path: n.File, Line: n.Line, EndLine: n.EndLine, Match: m.How, Via: m.Via}
	sig, doc, _ := ix.names.Detail(m.ID)
	s.Signature, s.Doc = clip(sig, 200), lead(doc)
	return s
}

// Node returns the node with the given ID.
func (ix *Index) Node(id callgraph.SymbolID) callgraph.Node { return ix.g.Node(id) }

// Find returns the definitions query means, best first: exact, then
// partial, then inherited matches; when there are none, the near names
// (How is Fuzzy). kind, when not "", keeps only that kind. No match at
// all is a *NotFound error.
func (ix *Index) Find(query, kind string) ([]Match, error) {
	query = strings.TrimSpace(query)
	if query == "" {
		return nil, fmt.Errorf("empty query: give a name such as register_blueprint, Flask.register_blueprint or path/to/file.py:Name")
	}
	if kind != "" && !slices.Contains(Kinds, kind) {
		return nil, fmt.Errorf("unknown kind %q; kinds: %s", kind, strings.Join(Kinds, ", "))
	}
	var ofKind func(callgraph.SymbolID) bool
	if kind != "" {
		ofKind = func(id callgraph.SymbolID) bool { return string(ix.g.Node(id).Kind) == kind }
	}
	ms := ix.matches(query)
	if ofKind != nil {
		ms = slices.DeleteFunc(ms, func(m Match) bool { return !ofKind(m.ID) })
	}
	if len(ms) > 0 {
		return ms, nil
	}
	if ms := ix.near(query, ofKind); len(ms) > 0 {
		return ms, nil
	}
	return nil, &NotFound{Query: query, Kind: kind}
}

// matches returns the exact, partial and inherited matches, ranked.
func (ix *Index) matches(q string) []Match {
	var out []Match
	seen := map[callgraph.SymbolID]bool{}
	add := func(how, via string, ids ...callgraph.SymbolID) {
		for _, id := range ids {
			if !seen[id] {
				seen[id] = true
				out = append(out, Match{ID: id, How: how, Via: via})
			}
		}
	}
	add(Exact, "", ix.names.Qualified(q)...)
	if path, name, ok := strings.Cut(q, ":"); ok {
		for _, id := range ix.names.InFile(path) {
			if n := ix.g.Node(id); n.Name == name || endsWith(n.Qualified, name) {
				add(Exact, "", id)
			}
		}
	}
	last := q[strings.LastIndexAny(q, "./")+1:]
	var partial []callgraph.SymbolID
	for _, id := range ix.names.Named(strings.ToLower(last)) {
		if n := ix.g.Node(id); n.Name == q || endsWith(n.Qualified, q) {
			partial = append(partial, id)
		}
	}
	ix.rank(partial)
	add(Partial, "", partial...)
	if cut := strings.LastIndexAny(q, "./"); cut > 0 && cut < len(q)-1 {
		cls, member := q[:cut], q[cut+1:]
		for _, c := range ix.classes(cls) {
			for _, id := range ix.inherited(c, member) {
				add(Inherited, ix.g.Node(c).Qualified, id)
			}
		}
	}
	return out
}

// classes returns the class-like nodes the name (qualified, or the end of
// one) stands for.
func (ix *Index) classes(name string) []callgraph.SymbolID {
	last := name[strings.LastIndexAny(name, "./")+1:]
	var out []callgraph.SymbolID
	for _, id := range ix.names.Named(strings.ToLower(last)) {
		n := ix.g.Node(id)
		if classLike(n.Kind) && (n.Qualified == name || n.Name == name || endsWith(n.Qualified, name)) {
			out = append(out, id)
		}
	}
	ix.rank(out)
	return out
}

// inherited returns member as the nearest base classes of cls define it,
// breadth first (cls's own member is a partial match, not this).
func (ix *Index) inherited(cls callgraph.SymbolID, member string) []callgraph.SymbolID {
	seen := map[callgraph.SymbolID]bool{cls: true}
	level := ix.bases(cls)
	for len(level) > 0 {
		var found, next []callgraph.SymbolID
		for _, b := range level {
			if seen[b] {
				continue
			}
			seen[b] = true
			found = append(found, ix.names.Qualified(ix.g.Node(b).Qualified+"."+member)...)
			next = append(next, ix.bases(b)...)
		}
		if len(found) > 0 {
			return found
		}
		level = next
	}
	return nil
}

// bases returns the classes cls's bases as written may name: a class
// whose qualified name ends with the written name, in cls's file first.
func (ix *Index) bases(cls callgraph.SymbolID) []callgraph.SymbolID {
	_, _, bases := ix.names.Detail(cls)
	var out []callgraph.SymbolID
	for _, b := range bases {
		b = strings.TrimLeft(strings.TrimSpace(b), "*&")
		if i := strings.IndexAny(b, "[<( "); i >= 0 {
			b = b[:i]
		}
		if b == "" {
			continue
		}
		cands := ix.classes(b)
		if len(cands) == 0 { // pkg.T in Go, where the node is path/pkg.T
			continue
		}
		home := ix.g.Node(cls).File
		best := cands[0]
		for _, c := range cands {
			if ix.g.Node(c).File == home && c != cls {
				best = c
				break
			}
		}
		if best != cls {
			out = append(out, best)
		}
	}
	return out
}

// rank sorts ids best first: code before tests, definitions before
// declarations, shorter qualified names, then by path and line, for a
// stable order.
func (ix *Index) rank(ids []callgraph.SymbolID) {
	keys := make([]ranked, len(ids))
	for i, id := range ids {
		keys[i] = ix.key(id)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].less(keys[j]) })
	for i := range keys {
		ids[i] = keys[i].id
	}
}

// ranked is a symbol with what ranks it, computed once: the comparisons
// of a sort are then cheap (IsTest per comparison made a near-name query
// on 40,000 symbols take most of a second).
type ranked struct {
	id        callgraph.SymbolID
	score     float64 // higher first; near names only
	test      bool
	decl      bool // a declaration, after the definitions
	qualified string
	file      string
	line      int
}

func (ix *Index) key(id callgraph.SymbolID) ranked {
	n := ix.g.Node(id)
	return ranked{id: id, test: IsTest(n.File), decl: n.Declaration, qualified: n.Qualified, file: n.File, line: n.Line}
}

func (a ranked) less(b ranked) bool {
	switch {
	case a.score != b.score:
		return a.score > b.score
	case a.test != b.test:
		return b.test
	case a.decl != b.decl:
		return b.decl
	case len(a.qualified) != len(b.qualified):
		return len(a.qualified) < len(b.qualified)
	case a.file != b.file:
		return a.file < b.file
	case a.line != b.line:
		return a.line < b.line
	}
	return a.id < b.id
}

// IsTest reports whether the slash path looks like test code.
func IsTest(p string) bool {
	base := p[strings.LastIndexByte(p, '/')+1:]
	return strings.HasSuffix(base, "_test.go") || strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py") ||
		strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") ||
		strings.Contains("/"+p, "/test/") || strings.Contains("/"+p, "/tests/") || strings.Contains("/"+p, "/testdata/")
}

func classLike(k extract.Kind) bool {
	switch k {
	case extract.KindClass, extract.KindStruct, extract.KindInterface, extract.KindTrait, extract.KindEnum, extract.KindObject, extract.KindType:
		return true
	}
	return false
}

// endsWith reports whether the qualified name q ends with the partial
// name p at a "." or "/" boundary.
func endsWith(q, p string) bool {
	return strings.HasSuffix(q, "."+p) || strings.HasSuffix(q, "/"+p)
}

// clip cuts s to at most n bytes at a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// lead returns the first sentence of a doc comment, on one line, at most
// 160 bytes.
func lead(doc string) string {
	doc = strings.Join(strings.Fields(doc), " ")
	for i := 0; i+1 < len(doc); i++ {
		if doc[i] == '.' && doc[i+1] == ' ' {
			doc = doc[:i+1]
			break
		}
	}
	return clip(doc, 160)
}
