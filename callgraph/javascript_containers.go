package callgraph

import (
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// Containers: the elements of an array and the values of a Map reach
// the code that takes them out.
//
//   - A function written as the callback of an array method that hands
//     it the elements (`[a, b].forEach((f) => f())`, `handlers.map((h) =>
//     h.run())`, `list.reduce((acc, x) => …)`) has the elements as that
//     parameter: those of an array literal, or values of the element type
//     declared (`Foo[]`, `Array<Foo>`, `Set<Foo>`, `Map<K, Foo>`'s
//     values).
//   - `m.get(k)` on a Map is what the `m.set(k2, v)` calls on the same
//     name in the same function put in (any key: keys are not compared),
//     or a value of its declared value type (`Map<string, Handler>`).

// jsElementParams are the array, Set and Map methods that call a
// callback with an element, and the position of the element among the
// callback's parameters.
var jsElementParams = map[string]int{
	"forEach": 0, "map": 0, "filter": 0, "some": 0, "every": 0, "find": 0,
	"findIndex": 0, "findLast": 0, "findLastIndex": 0, "flatMap": 0,
	"reduce": 1, "reduceRight": 1,
}

// jsCallbackParam is what the i-th parameter of fn, a callback written
// as the argument of an element method, takes: the receiver's elements;
// ok is false when fn is no such callback or i no element parameter.
func (r *resolver) jsCallbackParam(fn SymbolID, i int) (vals []jsVal, ok bool) {
	n := r.g.nodes[fn]
	label, found := strings.CutPrefix(n.Name, "<callback of ")
	if !found {
		return nil, false
	}
	label = strings.TrimSuffix(label, ">")
	if k := strings.IndexByte(label, '('); k >= 0 {
		label = label[:k]
	}
	dot := strings.LastIndexByte(label, '.')
	if dot < 0 {
		return nil, false
	}
	method := label[dot+1:]
	if at, ok := jsElementParams[method]; !ok || at != i {
		return nil, false
	}
	parent, ok := r.parentOf(fn)
	if !ok {
		return nil, false
	}
	for _, ci := range r.jsCallsNamed(method) {
		c := r.f.Calls[ci]
		if c.Line > n.Line || n.Line > c.Line+maxCallbackLines {
			continue
		}
		caller, ok := r.callerOf(c)
		if !ok || caller != parent {
			continue
		}
		if id, ok := r.jsCallbackNode(caller, c); !ok || id != fn {
			continue
		}
		for _, v := range r.jsEval(caller, c.ReceiverExpr(), 1) {
			vals = append(vals, r.jsElements(v, 1)...)
		}
		return vals, true
	}
	return nil, false
}

// jsElements are the elements of the container v: each of an array
// literal's, or the values of its declared element type.
func (r *resolver) jsElements(v jsVal, depth int) []jsVal {
	switch {
	case v.lit.Kind() == extract.ExprList:
		var out []jsVal
		for j := range v.lit.Len() {
			e := v.lit.Sub(j)
			if e.Kind() == extract.ExprSplat {
				continue
			}
			out = append(out, r.jsEval(v.scope, e, depth+1)...)
		}
		return out
	case v.elem != "":
		return r.jsTyped(v.scope, v.elem)
	}
	return nil
}

// jsMapGet is what `recv.get(…)` returns, seen from scope, when recv is a
// Map: the values of the `recv.set(k, v)` calls of the function that
// binds recv, or of its declared value type; nil when recv holds no Map.
func (r *resolver) jsMapGet(scope SymbolID, recv extract.Expr, depth int) []jsVal {
	var out []jsVal
	isMap := false
	for _, v := range r.jsEval(scope, recv, depth+1) {
		if v.builtin != "Map" {
			continue
		}
		isMap = true
		if v.elem != "" {
			out = append(out, r.jsTyped(v.scope, v.elem)...)
		}
	}
	if !isMap || recv.Kind() != extract.ExprName {
		return out
	}
	_, at, ok := r.jsVar(scope, recv.Name())
	if !ok {
		return out
	}
	for _, ci := range r.jsCallsNamed("set") {
		c := r.f.Calls[ci]
		if c.Receiver != recv.Name() || c.ArgExprs().Len() != 2 {
			continue
		}
		caller, ok := r.callerOf(c)
		if !ok {
			continue
		}
		if _, cat, ok := r.jsVar(caller, recv.Name()); !ok || cat != at {
			continue // another variable of the same name
		}
		out = append(out, r.jsEval(caller, c.ArgExprs().Sub(1), depth+1)...)
		if len(out) > maxJSValues {
			return nil
		}
	}
	return out
}

// jsContainerElem is the element type that the generic builtin t with
// type arguments args holds: T of T[], Array<T>, Set<T>, the V of
// Map<K, V>; "" for others.
func jsContainerElem(t, args string) string {
	switch t {
	case "Array", "ReadonlyArray", "Set", "ReadonlySet":
		if len(splitTypeArgs(args)) == 1 {
			return strings.TrimSpace(args)
		}
	case "Map", "ReadonlyMap":
		if a := splitTypeArgs(args); len(a) == 2 {
			return strings.TrimSpace(a[1])
		}
	}
	return ""
}

// splitTypeArgs splits type arguments at their top-level commas.
func splitTypeArgs(t string) []string { return splitTopLevel(t, ',') }
