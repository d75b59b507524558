package callgraph

import "testing"

// A function handed to a package's or Node's function or method is
// called by it: written as an argument, or named as the last argument
// (Node's callback position). Functions handed to remove a listener, or
// named before the last argument, are not.
func TestJavaScriptCallbacksToPackages(t *testing.T) {
	g := buildArchive(t, `
-- a.js --
const fs = require('fs');
const psTree = require('pstree.remy');
const { spawn } = require('child_process');
import { catchError } from 'rxjs';
const bus = new (require('events').EventEmitter)();
function done() {}
function other() {}
function run(cb) {
  psTree(1, (err, pids) => { done(); });
  fs.readFile('x', 'utf8', function (err, data) { done(); });
  catchError(async (e) => { done(); });
  spawn('ls', other, done);
  bus.removeListener('x', other);
  cb(1, other);
  'abc'.replace(/a/, function (m) { return m; });
}
`)
	expectCallees(t, g, "a.run",
		"a.run.<callback of psTree>:callback",
		"a.run.<callback of fs.readFile('x')>:callback",
		"a.run.<callback of catchError>:callback",
		"a.done:callback",
		"a.run.<callback of .replace>:callback")
	expectCallees(t, g, "a.run.<callback of psTree>", "a.done:local")
}

// var utils = (module.exports = {…}), as prettier writes it: the object
// is utils and the module's export, and its functions and the modules
// it requires are called through require.
func TestJavaScriptParenthesizedExportAlias(t *testing.T) {
	g := buildArchive(t, `
-- utils/index.js --
var utils = (module.exports = {
  stringify: function (a) { return a; },
  clone: require('./clone'),
});
utils.quiet = function () { utils.stringify(1); };
-- utils/clone.js --
module.exports = function clone(obj) { return obj; };
-- use.js --
var utils = require('./utils');
function run() { utils.stringify(1); utils.clone({}); }
`)
	expectCallees(t, g, "use.run", "utils.index.utils.stringify:import", "utils.clone.clone:import")
	expectCallees(t, g, "utils.index.utils.quiet", "utils.index.utils.stringify:local")
}

// var exec = childProcess.exec, childProcess a required package: exec()
// calls the package's function, and a function named as its last
// argument is called back.
func TestJavaScriptPackageMemberAlias(t *testing.T) {
	g := buildArchive(t, `
-- a.js --
var childProcess = require('child_process');
var exec = childProcess.exec;
var noop = () => {};
function run() { exec('ls', noop); }
`)
	expectCallees(t, g, "a.run", "a.noop:callback")
	expectUnresolved(t, g, "a.run", "exec", "external: child_process.exec")
}

// A variable holding what a getter returns is no function handed over:
// koa's `const hostname = this.hostname; net.isIP(hostname)`.
func TestJavaScriptGetterValueNoCallback(t *testing.T) {
	g := buildArchive(t, `
-- a.js --
const net = require('net');
class Request {
  get hostname() { return 'h'; }
  subdomains() {
    const hostname = this.hostname;
    return net.isIP(hostname);
  }
}
`)
	expectCallees(t, g, "a.Request.subdomains")
}
