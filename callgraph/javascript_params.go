package callgraph

// JavaScript parameters: their names, and the values the calls of a
// file pass to them (see javascript_values.go).

import (
	"fmt"

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
	name := r.g.nodes[fn].Name
	var out []jsVal
	for _, ci := range r.jsCallsNamed(name) {
		c := r.f.Calls[ci]
		if i >= c.ArgExprs().Len() {
			continue
		}
		caller, ok := r.callerOf(c)
		if !ok {
			continue
		}
		if ids, _, _ := r.resolveCall(caller, c); !containsID(ids, fn) {
			continue
		}
		args := c.ArgExprs()
		splat := false
		for j := 0; j <= i; j++ {
			splat = splat || args.Sub(j).Kind() == extract.ExprSplat
		}
		if splat {
			continue // f(...xs): positions unknown
		}
		out = append(out, r.jsEval(caller, args.Sub(i), 1)...)
		if len(out) > maxJSValues {
			out = nil
			break
		}
	}
	st.vals[key] = out
	return out
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
