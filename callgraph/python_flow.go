package callgraph

import (
	"cmp"
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

// libraryResult returns what a call gives that the library hands back:
// parse_args's namespace (as an external name), or an element of a
// builtin container.
func (fl *flow) libraryResult(scope SymbolID, callee extract.Expr) (valueSet, extSet) {
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
		if t, ok := strings.CutPrefix(e, builtinPrefix); ok && elementMethods[t][callee.Name()] {
			return fl.eval(scope, callee.Sub(0)), nil
		}
	}
	return nil, nil
}

// argparseAttr returns what attribute attr of base holds when base is a
// namespace parse_args returned.
func (fl *flow) argparseAttr(scope SymbolID, base extract.Expr, attr string) valueSet {
	if !fl.argparse || !fl.evalExt(scope, base)[parsedArgs] {
		return nil
	}
	return fl.vars[varKey{argparseScope, attr}]
}
