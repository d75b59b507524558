package extract

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
)

func TestLuaSymbols(t *testing.T) {
	f := extractString(t, "lua/acme/store.lua", `local M = {}
local Store = {}
Store.__index = Store

function Store.new(name)
  return setmetatable({ name = name }, Store)
end

function Store:add(item)
  local function check(x) return x ~= nil end
  local validate = function(y) return check(y) end
  return validate(item)
end

function a.b.c:deep() end
local function helper() end
local util = function() end
M.create = function(name) return Store.new(name) end
M.sub.fn = function() end
function global_fn() end
global_var = function() end

local Config = {
  defaults = function() return {} end,
  ["quoted"] = function() end,
  nested = { inner = function() end },
}

do
  function M.in_block() end
end

return {
  exported = function() end,
}
`)
	if f.Module != "acme.store" {
		t.Errorf("module = %q, want acme.store (lua/ prefix dropped)", f.Module)
	}
	expectSymbols(t, f,
		"function acme.store.Store.new parent=Store line=5-7",
		"method acme.store.Store.add parent=Store line=9-13",
		"function acme.store.Store.add.check parent=add line=10-10",
		"function acme.store.Store.add.validate parent=add line=11-11",
		"method acme.store.a.b.c.deep parent=c line=15-15",
		"function acme.store.helper parent= line=16-16",
		"function acme.store.util parent= line=17-17",
		"function acme.store.M.create parent=M line=18-18",
		"function acme.store.M.sub.fn parent=sub line=19-19",
		"function acme.store.global_fn parent= line=20-20",
		"function acme.store.global_var parent= line=21-21",
		"function acme.store.Config.defaults parent=Config line=24-24",
		"function acme.store.M.in_block parent=M line=30-30",
		"function acme.store.exported parent= line=34-34",
	)
	for q, want := range map[string]bool{
		"acme.store.Store.new": true, "acme.store.Store.add.check": false,
		"acme.store.Store.add.validate": false, "acme.store.helper": false,
		"acme.store.util": false, "acme.store.M.create": true, "acme.store.global_fn": true,
		"acme.store.global_var": true, "acme.store.Config.defaults": true,
	} {
		if got := symbol(t, f, q).Exported; got != want {
			t.Errorf("exported of %s = %v, want %v", q, got, want)
		}
	}
}

func TestLuaModule(t *testing.T) {
	for path, want := range map[string]string{
		"lib/util.lua":          "lib.util",
		"lua/plugin/init.lua":   "plugin",
		"src/thing/init.lua":    "src.thing",
		"init.lua":              "init",
		"lua/plugin/config.lua": "plugin.config",
		"lua/my.nvim/init.lua":  "my.nvim",
	} {
		if f := extractString(t, path, "local x = 1\n"); f.Module != want {
			t.Errorf("module of %s = %q, want %q", path, f.Module, want)
		}
	}
}

func TestLuaSignaturesAndDocs(t *testing.T) {
	f := extractString(t, "doc.lua", `local M = {}

--- Emmy header.
---@param a number
---@return number
function M.emmy(a)
  return a
end

-- Plain comment
-- over two lines.
local function plain(x, ...) end

--[[ Block
comment. ]]
M.block = function(a, b)
  return a + b
end

-- Detached.

function M.none() end

--- Emmy doc on an assignment.
-- @function assigned
M.assigned = function(d) return d end
local a, b = 1, function() end
M[key] = function() end
`)
	for q, want := range map[string][2]string{
		"doc.M.emmy":     {"function M.emmy(a)", "Emmy header.\n@param a number\n@return number"},
		"doc.plain":      {"local function plain(x, ...)", "Plain comment\nover two lines."},
		"doc.M.block":    {"M.block = function(a, b)", "Block\ncomment."},
		"doc.M.none":     {"function M.none()", ""},
		"doc.M.assigned": {"M.assigned = function(d)", "Emmy doc on an assignment.\n@function assigned"},
	} {
		s := symbol(t, f, q)
		if s.Signature != want[0] {
			t.Errorf("signature of %s = %q, want %q", q, s.Signature, want[0])
		}
		if s.Doc != want[1] {
			t.Errorf("doc of %s = %q, want %q", q, s.Doc, want[1])
		}
	}
	// The grammar starts top-level statements at the end of the previous
	// line; the start line is still the name's.
	if s := symbol(t, f, "doc.M.emmy"); s.StartLine != 6 || s.EndLine != 8 {
		t.Errorf("M.emmy lines = %d-%d, want 6-8", s.StartLine, s.EndLine)
	}
	if s := symbol(t, f, "doc.M.assigned"); s.StartLine != 26 || s.EndLine != 26 {
		t.Errorf("M.assigned lines = %d-%d, want 26-26", s.StartLine, s.EndLine)
	}
	for _, s := range f.Symbols {
		if s.Name == "b" || s.Name == "key" {
			t.Errorf("unnamed function is a symbol: %s", symbolLine(s))
		}
	}
}

func TestLuaImports(t *testing.T) {
	f := extractString(t, "imports.lua", `local json = require("cjson")
local util = require "lib.util"
local a, b = require("x"), require('y')
local sub = require("pkg").sub
local long = require [[long.name]]

local function lazy()
  local http = require("socket.http")
  return http
end
local n = obj.require("not.an.import")
local d = require(name)
require("side.effect")
`)
	expectImports(t, f,
		"cjson as json @1",
		"lib.util as util @2",
		"x as a @3",
		"y as b @3",
		"pkg @4",
		"long.name as long @5",
		"socket.http as http @8",
		"side.effect @13",
	)
}

func TestLuaCalls(t *testing.T) {
	f := extractString(t, "calls.lua", `local M = {}
local t = setmetatable({}, M)

function M.run(self, items)
  print("start")
  self:save()
  string.format("%d", 1)
  a.b.c(1)
  a.b:m()
  obj:first():second()
  log "message"
  configure { debug = true }
  t[1].field()
  for _, it in ipairs(items) do
    pcall(function() it:process() end)
  end
  local cb = function() inner() end
  return cb
end
`)
	expectCalls(t, f,
		"calls -> setmetatable @2",
		"calls.M.run -> print @5",
		"calls.M.run -> self.save @6",
		"calls.M.run -> string.format @7",
		"calls.M.run -> b.c @8",
		"calls.M.run -> b.m @9",
		"calls.M.run -> obj.first @10",
		"calls.M.run -> obj:first().second @10",
		"calls.M.run -> log @11",
		"calls.M.run -> configure @12",
		"calls.M.run -> field @13",
		"calls.M.run -> ipairs @14",
		"calls.M.run -> pcall @15",
		"calls.M.run -> it.process @15",
		"calls.M.run.cb -> inner @17", // a named local function is a symbol
	)
}

// TestLuaTopLevelCallStatement: the grammar lexes the first token of a
// top-level statement with the whitespace before it ("\nfoo"); the engine
// trims call names and moves their position past it.
func TestLuaTopLevelCallStatement(t *testing.T) {
	f := extractString(t, "top.lua", "local x = 1\n\nrequire(\"a.b\")\nsetup({})\n")
	expectImports(t, f, "a.b @3")
	expectCalls(t, f, "top -> require @3", "top -> setup @4")
	for _, c := range f.Calls {
		if c.Column != 1 {
			t.Errorf("call %s at column %d, want 1", c.Name, c.Column)
		}
	}
}

func TestLuaSyntaxError(t *testing.T) {
	f := extractString(t, "broken.lua", `local M = {}

function M.good()
  work()
end

function M.bad(
  oops

function M.after() end
`)
	if len(f.Errors) == 0 {
		t.Fatal("no syntax errors reported")
	}
	if s := symbol(t, f, "broken.M.good"); s.StartLine != 3 || s.EndLine != 5 {
		t.Errorf("M.good = %s", symbolLine(s))
	}
}

func TestLuaLanguageOf(t *testing.T) {
	for _, tc := range []struct{ path, head string }{
		{"a.lua", ""}, {"bin/tool", "#!/usr/bin/env lua5.4\n"}, {"bin/jit", "#!/usr/bin/luajit\n"},
	} {
		if l := LanguageOf(tc.path, []byte(tc.head)); l == nil || l.Name != "lua" {
			t.Errorf("LanguageOf(%q) = %v, want lua", tc.path, l)
		}
	}
}

// TestLuaConcurrentParse: smacker's Lua scanner keeps its string and
// comment state in C globals (scanner.c: ending_char, level_count), so two
// Lua files parsed at the same time corrupt each other's trees: measured on
// 352 penlight/busted files, 28 have syntax errors parsed one at a time and
// 33 to 78 with GOMAXPROCS workers. The engine must parse Lua files one at a
// time (Language.serial).
func TestLuaConcurrentParse(t *testing.T) {
	src := []byte(strings.Repeat("local s = [==[ x ]==] .. 'y' -- c\nfunction M.f() return \"z\" end\n", 200))
	ex, err := New(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				f, err := ex.Source(context.Background(), fmt.Sprintf("f%d.lua", i), src)
				if err != nil {
					t.Error(err)
					return
				}
				if len(f.Errors) != 0 || len(f.Symbols) != 200 {
					t.Errorf("concurrent parse: %d errors, %d symbols, want 0 and 200", len(f.Errors), len(f.Symbols))
					return
				}
			}
		}()
	}
	wg.Wait()
}
