package extract

import (
	"slices"
	"sort"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// fileInfo is what the hooks know about the file being extracted.
type fileInfo struct {
	path   string // slash path relative to the root
	src    []byte
	lang   *Language
	proj   *project
	module string
	test   bool // File.Test
	// generated is File.Generated, read before the parse.
	generated string
	// errors, when not nil, are File.Errors: those of the parse before a
	// recovery (Language.blankErrors), not the recovered tree's.
	errors []SyntaxError
	root   *sitter.Node
	// state is a language's per-file scratch space for hooks that need a
	// whole-file view (JS export lists); one goroutine uses a fileInfo.
	state any
	// exprs builds the file's Exprs, made on first use.
	exprs *exprBuilder
	// budget bounds the queries; overBudget says run stopped at it.
	budget     cpuBudget
	overBudget bool
	// names interns the called names and receivers of the file's calls,
	// which repeat (a C file calls mutex_lock in every function).
	names map[string]string
	// lineStarts is the source's line table (see lines); docAbove the
	// doc comment found above each 0-based line (see commentAbove).
	lineStarts lineTable
	docAbove   map[int]string
	// macroCalls are the places repair rewrote: the statement macros
	// are calls of their names, though the tree holds a keyword there.
	macroCalls []macroSite
	// cText is cTextRepairs of src, made on first use (cTextDone);
	// ctoks is the worker's token buffer it lexes into, or nil.
	cText     []macroSite
	cTextDone bool
	ctoks     *[]cToken
}

// intern returns s, or an equal string met before in this file.
func (f *fileInfo) intern(s string) string {
	if t, ok := f.names[s]; ok {
		return t
	}
	if f.names == nil {
		f.names = map[string]string{}
	}
	f.names[s] = s
	return s
}

// text returns the source text of n, valid UTF-8.
func (f *fileInfo) text(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	return validUTF8(string(f.src[n.StartByte():n.EndByte()]))
}

// decl is a declaration found by the query, before it becomes a Symbol.
type decl struct {
	node       *sitter.Node
	nameNode   *sitter.Node
	body       *sitter.Node
	receiver   *sitter.Node
	kind       Kind
	container  bool
	start, end uint32
	depth      int // declarations enclosing it

	name       string
	parent     *decl  // lexically enclosing declaration
	parentName string // set by a receiver or refine; wins over parent
	qualified  string
	dropped    bool
	test       bool // test-only code: Symbol.Test
	// declaration: a function declared without a body (see
	// Symbol.Declaration); set by refine.
	declaration bool
	// valuesOutside: the calls in the values it holds are the code
	// around it's, not its own (a JavaScript object literal: only its
	// functions are callers); set by refine. Bindings keep it as scope.
	valuesOutside bool
}

// rawCall is a call site found by the query.
type rawCall struct {
	at       uint32 // start byte of the call
	name     *sitter.Node
	receiver *sitter.Node
	args     *sitter.Node
	callee   *sitter.Node // a called expression that is not a name
}

// rawBinding is an assignment found by the query.
type rawBinding struct {
	at        uint32
	line      int
	targets   []*sitter.Node
	value     *sitter.Node
	typ       *sitter.Node // declared type
	decorator bool
	iter      bool // @bind.iter
}

// walkQuery runs cq over the tree under root and returns its matches, and
// the nodes captured as @repair, in query order. Like run, it gives up
// past f's budget, setting f.overBudget.
func walkQuery(root *sitter.Node, qc *sitter.QueryCursor, cq *compiledQuery, f *fileInfo) (matches []*sitter.QueryMatch, repair []*sitter.Node) {
	if f.lang.walk != nil {
		if matches, repair, ok := f.lang.walk(root, cq); ok {
			return matches, repair
		}
	}
	return cursorMatches(root, qc, cq, f)
}

// cursorMatches is walkQuery by the query cursor.
func cursorMatches(root *sitter.Node, qc *sitter.QueryCursor, cq *compiledQuery, f *fileInfo) (matches []*sitter.QueryMatch, repair []*sitter.Node) {
	qc.Exec(cq.q, root)
	for n := 0; ; n++ {
		if n%256 == 255 && f.budget.over() {
			f.overBudget = true
			return nil, nil
		}
		m, ok := qc.NextMatch()
		if !ok {
			return matches, repair
		}
		matches = append(matches, m)
		for _, c := range m.Captures {
			if cq.roles[c.Index] == roleRepair {
				repair = append(repair, c.Node)
			}
		}
	}
}

// run extracts the structure of one parsed file, from walked, the
// matches of cq over tree, or, if nil, from a walk of its own.
func run(tree *sitter.Tree, qc *sitter.QueryCursor, cq *compiledQuery, f *fileInfo, walked []*sitter.QueryMatch) *File {
	root := tree.RootNode()
	f.root = root
	var (
		decls    []*decl
		calls    []rawCall
		binds    []rawBinding
		declared []*sitter.Node // @binding nodes
		scopes   []*sitter.Node // @binding.scope nodes
		imports  []*sitter.Node
		places   []*sitter.Node // @place nodes
		pkgName  string
		seen     = map[[2]uint32]bool{}
	)
	if f.overBudget {
		return nil // the repair rounds' walk gave up
	}
	if walked == nil && f.lang.walk != nil {
		if m, _, ok := f.lang.walk(root, cq); ok {
			walked = m
		}
	}
	next := qc.NextMatch
	if walked != nil {
		next = func() (*sitter.QueryMatch, bool) {
			if len(walked) == 0 {
				return nil, false
			}
			m := walked[0]
			walked = walked[1:]
			return m, true
		}
	} else {
		qc.Exec(cq.q, root)
	}
	for n := 0; ; n++ {
		// tree-sitter's cursor slows down with the nesting depth (100,000
		// nested calls took minutes): past the deadline the file is
		// given up.
		if n%256 == 255 && f.budget.over() {
			f.overBudget = true
			return nil
		}
		m, ok := next()
		if !ok {
			break
		}
		if cq.hasPred[m.PatternIndex] {
			m = qc.FilterPredicates(m, f.src)
			if len(m.Captures) == 0 {
				continue
			}
		}
		var d *decl
		var c rawCall
		var b rawBinding
		isCall, isBind := false, false
		for _, capt := range m.Captures {
			n := capt.Node
			switch cq.roles[capt.Index] {
			case roleDefinition, roleContainer:
				if d == nil {
					d = &decl{}
				}
				d.node, d.kind = n, cq.kinds[capt.Index]
				d.container = cq.roles[capt.Index] == roleContainer
			case roleName:
				if d == nil {
					d = &decl{}
				}
				if d.nameNode == nil {
					d.nameNode = n
				}
			case roleBody:
				if d == nil {
					d = &decl{}
				}
				d.body = n
			case roleReceiver:
				if d == nil {
					d = &decl{}
				}
				d.receiver = n
			case roleCall:
				isCall, c.at = true, n.StartByte()
			case roleCallName:
				c.name = n
			case roleCallReceiver:
				c.receiver = n
			case roleCallArgs:
				c.args = n
			case roleCallCallee:
				isCall, c.callee = true, n
			case roleBind:
				isBind, b.at, b.line = true, n.StartByte(), int(n.StartPoint().Row)+1
			case roleBindTarget:
				b.targets = append(b.targets, n)
			case roleBindValue:
				b.value = n
			case roleBindIter:
				b.value, b.iter = n, true
			case roleBindDecorator:
				b.value, b.decorator = n, true
			case roleBindType:
				b.typ = n
			case roleImport:
				imports = append(imports, n)
			case roleBinding:
				declared = append(declared, n)
			case roleBindingScope:
				scopes = append(scopes, n)
			case rolePlace:
				places = append(places, n)
			case rolePackage:
				if pkgName == "" {
					pkgName = f.text(n)
				}
			}
		}
		// A MISSING name node (`x.()`) is empty: not a call.
		if isCall && c.callee != nil {
			calls = append(calls, c)
		} else if isCall && c.name != nil && c.name.EndByte() > c.name.StartByte() {
			calls = append(calls, c)
		}
		if isBind && (b.value != nil || b.typ != nil) {
			binds = append(binds, b)
		}
		if d != nil && d.node != nil && d.nameNode != nil {
			d.start, d.end = d.node.StartByte(), d.node.EndByte()
			key := [2]uint32{d.start, d.end}
			if !seen[key] {
				seen[key] = true
				decls = append(decls, d)
			}
		}
	}

	if f.lang.module != nil {
		f.module = f.lang.module(f, pkgName)
	} else {
		f.module = pathModule(f.path)
	}
	f.test = testFile(f.path, f.generated)
	// Symbols and Calls are sized to what the query found, so that no
	// append copies them as they grow; shrink trims them if much is
	// dropped. With CallValues below, this took what callgraph allocates
	// on Linux's fs/, include/, mm/ and kernel/ from 1.50 to 1.37 GB.
	out := &File{
		Path:      f.path,
		Language:  f.lang.Name,
		Test:      f.test,
		Generated: f.generated,
		Module:    f.module,
		Imports:   []Import{},
		Symbols:   make([]Symbol, 0, len(decls)),
		Calls:     make([]Call, 0, len(calls)+len(f.macroCalls)),
		Errors:    f.errors,
	}
	if out.Errors == nil {
		out.Errors = syntaxErrors(root)
	}
	var importAt []uint32 // start byte of each of out.Imports, for its scope
	for _, n := range dedupeNodes(imports) {
		if f.lang.imports != nil {
			for _, im := range f.lang.imports(n, f) {
				out.Imports = append(out.Imports, im)
				importAt = append(importAt, n.StartByte())
			}
		}
	}

	if f.lang.exports != nil {
		out.Exports = f.lang.exports(f)
	}

	sort.SliceStable(decls, func(i, j int) bool {
		if decls[i].start != decls[j].start {
			return decls[i].start < decls[j].start
		}
		return decls[i].end > decls[j].end
	})
	nest(decls)
	for _, d := range decls {
		if sym, ok := symbolOf(d, f); ok {
			out.Symbols = append(out.Symbols, sym)
		}
	}
	for i, at := range importAt {
		if !f.lang.scopedImports {
			break
		}
		if scope := callerOf(decls, at, f.module); scope != f.module {
			out.Imports[i].Scope = scope
		}
	}
	for _, c := range calls {
		name, recv := "", c.receiver
		var pos sitter.Point
		if c.callee != nil {
			// f()() or d["k"](): the expression itself is called.
			name, recv, pos = "()", c.callee, c.callee.StartPoint()
		} else if name, pos = callName(f.text(c.name), c.name.StartPoint()); name == "" || f.lang.ignoreCalls[name] {
			continue
		}
		call := Call{
			Caller:   callSiteOf(decls, c.at, f.module),
			Name:     f.intern(name),
			Receiver: f.intern(f.short(recv, 200)),
			Line:     int(pos.Row) + 1,
			Column:   int(pos.Column) + 1,
		}
		// Held in locals, allocated only when kept: a C call has no
		// values (on the Linux subset above, 36 MB of escaping copies).
		args, rx, ax := f.args(c.args), f.expr(recv), f.argExprs(c.args)
		guard := ""
		if f.lang.guard != nil && c.callee == nil {
			guard = f.lang.guard(c.receiver, c.at, f)
		}
		if args != nil || rx.Valid() || ax.Valid() || guard != "" {
			call.CallValues = &CallValues{Args: args, ReceiverExpr: rx, ArgExprs: ax, Guard: guard}
		}
		out.Calls = append(out.Calls, call)
	}
	for _, s := range f.macroCalls {
		if s.word == "" {
			continue // an attribute macro, blanked
		}
		out.Calls = append(out.Calls, Call{
			Caller: callerOf(decls, s.start, f.module),
			Name:   f.intern(s.name),
			Line:   int(s.startPoint.Row) + 1,
			Column: int(s.startPoint.Column) + 1,
		})
	}
	for _, b := range binds {
		value := f.short(b.value, 200)
		if b.decorator {
			value = "@" + value
		}
		typ := f.short(b.typ, 200)
		scope := callerOf(decls, b.at, f.module)
		vx := f.expr(b.value)
		if len(b.targets) == 0 {
			out.Bindings = append(out.Bindings, Binding{Scope: scope, Target: "<return>", Value: value, Line: b.line, Type: typ, ValueExpr: vx})
		}
		for _, t := range b.targets {
			out.Bindings = append(out.Bindings, Binding{
				Scope: scope, Target: f.short(t, 200), Value: value, Line: b.line, Type: typ, Iter: b.iter,
				ValueExpr: vx, TargetExpr: f.expr(t),
			})
		}
	}
	if f.lang.bindings != nil {
		declared = dedupeNodes(declared)
		ends := scopeEnds(declared, scopes)
		for i, n := range declared {
			scope := callerOf(decls, n.StartByte(), f.module)
			for _, b := range f.lang.bindings(n, f) {
				b.Scope = scope
				if b.EndLine == 0 {
					b.EndLine = ends[i]
				}
				out.Bindings = append(out.Bindings, b)
			}
		}
	}
	sort.SliceStable(out.Calls, func(i, j int) bool {
		a, b := out.Calls[i], out.Calls[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	out.Calls = dedupeCalls(out.Calls)
	out.Refs = f.refs(root, decls, qc)
	out.Places = f.places(places, decls)
	if f.exprs != nil {
		// The slice grew by doubling: keep what is used.
		f.exprs.x.nodes = slices.Clone(f.exprs.x.nodes)
	}
	sort.SliceStable(out.Imports, func(i, j int) bool { return out.Imports[i].Line < out.Imports[j].Line })
	sort.SliceStable(out.Bindings, func(i, j int) bool { return out.Bindings[i].Line < out.Bindings[j].Line })
	// These slices grew by doubling and live as long as the File (a call
	// graph keeps every File): keep what is used. On GOROOT/src the
	// bindings and calls held 186 MB of the graph's 486 MB live heap
	// before (docs/bigrepos.md).
	out.Symbols = shrink(out.Symbols)
	out.Calls = shrink(out.Calls)
	out.Bindings = shrink(out.Bindings)
	return out
}

// shrink returns s in a slice of its own length if s wastes more than an
// eighth of its capacity; nil stays nil and empty stays empty.
func shrink[S ~[]E, E any](s S) S {
	if len(s) == 0 || cap(s)-len(s) <= len(s)/8 {
		return s
	}
	return append(make(S, 0, len(s)), s...)
}

// args returns the argument expressions of an argument list node as
// text, each cut at 200 bytes; nil for none. A call whose parentheses are
// its one argument's (Python's `f(x for x in xs)`) has that argument.
func (f *fileInfo) args(n *sitter.Node) []string {
	if n == nil {
		return nil
	}
	if t := n.Type(); !strings.HasSuffix(t, "argument_list") && !strings.HasSuffix(t, "arguments") {
		if cnt := int(n.ChildCount()); cnt > 2 {
			start, end := n.Child(0).EndByte(), n.Child(cnt-1).StartByte()
			if a := f.shortRange(start, end, 200); a != "" {
				return []string{a}
			}
		}
		return nil
	}
	var out []string
	for i, cnt := 0, int(n.NamedChildCount()); i < cnt; i++ {
		if c := n.NamedChild(i); c != nil && c.Type() != "comment" {
			if a := f.short(c, 200); a != "" {
				out = append(out, a)
			}
		}
	}
	return out
}

// argExprs returns the structure of an argument list, an ExprTuple of
// the arguments, for languages with an expression hook.
func (f *fileInfo) argExprs(n *sitter.Node) Expr {
	x := f.builder()
	if n == nil || x == nil {
		return Expr{}
	}
	if t := n.Type(); !strings.HasSuffix(t, "argument_list") && !strings.HasSuffix(t, "arguments") {
		return x.tuple(n) // f(x for x in xs): the call's parentheses are its argument's
	}
	return x.expr(n)
}

// short returns the text of n on one line, cut at max bytes.
func (f *fileInfo) short(n *sitter.Node, max int) string {
	if n == nil {
		return ""
	}
	return f.shortRange(n.StartByte(), n.EndByte(), max)
}

// shortRange returns src[start:end] on one line, cut at max bytes, reading
// no more of the source than that needs: a call nested 100,000 deep must
// not copy its whole argument list once per level.
func (f *fileInfo) shortRange(start, end uint32, max int) string {
	if end <= start {
		return ""
	}
	// Runs of spaces collapse to one, so a cut needs more than max bytes
	// of source; 8×max covers all but deeply indented code, which is
	// then cut early but still marked.
	if limit := start + uint32(8*max); end > limit {
		s := collapseSpace(validUTF8(string(f.src[start:limit])), max)
		if !strings.HasSuffix(s, "…") {
			s += "…"
		}
		return s
	}
	return collapseSpace(validUTF8(string(f.src[start:end])), max)
}

// callName trims whitespace a grammar lexed into a name node (go-tree-sitter's
// Lua glues the newline before a statement's first token onto it) and
// moves pos past it.
func callName(name string, pos sitter.Point) (string, sitter.Point) {
	t := strings.TrimLeft(name, " \t\r\n")
	if len(t) == len(name) {
		return name, pos
	}
	skipped := name[:len(name)-len(t)]
	if nl := strings.LastIndexByte(skipped, '\n'); nl >= 0 {
		pos.Row += uint32(strings.Count(skipped, "\n"))
		pos.Column = uint32(len(skipped) - nl - 1)
	} else {
		pos.Column += uint32(len(skipped))
	}
	return t, pos
}

func dedupeNodes(ns []*sitter.Node) []*sitter.Node {
	seen := map[uint32]bool{}
	out := ns[:0]
	for _, n := range ns {
		if !seen[n.StartByte()] {
			seen[n.StartByte()] = true
			out = append(out, n)
		}
	}
	return out
}

// dedupeCalls drops calls reported twice at the same position with the
// same name (two patterns matching one call); calls are sorted by
// position. f()() is two calls at one position: "f" and "()".
func dedupeCalls(cs []Call) []Call {
	out := cs[:0]
	for i, c := range cs {
		if i > 0 && c.Line == cs[i-1].Line && c.Column == cs[i-1].Column && c.Name == cs[i-1].Name {
			continue
		}
		out = append(out, c)
	}
	return out
}

// pathModule is the default module name: the path without its extension,
// '/' replaced by '.'.
func pathModule(p string) string {
	if i := strings.LastIndexByte(p, '.'); i > strings.LastIndexByte(p, '/') {
		p = p[:i]
	}
	return strings.ReplaceAll(p, "/", ".")
}
