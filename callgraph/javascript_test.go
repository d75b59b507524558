package callgraph

import "testing"

// ES modules in JavaScript: default, named, renamed and namespace imports,
// classes across files, this, super and new.
func TestJavaScriptModules(t *testing.T) {
	g := buildArchive(t, `
-- lib/a.js --
export default function main() { return helper(); }
function helper() { return 1; }
export function named() {}
export class Base {
  constructor() { this.init(); }
  init() {}
  shared() {}
}
export const arrow = () => named();
-- lib/b.js --
import main, { named as nm, Base } from './a';
import * as A from './a.js';
export class Child extends Base {
  constructor() { super(); this.shared(); super.init(); }
  go() { this.init(); this.own(); nm(); A.named(); main(); A.default(); new A.Base(); }
  own() {}
}
export class Bare extends Child {}
-- main.js --
import { Child, Bare } from './lib/b';
import React from 'react';
import { readFile } from 'fs/promises';
function run() {
  new Child();
  new Bare();
  React.createElement('x');
  readFile('x');
  missing();
  console.log('x');
}
`)
	expectCallees(t, g, "lib.a.main", "lib.a.helper:local")
	expectCallees(t, g, "lib.a.arrow", "lib.a.named:local")
	expectCallees(t, g, "lib.a.Base.constructor", "lib.a.Base.init:receiver")
	expectCallees(t, g, "lib.b.Child.constructor",
		"lib.a.Base.constructor:inherited", "lib.a.Base.shared:inherited", "lib.a.Base.init:inherited")
	expectCallees(t, g, "lib.b.Child.go",
		"lib.a.Base.init:inherited", "lib.b.Child.own:receiver", "lib.a.named:import",
		"lib.a.main:import", "lib.a.Base.constructor:constructor")
	// Bare has no constructor: new Bare() runs the inherited one.
	expectCallees(t, g, "main.run", "lib.b.Child.constructor:constructor")
	expectUnresolved(t, g, "main.run", "createElement", "external: react")
	expectUnresolved(t, g, "main.run", "readFile", "external: fs/promises")
	expectUnresolved(t, g, "main.run", "missing", "not defined")
	expectUnresolved(t, g, "main.run", "log", "builtin: console.log")
}

// Re-exports: barrels (index.js behind a directory import), renames,
// export *, export * as ns, default re-exports, and cycles between
// barrels.
func TestJavaScriptReexports(t *testing.T) {
	g := buildArchive(t, `
-- src/impl/f.js --
export function f() {}
export function shadowed() {}
export default function def() {}
-- src/impl/g.js --
export function g() {}
export function shadowed() {}
-- src/impl/index.js --
export { f, f as renamed } from './f';
export { default as def } from './f';
export * from './g';
export * as gns from './g';
export * from '../index';
function local() {}
export { local as exposed };
-- src/index.js --
export * from './impl/f';
export * from './impl/g';
export * from './impl';
-- src/app.js --
import { f, renamed, def, g, gns, exposed } from './impl';
import * as top from './index';
import { shadowed } from './index';
export function app() {
  f(); renamed(); def(); g(); gns.g(); exposed();
  top.f(); top.g(); top.renamed();
  shadowed();
  top.nothing();
}
`)
	expectCallees(t, g, "src.app.app",
		"src.impl.f.f:import", "src.impl.f.def:import", "src.impl.g.g:import", "src.impl.index.local:import")
	// Two export * provide shadowed: ambiguous, so not exported.
	expectUnresolved(t, g, "src.app.app", "shadowed", "shadowed")
	expectUnresolved(t, g, "src.app.app", "nothing", "exports no nothing")
}

// CommonJS: require of a module, destructured require, module.exports of
// an object, a class, a function, exports.x, and a module re-exported by
// module.exports = require().
func TestJavaScriptCommonJS(t *testing.T) {
	g := buildArchive(t, `
-- util.js --
function f1() {}
function f2() { f1(); }
module.exports = { f1, f2, obj: { m() {} }, run() { f1(); } };
-- klass.js --
module.exports = class K {
  constructor() {}
  static make() {}
};
-- fn.js --
module.exports = function () {};
-- ex.js --
exports.a = function () { exports.b(); };
exports.b = function () {};
-- re.js --
module.exports = require('./ex');
-- registry.js --
class Registry { lookup() {} }
module.exports = new Registry();
-- router.js --
var proto = module.exports = function (opts) { proto.handle(); };
proto.handle = function handle() {};
-- app.js --
var app = exports = module.exports = {};
app.init = function () { this.configure(); };
app.configure = function () {};
-- legacy.js --
function Parent() {}
function Child() { Parent.call(this); Parent.bind(this); Child.later(); }
Child.prototype.only = function () {};
-- main.js --
const util = require('./util');
const registry = require('./registry');
const Router = require('./router');
function wire() {
  registry.lookup();
  Router();
  Router.handle();
}
const { f2, run } = require('./util');
const K = require('./klass');
const fn = require('./fn');
const re = require('./re');
const fs = require('fs');
function main() {
  util.f1(); f2(); run(); util.run();
  new K(); K.make();
  fn();
  re.a();
  fs.readFileSync('x');
  util.nope();
}
class Sub extends K {
  constructor() { super(); }
}
-- esm.mjs --
import util, { f2 } from './util.js';
import K from './klass.js';
export function interop() { util.f1(); f2(); new K(); }
`)
	expectCallees(t, g, "util.f2", "util.f1:local")
	expectCallees(t, g, "util.default.run", "util.f1:local")
	expectCallees(t, g, "ex.a", "ex.b:local")
	expectCallees(t, g, "main.main",
		"util.f1:import", "util.f2:import", "util.default.run:import",
		"klass.K.constructor:constructor", "klass.K.make:import",
		"fn.default:import", "ex.a:import")
	expectCallees(t, g, "main.Sub.constructor", "klass.K.constructor:inherited")
	expectUnresolved(t, g, "main.main", "readFileSync", "external: fs")
	expectUnresolved(t, g, "main.main", "nope", "exports no nope")
	// module.exports = new Registry(): an instance of unknown type, whose
	// methods resolve like those of any unknown receiver.
	expectCallees(t, g, "main.wire", "registry.Registry.lookup:name", "router.proto:import", "router.proto.handle:import")
	expectCallees(t, g, "router.proto", "router.proto.handle:local")
	expectCallees(t, g, "app.app.init", "app.app.configure:receiver")
	// ES modules importing CommonJS: the default import is module.exports.
	expectCallees(t, g, "esm.interop", "util.f1:import", "util.f2:import", "klass.K.constructor:constructor")
	// f.call(this) calls f; properties assigned to a function are looked
	// up by name.
	expectCallees(t, g, "legacy.Child", "legacy.Parent:local")
	expectUnresolved(t, g, "legacy.Child", "bind", "builtin: Function.bind")
	expectUnresolved(t, g, "legacy.Child", "later", "not defined")
}

// TypeScript: ESM ".js" specifiers naming ".ts" sources, index.ts barrels,
// abstract classes, implements, namespaces, export =, and declaration
// files beside their sources.
func TestTypeScriptModules(t *testing.T) {
	g := buildArchive(t, `
-- src/base.ts --
export abstract class Repo<T> {
  abstract find(id: string): T;
  get(id: string): T { return this.find(id); }
  protected log(msg: string): void {}
}
export interface Named { name(): string }
-- src/users/repo.ts --
import { Repo, type Named } from '../base.js';
export class UserRepo extends Repo<string> implements Named {
  find(id: string): string { this.log(id); return id; }
  name(): string { return super.get('x'); }
}
-- src/users/index.ts --
export { UserRepo } from './repo';
export type { Named } from '../base';
-- src/util.ts --
export namespace Text {
  export function trim(s: string): string { return s; }
}
function legacy(): void {}
export = legacy;
-- src/main.ts --
import { UserRepo } from './users';
import { Text } from './util';
import legacy = require('./util');
import type { Options } from 'some-lib';
export function main(): void {
  const r = new UserRepo();
  Text.trim(' ');
  legacy();
}
`)
	expectCallees(t, g, "src.base.Repo.get", "src.base.Repo.find:receiver")
	expectCallees(t, g, "src.users.repo.UserRepo.find", "src.base.Repo.log:inherited")
	expectCallees(t, g, "src.users.repo.UserRepo.name", "src.base.Repo.get:inherited")
	expectCallees(t, g, "src.main.main",
		"src.users.repo.UserRepo:constructor", "src.util.Text.trim:import", "src.util.legacy:import")
}

// TSX: components importing each other, a class component extending an
// imported base, and React (external).
func TestTSXModules(t *testing.T) {
	g := buildArchive(t, `
-- ui/Base.tsx --
import React from 'react';
export class Base extends React.Component {
  track(): void {}
}
export const format = (n: number) => String(n);
-- ui/Panel.tsx --
import React, { useState } from 'react';
import { Base, format } from './Base';
export default class Panel extends Base {
  render() {
    this.track();
    this.setState({});
    return <div>{format(1)}</div>;
  }
}
export function usePanel() {
  const [s] = useState(0);
  return format(s);
}
-- App.tsx --
import Panel, { usePanel } from './ui/Panel';
export function App() {
  usePanel();
  return new Panel({}).render();
}
`)
	expectCallees(t, g, "ui.Panel.Panel.render", "ui.Base.Base.track:inherited", "ui.Base.format:import")
	expectUnresolved(t, g, "ui.Panel.Panel.render", "setState", "external: react.Component")
	expectCallees(t, g, "ui.Panel.usePanel", "ui.Base.format:import")
	expectUnresolved(t, g, "ui.Panel.usePanel", "useState", "external: react")
	expectCallees(t, g, "App.App", "ui.Panel.usePanel:import", "ui.Panel.Panel:constructor", "ui.Panel.Panel.render:name")
}

// Unqualified calls that no import binds are not guessed, and methods
// called on unknown receivers resolve only when their name is unique.
func TestJavaScriptNotGuessed(t *testing.T) {
	g := buildArchive(t, `
-- a.js --
export class A { close() {} only() {} forEach(f) {} }
-- b.js --
export class B { close() {} }
-- c.js --
export function use(x) {
  x.close();
  x.only();
  x.items.forEach(f);
  close();
}
function Legacy() { this.start(); }
Legacy.prototype.start = function () { this.stop(); };
Legacy.prototype.stop = function () {};
-- d.js --
export const manager = createManager();
export class MyError extends Error {
  constructor() { super('x'); this.captureStack(); }
}
-- e.js --
import { manager, MyError } from './d';
export function useIt() {
  manager.only();
  manager();
  new MyError();
  new TypeError('x');
}
`)
	expectCallees(t, g, "c.use", "a.A.only:name")
	expectUnresolved(t, g, "c.use", "close", "ambiguous: 2")
	// The one forEach in the repository is not guessed for an array's.
	expectUnresolved(t, g, "c.use", "forEach", "builtin: forEach")
	expectCallees(t, g, "c.Legacy", "c.Legacy.start:receiver")
	expectCallees(t, g, "c.Legacy.start", "c.Legacy.stop:receiver")
	// An imported variable has an unknown type, like a local one.
	expectCallees(t, g, "e.useIt", "a.A.only:name", "d.MyError.constructor:constructor")
	expectUnresolved(t, g, "e.useIt", "manager", "no function or class")
	expectUnresolved(t, g, "e.useIt", "TypeError", "builtin: TypeError")
	expectUnresolved(t, g, "d.MyError.constructor", "super", "builtin: Error")
	expectUnresolved(t, g, "d.MyError.constructor", "captureStack", "builtin: Error.captureStack")
}

// A declaration file beside its JavaScript source declares the same
// names; calls go to the source.
func TestJavaScriptDeclarationFiles(t *testing.T) {
	g := buildArchive(t, `
-- lib.js --
export function f() {}
export class K { m() {} }
-- lib.d.ts --
export declare function f(): void;
export declare class K { m(): void; }
-- main.js --
import { f, K } from './lib';
import * as lib from './lib';
export function run() { f(); lib.f(); new K(); }
`)
	expectCallees(t, g, "main.run", "lib.f:import", "lib.K:constructor")
	for _, id := range g.Lookup("main.run") {
		for _, e := range g.Callees(id) {
			if n := g.Node(e.Callee); n.File != "lib.js" {
				t.Errorf("main.run calls %s in %s", n.Qualified, n.File)
			}
		}
	}
}

// A JavaScript method call on a receiver of unknown type whose only
// declaration of that name is in a declaration file is not guessed: the
// file types code elsewhere (pino's stream.flush(cb), a SonicBoom's, went
// to its pino.d.ts's LoggerExtras.flush). TypeScript keeps the guess.
func TestJavaScriptNoGuessIntoDeclarations(t *testing.T) {
	g := buildArchive(t, `
-- pino.d.ts --
export interface LoggerExtras { flush(cb?: () => void): void; bindings(): object; }
-- lib/proto.js --
function flush(cb) {
  const stream = this.stream;
  stream.flush(cb);
  stream.drain();
}
class Buffered { drain() {} }
module.exports = { flush, Buffered };
-- typed.ts --
export function use(logger: any) { logger.flush(); }
`)
	expectUnresolved(t, g, "lib.proto.flush", "flush", "only declared, in a declaration file")
	expectCallees(t, g, "lib.proto.flush", "lib.proto.Buffered.drain:name")
	expectCallees(t, g, "typed.use", "pino.LoggerExtras.flush:name")
	// A method declared beside its source is guessed as the source's.
	g = buildArchive(t, `
-- injector/container.d.ts --
export declare class NestContainer { getModuleByKey(key: string): object; }
-- injector/container.js --
class NestContainer { getModuleByKey(key) { return key; } }
exports.NestContainer = NestContainer;
-- router/explorer.js --
function explore(container) { return container.getModuleByKey('k'); }
exports.explore = explore;
`)
	for _, id := range g.Lookup("router.explorer.explore") {
		for _, e := range g.Callees(id) {
			if n := g.Node(e.Callee); n.File != "injector/container.js" {
				t.Errorf("explore calls %s in %s, want only injector/container.js's", n.Qualified, n.File)
			}
		}
	}
	expectCallees(t, g, "router.explorer.explore", "injector.container.NestContainer.getModuleByKey:name")
}

// A class compiled to JavaScript beside its declaration file, as
// packages ship them (@nestjs/core's router-explorer.js and .d.ts): its
// methods are the JavaScript class's, whose fields have the values its
// constructor gives them though the declaration file declares them
// untyped, and whose parameters have the types the declaration file
// gives them; an instance of a package's class has the package's
// methods.
func TestJavaScriptDeclarationTwinFields(t *testing.T) {
	g := buildArchive(t, `
-- router/explorer.d.ts --
import { NestContainer as Container } from '../injector/container';
export declare class RouterExplorer {
    private readonly container;
    private readonly logger;
    private readonly paths;
    constructor(container: Container);
    explore(instance: object, key: string): void;
}
-- router/explorer.js --
const logger_service_1 = require("@nestjs/common/services/logger.service");
const paths_1 = require("./paths");
class RouterExplorer {
    constructor(container) {
        this.container = container;
        this.logger = new logger_service_1.Logger("RouterExplorer");
        this.paths = new paths_1.PathsExplorer();
    }
    explore(instance, key) {
        this.paths.scan(instance).forEach(path => this.logger.log(path));
        return this.container.getModuleByKey(key);
    }
}
exports.RouterExplorer = RouterExplorer;
-- injector/container.d.ts --
export declare class NestContainer { getModuleByKey(key: string): object; }
-- injector/container.js --
class NestContainer { getModuleByKey(key) { return key; } }
exports.NestContainer = NestContainer;
-- injector/other.js --
class ModulesContainer { getModuleByKey(key) { return key; } }
exports.ModulesContainer = ModulesContainer;
-- router/paths.js --
class PathsExplorer { scan(instance) { return [instance]; } }
exports.PathsExplorer = PathsExplorer;
-- repl/logger.js --
class ReplLogger { log(message) { return message; } }
exports.ReplLogger = ReplLogger;
`)
	// The parameter's type is the declaration file's, as it imports it.
	expectCallees(t, g, "router.explorer.RouterExplorer.explore", "injector.container.NestContainer.getModuleByKey:receiver",
		"router.explorer.RouterExplorer.explore.<callback of .forEach>:callback", "router.paths.PathsExplorer.scan:receiver")
	expectUnresolved(t, g, "router.explorer.RouterExplorer.explore.<callback of .forEach>", "log", "external: @nestjs/common/services/logger.service.Logger.log")
}

// A method called on a receiver of unknown type goes to the one method of
// that name only when no builtin or package shares the name; a receiver
// known to be a builtin never reaches the repository's methods; a getter
// is not called (issue 31: koa's server.listen(), mobx's res.add(x) on a
// Set, delegate(proto).method('get') on a `get method()`).
func TestJavaScriptUnknownReceivers(t *testing.T) {
	g := buildArchive(t, `
-- lib/app.js --
const http = require('http');
class Application {
  listen(...args) {
    const server = http.createServer(this.callback());
    return server.listen(...args);
  }
  callback() {}
  get method() { return 1; }
  compose() {}
}
function wire(ctx, proto) {
  ctx.onerror();
  delegate(proto, 'request').method('get');
  ctx.compose();
  new Set([1]).add(2);
  'abc'.compose();
  [1, 2].with(0, 3);
  const xhr = new XMLHttpRequest();
  xhr.addEventListener('load', null);
}
module.exports = { Application, wire };
-- lib/ctx.js --
module.exports = { onerror(err) {} };
-- lib/target.ts --
export interface HasEventTarget {
  addEventListener(type: string, listener: () => void): void;
}
`)
	expectCallees(t, g, "lib.app.Application.listen", "lib.app.Application.callback:receiver")
	expectUnresolved(t, g, "lib.app.Application.listen", "listen", "unknown receiver")
	// onerror and compose are the only ones of their names: a guess.
	expectCallees(t, g, "lib.app.wire", "lib.ctx.default.onerror:name", "lib.app.Application.compose:name")
	expectUnresolved(t, g, "lib.app.wire", "method", "accessor")
	expectUnresolved(t, g, "lib.app.wire", "add", "builtin: Set.add")
	expectUnresolved(t, g, "lib.app.wire", "with", "builtin: Array.with")
	expectUnresolved(t, g, "lib.app.wire", "compose", "builtin: String.compose")
	// The Web platform's EventTarget: not the one interface that declares it.
	expectUnresolved(t, g, "lib.app.wire", "addEventListener", "unknown receiver")
}

// TypeScript's declared types say what a receiver is: a builtin, a
// package's class, a project class, or unknown (an interface, a type
// parameter, any) for every member of a union; an overload's parameter
// types are not the body's.
func TestTypeScriptDeclaredReceivers(t *testing.T) {
	g := buildArchive(t, `
-- src/set.ts --
import { Server } from 'http';
export class ObservableSet {
  add(x: string): void {}
  intersection(other: ReadonlySetLike<string> | Set<string>): Set<string> {
    return other.intersection(this);
  }
  union(other: ObservableSet | undefined, srv: Server, names: string[]): void {
    other.add('x');
    srv.close();
    names.concat([]);
  }
  clear<T>(x: T, y: any, z: Partial<ObservableSet>): void {
    x.add('a');
    y.intersection(this);
    z.merge();
  }
  merge(): void {}
}
export function remove(obj: ObservableSet, key: string): void
export function remove(obj: any, key: any): void {
  obj.intersection(key);
}
`)
	expectCallees(t, g, "src.set.ObservableSet.intersection")
	expectUnresolved(t, g, "src.set.ObservableSet.intersection", "intersection", "no member intersection")
	expectCallees(t, g, "src.set.ObservableSet.union", "src.set.ObservableSet.add:receiver")
	expectUnresolved(t, g, "src.set.ObservableSet.union", "close", "external: http.Server.close")
	// A type parameter, any, a type alias: unknown receivers, and add and
	// intersection are names builtins share.
	expectCallees(t, g, "src.set.ObservableSet.clear", "src.set.ObservableSet.merge:name")
	expectCallees(t, g, "src.set.remove")
}

// JSDoc @param types type a JavaScript function's parameters, as the
// TypeScript checker reads them with checkJs.
func TestJavaScriptDocParamTypes(t *testing.T) {
	g := buildArchive(t, `
-- lib/server.js --
class App {
  listen(port) {}
}
class Other {
  listen() {}
}
/**
 * @param {App} app the application
 * @param {?Other=} [other]
 * @param {Object} opts.x a property: not a parameter
 * @param {Set<string>} seen
 */
function start(app, other, seen) {
  app.listen(80);
  other.listen();
  seen.add('x');
}
module.exports = { App, Other, start };
`)
	expectCallees(t, g, "lib.server.start", "lib.server.App.listen:receiver", "lib.server.Other.listen:receiver")
	expectUnresolved(t, g, "lib.server.start", "add", "builtin: Set.add")
}

// A receiver typed by a project interface calls the method the interface
// declares, as the checker resolves it; one it does not declare leaves
// the receiver unknown.
func TestTypeScriptInterfaceReceivers(t *testing.T) {
	g := buildArchive(t, `
-- src/atom.ts --
export interface IAtom extends IBase {
  reportObserved(): boolean;
}
export class Atom implements IAtom {
  reportObserved(): boolean { return true; }
  dispose_(): void {}
}
export class Holder {
  atom_: IAtom;
  constructor() { this.atom_ = new Atom(); }
  read(a: IAtom): void {
    a.reportObserved();
    a.dispose_();
    this.atom_.reportObserved();
  }
}
`)
	// this.atom_ is declared IAtom and holds an Atom: both, by receiver.
	expectCallees(t, g, "src.atom.Holder.read",
		"src.atom.IAtom.reportObserved:interface", "src.atom.IAtom.reportObserved:receiver",
		"src.atom.Atom.reportObserved:receiver", "src.atom.Atom.dispose_:name")
}

// Guards narrow a receiver in the branch they guard: instanceof (in
// JavaScript too) and functions declaring a type predicate, whose type
// is read in their own file; a builtin class is no project method.
func TestJavaScriptGuardsNarrow(t *testing.T) {
	g := buildArchive(t, `
-- a.ts --
import { Other } from './b';
export class MMap { delete(k: string) {} has(k: string) {} }
export class SSet { delete(k: string) {} has(k: string) {} }
export function isMMap(x: any): x is MMap { return x instanceof MMap; }
export function isSSet(x: any): x is SSet { return x instanceof SSet; }
export function remove(obj: any, k: string) {
  if (isMMap(obj)) obj.delete(k);
  else if (isSSet(obj)) { obj.delete(k); }
}
export function has(obj: any, k: string) {
  return isMMap(obj) ? obj.has(k) : obj instanceof Other && obj.has(k);
}
export function clear(obj: any, k: string) {
  if (obj instanceof Map) obj.delete(k);
}
-- b.ts --
export class Other { has(k: string) {} }
-- c.js --
import { isSSet } from './a';
class Node { visit() {} }
class Leaf { visit() {} }
export function walk(n) {
  if (n instanceof Node) n.visit();
  if (isSSet(n)) n.has(1);
}
`)
	expectCallees(t, g, "a.remove", "a.isMMap:local", "a.isSSet:local", "a.MMap.delete:receiver", "a.SSet.delete:receiver")
	expectCallees(t, g, "a.has", "a.isMMap:local", "a.MMap.has:receiver", "b.Other.has:receiver")
	expectCallees(t, g, "a.clear")
	expectUnresolved(t, g, "a.clear", "delete", "builtin: Map.delete")
	expectCallees(t, g, "c.walk", "a.isSSet:import", "c.Node.visit:receiver", "a.SSet.has:receiver")
}

// A JSDoc type naming a class that a CommonJS module exports as a whole
// (`const Module = require("./Module")`, `module.exports = Module`)
// types the receiver as that class, as checkJs does (webpack's style).
func TestJavaScriptDocTypesOfRequiredClasses(t *testing.T) {
	g := buildArchive(t, `
-- lib/Module.js --
class Module {
  identifier() {}
}
module.exports = Module;
-- lib/Other.js --
class Other { identifier() {} }
module.exports = Other;
-- lib/use.js --
const Module = require("./Module");
/**
 * @param {Module} module the module
 */
function id(module) {
  return module.identifier();
}
module.exports = id;
`)
	expectCallees(t, g, "lib.use.id", "lib.Module.Module.identifier:receiver")
}
