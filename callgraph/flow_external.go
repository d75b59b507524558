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
	if len(es) == 0 {
		return
	}
	short := es
	for e := range es {
		if strings.Count(e, ".") > maxExtDots {
			short = make(extSet, len(es)) // copy only when one is dropped
			for e := range es {
				if strings.Count(e, ".") <= maxExtDots {
					short[e] = true
				}
			}
			break
		}
	}
	addSet(&fl.grew, fl.ext, k, short, maxExt)
}

// evalExt returns the external names e may stand for in scope.
func (fl *flow) evalExt(scope SymbolID, e extract.Expr) extSet {
	switch e.Kind() {
	case extract.ExprCall:
		// A call: an external class gives an instance, named by the
		// class. What a function returns is unknown: its name is no
		// type to name methods by (re.match(...).group is no
		// re.match.group).
		callee := e.Sub(0)
		if callee.Kind() == extract.ExprName && builtinTypes[callee.Name()] && len(fl.name(scope, callee.Name())) == 0 {
			return builtinSets[callee.Name()] // set(), dict(...)
		}
		out := extSet{}
		for x := range fl.evalExt(scope, callee) {
			if isClassName(lastSegment(x)) {
				out[x] = true
			}
		}
		return out
	case extract.ExprAttr:
		return fl.attrExt(scope, e.Sub(0), e.Name())
	case extract.ExprName:
		return fl.extName(scope, e.Name())
	}
	return builtinSets[literalType(e)]
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
	case c.ReceiverExpr().Valid():
		es = fl.attrExt(scope, c.ReceiverExpr(), c.Name)
	case c.Receiver == "":
		es = fl.extName(scope, c.Name)
	}
	names := make([]string, 0, len(es))
	for e := range es {
		if !strings.HasPrefix(e, builtinPrefix) { // knownReceiver names those
			names = append(names, e)
		}
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// isClassName reports whether an external name is a class by Python's
// naming convention (CapWords), the one sign of a type an external name
// carries.
func isClassName(name string) bool {
	return name != "" && name[0] >= 'A' && name[0] <= 'Z'
}

// externalReceiver names the callee of a method call whose receiver
// starts with a name imported from outside the repository: the module
// path and the attributes after it (os.path.basename, sys.stdout.write).
// A receiver that is not a dotted name (re.match(p).group) calls a method
// of what an external call returned, whose type is unknown: no name is
// made up for it. ok is false when the receiver's head is no external
// import.
func (r *resolver) externalReceiver(caller SymbolID, recv, name string) (reason string, ok bool) {
	head, rest, _ := strings.Cut(recv, ".")
	_, ext, ok := r.importOf(caller, head)
	if !ok || ext == "" {
		return "", false
	}
	if rest == "" {
		return "external: " + ext + "." + name, true
	}
	for _, p := range strings.Split(rest, ".") {
		if !isIdent(p) {
			return "method " + name + " on a value from " + ext + " of unknown type", true
		}
	}
	return "external: " + ext + "." + rest + "." + name, true
}
