package extract

import (
	"slices"
	"testing"
)

func TestPHPSymbols(t *testing.T) {
	f := extractString(t, "src/Shop/Cart.php", `<?php
namespace App\Shop;

interface Totals { public function total(): int; }

trait Counts
{
    public static function count(): int { return 0; }
}

enum Kind: string
{
    case A = 'a';
    public function label(): string { return 'A'; }
}

#[Entity]
abstract class Cart implements Totals
{
    public function __construct(private array $items = []) {}

    abstract protected function price(): int;

    public function total(): int
    {
        $f = function ($x) { return helper($x); };
        $g = fn($y) => other($y);
        $o = new class { public function hidden() { inside(); } };
        return 0;
    }
}

function free(): void
{
    function nested() {}
}
`)
	if f.Module != "App.Shop" {
		t.Errorf("module = %q, want App.Shop", f.Module)
	}
	expectSymbols(t, f,
		"interface App.Shop.Totals parent= line=4-4",
		"method App.Shop.Totals.total parent=Totals line=4-4",
		"trait App.Shop.Counts parent= line=6-9",
		"method App.Shop.Counts.count parent=Counts line=8-8",
		"enum App.Shop.Kind parent= line=11-15",
		"method App.Shop.Kind.label parent=Kind line=14-14",
		"class App.Shop.Cart parent= line=18-31",
		"method App.Shop.Cart.__construct parent=Cart line=20-20",
		"method App.Shop.Cart.price parent=Cart line=22-22",
		"method App.Shop.Cart.total parent=Cart line=24-30",
		"function App.Shop.free parent= line=33-36",
		"function App.Shop.free.nested parent=free line=35-35",
	)
	// Closures, arrow functions and anonymous classes are not symbols;
	// their calls belong to the enclosing method.
	expectCalls(t, f,
		"App.Shop.Cart.total -> helper @26",
		"App.Shop.Cart.total -> other @27",
		"App.Shop.Cart.total -> inside @28",
	)
}

func TestPHPModule(t *testing.T) {
	for _, tc := range []struct{ path, src, want string }{
		{"a/b.php", "<?php\nnamespace Foo\\Bar;\nfunction f() {}\n", "Foo.Bar"},
		{"a/b.php", "<?php\nnamespace Foo\\Bar {\nfunction f() {}\n}\n", "Foo.Bar"},
		{"lib/helpers.php", "<?php\nfunction f() {}\n", "lib.helpers"},
		{"views/page.phtml", "<p><?php function f() {} ?></p>\n", "views.page"},
	} {
		f := extractString(t, tc.path, tc.src)
		if f.Module != tc.want {
			t.Errorf("%s: module = %q, want %q", tc.src, f.Module, tc.want)
		}
		if s := symbol(t, f, tc.want+".f"); s.Kind != KindFunction {
			t.Errorf("%s: f is %s", tc.src, s.Kind)
		}
	}
}

func TestPHPSignaturesDocsExported(t *testing.T) {
	f := extractString(t, "Svc.php", `<?php
namespace N;

/**
 * Service does things.
 *
 * @template T
 */
#[Attr(name: "x]")]
#[Other]
final class Svc extends Base implements \Countable, I
{
    use Logs, Counts;

    /** Makes one. */
    public static function make(): static {}

    // Line comment doc.
    # and a hash line.
    protected function prot(
        int $a,
        string ...$rest,
    ): ?int {}

    private function priv() {}

    function noModifier() {}

    abstract public function abs(): void;
}

interface I extends A, B {}
enum E: int implements I { case X = 1; }
`)
	expectSignatures(t, f, map[string]string{
		"N.Svc":            "final class Svc extends Base implements \\Countable, I",
		"N.Svc.make":       "public static function make(): static",
		"N.Svc.prot":       "protected function prot(int $a, string ...$rest): ?int",
		"N.Svc.abs":        "abstract public function abs(): void",
		"N.Svc.noModifier": "function noModifier()",
		"N.I":              "interface I extends A, B",
		"N.E":              "enum E: int implements I",
	})
	for q, want := range map[string]string{
		"N.Svc":      "Service does things.\n\n@template T",
		"N.Svc.make": "Makes one.",
		"N.Svc.prot": "Line comment doc.\nand a hash line.",
		"N.Svc.priv": "",
	} {
		if got := symbol(t, f, q).Doc; got != want {
			t.Errorf("doc of %s = %q, want %q", q, got, want)
		}
	}
	for q, want := range map[string]bool{
		"N.Svc": true, "N.Svc.make": true, "N.Svc.prot": false, "N.Svc.priv": false,
		"N.Svc.noModifier": true, "N.Svc.abs": true, "N.I": true,
	} {
		if got := symbol(t, f, q).Exported; got != want {
			t.Errorf("exported of %s = %v, want %v", q, got, want)
		}
	}
	for q, want := range map[string][]string{
		"N.Svc": {"Base", "\\Countable", "I", "Logs", "Counts"},
		"N.I":   {"A", "B"},
		"N.E":   {"I"},
	} {
		if got := symbol(t, f, q).Bases; !slices.Equal(got, want) {
			t.Errorf("bases of %s = %q, want %q", q, got, want)
		}
	}
	if s := symbol(t, f, "N.Svc"); s.StartLine != 11 || s.EndLine != 30 {
		t.Errorf("Svc lines = %d-%d, want 11-30 (name line, not the attribute)", s.StartLine, s.EndLine)
	}
}

func TestPHPImports(t *testing.T) {
	f := extractString(t, "app/Http/Kernel.php", `<?php
namespace App\Http;

use Foo\Bar;
use \Lead\Slash;
use Foo\Baz as Qux, Other\Thing;
use function Foo\helper;
use const Foo\MAX as M;
use Foo\{A, B\C as D, function f, const K};
use Exception;
require_once __DIR__ . '/../bootstrap.php';
include 'partials/nav.php';
require dirname(__FILE__) . '/routes.php';
include_once($path . '/x.php');
require 'http://example.com/remote.php';
require $dynamic;

class Kernel { use Traits\Boots; }
`)
	expectImports(t, f,
		`Foo {Bar} => Foo @4`,
		`Lead {Slash} => Lead @5`,
		`Foo {Baz as Qux} => Foo @6`,
		`Other {Thing} => Other @6`,
		`Foo {helper} => Foo @7`,
		`Foo {MAX as M} => Foo @8`,
		`Foo {A, f, K} => Foo @9`,
		`Foo\B {C as D} => Foo.B @9`,
		`\ {Exception} @10`,
		`__DIR__ . '/../bootstrap.php' => app.bootstrap @11`,
		`partials/nav.php => app.Http.partials.nav @12`,
		`dirname(__FILE__) . '/routes.php' => app.Http.routes @13`,
		`$path . '/x.php' @14`,
		`http://example.com/remote.php @15`,
	)
}

func TestPHPCalls(t *testing.T) {
	f := extractString(t, "calls.php", `<?php
namespace N;

strlen("module level");

class C extends P
{
    public function __construct() { parent::__construct(); }

    public function run($o)
    {
        helper();
        \Ns\Sub\qualified();
        \global_fn();
        $this->save();
        $o?->maybe();
        $o->a()->b();
        self::make();
        static::late();
        Other::staticCall();
        \Ns\Other::deep();
        $x = new Thing(1);
        $y = new \Ns\Deep\Thing();
        $z = new static();
        $f = function () use ($o) { $o->inClosure(); };
        $g = fn() => arrow();
        $dyn();
        $o->$name();
        array_map(fn($i) => $i->id(), []);
    }
}
?>
<p><?= render($x) ?></p>
`)
	expectCalls(t, f,
		"N -> strlen @4",
		"N.C.__construct -> parent.__construct @8",
		"N.C.run -> helper @12",
		`N.C.run -> Ns\Sub.qualified @13`,
		"N.C.run -> global_fn @14",
		"N.C.run -> $this.save @15",
		"N.C.run -> $o.maybe @16",
		"N.C.run -> $o.a @17",
		"N.C.run -> $o->a().b @17",
		"N.C.run -> self.make @18",
		"N.C.run -> static.late @19",
		"N.C.run -> Other.staticCall @20",
		`N.C.run -> \Ns\Other.deep @21`,
		"N.C.run -> Thing @22",
		`N.C.run -> Ns\Deep.Thing @23`,
		"N.C.run -> static @24",
		"N.C.run -> $o.inClosure @25",
		"N.C.run -> arrow @26",
		"N.C.run -> array_map @29",
		"N.C.run -> $i.id @29",
		"N -> render @33",
	)
}

func TestPHPSyntaxError(t *testing.T) {
	f := extractString(t, "broken.php", `<?php
class Ok { public function fine() { work(); } }

class Broken {
    public function half( {
}

function after() {}
`)
	if len(f.Errors) == 0 {
		t.Fatal("no syntax errors reported")
	}
	if s := symbol(t, f, "broken.Ok.fine"); s.Kind != KindMethod || s.StartLine != 2 {
		t.Errorf("Ok.fine = %s", symbolLine(s))
	}
}

func TestPHPLanguageOf(t *testing.T) {
	for _, tc := range []struct{ path, head string }{
		{"index.php", ""}, {"views/a.phtml", ""}, {"bin/console", "#!/usr/bin/env php\n<?php\n"},
	} {
		if l := LanguageOf(tc.path, []byte(tc.head)); l == nil || l.Name != "php" {
			t.Errorf("LanguageOf(%q) = %v, want php", tc.path, l)
		}
	}
}
