package callgraph

// JavaScript parameters: their names, and the values the calls of a
// file pass to them (see javascript_values.go).

import (
	"fmt"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// jsParamsOf returns the parameters of the function id, declared in the
// file being resolved.
func (r *resolver) jsParamsOf(id SymbolID) []string {
	st := r.jsState()
	if st.params == nil {
		st.params = map[string]map[jsDeclKey][]string{}
	}
	m, ok := st.params[r.f.Path]
	if !ok {
		m = map[jsDeclKey][]string{}
		for _, sym := range r.f.Symbols {
			if len(sym.Params) > 0 {
				m[jsDeclKey{sym.Qualified, sym.StartLine}] = sym.Params
			}
		}
		st.params[r.f.Path] = m
	}
	n := r.g.nodes[id]
	if n.File != r.f.Path {
		return nil
	}
	return m[jsDeclKey{n.Qualified, n.Line}]
}

// jsDeclKey identifies a symbol of a file: overloads share a name, not
// a line.
type jsDeclKey struct {
	qualified string
	line      int
}

// jsParamValues returns what the calls of fn in its own file pass as
// its i-th parameter. Calls from other files are left out: a file's
// edges then depend on nothing more than before, which keeps Update's
// re-resolution of the files that changed sound.
func (r *resolver) jsParamValues(fn SymbolID, i int) []jsVal {
	st := r.jsState()
	key := jsVarKey{r.f.Path, fn, "#" + fmt.Sprint(i)}
	if vs, ok := st.vals[key]; ok {
		return vs
	}
	if st.vals == nil {
		st.vals = map[jsVarKey][]jsVal{}
	}
	st.vals[key] = nil // in progress: a recursive call adds nothing
	out := r.jsArgValues(r.g.nodes[fn].Name, fn, i, false)
	if len(out) > maxJSValues {
		out = nil
	}
	out = append(out, r.jsBoundParamValues(fn, i)...)
	if len(out) > maxJSValues {
		out = nil
	}
	st.vals[key] = out
	return out
}

// jsBoundParamValues returns what fn's i-th parameter gets through the
// names the file binds to fn.bind(this, a, …): bind's arguments fill
// the first parameters, and a call of the bound name passes the rest
// (nodemonOpt = nodemonOption.bind(null, opts); nodemonOpt(arg, eat)).
func (r *resolver) jsBoundParamValues(fn SymbolID, i int) []jsVal {
	var out []jsVal
	for _, bd := range r.jsBoundBindings() {
		if !containsID(bd.fns, fn) {
			continue
		}
		b := &r.f.Bindings[bd.binding]
		e := b.ValueExpr
		k := e.Len() - 2 // bound arguments, after this
		if i < k {
			out = append(out, r.jsEval(bd.scope, e.Sub(2+i), 1)...)
			continue
		}
		out = append(out, r.jsArgValues(b.Target, fn, i-k, true)...)
	}
	return out
}

// jsArgValues returns what the calls of name in the file being resolved
// that reach fn pass as their i-th argument; bare, only calls without a
// receiver. A call that spreads an argument at or before i passes
// nothing known. It stops once it has more than maxJSValues.
func (r *resolver) jsArgValues(name string, fn SymbolID, i int, bare bool) []jsVal {
	var out []jsVal
	for _, ci := range r.jsCallsNamed(name) {
		c := r.f.Calls[ci]
		args := c.ArgExprs()
		if i >= args.Len() || bare && c.Receiver != "" {
			continue
		}
		caller, ok := r.callerOf(c)
		if !ok {
			continue
		}
		if ids, _, _ := r.resolveCall(caller, c); !containsID(ids, fn) {
			continue
		}
		splat := false
		for j := 0; j <= i; j++ {
			splat = splat || args.Sub(j).Kind() == extract.ExprSplat
		}
		if splat {
			continue // f(...xs): positions unknown
		}
		if out = append(out, r.jsEval(caller, args.Sub(i), 1)...); len(out) > maxJSValues {
			break
		}
	}
	return out
}

// jsBound is a binding of a name to f.bind(this, …): its index among
// the file's bindings, its scope, and the functions f names.
type jsBound struct {
	binding int
	scope   SymbolID
	fns     []SymbolID
}

// jsBoundBindings returns the bindings of the file being resolved that
// bind a plain name to a call of bind with its this argument
// (f.bind(null), f.bind(this, a)), found and evaluated once per file.
func (r *resolver) jsBoundBindings() []jsBound {
	st := r.jsState()
	if st.bound == nil {
		st.bound = map[string][]jsBound{}
	}
	if bds, ok := st.bound[r.f.Path]; ok {
		return bds
	}
	st.bound[r.f.Path] = nil // in progress: evaluating f may ask for parameters
	var bds []jsBound
	for i := range r.f.Bindings {
		b := &r.f.Bindings[i]
		e := b.ValueExpr
		if e.Kind() != extract.ExprCall || e.Name() == "new" || e.Len() < 2 || b.Iter ||
			e.Sub(0).Kind() != extract.ExprAttr || e.Sub(0).Name() != "bind" ||
			!jsNamePathText(b.Target) || strings.Contains(b.Target, ".") {
			continue
		}
		scope, ok := r.callerOf(extract.Call{Caller: b.Scope, Line: b.Line})
		if !ok {
			continue
		}
		if fns := r.jsCallables(r.jsEval(scope, e.Sub(0).Sub(0), 1)); len(fns) > 0 {
			bds = append(bds, jsBound{binding: i, scope: scope, fns: fns})
		}
	}
	st.bound[r.f.Path] = bds
	return bds
}

// jsCallsNamed returns the indexes of the calls of the file being
// resolved that call name, in order. They are indexed once per file: a
// bundle declares thousands of functions, and looking through all its
// calls for each one's arguments was quadratic.
func (r *resolver) jsCallsNamed(name string) []int {
	st := r.jsState()
	if st.calls == nil {
		st.calls = map[string]map[string][]int{}
	}
	m, ok := st.calls[r.f.Path]
	if !ok {
		m = map[string][]int{}
		for i, c := range r.f.Calls {
			m[c.Name] = append(m[c.Name], i)
		}
		st.calls[r.f.Path] = m
	}
	return m[name]
}

func containsID(ids []SymbolID, id SymbolID) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}
