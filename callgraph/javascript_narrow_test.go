package callgraph

import "testing"

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
