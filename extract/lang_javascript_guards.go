package extract

import (
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
)

// Guards: what narrows the type of a name where a call sits in code
// that runs only when a test of that name holds, or only when it fails.
//
//	if (isObservableMap(obj)) obj.delete(k)      guard "isObservableMap"
//	isMap(t) ? t.get(k) : …, isMap(t) && t.get(k)  guard "isMap"
//	if (x instanceof Foo) { x.run() }            guard "instanceof Foo"
//	if (typeof x === "string") x.trim()          guard "typeof string"
//	if (isMap(t)) … else t.add(k)                guard "!isMap"
//	if (!isMap(t)) return; t.get(k)              guard "isMap"
//	isMap(t) || t.add(k), !isMap(t) || t.get(k)  guards "!isMap", "isMap"
//
// A test is a call whose first argument is the name, `name instanceof
// C`, or `typeof name === "T"` (`!==` negates it), in parentheses or
// under `!` (which negates it). It guards the consequence of an if
// statement, where it may be one operand of a && in the condition, and
// negated its alternative; likewise the branches of a ternary; the right
// of a && (positive) or a || (negated); and, negated, the statements of
// a function's block after an if statement whose consequence always
// leaves it (return, throw, break, continue) and that has no
// alternative. Whether
// a function test is a type guard (`x is T`) is the call graph's to find
// out. The innermost guard of the receiver's name around a call is its
// Guard; "!" before it says the test failed there.

// maxGuardDepth bounds the ancestors of a receiver looked at: deeper
// guards are rare, and each step costs a walk from the root.
const maxGuardDepth = 48

// jsGuard is the guard hook: the innermost guard of the name recv
// around the call at byte at, or "".
func jsGuard(recv *sitter.Node, at uint32, f *fileInfo) string {
	if recv == nil || recv.Type() != "identifier" {
		return ""
	}
	name := f.text(recv)
	if !jsTestedNames(f)[name] {
		return "" // most receivers are tested nowhere in their file
	}
	child := recv
	n := recv.Parent()
	for depth := 0; n != nil && depth < maxGuardDepth; depth++ {
		if g := jsGuardAt(n, child, name, f); g != "" {
			return g
		}
		child, n = n, n.Parent()
	}
	return ""
}

// jsGuardAt is the guard that node n puts on its child, where the call
// on name sits, or "".
func jsGuardAt(n, child *sitter.Node, name string, f *fileInfo) string {
	switch n.Type() {
	case "if_statement", "ternary_expression":
		cond := n.ChildByFieldName("condition")
		switch {
		case sameNode(child, n.ChildByFieldName("consequence")):
			for _, t := range jsConjuncts(cond, nil) {
				if g := jsTest(t, name, f); g != "" {
					return g
				}
			}
		case sameNode(child, n.ChildByFieldName("alternative")):
			return negateGuard(jsTest(cond, name, f))
		}
	case "binary_expression":
		if !sameNode(child, n.ChildByFieldName("right")) {
			return ""
		}
		left := n.ChildByFieldName("left")
		switch f.text(n.ChildByFieldName("operator")) {
		case "&&":
			for _, t := range jsConjuncts(left, nil) {
				if g := jsTest(t, name, f); g != "" {
					return g
				}
			}
		case "||":
			return negateGuard(jsTest(left, name, f))
		}
	case "statement_block", "switch_case", "switch_default":
		// The statements after `if (!test) return;`: the nearest such if
		// before child that tests name.
		exits := jsExits(n, f)
		for i := len(exits) - 1; i >= 0; i-- {
			if exits[i].EndByte() > child.StartByte() {
				continue
			}
			if g := jsTest(exits[i].ChildByFieldName("condition"), name, f); g != "" {
				return negateGuard(g)
			}
		}
	}
	return ""
}

// jsExits returns the if statements of the block n that have no
// alternative and whose consequence always leaves the block, in order;
// found once per block.
func jsExits(n *sitter.Node, f *fileInfo) []*sitter.Node {
	st := jsFileStateOf(f)
	if ifs, ok := st.exits[n.StartByte()]; ok {
		return ifs
	}
	var ifs []*sitter.Node
	c := sitter.NewTreeCursor(n)
	defer c.Close()
	for ok := c.GoToFirstChild(); ok; ok = c.GoToNextSibling() {
		s := c.CurrentNode()
		if s.Type() == "if_statement" && s.ChildByFieldName("alternative") == nil &&
			jsLeaves(s.ChildByFieldName("consequence")) {
			ifs = append(ifs, s)
		}
	}
	if st.exits == nil {
		st.exits = map[uint32][]*sitter.Node{}
	}
	st.exits[n.StartByte()] = ifs
	return ifs
}

// sameNode reports whether a and b are the same node.
func sameNode(a, b *sitter.Node) bool {
	return a != nil && b != nil && a.StartByte() == b.StartByte() && a.EndByte() == b.EndByte() && a.Type() == b.Type()
}

// jsConjuncts appends the operands of the && chain e (in parentheses
// or not) to out.
func jsConjuncts(e *sitter.Node, out []*sitter.Node) []*sitter.Node {
	e = unparen(e)
	if e == nil || len(out) > 8 {
		return out
	}
	if e.Type() == "binary_expression" && e.ChildByFieldName("operator") != nil && e.ChildByFieldName("operator").Type() == "&&" {
		out = jsConjuncts(e.ChildByFieldName("left"), out)
		return jsConjuncts(e.ChildByFieldName("right"), out)
	}
	return append(out, e)
}

func unparen(e *sitter.Node) *sitter.Node {
	for e != nil && e.Type() == "parenthesized_expression" && e.NamedChildCount() == 1 {
		e = e.NamedChild(0)
	}
	return e
}

// jsLeaves reports whether the statement s always leaves the block
// around the if statement it is the consequence of.
func jsLeaves(s *sitter.Node) bool {
	if s == nil {
		return false
	}
	switch s.Type() {
	case "return_statement", "throw_statement", "break_statement", "continue_statement":
		return true
	case "statement_block":
		for i := int(s.NamedChildCount()) - 1; i >= 0; i-- {
			if c := s.NamedChild(i); c.Type() != "comment" {
				return jsLeaves(c)
			}
		}
	}
	return false
}

// jsTest is the guard that the test e makes of name when it holds, or
// "".
func jsTest(e *sitter.Node, name string, f *fileInfo) string {
	e = unparen(e)
	if e == nil {
		return ""
	}
	switch e.Type() {
	case "unary_expression":
		if op := e.ChildByFieldName("operator"); op != nil && op.Type() == "!" {
			return negateGuard(jsTest(e.ChildByFieldName("argument"), name, f))
		}
	case "call_expression":
		fn, args := e.ChildByFieldName("function"), e.ChildByFieldName("arguments")
		if fn == nil || args == nil || fn.Type() != "identifier" && fn.Type() != "member_expression" ||
			args.Type() != "arguments" || args.NamedChildCount() == 0 {
			return ""
		}
		if a := args.NamedChild(0); a.Type() == "identifier" && f.text(a) == name {
			return collapseSpace(f.text(fn), 100)
		}
	case "binary_expression":
		left, right := unparen(e.ChildByFieldName("left")), unparen(e.ChildByFieldName("right"))
		op := e.ChildByFieldName("operator")
		if left == nil || right == nil || op == nil {
			return ""
		}
		switch op.Type() {
		case "instanceof":
			if left.Type() == "identifier" && f.text(left) == name &&
				(right.Type() == "identifier" || right.Type() == "member_expression") {
				return "instanceof " + collapseSpace(f.text(right), 100)
			}
		case "===", "==", "!==", "!=":
			if right.Type() == "unary_expression" {
				left, right = right, left // "string" === typeof x
			}
			arg := left.ChildByFieldName("argument")
			if left.Type() != "unary_expression" || left.ChildByFieldName("operator").Type() != "typeof" ||
				arg == nil || arg.Type() != "identifier" || f.text(arg) != name || right.Type() != "string" {
				return ""
			}
			g := "typeof " + unquoteJS(f.text(right))
			if op.Type() == "!==" || op.Type() == "!=" {
				g = negateGuard(g)
			}
			return g
		}
	}
	return ""
}

// negateGuard is the guard where g's test fails.
func negateGuard(g string) string {
	switch {
	case g == "":
		return ""
	case g[0] == '!':
		return g[1:]
	}
	return "!" + g
}

// jsTestedQuery finds the names a test may narrow: the first argument of
// a call that is an operand (of !, &&, ||, a ternary's condition, or in
// parentheses), the left of instanceof, the operand of typeof.
const jsTestedQuery = `
(parenthesized_expression (call_expression arguments: (arguments . (identifier) @name)))
(binary_expression (call_expression arguments: (arguments . (identifier) @name)))
(unary_expression (call_expression arguments: (arguments . (identifier) @name)))
(ternary_expression condition: (call_expression arguments: (arguments . (identifier) @name)))
(binary_expression left: (identifier) @name operator: "instanceof")
(unary_expression operator: "typeof" argument: (identifier) @name)
`

// compiledTested caches each JavaScript language's jsTestedQuery; nil
// when it does not compile for the grammar (TestJSGuards fails then).
var compiledTested sync.Map // *Language → *sitter.Query

// jsTestedNames returns the names tests of f may narrow, found once per
// file: a receiver not among them has no guard, and its ancestors need
// no looking at.
func jsTestedNames(f *fileInfo) map[string]bool {
	st := jsFileStateOf(f)
	if st.tested != nil {
		return st.tested
	}
	st.tested = map[string]bool{}
	q, ok := compiledTested.Load(f.lang)
	if !ok {
		nq, _ := sitter.NewQuery([]byte(jsTestedQuery), f.lang.grammarOf())
		q, _ = compiledTested.LoadOrStore(f.lang, nq)
	}
	query := q.(*sitter.Query)
	if query == nil || f.root == nil {
		return st.tested
	}
	qc := sitter.NewQueryCursor()
	defer qc.Close()
	qc.Exec(query, f.root)
	for {
		m, ok := qc.NextMatch()
		if !ok {
			break
		}
		for _, c := range m.Captures {
			st.tested[f.text(c.Node)] = true
		}
	}
	return st.tested
}
