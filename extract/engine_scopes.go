package extract

import (
	"sort"

	sitter "github.com/smacker/go-tree-sitter"
)

// Which declaration or scope encloses a position: the callers of calls,
// the owners of bindings.

// nest links each declaration to its lexically enclosing one. decls are
// sorted by start, outer before inner; tree nodes nest properly.
func nest(decls []*decl) {
	var stack []*decl
	for _, d := range decls {
		for len(stack) > 0 && stack[len(stack)-1].end <= d.start {
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 {
			d.parent = stack[len(stack)-1]
			d.depth = d.parent.depth + 1
		}
		stack = append(stack, d)
	}
}

// callerOf returns the qualified name of the innermost symbol containing
// byte at, or module.
func callerOf(decls []*decl, at uint32, module string) string {
	return enclosingOf(decls, at, module, false)
}

// callSiteOf is callerOf for a call at byte at: a declaration whose
// values are the code around it's (valuesOutside) is no caller.
func callSiteOf(decls []*decl, at uint32, module string) string {
	return enclosingOf(decls, at, module, true)
}

func enclosingOf(decls []*decl, at uint32, module string, calls bool) string {
	if d := innermostDecl(decls, at, calls); d != nil {
		return d.qualified
	}
	return module
}

// innermostDecl returns the declaration of the innermost symbol holding
// byte at, or nil; for a call (calls), not one whose values are the code
// around it's.
func innermostDecl(decls []*decl, at uint32, calls bool) *decl {
	i := sort.Search(len(decls), func(i int) bool { return decls[i].start > at }) - 1
	if i < 0 {
		return nil
	}
	for d := decls[i]; d != nil; d = d.parent {
		if d.start <= at && at < d.end && !d.dropped && !d.container && !(calls && d.valuesOutside) && d.qualified != "" {
			return d
		}
	}
	return nil
}

// scopeEnds returns, for each declaration node, the last line of the
// innermost scope node strictly containing it, or 0. Scopes nest, so one
// sweep in start order with a stack of open scopes finds them.
func scopeEnds(decls, scopes []*sitter.Node) []int {
	ends := make([]int, len(decls))
	if len(scopes) == 0 {
		return ends
	}
	order := make([]int, len(decls))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return decls[order[a]].StartByte() < decls[order[b]].StartByte() })
	sort.SliceStable(scopes, func(a, b int) bool {
		if scopes[a].StartByte() != scopes[b].StartByte() {
			return scopes[a].StartByte() < scopes[b].StartByte()
		}
		return scopes[a].EndByte() > scopes[b].EndByte()
	})
	var open []*sitter.Node
	next := 0
	for _, i := range order {
		d := decls[i]
		start, end := d.StartByte(), d.EndByte()
		for next < len(scopes) && scopes[next].StartByte() <= start {
			open = append(open, scopes[next])
			next++
		}
		for len(open) > 0 && open[len(open)-1].EndByte() <= start {
			open = open[:len(open)-1]
		}
		for j := len(open) - 1; j >= 0; j-- {
			s := open[j]
			if s.EndByte() >= end && !(s.StartByte() == start && s.EndByte() == end) {
				ends[i] = lastLine(s)
				break
			}
		}
	}
	return ends
}
