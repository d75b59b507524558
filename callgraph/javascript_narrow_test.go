package callgraph

import (
	"strings"
	"testing"
)

// A guard may be a variable whose declared type is a type predicate —
// by annotation or by `as`, as mobx writes `export var isObservableMap =
// createInstanceofPredicate(…) as (thing: any) => thing is
// ObservableMap` — imported through a module that re-exports every
// other (`export *`).
func TestTypeScriptGuardVariables(t *testing.T) {
	g := buildArchive(t, `
-- map.ts --
import { predicate } from './internal';
export class MMap { delete(k: string) {} has(k: string) {} }
export var isMMap = predicate("MMap", MMap) as (thing: any) => thing is MMap;
-- set.ts --
import { predicate } from './internal';
export class SSet { delete(k: string) {} has(k: string) {} }
export const isSSet: (x: any) => x is SSet = predicate("SSet", SSet);
-- util.ts --
export function predicate(name: string, c: any): any { return (x: any) => x instanceof c; }
export const notAGuard = predicate("x", null) as (x: any) => boolean;
-- internal.ts --
export * from './util';
export * from './map';
export * from './set';
-- api.ts --
import { isMMap, isSSet, notAGuard } from './internal';
export function remove(obj: any, k: string) {
  if (isMMap(obj)) obj.delete(k);
  else if (isSSet(obj)) { obj.delete(k); }
  if (notAGuard(obj)) obj.has(k);
}
`)
	expectCallees(t, g, "api.remove", "map.MMap.delete:receiver", "set.SSet.delete:receiver")
}

// Where a guard's test failed — an else, after `if (!test) return`, the
// right of a || — the receiver is what it was declared but what the test
// proves; a typeof test proves a builtin, whose methods are no
// project's.
func TestJavaScriptGuardsNarrowElse(t *testing.T) {
	g := buildArchive(t, `
-- a.ts --
export class LazySet { add(x: number) {} addAll(s: any) {} }
export class Box { add(x: number) {} trim() {} }
export function isBox(x: any): x is Box { return x instanceof Box; }
export function put(set: Set<number> | LazySet, x: number) {
  if (set instanceof LazySet) set.addAll(x);
  else set.add(x);
}
export function early(b: Box | LazySet, x: number) {
  if (!isBox(b)) {
    return;
  }
  b.add(x);
}
export function either(b: Box | LazySet, x: number) {
  isBox(b) || b.add(x);
}
export function text(s: string | Box) {
  if (typeof s === "string") return s.trim();
  return s.trim();
}
export function str(s: string | Box) {
  if (typeof s === "string") s.trim();
}
`)
	expectCallees(t, g, "a.put", "a.LazySet.addAll:receiver")
	expectUnresolved(t, g, "a.put", "add", "builtin: Set.add")
	expectCallees(t, g, "a.early", "a.isBox:local", "a.Box.add:receiver")
	expectCallees(t, g, "a.either", "a.isBox:local", "a.LazySet.add:receiver")
	expectCallees(t, g, "a.text", "a.Box.trim:receiver")
	expectCallees(t, g, "a.str")
	expectUnresolved(t, g, "a.str", "trim", "builtin: String.trim")
}

func TestJSArrowPredicateType(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"( thing: any ) => thing is ObservableMap<any, any>", "ObservableMap<any, any>"},
		{"(x: any) => x is A | B", "A | B"},
		{"((x: any) => x is Foo)", "Foo"},
		{"<T>(x: any) => x is T", "T"},
		{"(x: any) => boolean", ""},
		{"(cb: (x: any) => x is Foo) => void", ""},
		{"Foo", ""},
	} {
		if got := jsArrowPredicateType(c.in); got != c.want {
			t.Errorf("jsArrowPredicateType(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestJSDotKey(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Stack.prototype['delete']", "Stack.prototype.delete"},
		{`Hash.prototype["get"]`, "Hash.prototype.get"},
		{"A.prototype[key]", "A.prototype[key]"},
		{"A.prototype['a.b']", "A.prototype['a.b']"},
		{"A.prototype['x\"]", "A.prototype['x\"]"},
		{"['x']", "['x']"},
		{"A.prototype.m", "A.prototype.m"},
	} {
		if got := jsDotKey(c.in); got != c.want {
			t.Errorf("jsDotKey(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzJSTypeTexts: the readers of type and target texts never panic,
// and what they return comes from their input.
func FuzzJSTypeTexts(f *testing.F) {
	f.Add("( thing: any ) => thing is ObservableMap<any, any>")
	f.Add("Stack.prototype['delete']")
	f.Add("Map<string, Array<Foo>>")
	f.Fuzz(func(t *testing.T, s string) {
		if p := jsArrowPredicateType(s); !strings.Contains(s, p) {
			t.Errorf("jsArrowPredicateType(%q) = %q, not from its input", s, p)
		}
		_ = jsDotKey(s)
		if got := strings.Join(splitTypeArgs(s), ","); got != s {
			t.Errorf("splitTypeArgs(%q) joined = %q", s, got)
		}
		_ = jsContainerElem("Map", s)
	})
}
