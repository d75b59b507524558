package callgraph

import "testing"

// The elements of an array reach the callback of the method that hands
// them out: an array literal's, or values of the declared element type.
func TestJavaScriptArrayElementsToCallbacks(t *testing.T) {
	g := buildArchive(t, `
-- a.ts --
export class Job { run() {} }
export class Task { run() {} }
function first() {}
function second() {}
export function all(jobs: Job[], tasks: Array<Task>, more: Set<Job>) {
  [first, second].forEach((f) => f());
  jobs.map((j) => j.run());
  tasks.reduce((acc, t) => t.run(), 0);
  more.forEach((j) => j.run());
}
-- b.js --
function one() {}
function two() {}
export function each() {
  const handlers = [one, two];
  handlers.forEach(function (h) { h(); });
}
`)
	expectCallees(t, g, "a.all.<callback of .forEach>", "a.first:local", "a.second:local")
	expectCallees(t, g, "a.all.<callback of jobs.map>", "a.Job.run:receiver")
	expectCallees(t, g, "a.all.<callback of tasks.reduce>", "a.Task.run:receiver")
	expectCallees(t, g, "a.all.<callback of more.forEach>", "a.Job.run:receiver")
	expectCallees(t, g, "b.each.<callback of handlers.forEach>", "b.one:local", "b.two:local")
}

// m.get(k) on a Map holds what m.set put in, or its declared value
// type.
func TestJavaScriptMapValues(t *testing.T) {
	g := buildArchive(t, `
-- a.js --
function onOpen() {}
function onClose() {}
export function dispatch(kind) {
  const handlers = new Map();
  handlers.set("open", onOpen);
  handlers.set("close", onClose);
  const h = handlers.get(kind);
  h();
}
-- b.ts --
export class Handler { handle() {} }
export function route(table: Map<string, Handler>, k: string) {
  table.get(k).handle();
}
`)
	expectCallees(t, g, "a.dispatch", "a.onClose:local", "a.onOpen:local")
	expectCallees(t, g, "b.route", "b.Handler.handle:receiver")
}

// A string key names a member as a dot does: `Stack.prototype['delete']
// = stackDelete` (lodash, where delete was a reserved word) and
// `data['delete'](key)`.
func TestJavaScriptStringKeys(t *testing.T) {
	g := buildArchive(t, `
-- _stackDelete.js --
function stackDelete(key) { return key; }
export default stackDelete;
-- _Stack.js --
import stackDelete from './_stackDelete.js';
function stackGet(key) { return key; }
function Stack() {}
Stack.prototype['delete'] = stackDelete;
Stack.prototype["get"] = stackGet;
export default Stack;
-- use.js --
import Stack from './_Stack.js';
export function run() {
  var s = new Stack();
  s['delete']('k');
  s.get('k');
}
`)
	expectCallees(t, g, "use.run", "_Stack.Stack:import", "_stackDelete.stackDelete:receiver", "_Stack.stackGet:receiver")
}

// for (const x of items): x takes the elements of items.
func TestJavaScriptForOfElements(t *testing.T) {
	g := buildArchive(t, `
-- a.ts --
class Job { run() {} }
function a() {}
function b() {}
export function all(jobs: Job[]) {
  for (const j of jobs) j.run();
  for (let f of [a, b]) f();
}
export function one(job: Job) {
  const jobs = new Set([job]);
  for (const j of jobs) j.run();
}
`)
	expectCallees(t, g, "a.all", "a.Job.run:receiver", "a.a:local", "a.b:local")
	expectCallees(t, g, "a.one", "a.Job.run:receiver")
}
