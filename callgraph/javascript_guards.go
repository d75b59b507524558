package callgraph

import (
	"regexp"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// Narrowing by guards: a call on a name in a branch that runs only when
// a test of the name holds (extract.CallValues.Guard) has the receiver
// the test proves, as the TypeScript checker narrows it:
//
//	if (x instanceof Foo) x.run()              Foo's run
//	isObservableMap(obj) ? obj.delete(k) : …   with `function
//	    isObservableMap(x: any): x is ObservableMap`, ObservableMap's delete
//	if (isMap(t)) t.get(k)                     with `t is Map<K, V>`, Map.get
//
// A function test counts when a function it names declares a type
// predicate; its type is read in the function's own file.

// jsGuarded is what the receiver of c, a name, is in the branch its
// guard narrows; guarded is false when there is no guard, the test is
// no type guard, or its type stays unknown (then the name's own values
// hold).
func (r *resolver) jsGuarded(caller SymbolID, c extract.Call) (vals []jsVal, guarded bool) {
	g := c.Guard()
	if g == "" || c.ReceiverExpr().Kind() != extract.ExprName {
		return nil, false
	}
	if cls, ok := strings.CutPrefix(g, "instanceof "); ok {
		vs, ok := r.jsTypeMember(caller, cls)
		return vs, ok && len(vs) > 0
	}
	v, _, ok := r.jsValueOf(caller, g)
	if !ok || !v.found() || v.module {
		return nil, false
	}
	for _, id := range r.jsSources(r.g.byQualified[v.q]) {
		n := r.g.nodes[id]
		if n.Kind != extract.KindFunction {
			continue
		}
		t := jsPredicateType(r.g.Signature(id))
		if t == "" {
			continue // an overload without a predicate, or no guard
		}
		vs, ok := r.jsTypeIn(r.g.files[n.File], t)
		if !ok {
			return nil, false
		}
		vals = append(vals, vs...)
	}
	return vals, len(vals) > 0
}

// jsPredicateRe finds the type predicate a signature returns:
// `function isMap(x: any): x is Map<any, any>`.
var jsPredicateRe = regexp.MustCompile(`\)\s*:\s*[A-Za-z_$][\w$]*\s+is\s+(.+?)\s*[;{]?\s*$`)

// jsPredicateType is the type a function's signature proves of its
// argument (`x is T` gives T), or "".
func jsPredicateType(sig string) string {
	if len(sig) > 2*maxJSTypeText {
		return ""
	}
	m := jsPredicateRe.FindStringSubmatch(sig)
	if m == nil {
		return ""
	}
	return m[1]
}

// jsTypeIn is jsTyped for a type written at the top level of f: each
// member of the union a builtin, or a class or interface f declares or
// imports; ok is false when a member is anything else.
func (r *resolver) jsTypeIn(f *extract.File, typ string) (vals []jsVal, ok bool) {
	if f == nil || len(typ) > maxJSTypeText {
		return nil, false
	}
	for _, t := range splitTypeUnion(typ) {
		t = strings.TrimSpace(t)
		switch p, prim := jsPrimitiveTypes[t]; {
		case prim && p == "":
			return nil, false
		case prim:
			vals = append(vals, jsVal{builtin: p})
			continue
		case strings.HasSuffix(t, "[]"):
			vals = append(vals, jsVal{builtin: "Array"})
			continue
		}
		if i := strings.IndexByte(t, '<'); i >= 0 {
			t = strings.TrimSpace(t[:i])
		}
		if !jsNamePathText(t) {
			return nil, false
		}
		v := r.jsDefaultOf(r.jsPath(f, t))
		switch {
		case v.ext != "":
			vals = append(vals, jsVal{builtin: "external: " + v.ext})
			continue
		case !v.found() || v.module:
			if head, _, _ := strings.Cut(t, "."); !v.found() && (jsBuiltinTypes[head] || jsGlobals[head]) {
				vals = append(vals, jsVal{builtin: t})
				continue
			}
			return nil, false
		}
		n := len(vals)
		for _, id := range r.jsSources(r.g.byQualified[v.q]) {
			switch r.g.nodes[id].Kind {
			case extract.KindClass, extract.KindInterface:
				vals = append(vals, jsVal{id: id, instance: true})
			}
		}
		if len(vals) == n {
			return nil, false // a type alias, an enum
		}
	}
	return vals, len(vals) > 0
}

// jsDefaultOf is v, or the default export of the module v when it has
// one that is no module: `const LazySet = require("./LazySet")` names
// the class the module exports.
func (r *resolver) jsDefaultOf(v jsValue) jsValue {
	if v.found() && v.module {
		if d := r.exportOf(v.q, "default"); d.found() && !d.module {
			return d
		}
	}
	return v
}
