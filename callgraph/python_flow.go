package callgraph

import (
	"cmp"
	"strconv"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// Values that reach a call through the library rather than through the
// program's own assignments: argparse hands back what set_defaults and
// add_argument(default=...) were given as attributes of the namespace
// parse_args returns (`p.set_defaults(cmd=Record)` ... `args.cmd(args)`
// calls Record), and dict.get, dict.pop, dict.setdefault and list.pop
// return an element of their container.

// parsedArgs is the external name of what parse_args returns: an
// argparse namespace, whose attributes hold the defaults.
const parsedArgs = opaqueMark + "argparse.Namespace"

// argparseScope is the scope of the variables that hold the defaults,
// by destination.
const argparseScope = "<argparse>"

// elementMethods are the methods of builtin containers that return one
// of their elements, by container type.
var elementMethods = map[string]map[string]bool{
	"dict": setOf("get", "pop", "setdefault"),
	"list": setOf("pop"),
}

// argparseDefaults records the defaults a call of set_defaults or
// add_argument gives, by destination.
func (fl *flow) argparseDefaults(scope SymbolID, c extract.Call) {
	if !c.ReceiverExpr().Valid() || c.Name != "set_defaults" && c.Name != "add_argument" {
		return
	}
	args := c.ArgExprs()
	dest, long, first := "", "", ""
	for i := range args.Len() {
		a := args.Sub(i)
		switch {
		case c.Name == "set_defaults" && a.Kind() == extract.ExprKeyword:
			fl.addDefault(scope, a.Name(), a.Sub(0))
		case a.Kind() == extract.ExprKeyword && a.Name() == "dest" && a.Sub(0).Kind() == extract.ExprString:
			dest = a.Sub(0).Name()
		case a.Kind() == extract.ExprString && strings.HasPrefix(a.Name(), "--") && long == "":
			long = a.Name()
		case a.Kind() == extract.ExprString && i == 0:
			first = a.Name()
		}
	}
	// The destination: dest=, else the first long option, else the
	// first name (a positional argument, or a short option).
	if dest == "" {
		dest = strings.ReplaceAll(strings.TrimLeft(cmp.Or(long, first), "-"), "-", "_")
	}
	if c.Name != "add_argument" || dest == "" {
		return
	}
	for i := range args.Len() {
		if a := args.Sub(i); a.Kind() == extract.ExprKeyword && a.Name() == "default" {
			fl.addDefault(scope, dest, a.Sub(0))
		}
	}
}

// addDefault makes destination dest of parsed arguments hold v.
func (fl *flow) addDefault(scope SymbolID, dest string, v extract.Expr) {
	if vs := fl.eval(scope, v); len(vs) > 0 {
		fl.add(varKey{argparseScope, dest}, vs)
		fl.argparse = true
	}
}

// libraryResult returns what call gives that the library hands back:
// parse_args's namespace (as an external name), or an element of a
// builtin container: under a literal key, the element kept under it
// and the default given (`d.get("k", f)`), else any element.
func (fl *flow) libraryResult(scope SymbolID, call extract.Expr) (valueSet, extSet) {
	callee := call.Sub(0)
	if callee.Kind() != extract.ExprAttr {
		return nil, nil
	}
	if callee.Name() == "parse_args" && len(fl.eval(scope, callee)) == 0 {
		return nil, extSet{parsedArgs: true}
	}
	if !elementMethods["dict"][callee.Name()] && !elementMethods["list"][callee.Name()] {
		return nil, nil
	}
	for e := range fl.evalExt(scope, callee.Sub(0)) {
		t, ok := strings.CutPrefix(e, builtinPrefix)
		if !ok || !elementMethods[t][callee.Name()] {
			continue
		}
		key, literal := literalKey(call.Sub(1))
		if !literal || t != "dict" {
			return fl.eval(scope, callee.Sub(0)), nil
		}
		out := valueSet{}
		if obj := callee.Sub(0); obj.Kind() == extract.ExprName {
			if vs, ok := fl.field(scope, obj.Name(), key); ok {
				union(out, vs)
			}
		}
		if call.Len() > 2 {
			fl.evalInto(out, scope, call.Sub(2))
		}
		return out, nil
	}
	return nil, nil
}

// argparseAttr returns what attribute attr of base holds when base is a
// namespace parse_args returned.
func (fl *flow) argparseAttr(scope SymbolID, base extract.Expr, attr string) valueSet {
	if !fl.argparse {
		return nil
	}
	vs, ok := fl.vars[varKey{argparseScope, attr}]
	if !ok || !fl.evalExt(scope, base)[parsedArgs] {
		return nil
	}
	return vs
}

// maxSliceFields bounds the elements a slice binds by index.
const maxSliceFields = 64

// bindSlice binds the elements of name = obj[start:stop] by index where
// obj's elements are known by index: `ls2 = ls[1:3]` makes ls2[0] what
// ls[1] holds. Only literal bounds (or none) and no step are followed.
func (fl *flow) bindSlice(scope SymbolID, scopeQ, name string, v extract.Expr) {
	if v.Kind() != extract.ExprIndex || v.Sub(0).Kind() != extract.ExprName {
		return
	}
	s := v.Sub(1)
	if s.Kind() != extract.ExprCall || s.Sub(0).Kind() != extract.ExprName || s.Sub(0).Name() != "slice" || s.Len() != 4 || !isNone(s.Sub(3)) {
		return
	}
	start, ok := sliceBound(s.Sub(1), 0)
	if !ok {
		return
	}
	stop, ok := sliceBound(s.Sub(2), start+maxSliceFields)
	if !ok {
		return
	}
	for i := 0; start+i < stop && i < maxSliceFields; i++ {
		vs, ok := fl.field(scope, v.Sub(0).Name(), strconv.Itoa(start+i))
		if !ok {
			return
		}
		fl.add(varKey{scopeQ, name + "[" + strconv.Itoa(i) + "]"}, vs)
	}
}

// sliceBound returns a bound of a slice: a non-negative integer literal,
// or def where it is None.
func sliceBound(e extract.Expr, def int) (int, bool) {
	if isNone(e) {
		return def, true
	}
	if e.Kind() != extract.ExprNumber {
		return 0, false
	}
	n, err := strconv.Atoi(e.Name())
	return n, err == nil && n >= 0
}

func isNone(e extract.Expr) bool { return e.Kind() == extract.ExprName && e.Name() == "None" }

// containerAdds are the methods of builtin containers that put their
// arguments in: d.update({"a": f}), ls.append(C), s.add(C).
var containerAdds = setOf("append", "add", "extend", "insert", "update", "setdefault", "appendleft")

// mutate makes a builtin container hold what a call of one of its
// adding methods puts in: `handlers.append(Cls)` ... `for h in handlers:
// h()` calls Cls. The container is the variable where it is bound (a
// module's registry filled from a function), or an attribute.
func (fl *flow) mutate(scope SymbolID, c extract.Call) {
	recv := c.ReceiverExpr()
	if !containerAdds[c.Name] || !recv.Valid() || !fl.isContainer(scope, recv) {
		return
	}
	vs := valueSet{}
	args := c.ArgExprs()
	for i := range args.Len() {
		a := args.Sub(i)
		if a.Kind() == extract.ExprKeyword {
			a = a.Sub(0)
		}
		fl.evalInto(vs, scope, a)
	}
	if recv.Kind() != extract.ExprName {
		fl.assign(scope, fl.r.g.nodes[scope].Qualified, recv, vs)
		return
	}
	at := fl.bindingScope(scope, recv.Name())
	fl.add(varKey{at, recv.Name()}, vs)
	// Keys written out stay apart, as in a literal.
	switch {
	case c.Name == "update" && args.Len() == 1 && args.Sub(0).Kind() == extract.ExprDict:
		fl.bindFields(scope, at, recv.Name(), args.Sub(0))
	case c.Name == "update":
		for i := range args.Len() {
			if a := args.Sub(i); a.Kind() == extract.ExprKeyword {
				fl.add(varKey{at, recv.Name() + `["` + a.Name() + `"]`}, fl.eval(scope, a.Sub(0)))
			}
		}
	case c.Name == "setdefault" && args.Len() == 2:
		if key, ok := literalKey(args.Sub(0)); ok {
			fl.add(varKey{at, recv.Name() + "[" + key + "]"}, fl.eval(scope, args.Sub(1)))
		}
	}
}

// isContainer reports whether e is known to be a builtin list, dict,
// set or deque.
func (fl *flow) isContainer(scope SymbolID, e extract.Expr) bool {
	for x := range fl.evalExt(scope, e) {
		switch x {
		case builtinPrefix + "list", builtinPrefix + "dict", builtinPrefix + "set", "collections.deque":
			return true
		}
	}
	return false
}

// bindingScope returns the qualified name of the innermost scope around
// scope that binds variable n, or scope's own.
func (fl *flow) bindingScope(scope SymbolID, n string) string {
	for s, ok := scope, true; ok; s, ok = fl.r.parentOf(s) {
		if fl.r.isClass(s) && s != scope {
			continue
		}
		q := fl.r.g.nodes[s].Qualified
		if _, ok := fl.vars[varKey{q, n}]; ok {
			return q
		}
		if _, ok := fl.ext[varKey{q, n}]; ok {
			return q
		}
	}
	return fl.r.g.nodes[scope].Qualified
}

// elementsExt returns what the elements of a container from es hold
// from outside: nothing we can name (a list's elements are no list), so
// opaque, which keeps a method called on them from a guess by name.
func elementsExt(es extSet) extSet {
	if len(es) == 0 {
		return nil
	}
	out := extSet{}
	for x := range es {
		if strings.HasPrefix(x, opaqueMark) {
			out[x] = true
		} else {
			out[opaque(x)+"[]"] = true
		}
	}
	return out
}
