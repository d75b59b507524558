package callgraph

import (
	"slices"
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

// Two marks set external names apart that are no path to name a callee
// by from outside. A member ("~ext.Cls.fun": a method or attribute of an
// outside class or of its instance) names a callee, but nothing further:
// what ext.Cls.fun returns, or what attribute x of an instance holds, has
// no type we know. An opaque value ("?ext.Cls.config.lookup()") is such
// a thing: a method called on it has no name, and is no guess by name
// either. PyCG names ext.Cls.fun; it never names invoke.Context.config.get.
const (
	memberMark = "~"
	opaqueMark = "?"
)

// extPlain returns an external name without its mark.
func extPlain(e string) string {
	return strings.TrimPrefix(strings.TrimPrefix(e, memberMark), opaqueMark)
}

// opaque returns the opaque value from what origin gives.
func opaque(origin string) string { return opaqueMark + extPlain(origin) }

// evalExt returns the external names e may stand for in scope.
func (fl *flow) evalExt(scope SymbolID, e extract.Expr) extSet {
	switch e.Kind() {
	case extract.ExprCall:
		// A call: an external class gives an instance, named by the
		// class. What a function or method returns is opaque: its name
		// is no type to name methods by (re.match(...).group is no
		// re.match.group).
		callee := e.Sub(0)
		if isSuper(callee) {
			return fl.outsideOf(scope) // super().m: a base's m
		}
		if callee.Kind() == extract.ExprName && builtinTypes[callee.Name()] && !fl.hasName(scope, callee.Name()) {
			return builtinSets[callee.Name()] // set(), dict(...)
		}
		_, out := fl.libraryResult(scope, e)
		if out == nil {
			out = extSet{}
		}
		for x := range fl.evalExt(scope, callee) {
			switch {
			case !strings.HasPrefix(x, memberMark) && !strings.HasPrefix(x, opaqueMark) && isClassName(lastSegment(x)):
				out[x] = true
			case strings.HasPrefix(x, opaqueMark):
				out[x] = true // named by where it came from
			default:
				out[opaque(x)+"()"] = true
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

// attrExt returns the external names base.attr may stand for: what the
// repository's classes assigned to that attribute of their instances,
// else the member of what base holds from outside.
func (fl *flow) attrExt(scope SymbolID, base extract.Expr, attr string) extSet {
	out := extSet{}
	known := false
	for v := range fl.eval(scope, base) {
		if !fl.r.isClass(v.id) {
			continue
		}
		for _, c := range fl.r.linearize(v.id) {
			k := varKey{fl.r.g.nodes[c].Qualified, attr}
			for e := range fl.ext[k] {
				out[e] = true
			}
			if fl.attrs[k] || len(fl.r.g.byQualified[k.scope+"."+attr]) > 0 {
				known = true
				break
			}
		}
	}
	for x := range fl.evalExt(scope, base) {
		long := strings.Count(x, ".") >= maxExtDots
		switch {
		case strings.HasPrefix(x, opaqueMark):
			// Named by where it came from: `s = s.strip()` in a loop
			// would otherwise grow a name each round.
			out[x] = true
		case long:
		case strings.HasPrefix(x, memberMark):
			out[opaque(x)+"."+attr] = true
		case strings.HasPrefix(x, builtinPrefix):
			if strings.Count(x, ".") == 1 {
				out[x+"."+attr] = true // <builtin>.str.join
			} else {
				out[opaque(x)+"."+attr] = true
			}
		case isClassName(lastSegment(x)):
			if !known { // the instance's own attribute hides the base's
				out[memberMark+x+"."+attr] = true
			}
		default:
			out[x+"."+attr] = true // a module's member
		}
	}
	return out
}

// outsideOf returns the outside classes the class around scope derives
// from: what self and super() stand for outside the repository.
func (fl *flow) outsideOf(scope SymbolID) extSet {
	cls, ok := fl.r.enclosingClass(scope)
	if !ok {
		return nil
	}
	var out extSet
	for _, b := range fl.r.outsideBases(cls) {
		if out == nil {
			out = extSet{}
		}
		out[b] = true
	}
	return out
}

// selfAttrs records the attributes f's classes assign on self.
func (fl *flow) selfAttrs(f *extract.File) {
	defer func() {
		if v := recover(); v != nil {
			fl.failed[f.Path] = panicReason("tracking values", v)
		}
	}()
	fl.r.enter(f)
	fl.starParams(f)
	for _, b := range f.Bindings {
		t := b.TargetExpr
		if t.Kind() != extract.ExprAttr || t.Sub(0).Kind() != extract.ExprName || !fl.r.isSelf(t.Sub(0).Name()) {
			continue
		}
		if scope, ok := fl.scopeID(b.Scope); ok {
			if cls, ok := fl.r.enclosingClass(scope); ok {
				fl.attrs[varKey{fl.r.g.nodes[cls].Qualified, t.Name()}] = true
			}
		}
	}
}

// assignExt stores what a target other than a name may hold from
// outside: `self.s = requests.Session()` makes attribute s of the
// class's instances a requests.Session.
func (fl *flow) assignExt(scope SymbolID, target extract.Expr, es extSet) {
	if len(es) == 0 || target.Kind() != extract.ExprAttr {
		return
	}
	base, attr := target.Sub(0), target.Name()
	if base.Kind() == extract.ExprName && fl.r.isSelf(base.Name()) {
		if cls, ok := fl.r.enclosingClass(scope); ok {
			fl.addExt(varKey{fl.r.g.nodes[cls].Qualified, attr}, es)
		}
		return
	}
	for v := range fl.eval(scope, base) {
		if v.instance {
			fl.addExt(varKey{fl.r.g.nodes[v.id].Qualified, attr}, es)
		}
	}
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
		return fl.outsideOf(scope)
	}
	if builtinTypes[n] && !fl.hasName(scope, n) {
		return builtinSets[n] // object.__setattr__(self, k, v), dict.fromkeys
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
		// knownReceiver names builtins; an opaque value has no name.
		if !strings.HasPrefix(e, builtinPrefix) && !strings.HasPrefix(e, opaqueMark) {
			names = append(names, extPlain(e))
		}
	}
	sort.Strings(names)
	return strings.Join(slices.Compact(names), ", ")
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
