package callgraph

// Known types of Python receivers. A value whose type is a builtin (a
// literal, a comprehension, a call of set or dict, an annotation) is
// tracked among the external names as "<builtin>.set", PyCG's name for
// it. A method call on a receiver whose type is known — a builtin, an
// outside class, or classes of the repository without that method — is
// never resolved by name to some other class's method: `methods = set();
// methods.add(x)` is no call of a Namespace.add.

import (
	"slices"
	"sort"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// builtinPrefix starts the external name of a builtin type.
const builtinPrefix = "<builtin>."

// builtinTypes are the builtin types whose instances are receivers of
// method calls (str.strip, dict.setdefault, set.add...).
var builtinTypes = setOf("bool", "bytearray", "bytes", "complex", "dict", "float",
	"frozenset", "int", "list", "memoryview", "object", "range", "set", "slice",
	"str", "tuple")

// builtinSets holds, by builtin type, the external set of its instances;
// shared, never modified (addSet copies what it adds).
var builtinSets = func() map[string]extSet {
	out := map[string]extSet{}
	for t := range builtinTypes {
		out[t] = extSet{builtinPrefix + t: true}
	}
	return out
}()

// typingAliases are the typing module's names for builtin types.
var typingAliases = map[string]string{
	"Dict": "dict", "List": "list", "Set": "set", "FrozenSet": "frozenset",
	"Tuple": "tuple", "Text": "str", "DefaultDict": "dict", "OrderedDict": "dict",
}

// literalType returns the builtin type of a literal or comprehension, or "".
func literalType(e extract.Expr) string {
	switch e.Kind() {
	case extract.ExprString:
		return "str"
	case extract.ExprNumber:
		return "int"
	case extract.ExprList:
		return "list"
	case extract.ExprTuple:
		return "tuple"
	case extract.ExprSet:
		return "set"
	case extract.ExprDict:
		return "dict"
	case extract.ExprComp:
		if n := e.Name(); n != "generator" {
			return n
		}
	}
	return ""
}

// annotate binds an annotated parameter to its type: a builtin type, or
// an instance of a class of the repository. `x: Optional[T]`, `x: T |
// None` and `x: "T"` are T; other generic and union types are not
// followed.
func (fl *flow) annotate(scope SymbolID, b extract.Binding) {
	t := strings.Trim(strings.TrimSpace(b.Type), `"'`)
	if inner, ok := strings.CutPrefix(t, "Optional["); ok {
		t = strings.TrimSuffix(inner, "]")
	}
	if l, r, ok := strings.Cut(t, "|"); ok {
		l, r = strings.TrimSpace(l), strings.TrimSpace(r)
		switch {
		case r == "None":
			t = l
		case l == "None":
			t = r
		default:
			return
		}
	}
	if i := strings.IndexByte(t, '['); i >= 0 {
		t = t[:i] // list[int] is a list
	}
	t = strings.TrimPrefix(strings.TrimPrefix(t, "typing."), "t.")
	if a, ok := typingAliases[t]; ok {
		t = a
	}
	k := varKey{b.Scope, b.Target}
	if builtinTypes[t] {
		fl.addExt(k, builtinSets[t])
		return
	}
	if !isDotted(t) {
		return
	}
	q, _, ok := fl.r.resolveExpr(scope, t)
	if !ok {
		return
	}
	for _, id := range fl.r.g.byQualified[q] {
		if fl.r.isClass(id) {
			fl.add(k, valueSet{value{id, true}: true})
			return
		}
	}
}

// isDotted reports whether s is a dotted name: a.b.C.
func isDotted(s string) bool {
	for _, p := range strings.Split(s, ".") {
		if !isIdent(p) {
			return false
		}
	}
	return true
}

// knownReceiver resolves a method call whose receiver flow tracking
// knows, or explains why it has no target: the receiver's values are
// builtins, things from outside the repository, or instances of classes
// without the method. ok is false when nothing is known of the receiver,
// and resolution may fall back to the name.
func (r *resolver) knownReceiver(caller SymbolID, c extract.Call) (ids []SymbolID, reason string, ok bool) {
	if r.flow == nil || !c.ReceiverExpr().Valid() {
		return nil, "", false
	}
	vs := r.flow.eval(caller, c.ReceiverExpr())
	es := r.flow.evalExt(caller, c.ReceiverExpr())
	if len(vs) == 0 && len(es) == 0 {
		return nil, "", false
	}
	if ids := r.flow.targets(caller, c); len(ids) > 0 {
		return ids, "", true
	}
	var builtins, others, unknown, lacking []string
	for e := range es {
		switch t, ok := strings.CutPrefix(e, builtinPrefix); {
		case ok && t != "object" && builtinMethods[t] != nil && !builtinMethods[t][c.Name]:
			lacking = append(lacking, t) // str has no decode: not this one
		case ok:
			builtins = append(builtins, t+"."+c.Name)
		case strings.HasPrefix(e, opaqueMark), strings.HasPrefix(e, memberMark):
			// What a member of an outside class holds is unknown.
			unknown = append(unknown, extPlain(e))
		default:
			others = append(others, e)
		}
	}
	if len(others) == 0 && len(builtins) > 0 {
		// A builtin container holds values, but the method is the
		// container's: d = {"a": A}; d.get(k) is dict.get.
		sort.Strings(builtins)
		return nil, "builtin: " + strings.Join(builtins, ", "), true
	}
	if len(vs) == 0 && len(others) == 0 && len(unknown) == 0 {
		sort.Strings(lacking)
		return nil, "method " + c.Name + " on a value of builtin type " + strings.Join(lacking, ", ") + ", which has none", true
	}
	if len(vs) == 0 && len(others) == 0 {
		sort.Strings(unknown)
		return nil, "method " + c.Name + " on a value from " + unknown[0] + " of unknown type", true
	}
	if len(vs) == 0 {
		return nil, "", true // named by flow's external callee
	}
	if ext := r.outsideMethod(vs, c.Name); ext != "" {
		return nil, "external: " + ext, true
	}
	var names []string
	outside := false
	for v := range vs {
		names = append(names, r.g.nodes[v.id].Name)
		outside = outside || r.outsideBase(v.id)
	}
	sort.Strings(names)
	names = slices.Compact(names)
	reason = "no method " + c.Name + " on " + strings.Join(names, ", ")
	if outside {
		reason += " in the repository (a base class from outside may have it)"
	}
	return nil, reason, true
}

// outsideBase reports whether a class or one of its bases has a base
// that is not in the repository.
func (r *resolver) outsideBase(cls SymbolID) bool {
	if !r.isClass(cls) {
		return false
	}
	for _, c := range r.linearize(cls) {
		if len(r.ix.bases[c]) > len(r.basesOf(c)) {
			return true
		}
	}
	return false
}

// outsideMethod names method name of the outside classes the classes of
// vs derive from ("invoke.util.ExceptionHandlingThread.start"), or "":
// a value that is no instance or class of the repository, or a class
// without outside bases, leaves the method unnamed.
func (r *resolver) outsideMethod(vs valueSet, name string) string {
	var names []string
	for v := range vs {
		if !r.isClass(v.id) {
			return ""
		}
		bs := r.outsideBases(v.id)
		if len(bs) == 0 {
			return ""
		}
		for _, b := range bs {
			names = append(names, b+"."+name)
		}
	}
	sort.Strings(names)
	return strings.Join(slices.Compact(names), ", ")
}
