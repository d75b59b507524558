package extract

import (
	"strings"
	"testing"
)

// JavaScript and TypeScript signatures, doc comments and what is exported.

func TestJavaScriptSignatures(t *testing.T) {
	f := extractString(t, "s.ts", `export class A<T> extends B<T> implements C {
  @dec()
  @other
  static async load<K>(key: K): Promise<T> { return null!; }
  handler = async (e: Event): Promise<void> => {};
  get value(): number { return 1; }
}
export function f(a: number): string;
export function f(a: any) { return ""; }
export const g = <T,>(x: T): T => x, h = function named() {};
let k = () => 1;
export type Pair<K> = { k: K };
export type Fn = (a: number) => void;
export default class extends A<number> {}
interface I { m?(x: number): void; }
abstract class Z { protected abstract z(): void; }
const obj = { method(a: number) {}, prop: (b) => b };
`)
	for _, tc := range []struct{ q, sig string }{
		{"s.A", "class A<T> extends B<T> implements C"},
		{"s.A.load", "static async load<K>(key: K): Promise<T>"},
		{"s.A.handler", "handler = async (e: Event): Promise<void> =>"},
		{"s.A.value", "get value(): number"},
		{"s.f", "function f(a: number): string"},
		{"s.g", "const g = <T,>(x: T): T =>"},
		{"s.h", "const h = function named()"},
		{"s.k", "let k = () =>"},
		{"s.Pair", "type Pair<K>"},
		{"s.Fn", "type Fn = (a: number) => void"},
		{"s.default", "export default class extends A<number>"},
		{"s.I.m", "m?(x: number): void"},
		{"s.Z.z", "protected abstract z(): void"},
		{"s.obj", "const obj"},
		{"s.obj.method", "method(a: number)"},
		{"s.obj.prop", "prop: (b) =>"},
	} {
		if got := symbol(t, f, tc.q).Signature; got != tc.sig {
			t.Errorf("%s signature = %q, want %q", tc.q, got, tc.sig)
		}
	}
	// Every overload is a symbol: the first is the signature above.
	var sigs []string
	for _, s := range f.Symbols {
		if s.Qualified == "s.f" {
			sigs = append(sigs, s.Signature)
		}
	}
	if strings.Join(sigs, " | ") != "function f(a: number): string | function f(a: any)" {
		t.Errorf("overloads of f: %q", sigs)
	}
}

func TestJavaScriptDocs(t *testing.T) {
	f := extractString(t, "d.ts", `/**
 * A is documented javadoc-style.
 *
 * @example new A()
 */
export class A {
  // m has a line comment.
  // It spans two lines.
  m() {}

  /** d is above its decorators. */
  @first()
  @second({
    multi: "line",
  })
  d() {}

  /* plain block */
  p = () => {};

  // Not a doc: a blank line follows.

  n() {}
}

/** f is exported. */
export function f() {}

/** g is a const arrow. */
export const g = () => {}, h = 1;

/** I is an interface. */
@decorated
class Dec {}
`)
	for _, tc := range []struct{ q, doc string }{
		{"d.A", "A is documented javadoc-style.\n\n@example new A()"},
		{"d.A.m", "m has a line comment.\nIt spans two lines."},
		{"d.A.d", "d is above its decorators."},
		{"d.A.p", "plain block"},
		{"d.A.n", ""},
		{"d.f", "f is exported."},
		{"d.g", "g is a const arrow."},
		{"d.Dec", "I is an interface."},
	} {
		if got := symbol(t, f, tc.q).Doc; got != tc.doc {
			t.Errorf("%s doc = %q, want %q", tc.q, got, tc.doc)
		}
	}
	if got := symbol(t, f, "d.A.d").StartLine; got != 16 {
		t.Errorf("decorated d starts on line %d, want 16 (its name)", got)
	}
	if got := symbol(t, f, "d.Dec").StartLine; got != 34 {
		t.Errorf("decorated Dec starts on line %d, want 34", got)
	}
}

func TestJavaScriptExported(t *testing.T) {
	exported := func(t *testing.T, f *File, want map[string]bool) {
		t.Helper()
		for q, w := range want {
			if got := symbol(t, f, q).Exported; got != w {
				t.Errorf("%s exported = %v, want %v", q, got, w)
			}
		}
	}
	t.Run("esm", func(t *testing.T) {
		f := extractString(t, "e.ts", `import x from "x";
export function a() { function nested() {} }
function b() {}
function c() {}
function d() {}
export default function () {}
export class K {
  pub() {}
  private priv() {}
  protected prot() {}
  #hash() {}
}
class L { m() {} }
export namespace N {
  export function inN() {}
  function hidden() {}
}
declare namespace Amb { function implicit(): void; }
export { c, d as dee };
export { b } from "./other";
`)
		exported(t, f, map[string]bool{
			"e.a": true, "e.a.nested": false, "e.b": false, "e.c": true, "e.d": true,
			"e.default": true, "e.K": true, "e.K.pub": true, "e.K.priv": false,
			"e.K.prot": true, "e.K.#hash": false, "e.L": false, "e.L.m": false,
			"e.N": true, "e.N.inN": true, "e.N.hidden": false,
			"e.Amb": false, "e.Amb.implicit": false,
		})
	})
	t.Run("commonjs", func(t *testing.T) {
		f := extractString(t, "c.js", `const fs = require("fs");
function a() {}
function b() {}
function c() {}
function hidden() {}
exports.d = function () {};
module.exports = { a, bee: b };
module.exports.c = c;
`)
		exported(t, f, map[string]bool{"c.a": true, "c.b": true, "c.c": true, "c.hidden": false, "c.d": true})
	})
	t.Run("default-identifier", func(t *testing.T) {
		f := extractString(t, "x.tsx", "const App = () => null;\nconst Other = () => null;\nexport default App;\n")
		exported(t, f, map[string]bool{"x.App": true, "x.Other": false})
	})
	t.Run("script", func(t *testing.T) {
		// No module syntax: top-level declarations are globals.
		f := extractString(t, "s.js", "function g() { function local() {} }\nclass C { m() {} #p() {} }\n")
		exported(t, f, map[string]bool{"s.g": true, "s.g.local": false, "s.C": true, "s.C.m": true, "s.C.#p": false})
	})
	t.Run("declaration-file", func(t *testing.T) {
		f := extractString(t, "t.d.ts", `import { X } from "x";
declare function f(): void;
interface I { m(): void }
declare namespace N { function g(): void; }
`)
		exported(t, f, map[string]bool{"t.f": true, "t.I": true, "t.I.m": true, "t.N": true, "t.N.g": true})
	})
}

// TestJSDocAcrossBlankLines: a `/** */` block is the doc of the next
// declaration whatever the blank lines between, in every form a
// JavaScript or TypeScript declaration takes (express writes a blank line
// after each); `//` lines and `/* */` blocks are not, and neither is a
// JSDoc block about the file or naming its own subject.
func TestJSDocAcrossBlankLines(t *testing.T) {
	js := extractString(t, "lib/res.js", `/*!
 * express
 * MIT Licensed
 */

/**
 * @fileoverview The response.
 */

function first() {}

var res = Object.create(null);

/**
 * Transfer the file at the given path.
 *
 * @public
 */

res.sendFile = function sendFile(path, options, callback) {};

/** Exported. */

exports.helper = function (a) {};

/** On the prototype. */


Foo.prototype.bar = function () {};

function Foo() {}

/** An arrow. */

const arrow = (x) => x;

/** An object. */

const obj = {
  /** A method. */

  method() {},

  /** A pair. */

  pair: function () {},
};

/** A class. */

class K {
  /** A class method. */

  m() {}
}

// A line comment.

function afterLine() {}

/* A plain block. */

function afterPlain() {}

/*************
 * A banner. *
 *************/

function afterBanner() {}

/** @typedef {Object} Opts */

function afterTypedef() {}

/** Not this one: code stands between. */
var x = 1;

function afterCode() {}

/** The JSDoc above the blank line. */

// The line comment directly above wins.
function lineWins() {}

var y = 2; /** trailing */

function afterTrailing() {}

/**
 * Accept: text/*;q=.5
 */

function globInDoc() {}

var z = 3; /* opens after code
 * and ends here */
function afterCodeBlock() {}
`)
	for _, tc := range []struct{ q, doc string }{
		{"lib.res.first", ""},
		{"lib.res.res.sendFile", "Transfer the file at the given path.\n\n@public"},
		{"lib.res.helper", "Exported."},
		{"lib.res.Foo.bar", "On the prototype."},
		{"lib.res.arrow", "An arrow."},
		{"lib.res.obj", "An object."},
		{"lib.res.obj.method", "A method."},
		{"lib.res.obj.pair", "A pair."},
		{"lib.res.K", "A class."},
		{"lib.res.K.m", "A class method."},
		{"lib.res.afterLine", ""},
		{"lib.res.afterPlain", ""},
		{"lib.res.afterBanner", ""},
		{"lib.res.afterTypedef", ""},
		{"lib.res.afterCode", ""},
		{"lib.res.lineWins", "The line comment directly above wins."},
		{"lib.res.afterTrailing", ""},
		{"lib.res.globInDoc", "Accept: text/*;q=.5"},
		{"lib.res.afterCodeBlock", ""},
	} {
		if got := symbol(t, js, tc.q).Doc; got != tc.doc {
			t.Errorf("%s doc = %q, want %q", tc.q, got, tc.doc)
		}
	}

	ts := extractString(t, "t.ts", `/**
 * @license MIT
 */

export function licensed() {}

/** Exported across a blank line. */

export function f(a: number): string { return ""; }

/** An interface. */

export interface I {
  /** A signature. */

  m(x: number): void;
}

export class C {
  /** Above the decorators. */

  @dec()
  d() {}
}

/** A type. */

export type T = { a: number };
`)
	for _, tc := range []struct{ q, doc string }{
		{"t.licensed", ""},
		{"t.f", "Exported across a blank line."},
		{"t.I", "An interface."},
		{"t.I.m", "A signature."},
		{"t.C.d", "Above the decorators."},
		{"t.T", "A type."},
	} {
		if got := symbol(t, ts, tc.q).Doc; got != tc.doc {
			t.Errorf("%s doc = %q, want %q", tc.q, got, tc.doc)
		}
	}
}

func TestIsDocBlockAcrossBlank(t *testing.T) {
	for _, tc := range []struct {
		block []string
		want  bool
	}{
		{[]string{"/** doc */"}, true},
		{[]string{"/**", "* doc", "* @param {string} a", "*/"}, true},
		{[]string{"/**", "* mail me at a@name.org", "*/"}, true},
		{[]string{"/**", "* {@link name}", "*/"}, true},
		{[]string{"/* plain */"}, false},
		{[]string{"/**/"}, false},
		{[]string{"/*** banner */"}, false},
		{[]string{"/**", "* @file the file", "*/"}, false},
		{[]string{"/** @Module m */"}, false},
		{[]string{"/** @callback Cb */"}, false},
		{nil, false},
	} {
		if got := isDocBlockAcrossBlank(tc.block); got != tc.want {
			t.Errorf("isDocBlockAcrossBlank(%q) = %v, want %v", tc.block, got, tc.want)
		}
	}
}
