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
// predicate, or a variable it names has a predicate's function type
// (`export var isMap = make() as (x: any) => x is Map`); the type is
// read in the declaring file. Where the test failed (an else, after
// `if (!isMap(t)) return`, see extract's guards) the receiver's own
// values lose the type's; `typeof t === "string"` proves a string.

// jsGuarded is what the receiver of c, a name, is where its guard
// narrows it; guarded is false when there is no guard, the test is no
// type guard, or its type stays unknown (then the name's own values
// hold). Where the test failed ("!" before the guard), the name's own
// values lose those the test proves: the else of `x instanceof LazySet`
// on a `Set<T> | LazySet<T>` is the Set.
func (r *resolver) jsGuarded(caller SymbolID, c extract.Call) (vals []jsVal, guarded bool) {
	g := c.Guard()
	recv := c.ReceiverExpr()
	if g == "" || recv.Kind() != extract.ExprName {
		return nil, false
	}
	neg := g[0] == '!'
	proved, ok := r.jsGuardType(caller, strings.TrimPrefix(g, "!"))
	if !ok || len(proved) == 0 {
		return nil, false
	}
	if !neg {
		return proved, true
	}
	_, at, ok := r.jsVar(caller, recv.Name())
	if !ok || r.g.nodes[at].Kind == KindModule && r.known(joinQ(r.f.Module, recv.Name())) {
		return nil, false
	}
	own := r.jsEval(caller, recv, 0)
	for _, v := range own {
		if !jsCovers(proved, v) {
			vals = append(vals, v)
		}
	}
	if len(vals) == 0 || len(vals) == len(own) {
		return nil, false
	}
	return vals, true
}

// jsCovers reports whether v is one of the values proved.
func jsCovers(proved []jsVal, v jsVal) bool {
	for _, p := range proved {
		switch {
		case v.builtin != "" && p.builtin == v.builtin:
			return true
		case v.builtin == "" && v.instance && p.instance && p.builtin == "" && p.id == v.id:
			return true
		}
	}
	return false
}

// jsTypeofTypes are the classes whose methods values of a `typeof`
// result have.
var jsTypeofTypes = map[string]string{
	"string": "String", "number": "Number", "boolean": "Boolean", "bigint": "BigInt", "symbol": "Symbol",
}

// jsGuardType is what a guard (no "!") proves of the name it tests:
// `instanceof C` an instance of C, `typeof string` a string, a function
// declaring a type predicate (or a variable of such a function's type)
// its type; ok is false when it proves nothing known.
func (r *resolver) jsGuardType(caller SymbolID, g string) (vals []jsVal, ok bool) {
	if cls, ok := strings.CutPrefix(g, "instanceof "); ok {
		return r.jsTypeMember(caller, cls)
	}
	if t, ok := strings.CutPrefix(g, "typeof "); ok {
		if b := jsTypeofTypes[t]; b != "" {
			return []jsVal{{builtin: b}}, true
		}
		return nil, false
	}
	v, _, ok := r.jsValueOf(caller, g)
	if !ok || !v.found() || v.module {
		// A variable declared with a guard's type: `export var isMap =
		// make("Map") as (x: any) => x is Map`.
		if f, typ := r.jsVarType(r.f, g); typ != "" {
			if t := jsArrowPredicateType(typ); t != "" {
				return r.jsTypeIn(f, t)
			}
		}
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

// jsArrowPredicateRe finds the type predicate of a function type:
// `(x: any) => x is Map<any, any>`, as extract renders it.
var jsArrowPredicateRe = regexp.MustCompile(`^\s*(?:<[^()]*>\s*)?\([^()]*\)\s*=>\s*[A-Za-z_$][\w$]*\s+is\s+(.+?)\s*$`)

// jsArrowPredicateType is the type a function type proves of its
// argument, or "".
func jsArrowPredicateType(typ string) string {
	for strings.HasPrefix(typ, "(") && strings.HasSuffix(typ, ")") && !jsArrowPredicateRe.MatchString(typ) {
		typ = strings.TrimSpace(typ[1 : len(typ)-1])
	}
	if len(typ) > maxJSTypeText {
		return ""
	}
	m := jsArrowPredicateRe.FindStringSubmatch(typ)
	if m == nil {
		return ""
	}
	return m[1]
}

// jsVarType is the declared type of the module-level variable that
// name denotes in f, followed through imports and re-exports, and the
// file that declares it; "" when name is no such variable or it has no
// declared type (an annotation or an `as`).
func (r *resolver) jsVarType(f *extract.File, name string) (*extract.File, string) {
	if !jsNamePathText(name) || strings.Contains(name, ".") {
		return nil, ""
	}
	st := r.jsState()
	k := [2]string{f.Path, name}
	if v, ok := st.varTypes[k]; ok {
		return v.f, v.typ
	}
	vf, t := r.jsVarTypeIn(f, name, map[[2]string]bool{})
	if st.varTypes == nil {
		st.varTypes = map[[2]string]jsVarTypeOf{}
	}
	st.varTypes[k] = jsVarTypeOf{vf, t}
	return vf, t
}

// jsVarTypeOf is a variable's declared type and the file declaring it.
type jsVarTypeOf struct {
	f   *extract.File
	typ string
}

// maxJSVarLookups bounds the modules one jsVarType looks into: a barrel
// module re-exports every module of a package (mobx's internal.ts).
const maxJSVarLookups = 1024

func (r *resolver) jsVarTypeIn(f *extract.File, name string, seen map[[2]string]bool) (*extract.File, string) {
	k := [2]string{f.Path, name}
	if seen[k] || len(seen) > maxJSVarLookups {
		return nil, ""
	}
	seen[k] = true
	for _, i := range r.jsBindingsOf(f)[[2]string{f.Module, name}] {
		if b := &f.Bindings[i]; b.Type != "" {
			return f, b.Type
		}
	}
	spec, ok := r.jsImports(f)[name]
	if !ok || spec.name == "" || spec.name == "default" {
		return nil, ""
	}
	src := r.jsSource(f, spec.im.Path, spec.im.Resolved)
	if !src.found() || !src.module {
		return nil, ""
	}
	return r.jsExportVarType(src.q, spec.name, seen)
}

// jsExportVarType is jsVarType for what module mod exports as name:
// its own variable, one it re-exports, or the one that exactly one of
// its `export *` provides.
func (r *resolver) jsExportVarType(mod, name string, seen map[[2]string]bool) (*extract.File, string) {
	k := [2]string{"module " + mod, name}
	if seen[k] || len(seen) > maxJSVarLookups {
		return nil, ""
	}
	seen[k] = true
	files := r.jsState().files[mod]
	for _, f := range files {
		for _, e := range f.Exports {
			switch {
			case e.Name != name:
			case e.From == "":
				if e.Local != "" && !strings.Contains(e.Local, ".") {
					return r.jsVarTypeIn(f, e.Local, seen)
				}
				return nil, ""
			case e.Local != "*":
				if src := r.jsSource(f, e.From, e.Resolved); src.found() && src.module {
					return r.jsExportVarType(src.q, e.Local, seen)
				}
				return nil, ""
			}
		}
	}
	var gotF *extract.File
	var got string
	for _, f := range files {
		for _, e := range f.Exports {
			if e.Name != "*" {
				continue
			}
			src := r.jsSource(f, e.From, e.Resolved)
			if !src.found() || !src.module {
				continue
			}
			if vf, t := r.jsExportVarType(src.q, name, seen); t != "" {
				if gotF != nil && (vf != gotF || t != got) {
					return nil, "" // two stars provide it: ambiguous
				}
				gotF, got = vf, t
			}
		}
	}
	return gotF, got
}
