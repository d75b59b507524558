package extract

import (
	"testing"
)

func TestKotlinSymbols(t *testing.T) {
	f := extractString(t, "src/main/kotlin/Shop.kt", `package com.acme.shop

@Serializable
data class Item<T>(val name: String) : Base(name), Comparable<Item<T>> {
    constructor() : this("") {
        init()
    }
    override fun compareTo(other: Item<T>): Int = 0
    fun compareTo(other: String): Int = 1
    inner class Inner
    class Nested {
        fun deep() {
            fun local() {}
        }
    }
    companion object {
        fun create() = Item<Int>()
    }
}
object Registry {
    val handler = object : Runnable {
        override fun run() {}
    }
}
interface Repo { fun find(id: Long): Item<Int>? }
sealed interface Shape
enum class Color { RED { override fun paint() {} }, GREEN; open fun paint() {} }
class Holder {
    companion object Factory { fun make() = Holder() }
}
typealias Name = String
fun <T> List<T>.second(): T = this[1]
fun String?.orBlank(): String = this ?: ""
fun main() {}
`)
	if f.Module != "com.acme.shop" {
		t.Errorf("module = %q, want com.acme.shop", f.Module)
	}
	expectSymbols(t, f,
		"class com.acme.shop.Item parent= line=4-19",
		"method com.acme.shop.Item.Item parent=Item line=5-7",
		"method com.acme.shop.Item.compareTo parent=Item line=8-8",
		"method com.acme.shop.Item.compareTo parent=Item line=9-9",
		"class com.acme.shop.Item.Inner parent=Item line=10-10",
		"class com.acme.shop.Item.Nested parent=Item line=11-15",
		"method com.acme.shop.Item.Nested.deep parent=Nested line=12-14",
		"function com.acme.shop.Item.Nested.deep.local parent=deep line=13-13",
		"object com.acme.shop.Item.Companion parent=Item line=16-18",
		"method com.acme.shop.Item.Companion.create parent=Companion line=17-17",
		"object com.acme.shop.Registry parent= line=20-24",
		"interface com.acme.shop.Repo parent= line=25-25",
		"method com.acme.shop.Repo.find parent=Repo line=25-25",
		"interface com.acme.shop.Shape parent= line=26-26",
		"enum com.acme.shop.Color parent= line=27-27",
		"method com.acme.shop.Color.paint parent=Color line=27-27",
		"class com.acme.shop.Holder parent= line=28-30",
		"object com.acme.shop.Holder.Factory parent=Holder line=29-29",
		"method com.acme.shop.Holder.Factory.make parent=Factory line=29-29",
		"type com.acme.shop.Name parent= line=31-31",
		"method com.acme.shop.List.second parent=List line=32-32",
		"method com.acme.shop.String.orBlank parent=String line=33-33",
		"function com.acme.shop.main parent= line=34-34",
	)
}

func TestKotlinSignatures(t *testing.T) {
	f := extractString(t, "A.kt", `package p

@Deprecated("x", ReplaceWith("y"))
open class A<T : Any>(private val x: Int) : B<T>(x), C, D {
    @JvmStatic
    @Throws(IOException::class)
    suspend fun <R> apply(t: T,
                          r: R): R = r
    constructor(s: String) : this(s.length) { }
    abstract fun hook()
}
interface I : J, K<String>
object O : I
`)
	expectSignatures(t, f, map[string]string{
		"p.A":       "open class A<T : Any>(private val x: Int) : B<T>(x), C, D",
		"p.A.apply": "suspend fun <R> apply(t: T, r: R): R",
		"p.A.A":     "constructor(s: String) : this(s.length)",
		"p.A.hook":  "abstract fun hook()",
		"p.I":       "interface I : J, K<String>",
		"p.O":       "object O : I",
	})
	expectBases(t, f, map[string]string{
		"p.A": "B<T>,C,D",
		"p.I": "J,K<String>",
		"p.O": "I",
	})
	if got := symbol(t, f, "p.A").StartLine; got != 4 {
		t.Errorf("start line of p.A = %d, want 4", got)
	}
	if got := symbol(t, f, "p.A.apply").StartLine; got != 7 {
		t.Errorf("start line of p.A.apply = %d, want 7", got)
	}
}

func TestKotlinDocs(t *testing.T) {
	f := extractString(t, "A.kt", `package p

/**
 * A does things.
 *
 * @property x the x
 */
@Suppress("UNUSED")
class A(val x: Int) {
    /** One line. */
    fun one() {}

    // Line comment,
    // two lines.
    fun line() {}

    /** Annotated. */
    @JvmStatic
    fun annotated() {}

    /** Detached. */

    fun detached() {}
}
`)
	for _, c := range []struct{ q, doc string }{
		{"p.A", "A does things.\n\n@property x the x"},
		{"p.A.one", "One line."},
		{"p.A.line", "Line comment,\ntwo lines."},
		{"p.A.annotated", "Annotated."},
		{"p.A.detached", "Detached."}, // Kotlin binds a KDoc block across blank lines
	} {
		if got := symbol(t, f, c.q).Doc; got != c.doc {
			t.Errorf("doc of %s = %q, want %q", c.q, got, c.doc)
		}
	}
}

func TestKotlinExported(t *testing.T) {
	f := extractString(t, "A.kt", `package p
class A {
    fun pub() {}
    public fun explicit() {}
    protected fun prot() {}
    internal fun int() {}
    private fun priv() {}
    fun outer() { fun local() {} }
    private class Hidden { fun m() {} }
    companion object { private fun secret() {} }
}
internal class Int { fun m() {} }
private fun top() {}
fun String.ext() {}
`)
	want := map[string]bool{
		"p.A": true, "p.A.pub": true, "p.A.explicit": true, "p.A.prot": true,
		"p.A.int": false, "p.A.priv": false, "p.A.outer": true, "p.A.outer.local": false,
		"p.A.Hidden": false, "p.A.Hidden.m": false,
		"p.A.Companion": true, "p.A.Companion.secret": false,
		"p.Int": false, "p.Int.m": false, "p.top": false, "p.String.ext": true,
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

func TestKotlinImports(t *testing.T) {
	f := extractString(t, "A.kt", `package p

import kotlin.math.max
import java.util.*
import com.acme.Logger as Log
import com.acme.shop.Kind.TOOL
import Top

class A
`)
	expectImports(t, f,
		"kotlin.math {max} @3",
		"java.util {*} @4",
		"com.acme {Logger as Log} @5",
		"com.acme.shop.Kind {TOOL} @6",
		"Top @7",
	)
}

func TestKotlinCalls(t *testing.T) {
	f := extractString(t, "A.kt", `package p

class A(x: Int) : Base(x), Iface {
    private val f = { seed() }
    constructor() : this(0)
    init { setup() }
    fun m(xs: List<Int>) {
        helper()
        this.helper()
        super.helper()
        xs.filter { keep(it) }.map(::convert).forEach(this::use)
        Item<Int>("a")
        java.util.Objects.hash(1)
        maybe?.call()
        val r = object : Runnable { override fun run() { work() } }
        val g = fun(y: Int) { anon(y) }
    }
}

val top = compute()
`)
	expectCalls(t, f,
		"p.A -> Base @3",
		"p.A -> seed @4",
		"p.A.A -> this @5",
		"p.A -> setup @6",
		"p.A.m -> helper @8",
		"p.A.m -> this.helper @9",
		"p.A.m -> super.helper @10",
		"p.A.m -> xs.filter @11",
		"p.A.m -> keep @11",
		"p.A.m -> xs.filter { keep(it) }.map @11",
		"p.A.m -> convert @11",
		"p.A.m -> xs.filter { keep(it) }.map(::convert).forEach @11",
		"p.A.m -> this.use @11",
		"p.A.m -> Item @12",
		"p.A.m -> java.util.Objects.hash @13",
		"p.A.m -> maybe.call @14",
		"p.A.m -> work @15",
		"p.A.m -> anon @16",
		"p -> compute @20",
	)
	// Object expression members are not symbols.
	expectSymbols(t, f,
		"class p.A parent= line=3-18",
		"method p.A.A parent=A line=5-5",
		"method p.A.m parent=A line=7-17",
	)
}

// A script without a package is named after its path; its top-level
// calls belong to the module.
func TestKotlinScript(t *testing.T) {
	f := extractString(t, "build.gradle.kts", `plugins { kotlin("jvm") }
fun helper() = println("x")
helper()
`)
	if f.Module != "build.gradle" {
		t.Errorf("module = %q, want build.gradle", f.Module)
	}
	expectSymbols(t, f, "function build.gradle.helper parent= line=2-2")
	expectCalls(t, f,
		"build.gradle -> plugins @1",
		"build.gradle -> kotlin @1",
		"build.gradle.helper -> println @2",
		"build.gradle -> helper @3",
	)
}

// Gaps of the grammar. An annotation with arguments on its own line at the
// top level is taken for an expression: the declaration and its doc
// comment survive. "class A : I by impl { ... }" takes the body for a
// trailing lambda of impl: no error, the functions in it still count as
// methods, and the signature stops at the brace. "fun interface", which
// the grammar lacks, is read as the interface it is (kotlinFunInterfaces).
func TestKotlinGrammarGaps(t *testing.T) {
	f := extractString(t, "A.kt", `package p

/** Documented. */
@Suppress("UNCHECKED_CAST")
class A

class D : I by impl {
    fun m() {}
}

fun interface Pred { fun test(x: Int): Boolean }

class B { fun after() { done() } }
`)
	if got := symbol(t, f, "p.A").Doc; got != "Documented." {
		t.Errorf("doc of p.A = %q, want %q", got, "Documented.")
	}
	if got := symbol(t, f, "p.D").Signature; got != "class D : I by impl" {
		t.Errorf("signature of p.D = %q, want %q", got, "class D : I by impl")
	}
	if got := symbol(t, f, "p.D.m"); got.Kind != KindMethod || got.Parent != "D" {
		t.Errorf("p.D.m = %s, want a method of D", symbolLine(got))
	}
	if len(f.Errors) != 0 {
		t.Errorf("syntax errors reported: %v", f.Errors)
	}
	if got := symbol(t, f, "p.Pred.test"); got.Parent != "Pred" {
		t.Errorf("p.Pred.test = %s, want a member of Pred", symbolLine(got))
	}
	symbol(t, f, "p.B.after")
	found := false
	for _, c := range f.Calls {
		if c.Name == "done" && c.Caller == "p.B.after" {
			found = true
		}
	}
	if !found {
		t.Errorf("call done() in p.B.after not found in %v", f.Calls)
	}
}

func TestKotlinLanguageOf(t *testing.T) {
	for _, c := range []struct{ path, head string }{
		{"src/A.kt", ""},
		{"build.gradle.kts", ""},
		{"tool", "#!/usr/bin/env kotlin\n"},
	} {
		if l := LanguageOf(c.path, []byte(c.head)); l == nil || l.Name != "kotlin" {
			t.Errorf("LanguageOf(%q, %q) = %v, want kotlin", c.path, c.head, l)
		}
	}
}

func TestKotlinDeclaredTypes(t *testing.T) {
	f := extractString(t, "A.kt", `package a.b
class A(private val s: Service, var y: Foo?) {
    private val foo: Foo = Foo()
    val bar = Bar()
    lateinit var baz: a.b.Baz
    fun m(p: Foo, q: Bar<X>?) {
        val f = Foo()
        var g: Foo? = null
        val h = a.b.Foo()
        val n = 1
        for (e: Foo in xs) {}
        try {} catch (ex: IOException) {}
    }
}
val top: Foo = Foo()
`)
	expectBindings(t, f,
		"a.b.A: s type=Service @2",
		"a.b.A: y type=Foo? @2",
		"a.b.A: foo type=Foo @3",
		"a.b.A: bar = Bar() @4",
		"a.b.A: baz type=a.b.Baz @5",
		"a.b.A.m: p type=Foo @6",
		"a.b.A.m: q type=Bar<X>? @6",
		"a.b.A.m: f = Foo() @7",
		"a.b.A.m: g type=Foo? @8",
		"a.b.A.m: h = a.b.Foo() @9",
		"a.b.A.m: e type=Foo @11",
		"a.b.A.m: ex type=IOException @12",
		"a.b: top type=Foo @15",
	)
}
