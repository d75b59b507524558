package callgraph

import (
	"fmt"
	"strings"
	"testing"
)

// A package's function re-exported through `export *` (or CommonJS
// `module.exports = require()`) is that package's: calling it through
// the namespace is external, not a repository method of the same name.
func TestJavaScriptReexportedPackageValue(t *testing.T) {
	g := buildArchive(t, `
-- index.js --
module.exports = require('./lib/express');
-- lib/express.js --
var bodyParser = require('body-parser');
exports = module.exports = createApplication;
function createApplication() {}
exports.json = bodyParser.json;
-- lib/response.js --
var res = module.exports = {};
res.json = function json(obj) {};
-- test/app.js --
var express = require('../');
function t() { express(); express.json(); }
`)
	expectCallees(t, g, "test.app.t", "lib.express.createApplication:import")
	expectUnresolved(t, g, "test.app.t", "json", "external: body-parser.json")
}

// Functions handed to array, promise and timer builtins are called by
// them: an edge labelled callback.
func TestJavaScriptCallbacks(t *testing.T) {
	g := buildArchive(t, `
-- a.js --
function foo(x) { return x; }
function bar() {}
function baz() {}
class C {
  run(arr) { arr.forEach(this.step); }
  step() {}
}
const api = { done() {} };
function run(arr, p, el) {
  arr.map(foo).filter(bar);
  p.then(foo).catch(api.done).finally(baz);
  setTimeout(bar, 10);
  process.nextTick(baz);
  el.addEventListener('click', foo);
  arr.map(x => x);
  arr.map(undefinedThing);
}
function setInterval(f) {}
function own() { setInterval(bar); }
`)
	expectCallees(t, g, "a.run", "a.foo:callback", "a.bar:callback", "a.baz:callback", "a.api.done:callback",
		"a.run.<callback of arr.map>:callback") // x => x
	expectCallees(t, g, "a.C.run", "a.C.step:callback")
	// The repository's own setInterval is called, not a timer.
	expectCallees(t, g, "a.own", "a.setInterval:local")
}

// new C() types its variable: x.m() is C's m or a base's, and a method
// C lacks is no edge, not a guess by name.
func TestJavaScriptNewTypesVariable(t *testing.T) {
	g := buildArchive(t, `
-- a.js --
class C { m() {} }
class D extends C { n() {} }
class Other { m() {} other() {} }
function Legacy() {}
Legacy.prototype.go = function () {};
function run() {
  const x = new C();
  x.m();
  let y = new D();
  y.m();
  y.n();
  y.other();
  var l = new Legacy();
  l.go();
  const s = new Map();
  s.get(1);
  const e = new Emitter();
  e.on('x');
}
const EventEmitter = require('events');
class Emitter extends EventEmitter {}
-- b.js --
class Other2 { get() {} }
`)
	expectCallees(t, g, "a.run", "a.C:constructor", "a.D:constructor", "a.Legacy:local", "a.Emitter:constructor",
		"a.C.m:receiver", "a.C.m:inherited", "a.D.n:receiver", "a.Legacy.go:receiver")
	expectUnresolved(t, g, "a.run", "other", "no member other on D")
	expectUnresolved(t, g, "a.run", "get", "builtin: Map.get")
	expectUnresolved(t, g, "a.run", "on", "external: events.on (inherited)")
}

// A name bound to a function, or to an object literal or array holding
// functions, calls them.
func TestJavaScriptFunctionValues(t *testing.T) {
	g := buildArchive(t, `
-- a.js --
function foo() {}
function bar() {}
const obj = { m() {} };
function run(name) {
  const g = foo;
  g();
  const h = obj.m;
  h();
  const handlers = { get: foo, post: bar };
  handlers.get();
  handlers[name]();
  const routes = [foo, bar];
  routes[1]();
  routes.push(foo);
  const pick = name ? foo : bar;
  pick();
}
`)
	expectCallees(t, g, "a.run", "a.foo:local", "a.obj.m:local", "a.bar:local")
	expectUnresolved(t, g, "a.run", "push", "builtin: Array.push")
}

// A name bound many times in terms of itself, or names bound to each
// other, cost one evaluation each: resolution stays linear.
func TestJavaScriptValuesBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("-- a.js --\nclass C { m() {} }\nfunction walk(n) {\n  let x = new C();\n  let a = b; let b = a;\n")
	for i := range 40 {
		fmt.Fprintf(&b, "  x = x.p%d || x;\n", i)
	}
	b.WriteString("  x.m();\n  a.m();\n}\n")
	g := buildArchive(t, b.String())
	// a and b hold nothing known: a.m() is left to the name.
	expectCallees(t, g, "a.walk", "a.C:constructor", "a.C.m:receiver", "a.C.m:name")
}

// Functions of object literals bound to names, in functions too, are
// nodes called through the object; so are functions assigned to names.
func TestJavaScriptObjectMembers(t *testing.T) {
	g := buildArchive(t, `
-- a.js --
function foo() {}
obj = { m() { foo(); }, n: function () {}, k: () => {} };
handler = function () { foo(); };
function run(req) {
  const handlers = { get: function () { foo(); }, post() {} };
  handlers.get(req);
  handlers.post(req);
  obj.m(); obj.n(); obj.k();
  handler();
}
`)
	expectCallees(t, g, "a.run", "a.run.handlers.get:local", "a.run.handlers.post:local",
		"a.obj.m:local", "a.obj.n:local", "a.obj.k:local", "a.handler:local")
	expectCallees(t, g, "a.run.handlers.get", "a.foo:local")
	expectCallees(t, g, "a.obj.m", "a.foo:local")
	expectCallees(t, g, "a.handler", "a.foo:local")
}

// A function passed to a function of the same file is called through
// its parameter; so is an instance's method.
func TestJavaScriptParameterValues(t *testing.T) {
	g := buildArchive(t, `
-- a.js --
class C { m() {} }
function foo() {}
function bar() {}
function apply(f, x) { f(); x.m(); }
function twice(g) { apply(g, new C()); }
const each = (list, cb) => list.forEach(cb);
function main() {
  apply(foo, new C());
  twice(bar);
  each([], foo);
}
function rec(h) { rec(h); h(); }
`)
	expectCallees(t, g, "a.apply", "a.foo:local", "a.bar:local", "a.C.m:receiver")
	expectCallees(t, g, "a.each", "a.foo:callback")
	// A function calling itself with its own parameter adds nothing.
	expectCallees(t, g, "a.rec", "a.rec:local")
	expectUnresolved(t, g, "a.rec", "h", "")
}

// What a function of the file returns types the variable it is bound to.
func TestJavaScriptReturnValues(t *testing.T) {
	g := buildArchive(t, `
-- a.js --
class C { m() {} }
class D { other() {} }
function foo() {}
function make() { return new C(); }
function pick(flag) { return flag ? foo : make; }
function run(flag) {
  const x = make();
  x.m();
  x.other();
  const f = pick(flag);
  f();
}
`)
	expectCallees(t, g, "a.run", "a.make:local", "a.pick:local", "a.C.m:receiver", "a.foo:local", "a.D.other:name")
}

// this.x = new C() in a method, or a class field x = new C(), types
// this.x in the class's methods; so does an ES5 constructor's.
func TestJavaScriptFieldValues(t *testing.T) {
	g := buildArchive(t, `
-- a.js --
class Store { save() {} }
class Log { write() {} }
class Other { save() {} }
class Service {
  log = new Log();
  constructor() { this.store = new Store(); }
  run() { this.store.save(); this.log.write(); this.store.nothing(); }
}
function Legacy() { this.store = new Store(); }
Legacy.prototype.go = function () { this.store.save(); };
`)
	expectCallees(t, g, "a.Service.run", "a.Store.save:receiver", "a.Log.write:receiver")
	expectUnresolved(t, g, "a.Service.run", "nothing", "no member nothing on Store")
	expectCallees(t, g, "a.Legacy.go", "a.Store.save:receiver")
}

// TypeScript declarations with a class type type their names: variables,
// parameters, class fields and constructor parameter properties; an
// interface type calls the method the interface declares, as the
// TypeScript checker resolves it.
func TestTypeScriptDeclaredTypes(t *testing.T) {
	g := buildArchive(t, `
-- store.ts --
export class Store { save() {} }
export interface Saver { save(): void; }
-- svc.ts --
import { Store, Saver } from './store';
class Log { write() {} }
class Other { write() {} save() {} }
export class Service {
  log: Log;
  constructor(private store: Store) {}
  run(s: Store, opt?: Log) {
    s.save();
    opt.write();
    this.store.save();
    this.log.write();
    const x: Store = make();
    x.save();
  }
  viaInterface(i: Saver) { i.save(); }
}
declare function make(): any;
`)
	expectCallees(t, g, "svc.Service.run", "store.Store.save:receiver", "svc.Log.write:receiver", "svc.make:local")
	expectCallees(t, g, "svc.Service.viaInterface", "store.Saver.save:interface")
}

// f.bind(this) is f, and f.call(…) or f.apply(…) calls it, when f is a
// local name holding a function.
func TestJavaScriptBindCallApply(t *testing.T) {
	g := buildArchive(t, `
-- a.js --
function foo() {}
class View {
  onClick() {}
  mount(el) { el.addEventListener('click', this.onClick.bind(this)); }
}
function run(args) {
  const f = foo;
  f.call(null, 1);
  f.apply(null, args);
  const h = foo.bind(null);
  h();
}
`)
	expectCallees(t, g, "a.View.mount", "a.View.onClick:callback")
	expectCallees(t, g, "a.run", "a.foo:local")
}

// A function written as the argument of a builtin that calls it is a
// callback of the function around it, like a named one.
func TestJavaScriptInlineCallbacks(t *testing.T) {
	g := buildArchive(t, `
-- a.js --
function helper() {}
function use(items, p) {
  items.forEach((x) => {
    helper(x);
  });
  p.then(function () { helper(); }).catch(
    (err) => helper(err));
  setTimeout(() => helper(), 10);
  emitter.on('close', () => helper());
  register(() => helper());
}
`)
	expectCallees(t, g, "a.use",
		"a.use.<callback of items.forEach>:callback",
		"a.use.<callback of p.then>:callback",
		"a.use.<callback of .catch>:callback",
		"a.use.<callback of setTimeout>:callback",
		"a.use.<callback of emitter.on('close')>:callback")
	expectCallees(t, g, "a.use.<callback of register>", "a.helper:local")
}

// `Hash.prototype.clear = hashClear`: an ES5 constructor's method is a
// function declared elsewhere, imported or local (lodash's Hash,
// ListCache, MapCache, Stack).
func TestJavaScriptPrototypeAssignedFunctions(t *testing.T) {
	g := buildArchive(t, `
-- _hashClear.js --
function hashClear() { this.size = 0; }
export default hashClear;
-- _Hash.js --
import hashClear from './_hashClear.js';
function hashGet(key) { return key; }
function hashHas(key) { return true; }
function Hash(entries) { this.clear(); }
Hash.prototype.clear = hashClear;
Hash.prototype.get = hashGet;
Hash.prototype.has = Hash.prototype.contains = hashHas;
Hash.prototype.set = function (key, value) { return this.get(key); };
export default Hash;
-- use.js --
import Hash from './_Hash.js';
function run() {
  var h = new Hash();
  h.clear();
  h.get('k');
  h.has('k');
  h.missing();
}
`)
	expectCallees(t, g, "_Hash.Hash", "_hashClear.hashClear:receiver")
	expectCallees(t, g, "_Hash.Hash.set", "_Hash.hashGet:receiver")
	expectCallees(t, g, "use.run", "_Hash.Hash:import", "_hashClear.hashClear:receiver", "_Hash.hashGet:receiver", "_Hash.hashHas:receiver")
}

// A call in the value of an object literal's property runs in the code
// around the object (the module, a function), as the checker sees it;
// the object's functions are callers of their own.
func TestJavaScriptObjectValuesCalledAround(t *testing.T) {
	g := buildArchive(t, `
-- a.js --
function make(x) { return x; }
function helper() {}
export const factories = {
  ref: make("ref"),
  run() { helper(); },
  nested: { inner: make("x"), go: () => helper() },
};
export function outer(items) {
  const local = { v: make(1), m() { helper(); } };
  return { all: items.every((x) => make(x)), local, n() {} };
}
`)
	expectCallees(t, g, "a", "a.make:local")
	expectCallees(t, g, "a.factories")
	expectCallees(t, g, "a.factories.run", "a.helper:local")
	expectCallees(t, g, "a.factories.nested.go", "a.helper:local")
	expectCallees(t, g, "a.outer", "a.make:local", "a.outer.<returned>.<callback of items.every>:callback")
	expectCallees(t, g, "a.outer.local.m", "a.helper:local")
}

// f.bind(this, a) fills f's first parameters; a call of the bound name
// passes the rest, so a function given there reaches the parameter.
func TestJavaScriptBoundParameters(t *testing.T) {
	g := buildArchive(t, `
-- a.js --
function helper() {}
function parse(args) {
  var eat = function (i, list) { return list[i]; };
  var opt = option.bind(null, helper);
  opt(args[0], eat.bind(null, 0, args));
}
function option(first, arg, eatNext) {
  first();
  eatNext();
}
`)
	expectCallees(t, g, "a.option", "a.helper:local", "a.parse.eat:local")
}
