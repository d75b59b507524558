package callgraph

import (
	"fmt"
	"slices"
	"testing"
)

// A package that ships each module as an ES module and as CommonJS in one
// directory (graphql 16's language/parser.mjs and parser.js, each with
// its parser.d.ts): a CommonJS module's call, written as Babel and
// TypeScript compile it, `(0, _parser.parse)(source)`, reaches parser.js's
// parse, and an ES module's reaches parser.mjs's, one edge each; a
// constructor called with new is the class of the caller's own format.
func TestJavaScriptFormatTwins(t *testing.T) {
	g := buildArchive(t, `
-- language/parser.d.ts --
export declare function parse(source: string): object;
-- language/parser.js --
'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
exports.parse = parse;
var _GraphQLError = require('../error/GraphQLError.js');
function parse(source) {
  if (!source) throw new _GraphQLError.GraphQLError('empty');
  return {};
}
-- language/parser.mjs --
import { GraphQLError } from '../error/GraphQLError.mjs';
export function parse(source) {
  if (!source) throw new GraphQLError('empty');
  return {};
}
-- error/GraphQLError.d.ts --
export declare class GraphQLError extends Error { constructor(message: string); }
-- error/GraphQLError.js --
'use strict';
class GraphQLError extends Error { constructor(message) { super(message); } }
exports.GraphQLError = GraphQLError;
-- error/GraphQLError.mjs --
export class GraphQLError extends Error { constructor(message) { super(message); } }
-- graphql.js --
'use strict';
exports.graphql = graphql;
var _parser = require('./language/parser.js');
function graphql(source) {
  return (0, _parser.parse)(source);
}
-- graphql.mjs --
import { parse } from './language/parser.mjs';
export function graphql(source) {
  return parse(source);
}
`)
	want := map[string]string{ // caller's file: the one file its calls reach
		"graphql.js": "language/parser.js", "graphql.mjs": "language/parser.mjs",
		"language/parser.js": "error/GraphQLError.js", "language/parser.mjs": "error/GraphQLError.mjs",
	}
	for _, e := range g.Edges() {
		if n := g.Node(e.Callee); n.File != want[e.File] {
			t.Errorf("%s:%d calls %s in %s, want only %s's", e.File, e.Line, n.Qualified, n.File, want[e.File])
		}
	}
	got := map[string]int{}
	for _, e := range g.Edges() {
		got[e.File]++
	}
	for file := range want {
		if got[file] != 1 {
			t.Errorf("%s: %d edges, want 1 (edges %s)", file, got[file], fmt.Sprint(g.Edges()))
		}
	}
}

func TestDistinctIDs(t *testing.T) {
	long := make([]SymbolID, 40)
	for i := range long {
		long[i] = SymbolID(i % 20)
	}
	for _, c := range []struct{ in, want []SymbolID }{
		{nil, nil}, {[]SymbolID{3}, []SymbolID{3}}, {[]SymbolID{3, 1, 2}, []SymbolID{3, 1, 2}},
		{[]SymbolID{4, 4, 4}, []SymbolID{4}}, {[]SymbolID{5, 2, 5, 7, 2}, []SymbolID{5, 2, 7}},
		{long, long[:20]},
	} {
		in := slices.Clone(c.in)
		if got := distinctIDs(in); !slices.Equal(got, c.want) {
			t.Errorf("distinctIDs(%v) = %v, want %v", c.in, got, c.want)
		}
		if !slices.Equal(in, c.in) {
			t.Errorf("distinctIDs changed its argument: %v, was %v", in, c.in)
		}
	}
}

// A function passed on as a value through a require of one format's file
// (date-fns's fp/addDays.js hands ../addDays.js's addDays to convertToFP)
// is a use of that file's function, not of its twin in another format.
func TestJavaScriptFormatTwinReferences(t *testing.T) {
	g := buildArchive(t, `
-- addDays.js --
'use strict';
exports.addDays = addDays;
function addDays(date, amount) { return date + amount; }
-- addDays.mjs --
export function addDays(date, amount) { return date + amount; }
-- fp/addDays.js --
'use strict';
var _index = require('../addDays.js');
var _index2 = require('./convert.js');
const addDays = (exports.addDays = (0, _index2.convertToFP)(_index.addDays, 2));
-- fp/convert.js --
'use strict';
exports.convertToFP = function convertToFP(fn, arity) { return fn; };
`)
	for file, want := range map[string]bool{"addDays.js": true, "addDays.mjs": false} {
		var got bool
		for _, id := range g.Lookup("addDays.addDays") {
			if g.Node(id).File != file {
				continue
			}
			for _, r := range g.References(id) {
				got = got || r.File == "fp/addDays.js"
			}
		}
		if got != want {
			t.Errorf("%s's addDays used as a value in fp/addDays.js: %v, want %v", file, got, want)
		}
	}
}

// A call of an overloaded TypeScript function reaches its implementation,
// not its overloads' signatures (rxjs's merge, mergeMap); a function only
// declared (an ambient function) is still reached.
func TestTypeScriptOverloadedCall(t *testing.T) {
	g := buildArchive(t, `
-- merge.ts --
export function merge<A>(a: A): A;
export function merge<A, B>(a: A, b: B): A | B;
export function merge(...args: unknown[]): unknown {
  return args[0];
}
-- use.ts --
import { merge } from './merge';
declare function ambient(x: number): void;
export function both(x: number) {
  ambient(x);
  return merge(x, x);
}
`)
	var got []string
	for _, id := range g.Lookup("use.both") {
		for _, e := range g.Callees(id) {
			n := g.Node(e.Callee)
			got = append(got, fmt.Sprintf("%s:%d", n.File, n.Line))
		}
	}
	slices.Sort(got)
	if want := []string{"merge.ts:3", "use.ts:2"}; !slices.Equal(got, want) {
		t.Errorf("both calls %v, want %v (the implementation, and the ambient function)", got, want)
	}
}
