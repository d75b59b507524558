package callgraph

import (
	"sort"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
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
// the fixpoint, and `n = n.left; n = n.right` double them. One that
// would hold more is saturated, as in addSet.
const (
	maxExt     = 8
	maxExtDots = 6
)

// addExt adds es to what variable k may hold from outside.
func (fl *flow) addExt(k varKey, es extSet) {
	short := make(extSet, len(es))
	for e := range es {
		if strings.Count(e, ".") <= maxExtDots {
			short[e] = true
		}
	}
	addSet(&fl.grew, fl.ext, k, short, maxExt)
}

// evalExt returns the external names e may stand for in scope.
func (fl *flow) evalExt(scope SymbolID, e extract.Expr) extSet {
	switch e.Kind() {
	case extract.ExprCall:
		// A call: an external class gives an instance, named by the class.
		return fl.evalExt(scope, e.Sub(0))
	case extract.ExprAttr:
		return fl.attrExt(scope, e.Sub(0), e.Name())
	case extract.ExprName:
		return fl.extName(scope, e.Name())
	}
	return nil
}

// attrExt returns the external names base.attr may stand for.
func (fl *flow) attrExt(scope SymbolID, base extract.Expr, attr string) extSet {
	out := extSet{}
	for x := range fl.evalExt(scope, base) {
		if strings.Count(x, ".") < maxExtDots {
			out[x+"."+attr] = true
		}
	}
	return out
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
	if _, ext, ok := fl.r.importOf(scope, n); ok && ext != "" {
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
func (fl *flow) externalCallee(scope SymbolID, c extract.Call) string {
	var es extSet
	switch {
	case c.ReceiverExpr.Valid():
		es = fl.attrExt(scope, c.ReceiverExpr, c.Name)
	case c.Receiver == "":
		es = fl.extName(scope, c.Name)
	}
	names := make([]string, 0, len(es))
	for e := range es {
		names = append(names, e)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
