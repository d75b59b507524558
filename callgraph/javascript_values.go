package callgraph

import (
	"fmt"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// JavaScript values held by local names: what a call graph can know of a
// variable without types, from the bindings extract records (a name
// bound to `new C()`, another name or path, an object literal or an
// array):
//
//   - `x = new C()` makes x an instance of C: x.m() is C's m (or a
//     base's), and a method C does not have is no edge at all, not a
//     guess by name;
//   - `g = foo`, `h = obj.m` make g and h the function: g() calls foo;
//   - `handlers = {get: foo}` and `routes = [foo, bar]` hold functions:
//     handlers.get() and routes[0]() call foo;
//   - a function passed to an array or promise builtin or a timer
//     (`arr.map(foo)`, `p.then(foo)`, `setTimeout(foo)`) is called by
//     it: an edge labelled Callback.
//
// Tracking is flow-insensitive (every binding of a name in a scope
// counts) and local to a file: a name is looked up in the bindings of
// the calling function, then of the functions around it, then of the
// module, before the declarations and imports the rest of the resolver
// knows.

// Callback labels the edge from a function to a function it hands to a
// builtin that calls it: `arr.map(foo)`, `p.then(foo)`, `setTimeout(foo)`.
const Callback Resolution = "callback"

// jsVal is one abstract value: a symbol (a function, class, object or
// module), an instance of a class, or a literal container (an object or
// array literal, to be looked into).
type jsVal struct {
	id       SymbolID
	instance bool
	lit      extract.Expr // ExprDict or ExprList; then id is unused
	scope    SymbolID     // where lit's names are looked up
	builtin  string       // an instance of a builtin class: "Map"; then id is unused
	elem     string       // a builtin container's declared element type, seen from scope: "Foo" of Foo[]
	// weak: a value known from what a function returns, which may be a
	// callback's return instead; a member it lacks is not proof of a
	// wrong guess.
	weak bool
}

// plain reports whether v is a symbol itself.
func (v jsVal) plain() bool { return !v.instance && !v.lit.Valid() && v.builtin == "" }

// maxJSEval bounds the nesting of one evaluation: names bound to names
// bound to containers; real chains are two or three long.
const maxJSEval = 8

// jsBindingsOf returns the bindings of f by scope and target, indexed on
// first use.
func (r *resolver) jsBindingsOf(f *extract.File) map[[2]string][]int {
	st := r.jsState()
	if st.binds == nil {
		st.binds = map[string]map[[2]string][]int{}
	}
	m, ok := st.binds[f.Path]
	if ok {
		return m
	}
	m = map[[2]string][]int{}
	for i, b := range f.Bindings {
		if b.ValueExpr.Valid() || b.Type != "" {
			k := [2]string{b.Scope, jsDotKey(b.Target)}
			m[k] = append(m[k], i)
		}
	}
	st.binds[f.Path] = m
	return m
}

// jsVar returns the values of the variable name visible from caller:
// the bindings of the innermost scope (caller, the functions around it,
// the module) that binds it, or the arguments passed to the parameter of
// a function around it by the calls in its file; at is that scope. ok is
// false when no scope binds it, or a scope declares a symbol by that name
// (a declaration: the resolver's rules apply).
func (r *resolver) jsVar(caller SymbolID, name string) (vals []jsVal, at SymbolID, ok bool) {
	m := r.jsBindingsOf(r.f)
	for s, more := caller, true; more; s, more = r.parentOf(s) {
		n := r.g.nodes[s]
		if r.isClass(s) {
			continue // class bodies are no scope of their methods' names
		}
		q := n.Qualified
		if n.Kind != KindModule && r.known(q+"."+name) {
			return nil, 0, false
		}
		if n.Kind == KindModule {
			if _, imported := r.jsImports(r.f)[name]; imported {
				return nil, 0, false // const m = require("./m"): an import
			}
		}
		if idx := m[[2]string{q, name}]; len(idx) > 0 {
			bs := make([]*extract.Binding, 0, len(idx))
			for _, i := range idx {
				// Overloads share a name: the parameter types of
				// `function f(x: A): void` are not those of the body
				// `function f(x: any) {…}` after it.
				if b := &r.f.Bindings[i]; n.Kind == KindModule || n.Line <= b.Line && b.Line <= n.EndLine {
					bs = append(bs, b)
				}
			}
			if len(bs) > 0 {
				return r.jsEvalBindings(s, name, bs), s, true
			}
		}
		if n.Kind == extract.KindFunction || n.Kind == extract.KindMethod {
			for i, p := range r.jsParamsOf(s) {
				if p != name {
					continue
				}
				if t, ok := r.jsDocParamType(s, name); ok {
					return r.jsTyped(s, t), s, true
				}
				if vs, ok := r.jsTwinParam(s, name); ok {
					return vs, s, true
				}
				if vs, ok := r.jsCallbackParam(s, i); ok {
					return vs, s, true // handlers.forEach((h) => …): the elements
				}
				return r.jsParamValues(s, i), s, true
			}
		}
	}
	return nil, 0, false
}

// jsEval returns the values e may have, seen from scope.
func (r *resolver) jsEval(scope SymbolID, e extract.Expr, depth int) []jsVal {
	if depth > maxJSEval {
		return nil
	}
	switch e.Kind() {
	case extract.ExprName:
		return r.jsEvalName(scope, e.Name(), depth)
	case extract.ExprAttr:
		var out []jsVal
		for _, v := range r.jsEval(scope, e.Sub(0), depth+1) {
			out = append(out, r.jsEvalMember(v, e.Name(), depth)...)
		}
		return out
	case extract.ExprIndex:
		var out []jsVal
		key := e.Sub(1)
		for _, v := range r.jsEval(scope, e.Sub(0), depth+1) {
			if v.lit.Valid() && (key.Kind() == extract.ExprNumber || key.Kind() == extract.ExprString) {
				out = append(out, r.jsElement(v, key.Name(), depth)...)
			}
		}
		return out
	case extract.ExprCall:
		if e.Name() != "new" {
			// f.bind(this) is f, bound.
			if callee := e.Sub(0); callee.Kind() == extract.ExprAttr && callee.Name() == "bind" {
				return r.jsEval(scope, callee.Sub(0), depth+1)
			}
			// m.get(k) on a Map: what m.set put in.
			if callee := e.Sub(0); callee.Kind() == extract.ExprAttr && callee.Name() == "get" && e.Len() == 2 {
				if vs := r.jsMapGet(scope, callee.Sub(0), depth); len(vs) > 0 {
					return vs
				}
			}
			return r.jsReturns(scope, e.Sub(0), depth)
		}
		if callee := e.Sub(0); callee.Kind() == extract.ExprName && jsGlobals[callee.Name()] {
			if _, how := r.resolveName(scope, callee.Name()); how == "" {
				if arg := e.Sub(1); callee.Name() == "Set" && arg.Kind() == extract.ExprList {
					// new Set([a, b]): its elements are the array's.
					return []jsVal{{builtin: "Set", lit: arg, scope: scope}}
				}
				return []jsVal{{builtin: callee.Name()}}
			}
		}
		// new logger_service_1.Logger(…) of an imported package's
		// class: an instance of a type the repository does not define,
		// whose methods are the package's (@nestjs/core's this.logger.log
		// went by name to its REPL's ReplLogger.log).
		if path, ok := jsExprPath(e.Sub(0)); ok {
			if v, _, found := r.jsValueOf(scope, path); found && v.ext != "" {
				return []jsVal{{builtin: "external: " + v.ext}}
			}
		}
		var out []jsVal
		for _, v := range r.jsEval(scope, e.Sub(0), depth+1) {
			if v.plain() && r.jsConstructible(v.id) {
				out = append(out, jsVal{id: v.id, instance: true})
			}
		}
		return out
	case extract.ExprAlt:
		var out []jsVal
		for i := range e.Len() {
			out = append(out, r.jsEval(scope, e.Sub(i), depth+1)...)
		}
		return out
	case extract.ExprDict, extract.ExprList:
		return []jsVal{{lit: e, scope: scope}}
	}
	return nil
}

// jsReturns is what a call of callee returns: the values of the return
// statements of the functions it names that are declared in the file
// being resolved (a file's edges depend on no other file's bodies).
func (r *resolver) jsReturns(scope SymbolID, callee extract.Expr, depth int) []jsVal {
	var out []jsVal
	m := r.jsBindingsOf(r.f)
	for _, fn := range r.jsEval(scope, callee, depth+1) {
		if !fn.plain() {
			continue
		}
		n := r.g.nodes[fn.id]
		if n.File != r.f.Path || n.Kind != extract.KindFunction && n.Kind != extract.KindMethod {
			continue
		}
		idx := m[[2]string{n.Qualified, "<return>"}]
		if len(idx) == 0 {
			continue
		}
		bs := make([]*extract.Binding, 0, len(idx))
		for _, i := range idx {
			bs = append(bs, &r.f.Bindings[i])
		}
		for _, v := range r.jsEvalBindings(fn.id, "<return>", bs) {
			v.weak = true
			out = append(out, v)
		}
	}
	return out
}

// jsFieldValues is what the field name of instances of cls holds: the
// values its class field declaration and the `this.name =` assignments
// of its methods give it, when cls is declared in the file being
// resolved.
func (r *resolver) jsFieldValues(cls SymbolID, name string) []jsVal {
	n := r.g.nodes[cls]
	if n.File != r.f.Path {
		return nil
	}
	st := r.jsState()
	key := jsVarKey{r.f.Path, cls, "this." + name}
	if vs, ok := st.vals[key]; ok {
		return vs
	}
	if st.vals == nil {
		st.vals = map[jsVarKey][]jsVal{}
	}
	st.vals[key] = nil // in progress
	var out []jsVal
	for i := range r.f.Bindings {
		b := &r.f.Bindings[i]
		// A class field, or a TypeScript constructor parameter property
		// (constructor(private store: Store)).
		field := (b.Scope == n.Qualified || b.Type != "" && b.Scope == n.Qualified+".constructor") && b.Target == name
		assigned := b.Target == "this."+name && (b.Scope == n.Qualified || strings.HasPrefix(b.Scope, n.Qualified+"."))
		if !field && !assigned {
			continue
		}
		scope, ok := r.callerOf(extract.Call{Caller: b.Scope, Line: b.Line})
		if !ok {
			continue
		}
		if b.Type != "" {
			out = append(out, r.jsTyped(scope, b.Type)...)
		} else {
			out = append(out, r.jsEval(scope, b.ValueExpr, 1)...)
		}
		if len(out) > maxJSValues {
			out = nil
			break
		}
	}
	st.vals[key] = out
	return out
}

// jsThis is the instance `this` stands for in caller: of the class
// around it, or of the constructor function whose prototype method it
// is (Foo.prototype.m = function, a member of Foo).
func (r *resolver) jsThis(caller SymbolID) (SymbolID, bool) {
	if cls, ok := r.enclosingClass(caller); ok {
		return cls, true
	}
	if r.g.nodes[caller].Kind == extract.KindMethod {
		if p, ok := r.parentOf(caller); ok && r.g.nodes[p].Kind == extract.KindFunction {
			return p, true
		}
	}
	return 0, false
}

// jsEvalName is the value of a name: its local bindings, `this` in a
// class, or the symbol or import it names.
func (r *resolver) jsEvalName(scope SymbolID, name string, depth int) []jsVal {
	if out, at, ok := r.jsVar(scope, name); ok {
		if r.g.nodes[at].Kind != KindModule || len(out) > 0 {
			return out
		}
	}
	if name == "this" {
		if cls, ok := r.jsThis(scope); ok {
			return []jsVal{{id: cls, instance: true}}
		}
		return nil
	}
	v, _, ok := r.jsValueOf(scope, name)
	if !ok || !v.found() {
		return nil
	}
	if v.module {
		if d := r.exportOf(v.q, "default"); d.found() && !d.module {
			v = d
		} else {
			ids := r.g.byQualified[v.q]
			if len(ids) == 0 {
				return nil
			}
			return []jsVal{{id: r.symbolFirst(ids)}}
		}
	}
	return r.jsSymbols(v.q)
}

// jsEvalBindings is the value of name bound by bs in scope, computed
// once: a name bound many times in terms of itself (`n = n.next` in a
// loop) would otherwise cost the number of bindings to the power of the
// depth. A name met again while its value is being computed adds nothing
// (`a = b; b = a`).
func (r *resolver) jsEvalBindings(scope SymbolID, name string, bs []*extract.Binding) []jsVal {
	st := r.jsState()
	key := jsVarKey{r.f.Path, scope, name}
	if vs, ok := st.vals[key]; ok {
		return vs
	}
	if st.vals == nil {
		st.vals = map[jsVarKey][]jsVal{}
	}
	st.vals[key] = nil // in progress
	var out []jsVal
	for _, b := range bs {
		switch {
		case b.Type != "":
			out = append(out, r.jsTyped(scope, b.Type)...)
		case b.Iter:
			// for (const x of items): the elements.
			for _, v := range r.jsEval(scope, b.ValueExpr, 1) {
				out = append(out, r.jsElements(v, 1)...)
			}
		default:
			out = append(out, r.jsEval(scope, b.ValueExpr, 1)...)
		}
		if len(out) > maxJSValues {
			out = nil // too many to be of use
			break
		}
	}
	st.vals[key] = out
	return out
}

// jsVarKey names a local variable: its file, scope and name.
type jsVarKey struct {
	file  string
	scope SymbolID
	name  string
}

// maxJSValues bounds what one variable may hold; a name holding more
// (a registry of every handler) stays unknown.
const maxJSValues = 32

// jsSymbols are the values of the symbols named q, sources before
// declaration files.
func (r *resolver) jsSymbols(q string) []jsVal {
	var out []jsVal
	for _, id := range r.jsSources(r.g.byQualified[q]) {
		out = append(out, jsVal{id: id})
	}
	return out
}

// jsEvalMember is member name of v.
func (r *resolver) jsEvalMember(v jsVal, name string, depth int) []jsVal {
	switch {
	case v.lit.Valid():
		return r.jsElement(v, name, depth)
	case v.builtin != "":
		return nil
	case v.instance:
		ms, _ := r.method(v.id, name)
		if len(ms) == 0 || r.jsDeclaredOnly(ms) {
			// A field a declaration file declares too (@nestjs/core's
			// router-explorer.d.ts: `private readonly logger;`) has
			// its values where the source assigns it.
			if vs := r.jsFieldValues(v.id, name); len(vs) > 0 || len(ms) == 0 {
				return vs
			}
		}
		return idVals(r.jsSources(ms))
	}
	n := r.g.nodes[v.id]
	m := r.jsMember(jsValue{q: n.Qualified, module: n.Kind == KindModule}, name)
	if !m.found() || m.module {
		return nil
	}
	return r.jsSymbols(m.q)
}

// jsElement is the entry key of a literal object or array.
func (r *resolver) jsElement(v jsVal, key string, depth int) []jsVal {
	e := v.lit
	switch e.Kind() {
	case extract.ExprDict:
		for i := 0; i+1 < e.Len(); i += 2 {
			if k := e.Sub(i); k.Kind() == extract.ExprString && k.Name() == key {
				return r.jsEval(v.scope, e.Sub(i+1), depth+1)
			}
		}
	case extract.ExprList:
		var i int
		if _, err := fmt.Sscan(key, &i); err != nil || i < 0 || i >= e.Len() {
			return nil
		}
		for j := range i + 1 {
			if e.Sub(j).Kind() == extract.ExprSplat {
				return nil // [...a, f]: positions unknown
			}
		}
		return r.jsEval(v.scope, e.Sub(i), depth+1)
	}
	return nil
}

// jsConstructible reports whether `new` of id makes an instance whose
// members are id's: a class, or a function (ES5 constructors declare
// their methods as Foo.prototype.m, members of Foo).
func (r *resolver) jsConstructible(id SymbolID) bool {
	switch r.g.nodes[id].Kind {
	case extract.KindClass, extract.KindFunction:
		return true
	}
	return false
}

func idVals(ids []SymbolID) []jsVal {
	out := make([]jsVal, 0, len(ids))
	for _, id := range ids {
		out = append(out, jsVal{id: id})
	}
	return out
}

// jsCallables returns the functions among vs, and the classes (which a
// call instantiates), sorted and without duplicates.
func (r *resolver) jsCallables(vs []jsVal) []SymbolID {
	var ids []SymbolID
	seen := map[SymbolID]bool{}
	for _, v := range vs {
		if !v.plain() || seen[v.id] {
			continue
		}
		switch r.g.nodes[v.id].Kind {
		case extract.KindFunction, extract.KindMethod, extract.KindClass:
			seen[v.id] = true
			ids = append(ids, v.id)
		}
	}
	sortIDs(ids)
	return ids
}

// jsDotKey writes a target ending in a string key with a dot:
// `Stack.prototype['delete']` is Stack.prototype.delete.
func jsDotKey(target string) string {
	if !strings.HasSuffix(target, "]") {
		return target
	}
	i := strings.LastIndexByte(target, '[')
	if i <= 0 {
		return target
	}
	key := target[i+1 : len(target)-1]
	if len(key) < 3 || key[0] != key[len(key)-1] || key[0] != '\'' && key[0] != '"' || !jsNamePathText(key[1:len(key)-1]) ||
		strings.Contains(key, ".") {
		return target
	}
	return target[:i] + "." + key[1:len(key)-1]
}

// jsExprPath returns the dotted path an expression of names and
// attributes spells (logger_service_1.Logger), and whether it is one.
func jsExprPath(e extract.Expr) (string, bool) {
	switch e.Kind() {
	case extract.ExprName:
		return e.Name(), true
	case extract.ExprAttr:
		head, ok := jsExprPath(e.Sub(0))
		return head + "." + e.Name(), ok
	}
	return "", false
}
