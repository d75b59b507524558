package extract

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
)

func TestRubySymbols(t *testing.T) {
	f := extractString(t, "lib/shop/cart.rb", `module Shop
  class Cart < Base
    def initialize(items)
      @items = items
    end

    def self.empty
      new([])
    end

    class << self
      def from(list) = new(list)
    end

    def Cart.build; end

    def total
      def helper; end
      1
    end
  end

  module Pricing
    def self.rate; end
    def apply(x); end
  end

  class Cart::Line; end
  class Cart
    def reopened; end
  end

  Item = Struct.new(:sku) do
    def label; end
  end
  Loose = Class.new(StandardError)
  LOGGER = Logger.new($stdout)
end

class ::Top; end
class A::B::C
  def m; end
end

def top_level; end
def self.on_main; end
`)
	if f.Module != "lib.shop.cart" {
		t.Errorf("module = %q, want lib.shop.cart", f.Module)
	}
	expectSymbols(t, f,
		"module lib.shop.cart.Shop parent= line=1-38",
		"class lib.shop.cart.Shop.Cart parent=Shop line=2-21",
		"method lib.shop.cart.Shop.Cart.initialize parent=Cart line=3-5",
		"method lib.shop.cart.Shop.Cart.empty parent=Cart line=7-9",
		"method lib.shop.cart.Shop.Cart.from parent=Cart line=12-12",
		"method lib.shop.cart.Shop.Cart.build parent=Cart line=15-15",
		"method lib.shop.cart.Shop.Cart.total parent=Cart line=17-20",
		"function lib.shop.cart.Shop.Cart.total.helper parent=total line=18-18",
		"module lib.shop.cart.Shop.Pricing parent=Shop line=23-26",
		"method lib.shop.cart.Shop.Pricing.rate parent=Pricing line=24-24",
		"method lib.shop.cart.Shop.Pricing.apply parent=Pricing line=25-25",
		"class lib.shop.cart.Shop.Cart.Line parent=Cart line=28-28",
		"class lib.shop.cart.Shop.Cart parent=Shop line=29-31",
		"method lib.shop.cart.Shop.Cart.reopened parent=Cart line=30-30",
		"class lib.shop.cart.Shop.Item parent=Shop line=33-35",
		"method lib.shop.cart.Shop.Item.label parent=Item line=34-34",
		"class lib.shop.cart.Shop.Loose parent=Shop line=36-36",
		"class lib.shop.cart.Top parent= line=40-40",
		"class lib.shop.cart.A.B.C parent=A.B line=41-43",
		"method lib.shop.cart.A.B.C.m parent=C line=42-42",
		"function lib.shop.cart.top_level parent= line=45-45",
		"function lib.shop.cart.on_main parent= line=46-46",
	)
}

func TestRubySignatures(t *testing.T) {
	f := extractString(t, "sig.rb", `class Queue < Base::Store; end
module Util; end
class K
  def initialize(a, b = 1, *rest, k:, **opts, &blk)
    @a = a
  end
  def one; end
  def endless(x) = x * 2
  def self.build(x)
    new(x)
  end
  def name=(v); end
  def [](i); end
  def no_parens a, b
  end
end
Point = Struct.new(:x, :y) do
end
`)
	expectSignatures(t, f, map[string]string{
		"sig.Queue":        "class Queue < Base::Store",
		"sig.Util":         "module Util",
		"sig.K.initialize": "def initialize(a, b = 1, *rest, k:, **opts, &blk)",
		"sig.K.one":        "def one",
		"sig.K.endless":    "def endless(x)",
		"sig.K.build":      "def self.build(x)",
		"sig.K.name=":      "def name=(v)",
		"sig.K.[]":         "def [](i)",
		"sig.K.no_parens":  "def no_parens a, b",
		"sig.Point":        "Point = Struct.new(:x, :y)",
	})
}

func TestRubyDocs(t *testing.T) {
	f := extractString(t, "docs.rb", `#!/usr/bin/env ruby
# frozen_string_literal: true
# Greeter says hello.
#
# Two paragraphs.
class Greeter
  ##
  # RDoc style.
  def hello; end

  # Detached by a blank line.

  def bare; end

  # Wrapped visibility keeps its doc.
  private def secret; end
end

=begin
Embedded document
over two lines.
=end
def embedded; end
`)
	for q, want := range map[string]string{
		"docs.Greeter":        "Greeter says hello.\n\nTwo paragraphs.",
		"docs.Greeter.hello":  "RDoc style.",
		"docs.Greeter.bare":   "",
		"docs.Greeter.secret": "Wrapped visibility keeps its doc.",
		"docs.embedded":       "Embedded document\nover two lines.",
	} {
		if got := symbol(t, f, q).Doc; got != want {
			t.Errorf("doc of %s = %q, want %q", q, got, want)
		}
	}
}

// A magic comment alone above a declaration is not its doc.
func TestRubyMagicCommentIsNotDoc(t *testing.T) {
	f := extractString(t, "magic.rb", "# frozen_string_literal: true\nmodule Rake\n  def run; end\nend\n")
	if d := symbol(t, f, "magic.Rake").Doc; d != "" {
		t.Errorf("doc of Rake = %q, want none", d)
	}
	// Hiding the comment must not disturb call attribution.
	f = extractString(t, "magic2.rb", "# -*- coding: utf-8 -*-\nclass K\n  def m\n    go()\n  end\nend\n")
	if d := symbol(t, f, "magic2.K").Doc; d != "" {
		t.Errorf("doc of K = %q, want none", d)
	}
	expectCalls(t, f, "magic2.K.m -> go @4")
}

func TestRubyExported(t *testing.T) {
	f := extractString(t, "vis.rb", `class Account
  def open; end
  private def wrapped; end
  protected def guarded; end
  def later; end
  private :later
  def self.factory; end
  def self.hidden_factory; end
  private_class_method :hidden_factory

  private

  def a; end
  def self.still_public; end

  protected

  def b; end

  public

  def c; end
  def d; end
  public :d

  class << self
    def s1; end
    private
    def s2; end
  end
end

def top; end
`)
	want := map[string]bool{
		"vis.Account":                true,
		"vis.Account.open":           true,
		"vis.Account.wrapped":        false,
		"vis.Account.guarded":        false,
		"vis.Account.later":          false,
		"vis.Account.factory":        true,
		"vis.Account.hidden_factory": false,
		"vis.Account.a":              false,
		"vis.Account.still_public":   true,
		"vis.Account.b":              false,
		"vis.Account.c":              true,
		"vis.Account.d":              true,
		"vis.Account.s1":             true,
		"vis.Account.s2":             false,
		"vis.top":                    true,
	}
	for _, s := range f.Symbols {
		w, ok := want[s.Qualified]
		if !ok {
			t.Errorf("unexpected symbol %s", s.Qualified)
			continue
		}
		if s.Exported != w {
			t.Errorf("%s exported = %v, want %v", s.Qualified, s.Exported, w)
		}
		delete(want, s.Qualified)
	}
	for q := range want {
		t.Errorf("missing symbol %s", q)
	}
}

func TestRubyBases(t *testing.T) {
	f := extractString(t, "bases.rb", `class Post < ActiveRecord::Base
  include Comparable, Searchable
  extend Forwardable
  prepend Audit::Trail
  include helper_module
end
class Plain; end
Point = Struct.new(:x)
Err = Class.new(StandardError)
module Mixin
  include Enumerable
end
`)
	for q, want := range map[string][]string{
		"bases.Post":  {"ActiveRecord::Base", "Comparable", "Searchable", "Forwardable", "Audit::Trail"},
		"bases.Plain": nil,
		"bases.Point": {"Struct"},
		"bases.Err":   {"StandardError"},
		"bases.Mixin": nil, // modules are not class-like: no bases
	} {
		if got := symbol(t, f, q).Bases; !slices.Equal(got, want) {
			t.Errorf("bases of %s = %q, want %q", q, got, want)
		}
	}
}

func TestRubyImports(t *testing.T) {
	f := extractString(t, "app/models/user.rb", `require "json"
require 'net/http'
require_relative "concerns/auditable"
require_relative '../../lib/util.rb'
require_relative "../../../outside"
load "tasks/seed.rake"
autoload :Parser, "app/parser"
require File.expand_path("../helpers", __FILE__)
require File.expand_path("support/x", __dir__)
require File.join(__dir__, "a", "b")
require "#{ROOT}/dynamic"
require some_variable
foo.require "not_an_import"
`)
	expectImports(t, f,
		"json @1",
		"net/http @2",
		"concerns/auditable => app.models.concerns.auditable @3",
		"../../lib/util.rb => lib.util @4",
		"../../../outside @5",
		"tasks/seed.rake @6",
		"app/parser {Parser} @7",
		"../helpers => app.models.helpers @8",
		"support/x => app.models.support.x @9",
		"a/b => app.models.a.b @10",
	)
}

func TestRubyCalls(t *testing.T) {
	f := extractString(t, "calls.rb", `require "set"
puts "loading"

class Shop < Base
  include Enumerable
  attr_reader :items

  def initialize(items)
    super(items)
    @items = Set.new(items)
  end

  def run
    helper
    helper2()
    log "starting", level: :info
    items.each { |i| process(i) }
    @items.map do |i|
      transform(i).to_s
    end
    fn = ->(x) { lam(x) }
    user&.profile&.name
    Foo::Bar.baz(1)
    Foo::qux
    self.class.registry.add(self)
    super
    ready?
  end
end

Shop.new([]).run
`)
	expectCalls(t, f,
		"calls -> require @1",
		"calls -> puts @2",
		"calls.Shop -> include @5",
		"calls.Shop -> attr_reader @6",
		"calls.Shop.initialize -> super @9",
		"calls.Shop.initialize -> Set.new @10",
		"calls.Shop.run -> helper2 @15",
		"calls.Shop.run -> log @16",
		"calls.Shop.run -> items.each @17",
		"calls.Shop.run -> process @17",
		"calls.Shop.run -> @items.map @18",
		"calls.Shop.run -> transform @19",
		"calls.Shop.run -> transform(i).to_s @19",
		"calls.Shop.run -> lam @21",
		"calls.Shop.run -> user.profile @22",
		"calls.Shop.run -> user&.profile.name @22",
		"calls.Shop.run -> Foo::Bar.baz @23",
		"calls.Shop.run -> Foo.qux @24",
		"calls.Shop.run -> self.class @25",
		"calls.Shop.run -> self.class.registry @25",
		"calls.Shop.run -> self.class.registry.add @25",
		"calls.Shop.run -> super @26",
		"calls.Shop.run -> ready? @27",
		"calls -> Shop.new @31",
		"calls -> Shop.new([]).run @31",
	)
	// A bare identifier is not a call: `helper` on line 14 could be a local.
	for _, c := range f.Calls {
		if c.Name == "helper" {
			t.Errorf("bare identifier reported as a call: %+v", c)
		}
	}
}

func TestRubySyntaxError(t *testing.T) {
	f := extractString(t, "broken.rb", `class Good
  def fine
    work
  end
end

class Broken
  def half(
    oops
end

def after; end
`)
	if len(f.Errors) == 0 {
		t.Fatal("no syntax errors reported")
	}
	if s := symbol(t, f, "broken.Good.fine"); s.Kind != KindMethod || s.StartLine != 2 {
		t.Errorf("Good.fine = %s", symbolLine(s))
	}
}

func TestRubyLanguageOf(t *testing.T) {
	for _, tc := range []struct {
		path, head string
	}{
		{"a.rb", ""}, {"tasks/db.rake", ""}, {"x.gemspec", ""},
		{"Rakefile", ""}, {"Gemfile", ""},
		{"bin/console", "#!/usr/bin/env ruby\n"}, {"bin/x", "#!/usr/bin/ruby3.1 -w\n"},
	} {
		if l := LanguageOf(tc.path, []byte(tc.head)); l == nil || l.Name != "ruby" {
			t.Errorf("LanguageOf(%q) = %v, want ruby", tc.path, l)
		}
	}
}

func TestRubyHeredoc(t *testing.T) {
	// Heredocs: calls in interpolation count, the body is not code, and
	// the code after the heredoc start on the same line still parses.
	f := extractString(t, "heredoc.rb", `def render(name)
  text = <<~EOS.strip + footer(name)
    Hello #{name.capitalize}
    def not_a_method; end
  EOS
  emit(text, <<-A, <<-B)
    first
  A
    second
  B
end
`)
	expectSymbols(t, f, "function heredoc.render parent= line=1-11")
	expectCalls(t, f,
		"heredoc.render -> <<~EOS.strip @2", // the receiver is the heredoc as written
		"heredoc.render -> footer @2",
		"heredoc.render -> name.capitalize @3",
		"heredoc.render -> emit @6",
	)
	if len(f.Errors) != 0 {
		t.Errorf("errors: %+v", f.Errors)
	}
}

// TestRubyConcurrentVisibility runs the visibility cache from several
// workers at once (run with -race): each file must get its own answers.
func TestRubyConcurrentVisibility(t *testing.T) {
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
			// Even files hide m, odd files do not; same body offsets.
			kw := "public "
			if i%2 == 0 {
				kw = "private"
			}
			src := []byte("class C\n  " + kw + "\n  def m; end\nend\n")
			for range 50 {
				f, err := ex.Source(context.Background(), fmt.Sprintf("c%d.rb", i), src)
				if err != nil {
					t.Error(err)
					return
				}
				if got, want := f.Symbols[1].Exported, i%2 == 1; got != want {
					t.Errorf("file %d: m exported = %v, want %v", i, got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}
