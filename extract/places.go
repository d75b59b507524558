package extract

// Places: anonymous functions written outside every named function, or
// labelled callbacks inside one, named by where they are (see Place).

import (
	"sort"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// placeRules name a language's places. The node types are the grammar's;
// what is not listed is looked through only when wrapping (wraps).
type placeRules struct {
	// calls are call node types, each with the field that holds its
	// arguments ("": the child whose type is in args, for grammars
	// without the field); a function in those arguments, or in the
	// call's block field (Ruby), is its callback.
	calls map[string]string
	// block is the field of a call that holds a block passed to it (Ruby).
	block string
	// args are argument list node types, wraps the nodes between a
	// function and what it is in that say nothing of its place (an
	// argument, a list of values, parentheses, `&`).
	args, wraps map[string]bool
	// keys are node types that give a value a key (Go's keyed_element,
	// PHP's `'k' => v`, Ruby's `k: v`, Lua's `k = v`), each with the field
	// of the key ("" for the first named child).
	keys map[string]string
	// binds are node types that bind a value to a name (`var x = …`,
	// `$x = …`), each with the field of the name, or for grammars
	// without the field the type of the child that holds it.
	binds map[string]string
	// returns are return statement node types: a function returned at
	// module level is the module's value (Lua's `return function(…)`,
	// PHP's config closures), named "<returned>".
	returns map[string]bool
}

// maxPlaces bounds the places of one file: a generated table of
// callbacks (a parser's actions) is not worth a search document each.
const maxPlaces = 500

// places returns the places of the file: the nodes captured as @place
// (anonymous functions) that no function or method encloses, or that
// are labelled callbacks (labelledCallback), named by where they are and
// qualified under the place that encloses them, else the function or
// type (Ruby's class body), else the module.
func (f *fileInfo) places(nodes []*sitter.Node, decls []*decl) []Place {
	r := f.lang.places
	if r == nil || len(nodes) == 0 {
		return nil
	}
	nodes = dedupeNodes(nodes)
	sort.SliceStable(nodes, func(i, j int) bool {
		if nodes[i].StartByte() != nodes[j].StartByte() {
			return nodes[i].StartByte() < nodes[j].StartByte()
		}
		return nodes[i].EndByte() > nodes[j].EndByte()
	})
	var out []Place
	type open struct {
		start, end uint32
		qualified  string
	}
	var stack []open // the places enclosing the current one
	type span struct {
		start, end uint32
		typ        string
	}
	captured := make(map[span]bool, len(nodes))
	for _, n := range nodes {
		captured[span{n.StartByte(), n.EndByte(), n.Type()}] = true
	}
	for _, n := range nodes {
		if p := n.Parent(); p != nil && captured[span{p.StartByte(), p.EndByte(), p.Type()}] {
			continue // the body of a place (Ruby's `-> { … }` holds a block)
		}
		start, end := n.StartByte(), n.EndByte()
		for len(stack) > 0 && stack[len(stack)-1].end <= start {
			stack = stack[:len(stack)-1]
		}
		d := innermostDecl(decls, start, false)
		inFunc := d != nil && (d.kind == KindFunction || d.kind == KindMethod)
		if inFunc && f.test {
			continue // a test's code, subtests too (see labelledCallback): not named at all
		}
		if d != nil && d.end == end {
			// The body of a declaration written as a call with a block
			// (Ruby's `Item = Struct.new(:sku) do … end`): its own
			// document holds it.
			continue
		}
		if len(out) >= maxPlaces {
			break
		}
		if n.HasError() {
			continue // its extent is the parser's guess (Lua's error recovery took 250 lines for one)
		}
		name := placeName(n, f, r)
		if name == "" {
			continue // called where it is written: the scope of the code around it
		}
		if inFunc && !labelledCallback(name) {
			continue // a named function's code: its own document holds it
		}
		// Qualified under the innermost of the type and the place
		// around it: a class in an RSpec block, a block in that class.
		prefix := f.module
		if d != nil {
			prefix = d.qualified
		}
		if top := len(stack) - 1; top >= 0 && (d == nil || stack[top].start > d.start) {
			prefix = stack[top].qualified
		}
		p := Place{
			Name:      name,
			Qualified: joinQualified(prefix, name),
			Signature: collapseSpace(f.lineAt(start), 200),
			StartLine: int(n.StartPoint().Row) + 1,
			EndLine:   int(n.EndPoint().Row) + 1,
		}
		if n.EndPoint().Column == 0 && p.EndLine > p.StartLine {
			p.EndLine--
		}
		out = append(out, p)
		stack = append(stack, open{start, end, p.Qualified})
	}
	return out
}

// lineAt returns the text of the line that holds byte at, up to at or
// its first 400 bytes, whichever is further. The line is found in the
// file's line table, not by a scan back: a minified file's one line
// would be crossed again for each place on it.
func (f *fileInfo) lineAt(at uint32) string {
	if int(at) > len(f.src) {
		return ""
	}
	t := f.lines()
	r := t.row(at)
	line := t.text(f.src, r)
	if n := max(int(at)-int(t[r]), 400); len(line) > n {
		line = line[:n]
	}
	return validUTF8(string(line))
}

// placeName names the anonymous function n by where it is:
//
//	Route::get('/users', function () {…})        <callback of Route::get('/users')>
//	get '/users' do … end                        <callback of get('/users')>
//	var rootCmd = &cobra.Command{Run: func…}      rootCmd.Run
//	setup({callback = function() … end})         <callback>
//	$handler = function () {…}                   $handler
//
// "<returned>" for a function a module returns, and "<function>"
// anywhere else; "" for one called where it is written (`(function()
// … end)()`), which is no place: it is the scope of the code around it,
// as in JavaScript.
func placeName(n *sitter.Node, f *fileInfo, r *placeRules) string {
	key := ""
	for p := n.Parent(); p != nil; n, p = p, p.Parent() {
		t := p.Type()
		if r.wraps[t] {
			continue
		}
		if key == "" {
			if r.returns[t] {
				return "<returned>"
			}
			if _, call := r.calls[t]; call && !nodeIs(argsOf(p, r), n) && (r.block == "" || !nodeIs(p.ChildByFieldName(r.block), n)) {
				return "" // the callee: invoked where it is written
			}
			if r.args[t] {
				if call := p.Parent(); call != nil {
					if a := argsOf(call, r); a != nil && a.Equal(p) {
						return "<callback of " + callLabel(call, n, p, f, r) + ">"
					}
				}
				continue
			}
			if _, ok := r.calls[t]; ok && r.block != "" {
				if b := p.ChildByFieldName(r.block); b != nil && b.Equal(n) {
					return "<callback of " + callLabel(p, n, argsOf(p, r), f, r) + ">"
				}
			}
			if field, ok := r.keys[t]; ok {
				k := p.ChildByFieldName(field)
				if field == "" && p.NamedChildCount() > 0 {
					k = p.NamedChild(0)
				}
				if k == nil || k.Equal(n) {
					break
				}
				if key = placeKey(f.text(k)); key == "" {
					break
				}
				continue // a name bound above makes it name.key
			}
		}
		if field, ok := r.binds[t]; ok {
			if name := childNamed(p, field); name != nil && !name.Equal(n) && f.text(name) != "_" {
				v := collapseSpace(f.text(name), 80)
				if !namePath(v) && name.NamedChildCount() > 0 {
					v = collapseSpace(f.text(name.NamedChild(0)), 80) // Kotlin's `cb: () -> Unit`
				}
				if key != "" {
					return v + "." + key
				}
				return v
			}
			break
		}
		if key != "" && !placeContainer(t) || key == "" && !r.args[t] {
			break
		}
	}
	if key != "" {
		return "<" + key + ">"
	}
	return "<function>"
}

// nodeIs reports whether a, which may be nil, is b.
func nodeIs(a, b *sitter.Node) bool { return a != nil && a.Equal(b) }

// argsOf returns the argument list of a call node, or nil when the node
// is no call or has none.
func argsOf(call *sitter.Node, r *placeRules) *sitter.Node {
	field, ok := r.calls[call.Type()]
	if !ok {
		return nil
	}
	if field != "" {
		return call.ChildByFieldName(field)
	}
	for i := range int(call.NamedChildCount()) {
		if c := call.NamedChild(i); r.args[c.Type()] {
			return c
		}
	}
	return nil
}

// childNamed returns p's child in the field name, or else its first
// named child of that type.
func childNamed(p *sitter.Node, name string) *sitter.Node {
	if c := p.ChildByFieldName(name); c != nil {
		return c
	}
	return childOfType(p, name)
}

// placeContainer reports whether a node of type t can stand between a
// keyed value and the name its literal is bound to: the literal itself.
func placeContainer(t string) bool {
	return strings.Contains(t, "literal") || strings.Contains(t, "table") || strings.Contains(t, "array") ||
		strings.Contains(t, "hash") || strings.Contains(t, "list") || strings.Contains(t, "field") ||
		strings.Contains(t, "initializer") || strings.Contains(t, "unary") || strings.Contains(t, "element")
}

// placeKey is a key's text as a name: quotes and a leading colon (Ruby's
// symbols) off; "" for a key that is no short name.
func placeKey(k string) string {
	k = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(k), ":"), ":")
	k = strings.Trim(k, `"'`+"`")
	if k == "" || len(k) > 60 || strings.ContainsAny(k, " \t\n(){}[]") {
		return ""
	}
	return k
}

// callLabel names the call a function fn is passed to (in its arguments
// args, or as its block): the text of its callee (what stands before the
// arguments) when it is a path of names, else the method's name after a
// dot; then the call's first argument when it is a short string or
// symbol before fn. A call whose callee is a call, as a trailing
// lambda's is (Kotlin's `get("/x") { … }`), is named by that one.
func callLabel(call, fn, args *sitter.Node, f *fileInfo, r *placeRules) string {
	end := fn.StartByte()
	if args != nil && args.StartByte() < end {
		end = args.StartByte()
	}
	callee := strings.TrimRight(strings.TrimSpace(validUTF8(string(f.src[call.StartByte():end]))), "(")
	callee = strings.Join(strings.Fields(callee), "")
	label := callee
	if inner := call.NamedChild(0); !namePath(callee) && inner != nil && inner.EndByte() <= end {
		if _, ok := r.calls[inner.Type()]; ok {
			if a := argsOf(inner, r); a != nil {
				return callLabel(inner, fn, a, f, r)
			}
		}
	}
	if !namePath(callee) {
		label = "(…)"
		if i := strings.LastIndexAny(callee, ".:>"); i >= 0 && namePath(callee[i+1:]) {
			label = "." + callee[i+1:]
		}
	}
	if args == nil || args.NamedChildCount() == 0 {
		return label
	}
	first := args.NamedChild(0)
	for first.NamedChildCount() > 0 && strings.Contains(first.Type(), "argument") {
		first = first.NamedChild(0) // PHP's and C#'s argument, Kotlin's value_arguments
	}
	if first.StartByte() < fn.StartByte() && placeLiteral(first.Type()) && first.EndByte()-first.StartByte() <= 40 {
		if t := f.text(first); !strings.ContainsAny(t, "\n$#{") {
			label += "(" + t + ")"
		}
	}
	return label
}

// labelledCallback reports whether a place's name is that of a callback
// whose call labels it with a string first (`<callback of
// r.Get("/orders")>`): a route's handler, a place of its own even inside
// a named function, whose document would otherwise hold a router's every
// handler in one. Not in a test file: its subtests (`t.Run("empty
// input", func…)`), hundreds in a package's tests, are what questions
// about the API do not ask for (docs/code-search.md, twenty-sixth
// session: with them Go's tuning questions lost 0.002).
func labelledCallback(name string) bool {
	rest, ok := strings.CutPrefix(name, "<callback of ")
	if !ok {
		return false
	}
	i := strings.IndexByte(rest, '(')
	return i >= 0 && i+1 < len(rest) && strings.IndexByte("\"'`", rest[i+1]) >= 0
}

// placeLiteral reports whether a node type is a string or a symbol.
func placeLiteral(t string) bool {
	return strings.Contains(t, "string") && !strings.Contains(t, "template") || t == "simple_symbol"
}

// namePath reports whether s is a name or a path of names joined by
// ".", "::", "->" or ":" (`Route::get`, `$app->post`, `app:get`).
func namePath(s string) bool {
	if s == "" || len(s) > 60 {
		return false
	}
	for _, r := range s {
		switch {
		case r == '_' || r == '$' || r == '.' || r == ':' || r == '-' || r == '>' || r == '\\':
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r >= 0x80:
		default:
			return false
		}
	}
	return true
}
