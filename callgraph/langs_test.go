package callgraph

import "testing"

// The languages without import resolution of their own: a name defined in
// the same file resolves as local, a name defined once in the repository
// as name, and a name defined twice stays unresolved.

func TestOtherLanguagesResolution(t *testing.T) {
	for _, tc := range []struct {
		lang, archive string
		caller        string
		want          []string
		ambiguous     string
	}{{
		lang: "c",
		archive: `
-- src/main.c --
static int helper(void) { return 0; }
int main(void) {
    helper();
    unique_fn();
    twice();
    return 0;
}
-- src/a.c --
void unique_fn(void) {}
void twice(void) {}
-- src/b.c --
void twice(void) {}
`,
		caller: "src.main.main", want: []string{"src.main.helper:local", "src.a.unique_fn:name"}, ambiguous: "twice",
	}, {
		lang: "cpp",
		archive: `
-- src/main.cpp --
namespace app {
void helper() {}
void run() {
    helper();
    unique_fn();
    twice();
}
}
-- src/a.cpp --
void unique_fn() {}
void twice() {}
-- src/b.cpp --
void twice() {}
`,
		caller: "src.main.app.run", want: []string{"src.main.app.helper:local", "src.a.unique_fn:name"}, ambiguous: "twice",
	}, {
		lang: "rust",
		archive: `
-- src/main.rs --
fn helper() {}
fn main() {
    helper();
    let x = make();
    x.unique_method();
    x.twice();
}
-- src/a.rs --
pub struct A;
impl A {
    pub fn unique_method(&self) {}
    pub fn twice(&self) {}
}
-- src/b.rs --
pub struct B;
impl B {
    pub fn twice(&self) {}
}
`,
		caller: "crate.main", want: []string{"crate.helper:local", "crate.a.A.unique_method:name"}, ambiguous: "twice",
	}, {
		lang: "swift",
		archive: `
-- Sources/App/main.swift --
func helper() {}
func run(x: Any) {
    helper()
    x.uniqueMethod()
    x.twice()
}
-- Sources/Lib/A.swift --
class A {
    func uniqueMethod() {}
    func twice() {}
}
-- Sources/Lib/B.swift --
class B {
    func twice() {}
}
`,
		caller: "App.run", want: []string{"App.helper:local", "Lib.A.uniqueMethod:name"}, ambiguous: "twice",
	}, {
		lang: "scala",
		archive: `
-- src/main/scala/app/Main.scala --
package app
object Main {
  def helper(): Unit = ()
  def run(x: Any): Unit = {
    helper()
    x.uniqueMethod()
    x.twice()
  }
}
-- src/main/scala/lib/A.scala --
package lib
class A {
  def uniqueMethod(): Unit = ()
  def twice(): Unit = ()
}
-- src/main/scala/lib/B.scala --
package lib
class B {
  def twice(): Unit = ()
}
`,
		caller: "app.Main.run", want: []string{"app.Main.helper:local", "lib.A.uniqueMethod:name"}, ambiguous: "twice",
	}, {
		lang: "ruby",
		archive: `
-- lib/main.rb --
def helper; end
def run
  helper()
  unique_fn()
  twice()
end
-- lib/a.rb --
def unique_fn; end
def twice; end
-- lib/b.rb --
def twice; end
`,
		caller: "lib.main.run", want: []string{"lib.main.helper:local", "lib.a.unique_fn:name"}, ambiguous: "twice",
	}, {
		lang: "php",
		archive: `
-- src/main.php --
<?php
function helper() {}
function run() {
    helper();
    unique_fn();
    twice();
}
-- src/a.php --
<?php
function unique_fn() {}
function twice() {}
-- src/b.php --
<?php
function twice() {}
`,
		caller: "src.main.run", want: []string{"src.main.helper:local", "src.a.unique_fn:name"}, ambiguous: "twice",
	}, {
		lang: "lua",
		archive: `
-- main.lua --
local function helper() end
function run()
  helper()
  unique_fn()
  twice()
end
-- a.lua --
function unique_fn() end
function twice() end
-- b.lua --
function twice() end
`,
		caller: "main.run", want: []string{"main.helper:local", "a.unique_fn:name"}, ambiguous: "twice",
	}, {
		lang: "bash",
		archive: `
-- main.sh --
#!/bin/bash
helper() { :; }
run() {
  helper
  unique_fn
  twice
}
-- a.sh --
unique_fn() { :; }
twice() { :; }
-- b.sh --
twice() { :; }
`,
		caller: "main.run", want: []string{"main.helper:local", "a.unique_fn:name"}, ambiguous: "twice",
	}} {
		t.Run(tc.lang, func(t *testing.T) {
			g := buildArchive(t, tc.archive)
			expectCallees(t, g, tc.caller, tc.want...)
			expectUnresolved(t, g, tc.caller, tc.ambiguous, "ambiguous: 2 definitions named "+tc.ambiguous)
		})
	}
}

// TestOtherLanguagesAcrossFiles covers how each language reaches another
// file: includes, module imports, global constants, returned tables.
func TestOtherLanguagesAcrossFiles(t *testing.T) {
	for _, tc := range []struct {
		name, archive, caller string
		want                  []string
	}{{
		// A prototype in the header and the definition are one function,
		// reached through the include.
		name: "c include",
		archive: `
-- src/list.h --
int list_len(void);
-- src/list.c --
#include "list.h"
int list_len(void) { return 0; }
-- src/main.c --
#include "list.h"
int main(void) { return list_len(); }
`,
		caller: "src.main.main", want: []string{"src.list.list_len:import"},
	}, {
		name: "cpp declaration and definition",
		archive: `
-- src/shape.h --
class Shape {
public:
    double area() const;
};
-- src/shape.cpp --
#include "shape.h"
double Shape::area() const { return 0; }
-- src/main.cpp --
int main(Shape *s) { s->area(); return 0; }
`,
		caller: "src.main.main", want: []string{"src.shape.Shape.area:name"},
	}, {
		name: "swift module import",
		archive: `
-- Sources/Lib/Shape.swift --
public class Shape {
    public init() {}
}
public func makeShape() -> Shape { return Shape() }
-- Sources/App/main.swift --
import Lib
func run() {
    makeShape()
    Shape()
}
`,
		caller: "App.run", want: []string{"Lib.makeShape:import", "Lib.Shape.init:constructor"},
	}, {
		// A Scala companion object shares its class's name; new makes the
		// class. A Swift method of the same name is another program's.
		name: "scala companion and other languages",
		archive: `
-- src/main/scala/lib/Shape.scala --
package lib
class Shape {
  def area(): Int = 0
}
object Shape {
  def make(): Shape = new Shape()
}
-- src/main/scala/app/Main.scala --
package app
object Main {
  def run(s: Any): Unit = {
    s.area()
  }
}
-- Sources/Lib/Other.swift --
class Other {
    func area() -> Int { return 0 }
}
`,
		caller: "app.Main.run", want: []string{"lib.Shape.area:name"},
	}, {
		name: "ruby constants",
		archive: `
-- lib/shop/item.rb --
module Shop
  class Item
    def initialize; end
    def self.make; end
  end
end
-- lib/shop/cart.rb --
module Shop
  class Cart
    def add
      Item.new
      Item.make
      Cart.build
    end
    def self.build; end
  end
end
`,
		caller: "lib.shop.cart.Shop.Cart.add", want: []string{
			"lib.shop.item.Shop.Item.initialize:constructor", "lib.shop.item.Shop.Item.make:local", "lib.shop.cart.Shop.Cart.build:local",
		},
	}, {
		name: "php fully qualified",
		archive: `
-- src/Model/Item.php --
<?php
namespace Shop\Model;
class Item {
    public static function make() {}
}
-- src/Cart.php --
<?php
namespace Shop;
class Cart {
    public function add() { \Shop\Model\Item::make(); }
}
`,
		caller: "Shop.Cart.add", want: []string{"Shop.Model.Item.make:import"},
	}, {
		name: "lua module table",
		archive: `
-- shop/util.lua --
local M = {}
function M.helper() end
return M
-- shop/init.lua --
local util = require("shop.util")
local M = {}
function M.run()
  util.helper()
  M.other()
end
function M.other() end
return M
`,
		caller: "shop.M.run", want: []string{"shop.util.M.helper:import", "shop.M.other:local"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			g := buildArchive(t, tc.archive)
			expectCallees(t, g, tc.caller, tc.want...)
		})
	}
}

// TestScalaNewMakesTheClass: a class and its companion object share a
// qualified name; `new` instantiates the class alone.
func TestScalaNewMakesTheClass(t *testing.T) {
	g := buildArchive(t, `
-- src/main/scala/lib/Shape.scala --
package lib
class Shape
object Shape {
  def make(): Shape = new Shape()
}
`)
	ids := g.Lookup("lib.Shape.make")
	if len(ids) != 1 {
		t.Fatalf("Lookup(lib.Shape.make) = %v", ids)
	}
	es := g.Callees(ids[0])
	if len(es) != 1 || g.Node(es[0].Callee).Kind != "class" || es[0].Resolution != Constructor {
		for _, e := range es {
			t.Logf("edge to %s (%s) %s", g.Node(e.Callee).Qualified, g.Node(e.Callee).Kind, e.Resolution)
		}
		t.Errorf("new Shape() has %d edges, want one constructor edge to the class", len(es))
	}
}
