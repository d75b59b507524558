package extract

import (
	"fmt"
	"strings"
	"testing"
)

// JavaScript and TypeScript imports, exports and calls.

func TestJavaScriptImports(t *testing.T) {
	f := extractString(t, "src/app/main.ts", `import def from "./util";
import * as ns from "../lib/ns.js";
import def2, { a, b as c } from "pkg";
import def3, * as all from "pkg2";
import "./side-effect";
import type { T } from "@scope/types";
import { "string name" as s } from "./strings";
import fs = require("fs");
import Alias = Some.Namespace;
export { x, y as z, default } from "./reexport";
export { default as Thing } from "./thing.tsx";
export * from ".";
export * as nsx from "../";
const cp = require("child_process");
const { join, resolve: res, sep = "/" } = require("path");
const sub = require("./sub").inner;
require("./register");
async function load() {
  const m = await import("./lazy");
  const { lazy } = await import("./lazy2");
  const url = require(dynamicName);
}
export { local };
`)
	expectImports(t, f,
		"./util {default as def} => src.app.util @1",
		"../lib/ns.js as ns => src.lib.ns @2",
		"pkg {default as def2, a, b as c} @3",
		"pkg2 as all {default as def3} @4",
		"./side-effect => src.app.side-effect @5",
		"@scope/types {T} @6",
		"./strings {string name as s} => src.app.strings @7",
		"fs as fs @8",
		"./reexport {x, y as z, default} => src.app.reexport @10",
		"./thing.tsx {default as Thing} => src.app.thing @11",
		". {*} => src.app.index @12",
		"../ as nsx => src.index @13",
		"child_process as cp @14",
		"path {join, resolve as res, sep} @15",
		"./sub {inner as sub} => src.app.sub @16",
		"./register => src.app.register @17",
		"./lazy as m => src.app.lazy @19",
		"./lazy2 {lazy} => src.app.lazy2 @20",
	)
}

// TestJavaScriptExports checks the export list: ES declarations, clauses
// and defaults, re-exports, TypeScript `export =` and CommonJS.
func TestJavaScriptExports(t *testing.T) {
	for _, tc := range []struct {
		path, src string
		want      []string
	}{
		{"src/es.ts", `export function f() {}
export function f(x: number): void;
export const a = 1, b = () => {};
export class C {}
export default function main() {}
export { a as alias, b };
export { x, y as z } from "./other.js";
export * from "../lib/";
export * as ns from "./ns";
export { default as Thing } from "./thing";
export declare function amb(): void;
export namespace N.M {}
export as namespace Global;
export import Q = N.M;
`, []string{
			"f=f @1", "a=a @3", "b=b @3", "C=C @4", "default=main @5", "alias=a @6", // b again is one export
			"x=x from ./other.js => src.other @7", "z=y from ./other.js => src.other @7",
			"*=* from ../lib/ => lib.index @8", "ns=* from ./ns => src.ns @9",
			"Thing=default from ./thing => src.thing @10", "amb=amb @11", "N=N @12", "Q=N.M @14",
		}},
		{"anon.js", `export default function () {}`, []string{"default=default @1"}},
		{"value.js", `const x = 1; export default x;`, []string{"default=x @1"}},
		{"expr.js", `export default connect(App);`, []string{"default= @1"}},
		{"eq.ts", `function f() {}
export = f;`, []string{"default=f @2"}},
		{"cjs.js", `function f() {}
function h() {}
exports.one = function () {};
module.exports.two = h;
exports.three = require("./three");
exports.four = require("./four").inner;
`, []string{"one=one @3", "two=h @4", "three=* from ./three => three @5", "four=inner from ./four => four @6"}},
		{"obj.js", `module.exports = { f, g: h, k: function () {}, m() {}, n: a.b, r: require("./r"), v: 1 };`,
			[]string{"f=f @1", "g=h @1", "k=default.k @1", "m=default.m @1", "n=a.b @1", "r=* from ./r => r @1", "v= @1"}},
		{"cls.js", `module.exports = class K {};`, []string{"default=K @1"}},
		{"fn.js", `module.exports = function () {};`, []string{"default=default @1"}},
		{"chain.js", `exports = module.exports = createApp;
exports.Router = Router;`, []string{"default=createApp @1", "Router=Router @2"}},
		{"re.js", `module.exports = require("./impl");`,
			[]string{"*=* from ./impl => impl @1", "default=default from ./impl => impl @1"}},
		{"alias.js", `var proto = module.exports = function () {};
var y = exports.y = function () {};`, []string{"default=proto @1", "y=y @2"}},
		{"paren.js", `var utils = (module.exports = { f() {} });
var z = (exports.z = function () {});`, []string{"default=utils @1", "f=utils.f @1", "z=z @2"}},
		{"aliasobj.js", `var utils = module.exports = { clone: require("./clone"), g: function () {}, h };`,
			[]string{"default=utils @1", "clone=* from ./clone => clone @1", "g=utils.g @1", "h=h @1"}},
		{"script.js", `function f() {}`, nil},
	} {
		f := extractString(t, tc.path, tc.src)
		var got []string
		for _, e := range f.Exports {
			s := e.Name + "=" + e.Local
			if e.From != "" {
				s += " from " + e.From
			}
			if e.Resolved != "" {
				s += " => " + e.Resolved
			}
			got = append(got, fmt.Sprintf("%s @%d", s, e.Line))
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("exports of %s:\ngot:\n  %s\nwant:\n  %s", tc.path, strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
		}
	}
}

func TestJavaScriptResolve(t *testing.T) {
	for _, tc := range []struct{ from, imp, want string }{
		{"a.js", "./b", "b"},
		{"a/b.js", "./c.mjs", "a.c"},
		{"a/b/c.ts", "../../d", "d"},
		{"a/b.ts", "../../escape", ""},
		{"a/b.ts", "..", "index"},
		{"a/b.ts", "./dir/", "a.dir.index"},
		{"a/b.ts", "./data.json", "a.data.json"},
		{"a/b.ts", "lodash", ""},
		{"a/b.ts", "/abs/path", ""},
	} {
		if got := jsResolve(tc.from, tc.imp); got != tc.want {
			t.Errorf("jsResolve(%q, %q) = %q, want %q", tc.from, tc.imp, got, tc.want)
		}
	}
}

func TestJavaScriptCalls(t *testing.T) {
	f := extractString(t, "c.ts", `setup();
class Svc extends Base {
  @Inject(Token) dep!: Dep;
  constructor() {
    super(1);
    super.init();
    this.#boot();
  }
  #boot() {
    this.dep.client.connect().then((c) => c.ready());
    const s = new Server(opts);
    const t = new net.Socket();
    Svc.registry.add(this);
    a?.b?.(x);
    tag`+"`tpl`"+`;
    generic<string>(1);
    items.forEach(function (i) { consume(i); });
  }
}
export const run = () => {
  [1, 2].map((n) => double(n));
  return (await loader)();
};
main().catch(console.error);
`)
	expectCalls(t, f,
		"c -> setup @1",
		"c.Svc -> Inject @3",
		"c.Svc.constructor -> super @5",
		"c.Svc.constructor -> super.init @6",
		"c.Svc.constructor -> this.#boot @7",
		"c.Svc.#boot -> this.dep.client.connect @10",
		"c.Svc.#boot -> this.dep.client.connect().then @10",
		"c.Svc.#boot.<callback of .then> -> c.ready @10",
		"c.Svc.#boot -> Server @11",
		"c.Svc.#boot -> net.Socket @12",
		"c.Svc.#boot -> Svc.registry.add @13",
		"c.Svc.#boot -> a.b @14",
		"c.Svc.#boot -> tag @15",
		"c.Svc.#boot -> generic @16",
		"c.Svc.#boot -> items.forEach @17",
		"c.Svc.#boot.<callback of items.forEach> -> consume @17",
		"c.run -> [1, 2].map @21",
		"c.run.<callback of .map> -> double @21",
		"c -> main @24",
		"c -> main().catch @24",
	)
}

func TestJavaScriptDecoratorCalls(t *testing.T) {
	// Decorators run in the enclosing scope, exported or not.
	f := extractString(t, "d.ts", `@Component({ selector: sel() })
export class A {
  @Log() m() { body(); }
}
@Component({})
class B {}
`)
	expectCalls(t, f,
		"d -> Component @1",
		"d -> sel @1",
		"d.A -> Log @3",
		"d.A.m -> body @3",
		"d -> Component @5",
	)
	if got := symbol(t, f, "d.A.m").Signature; got != "m()" {
		t.Errorf("decorated signature = %q", got)
	}
}

// React's memo and forwardRef wrap a component: the variable is the
// function. A function passed to another call is a callback of it.
func TestJavaScriptReactWrappers(t *testing.T) {
	f := extractString(t, "w.tsx", `export const A = memo(function AImpl() { return a(); });
export const B = React.forwardRef<HTMLElement, P>((props, ref) => b(ref));
const C = React.memo(forwardRef((p, r) => c()));
const D = memo(Other);
const items = list.map((x) => d(x));
const schema = z.string().refine((s) => e(s));
`)
	expectSymbols(t, f,
		"function w.A parent= line=1-1",
		"function w.B parent= line=2-2",
		"function w.C parent= line=3-3",
		"function w.<callback of list.map> parent= line=5-5",
		"function w.<callback of .refine> parent= line=6-6",
	)
	expectCalls(t, f,
		"w.A -> memo @1",
		"w.A -> a @1",
		"w.B -> React.forwardRef @2",
		"w.B -> b @2",
		"w.C -> React.memo @3",
		"w.C -> forwardRef @3",
		"w.C -> c @3",
		"w -> memo @4",
		"w -> list.map @5",
		"w.<callback of list.map> -> d @5",
		"w -> z.string @6",
		"w -> z.string().refine @6",
		"w.<callback of .refine> -> e @6",
	)
	if got := symbol(t, f, "w.B").Signature; got != "const B = React.forwardRef<HTMLElement, P>((props, ref) =>" {
		t.Errorf("signature of B = %q", got)
	}
}

func TestJSXIsNotACall(t *testing.T) {
	for _, path := range []string{"v.jsx", "v.tsx"} {
		f := extractString(t, path, `export function View({ items }) {
  return <List onPick={() => pick()}>{items.map((i) => <Item key={i} />)}</List>;
}
`)
		expectSymbols(t, f, "function v.View parent= line=1-3",
			"function v.View.<onPick> parent=View line=2-2",
			"function v.View.<callback of items.map> parent=View line=2-2")
		expectCalls(t, f, "v.View.<onPick> -> pick @2", "v.View -> items.map @2")
	}
}
