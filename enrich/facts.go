package enrich

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// role says what a symbol is asked for and where it is rendered.
type role int

const (
	// roleContainer: a module or namespace, listed for context only; its
	// functions are documented as functions.
	roleContainer role = iota
	// roleCallable: a function or method: Purpose and Implementation.
	roleCallable
	// roleType: a class-like symbol: Purpose, with its methods under it.
	roleType
)

func roleOf(k extract.Kind) role {
	switch k {
	case extract.KindFunction, extract.KindMethod:
		return roleCallable
	case extract.KindClass, extract.KindStruct, extract.KindInterface, extract.KindTrait,
		extract.KindEnum, extract.KindType, extract.KindObject:
		return roleType
	}
	return roleContainer
}

// symbol is one extracted symbol with what enrich derives from it.
type symbol struct {
	*extract.Symbol
	// local is the qualified name without the file's module: "Store.get",
	// "counted.wrapper", "NewStore". It is the name prompts show and
	// reports are expected to use.
	local string
	role  role
	// owner is the index of the type whose method this callable is (its
	// qualified name is the type's plus ".Name"), or -1: Go methods on a
	// type declared in another file, and functions, have none.
	owner int
	// graphName is the qualified name the call graph knows the symbol by.
	// It is Qualified, except for callables that share their qualified
	// name with another in the file (two nested functions named view in
	// flask's View.as_view, a property's getter and setter): those are
	// told apart by their line, in Qualified and local alike
	// ("View.as_view.view@106"), so that prompts, reports and artifacts
	// name each one once.
	graphName string
	// node is the symbol's node in the graph, if it has one.
	node    callgraph.SymbolID
	hasNode bool
	// overloads are the first lines of the signatures declared for this
	// function, its file's one definition of its name (TypeScript's
	// overloads, a C file's prototype of its own function): they are
	// listed with it, not as functions of their own.
	overloads []int
}

// facts is a file's symbols in line order, linked to the call graph. The
// graph may be nil (no callers then) or older than the file (symbols it
// does not know have no callers).
type facts struct {
	f    *extract.File
	g    Graph
	syms []symbol
	amb  map[string]*ambiguousCalls // by caller's qualified name; see ambiguity
}

func newFacts(f *extract.File, g Graph) *facts {
	g = graphOf(g)
	fs := &facts{f: f, g: g, syms: make([]symbol, 0, len(f.Symbols))}
	overloads := map[string][]int{} // by qualified name: the first lines of its overloads (extract.Overloads)
	for q, idx := range extract.Overloads(f.Symbols) {
		for _, i := range idx {
			overloads[q] = append(overloads[q], f.Symbols[i].StartLine)
		}
	}
	callables := map[string]int{} // qualified name → callables that have it
	for i := range f.Symbols {
		if s := &f.Symbols[i]; roleOf(s.Kind) == roleCallable && !(s.Declaration && overloads[s.Qualified] != nil) {
			callables[s.Qualified]++
		}
	}
	for i := range f.Symbols {
		s := &f.Symbols[i]
		lines := overloads[s.Qualified]
		if lines != nil && s.Declaration {
			continue // listed with its definition
		}
		graphName := s.Qualified
		if roleOf(s.Kind) == roleCallable && callables[s.Qualified] > 1 {
			c := *s // the caller's file stays as it is
			c.Qualified += "@" + strconv.Itoa(s.StartLine)
			s = &c
		}
		fs.syms = append(fs.syms, symbol{Symbol: s, local: localName(f, s.Qualified), role: roleOf(s.Kind), owner: -1, graphName: graphName, overloads: lines})
	}
	slices.SortStableFunc(fs.syms, func(a, b symbol) int { return cmp.Compare(a.StartLine, b.StartLine) })
	types := map[string]int{} // qualified → first type with that name
	for i, s := range fs.syms {
		if _, ok := types[s.Qualified]; !ok && s.role == roleType {
			types[s.Qualified] = i
		}
	}
	for i := range fs.syms {
		s := &fs.syms[i]
		if s.role != roleCallable {
			continue
		}
		if prefix, ok := strings.CutSuffix(s.graphName, "."+s.Name); ok {
			if t, ok := types[prefix]; ok {
				s.owner = t
			}
		}
	}
	if g != nil {
		type key struct {
			q    string
			line int
		}
		nodes := map[key]callgraph.SymbolID{}
		for _, id := range g.InFile(f.Path) {
			n := g.Node(id)
			if n.Kind == callgraph.KindModule || n.File != f.Path {
				continue
			}
			if _, ok := nodes[key{n.Qualified, n.Line}]; !ok {
				nodes[key{n.Qualified, n.Line}] = id
			}
		}
		for i := range fs.syms {
			s := &fs.syms[i]
			s.node, s.hasNode = nodes[key{s.graphName, s.StartLine}]
		}
	}
	return fs
}

// localName strips the file's module from a qualified name.
func localName(f *extract.File, q string) string {
	if f.Module != "" {
		if rest, ok := strings.CutPrefix(q, f.Module+"."); ok && rest != "" {
			return rest
		}
	}
	return q
}

// ref is one end of a call: a symbol's display name and a place.
type ref struct {
	name string
	file string
	line int
	// qualified is the symbol's qualified name, and note what it does
	// (Options.Purposes), for callees.
	qualified, note string
	// guess says every call between the two ends was resolved by name
	// only (callgraph.Name): a method of that name exists, nothing says
	// it is the one called.
	guess bool
}

// byNameOnly marks a call the graph guessed from a name alone (in
// CallerKeys).
const byNameOnly = " (by name only)"

// Facts and guesses are listed apart: "called by", "calls", Called by and
// Connections hold only calls the graph resolved; the calls it resolved
// by name only (a method of that name exists, the receiver's type is
// unknown) follow in their own list, labelled unverified and capped at
// maxGuesses, so that no model writes a guess down as a fact.
const (
	maxGuesses = 5
	unverified = "(by name only, unverified)"
)

// splitGuesses returns the refs that are facts and those that are
// guesses, each in the order of rs.
func splitGuesses(rs []ref) (facts, guesses []ref) {
	for _, r := range rs {
		if r.guess {
			guesses = append(guesses, r)
		} else {
			facts = append(facts, r)
		}
	}
	return facts, guesses
}

func (r ref) String() string {
	s := fmt.Sprintf("%s (%s:%d)", codeSpan(r.name), r.file, r.line)
	if r.note != "" {
		s += ": " + r.note
	}
	return s
}

// display names a graph node for a reader: Parent.Name for members and
// nested functions, Name otherwise, "(top level)" for a module's code.
func display(n callgraph.Node) string {
	switch {
	case n.Kind == callgraph.KindModule:
		return "(top level)"
	case n.Parent != "":
		return n.Parent + "." + n.Name
	}
	return n.Name
}

// callers returns who calls s: one ref per calling symbol, or per place
// of a module's or type's calls (callerName), at its first call site,
// sorted by file, line and name; a guess when every call from there was
// resolved by name only.
func (fs *facts) callers(s *symbol) []ref {
	if !s.hasNode {
		return nil
	}
	var out []ref
	at := map[string]int{}
	for _, e := range fs.g.Callers(s.node) {
		guess := e.Resolution == callgraph.Name
		name := fs.callerName(e)
		key := e.File + "\x00" + name
		if i, ok := at[key]; ok {
			out[i].guess = out[i].guess && guess
			continue
		}
		at[key] = len(out)
		out = append(out, ref{name: name, file: e.File, line: e.Line, guess: guess})
	}
	sortRefs(out)
	return out
}

// callerName names the caller of e for a reader (display): a module's or
// type's call made in a place of its file (an anonymous function outside
// named functions) by the place, under the type ("rootCmd.Run",
// "Post.<callback of before_save>"), as the place it is in.
func (fs *facts) callerName(e callgraph.Edge) string {
	n := fs.g.Node(e.Caller)
	name := display(n)
	pg, ok := fs.g.(PlaceGraph)
	if !ok || n.Kind == extract.KindFunction || n.Kind == extract.KindMethod {
		return name
	}
	pl, ok := extract.PlaceAt(pg.PlacesIn(e.File), e.Line)
	if !ok {
		return name
	}
	rest, ok := strings.CutPrefix(pl.Qualified, n.Qualified+".")
	switch {
	case !ok:
		return name + " in " + pl.Name
	case n.Kind == callgraph.KindModule:
		return rest
	}
	return name + "." + rest
}

// callees returns what s calls: one ref per callee, at its declaration,
// sorted by file, line and name; a guess when every call of that callee
// was resolved by name only.
func (fs *facts) callees(s *symbol) []ref {
	if !s.hasNode {
		return nil
	}
	var out []ref
	at := map[callgraph.SymbolID]int{}
	for _, e := range fs.g.Callees(s.node) {
		guess := e.Resolution == callgraph.Name
		if i, ok := at[e.Callee]; ok {
			out[i].guess = out[i].guess && guess
			continue
		}
		at[e.Callee] = len(out)
		n := fs.g.Node(e.Callee)
		out = append(out, ref{name: display(n), file: n.File, line: n.Line, qualified: n.Qualified, guess: guess})
	}
	sortRefs(out)
	return out
}

// manyAmbiguous is how many ambiguous unresolved calls a symbol makes
// before the prompt and the artifact say so: a few are normal, many mean
// its list of calls is far from complete.
const manyAmbiguous = 3

// ambiguous returns the distinct names of the calls s makes that the graph
// left unresolved because several symbols have the name, and how many
// such calls there are. The returned names must not be modified.
func (fs *facts) ambiguous(s *symbol) (names []string, calls int) {
	if fs.g == nil {
		return nil, 0
	}
	a := fs.ambiguity()[s.Qualified]
	if a == nil {
		return nil, 0
	}
	return a.names, a.calls
}

// ambiguousCalls are one caller's calls left unresolved for ambiguity:
// their distinct names, sorted, and how many calls.
type ambiguousCalls struct {
	names []string
	calls int
}

// ambiguity groups the file's ambiguous unresolved calls by caller, once:
// a bundle has thousands of symbols and tens of thousands of unresolved
// calls, and going through them all for each symbol was quadratic.
func (fs *facts) ambiguity() map[string]*ambiguousCalls {
	if fs.amb != nil {
		return fs.amb
	}
	fs.amb = map[string]*ambiguousCalls{}
	seen := map[[2]string]bool{} // caller, name
	for _, u := range fs.g.UnresolvedIn(fs.f.Path) {
		if !u.IsAmbiguous() {
			continue
		}
		a := fs.amb[u.Caller]
		if a == nil {
			a = &ambiguousCalls{}
			fs.amb[u.Caller] = a
		}
		a.calls++
		if k := [2]string{u.Caller, u.Name}; !seen[k] {
			seen[k] = true
			a.names = append(a.names, u.Name)
		}
	}
	for _, a := range fs.amb {
		slices.Sort(a.names)
	}
	return fs.amb
}

// ambiguousNote says that s makes many calls the graph could not resolve
// because their names are shared, or "" when it makes few.
func (fs *facts) ambiguousNote(s *symbol) string {
	names, calls := fs.ambiguous(s)
	if calls < manyAmbiguous {
		return ""
	}
	spans := make([]string, len(names))
	for i, n := range names {
		spans[i] = codeSpan(n)
	}
	return fmt.Sprintf("%d calls not resolved: several symbols are named %s", calls, capList(spans, 5))
}

func sortRefs(rs []ref) {
	slices.SortFunc(rs, func(a, b ref) int {
		return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.line, b.line), cmp.Compare(a.name, b.name))
	})
}

// link is a file connected to this one and the symbols through which it
// is: the callers in that file, or the callees there.
type link struct {
	file  string
	names []string // sorted, distinct
	// guess holds the names whose calls were all resolved by name only.
	guess map[string]bool
}

// connections returns the files that call into this one (in) and the files
// this one calls into (out), sorted by path. Calls within the file do not
// count.
func (fs *facts) connections() (in, out []link) {
	if fs.g == nil {
		return nil, nil
	}
	// file → name → every call was resolved by name only
	ins, outs := map[string]map[string]bool{}, map[string]map[string]bool{}
	add := func(m map[string]map[string]bool, file, name string, how callgraph.Resolution) {
		if m[file] == nil {
			m[file] = map[string]bool{}
		}
		guess, seen := m[file][name]
		m[file][name] = (guess || !seen) && how == callgraph.Name
	}
	for _, id := range fs.g.InFile(fs.f.Path) {
		module := fs.g.Node(id).Kind == callgraph.KindModule
		if !module {
			for _, e := range fs.g.Callers(id) {
				if e.File != fs.f.Path {
					add(ins, e.File, fs.callerName(e), e.Resolution)
				}
			}
		}
		// A module node is shared by the files of a package: only its
		// calls made from this file are this file's.
		for _, e := range fs.g.Callees(id) {
			n := fs.g.Node(e.Callee)
			if e.File == fs.f.Path && n.File != fs.f.Path {
				add(outs, n.File, display(n), e.Resolution)
			}
		}
	}
	return links(ins), links(outs)
}

// splitLinks returns the links with the names that are facts and those
// with the names that are guesses; a link with none of a kind is left out
// of that list.
func splitLinks(ls []link) (facts, guesses []link) {
	for _, l := range ls {
		var f, g link
		f.file, g.file = l.file, l.file
		for _, n := range l.names {
			if l.guess[n] {
				g.names = append(g.names, n)
			} else {
				f.names = append(f.names, n)
			}
		}
		if len(f.names) > 0 {
			facts = append(facts, f)
		}
		if len(g.names) > 0 {
			guesses = append(guesses, g)
		}
	}
	return facts, guesses
}

func links(m map[string]map[string]bool) []link {
	out := make([]link, 0, len(m))
	for file, names := range m {
		l := link{file: file}
		for n, guess := range names {
			l.names = append(l.names, n)
			if guess {
				if l.guess == nil {
					l.guess = map[string]bool{}
				}
				l.guess[n] = true
			}
		}
		slices.Sort(l.names)
		out = append(out, l)
	}
	slices.SortFunc(out, func(a, b link) int { return cmp.Compare(a.file, b.file) })
	return out
}

// capList joins items with ", ", keeping the first limit and saying how
// many more there are: "a, b and 3 more". limit <= 0 keeps all.
func capList(items []string, limit int) string {
	if limit <= 0 || len(items) <= limit {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:limit], ", "), len(items)-limit)
}

// moreOf joins the first items of a list of total with ", ", saying how
// many more there are, as capList does: "a, b and 3 more".
func moreOf(items []string, total int) string {
	if total <= len(items) {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items, ", "), total-len(items))
}

// codeSpan renders s as inline code, with a fence longer than any run of
// backticks in it.
func codeSpan(s string) string {
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}
