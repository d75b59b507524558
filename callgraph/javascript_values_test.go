package callgraph

import "testing"

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
