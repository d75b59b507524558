package callgraph

import (
	"sort"
	"strings"
)

// External values: what a name may hold that comes from outside the
// repository (an imported module's function or class, an instance of
// such a class, a method of one), by its dotted name: `a = Cls()` with
// `from ext import Cls` makes a hold ext.Cls, and `a.fun()` calls
// ext.Cls.fun. They are kept apart from values, which are nodes of the
// graph: they never make an edge, only name the reason a call has no
// target ("external: ext.Cls.fun").

type extSet map[string]bool

// A variable holds at most maxExt external names of at most maxExtDots
// dots: `n = n.next` in a loop would otherwise grow them every round of
// the fixpoint, and `n = n.left; n = n.right` double them.
const (
	maxExt     = 8
	maxExtDots = 6
)

// addExt adds es to what variable k may hold from outside.
func (fl *flow) addExt(k varKey, es extSet) {
	addSet(&fl.grew, fl.ext, k, es, func(set extSet, e string) bool {
		return len(set) < maxExt && strings.Count(e, ".") <= maxExtDots
	})
}

// evalExt returns the external names expr may stand for in scope.
func (fl *flow) evalExt(scope SymbolID, expr string) extSet {
	expr = strings.TrimSpace(expr)
	if i := strings.IndexByte(expr, '('); i > 0 && strings.HasSuffix(expr, ")") && matchingParen(expr[i+1:]) == len(expr)-i-2 {
		// A call: an external class gives an instance, named by the class.
		return fl.evalExt(scope, expr[:i])
	}
	if base, attr, ok := cutLastTop(expr, '.'); ok {
		if !isIdent(attr) {
			return nil
		}
		out := extSet{}
		for e := range fl.evalExt(scope, base) {
			if strings.Count(e, ".") < maxExtDots {
				out[e+"."+attr] = true
			}
		}
		return out
	}
	if !isIdent(expr) {
		return nil
	}
	return fl.extName(scope, expr)
}

// extName returns the external names variable n may hold in scope: the
// innermost binding's, else an import's; self stands for the external
// bases of its class.
func (fl *flow) extName(scope SymbolID, n string) extSet {
	for s, ok := scope, true; ok; s, ok = fl.r.parentOf(s) {
		if fl.r.isClass(s) && s != scope {
			continue
		}
		if es, ok := fl.ext[varKey{fl.r.g.nodes[s].Qualified, n}]; ok {
			return es
		}
	}
	if ext, ok := fl.r.scope.external[n]; ok {
		return extSet{ext: true}
	}
	if fl.r.isSelf(n) {
		if cls, ok := fl.r.enclosingClass(scope); ok {
			out := extSet{}
			for _, c := range fl.r.linearize(cls) {
				for _, b := range fl.r.ix.bases[c] {
					if ext, ok := fl.r.scope.external[b]; ok && fl.r.g.nodes[c].File == fl.r.f.Path {
						out[ext] = true
					}
				}
			}
			return out
		}
	}
	return nil
}

// externalCallee names what call c in scope calls outside the
// repository, or "": the names its callee may hold, sorted, comma
// separated.
func (fl *flow) externalCallee(scope SymbolID, name, receiver string) string {
	expr := name
	if receiver != "" {
		expr = receiver + "." + name
	}
	es := fl.evalExt(scope, expr)
	names := make([]string, 0, len(es))
	for e := range es {
		names = append(names, e)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
