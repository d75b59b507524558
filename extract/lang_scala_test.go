package extract

import (
	"testing"
)

func TestScalaSymbols(t *testing.T) {
	f := extractString(t, "src/main/scala/Shop.scala", `package com.acme
package shop

@deprecated("x", "1")
final case class Item[T](name: String) extends Base(name) with Ordered[Item[T]] {
  def this() = this("")
  def compare(that: Item[T]): Int = 0
  def compare(that: String): Int = 1
  class Inner
  object Nested {
    def deep(): Unit = {
      def local(): Int = 1
      val f = (x: Int) => x
    }
  }
}
object Item { def apply(n: String): Item[Int] = new Item[Int](n) }
case object Empty
trait Repo[F[_]] { def find(id: Long): F[Int] }
sealed abstract class Shape
enum Color { case Red, Green }
type Name = String
given ordering: Ordering[Int] = Ordering.Int
given Ordering[String] = Ordering.String
extension [T](xs: List[T]) {
  def second: T = xs(1)
}
def main(args: Array[String]): Unit = {
  val r = new Runnable { def run(): Unit = () }
}
package object util { def helper() = 1 }
`)
	if f.Module != "com.acme.shop" {
		t.Errorf("module = %q, want com.acme.shop", f.Module)
	}
	expectSymbols(t, f,
		"class com.acme.shop.Item parent= line=5-16",
		"method com.acme.shop.Item.Item parent=Item line=6-6",
		"method com.acme.shop.Item.compare parent=Item line=7-7",
		"method com.acme.shop.Item.compare parent=Item line=8-8",
		"class com.acme.shop.Item.Inner parent=Item line=9-9",
		"object com.acme.shop.Item.Nested parent=Item line=10-15",
		"method com.acme.shop.Item.Nested.deep parent=Nested line=11-14",
		"function com.acme.shop.Item.Nested.deep.local parent=deep line=12-12",
		"object com.acme.shop.Item parent= line=17-17",
		"method com.acme.shop.Item.apply parent=Item line=17-17",
		"object com.acme.shop.Empty parent= line=18-18",
		"trait com.acme.shop.Repo parent= line=19-19",
		"method com.acme.shop.Repo.find parent=Repo line=19-19",
		"class com.acme.shop.Shape parent= line=20-20",
		"enum com.acme.shop.Color parent= line=21-21",
		"type com.acme.shop.Name parent= line=22-22",
		"object com.acme.shop.ordering parent= line=23-23",
		"object com.acme.shop.given_Ordering_String parent= line=24-24",
		"method com.acme.shop.List.second parent=List line=26-26",
		"function com.acme.shop.main parent= line=28-30",
		"object com.acme.shop.util parent= line=31-31",
		"method com.acme.shop.util.helper parent=util line=31-31",
	)
}

// In Scala 3's indentation syntax the grammar pulls blank lines and
// comments after a body into it; a declaration still ends on its last
// token.
func TestScalaIndentation(t *testing.T) {
	f := extractString(t, "A.scala", `package p

trait T:
  /** a */
  def a: Int

  /** b */
  def b: Int

object O:
  def f(x: Int) =
    val y = x + 1
    g(y)

  // trailing

  def g(y: Int) = y
end O

class C {
  def h =
    1

  // c
}
`)
	expectSymbols(t, f,
		"trait p.T parent= line=3-8",
		"method p.T.a parent=T line=5-5",
		"method p.T.b parent=T line=8-8",
		"object p.O parent= line=10-17",
		"method p.O.f parent=O line=11-13",
		"method p.O.g parent=O line=17-17",
		"class p.C parent= line=20-25",
		"method p.C.h parent=C line=21-22",
	)
	expectSignatures(t, f, map[string]string{
		"p.T.a": "def a: Int",
		"p.O.f": "def f(x: Int)",
		"p.C.h": "def h",
	})
	if !symbol(t, f, "p.O.f").Exported {
		t.Error("p.O.f not exported")
	}
	expectCalls(t, f, "p.O.f -> g @13")
}

func TestScalaModule(t *testing.T) {
	for _, c := range []struct{ path, src, want string }{
		{"a.scala", "package a.b\nclass X\n", "a.b"},
		{"a.scala", "/* header */\npackage a\n// more\npackage b.c;\n\nimport x.y\nclass X\n", "a.b.c"},
		{"a.scala", "package a\npackage object b { def f = 1 }\n", "a"},
		{"a.scala", "package a.b {\n  class X\n}\n", "a.b"},
		{"scripts/run.sc", "println(\"hi\")\n", "scripts.run"},
	} {
		if got := extractString(t, c.path, c.src).Module; got != c.want {
			t.Errorf("module of %q = %q, want %q", c.src, got, c.want)
		}
	}
}

func TestScalaSignatures(t *testing.T) {
	f := extractString(t, "A.scala", `package p

@deprecated("x", since = "1") @inline
class A[T <: AnyRef](x: Int)(implicit ec: EC)
    extends B[T](x)
    with C
    with D {
  @throws[IOException]("io")
  override def apply[R](t: T,
                        r: R): R = r
  def proc() { go() }
  def abs: Int
}
trait I extends J with K[String]
object O extends I
enum E(val n: Int) extends I { case X extends E(1) }
`)
	expectSignatures(t, f, map[string]string{
		"p.A":       "class A[T <: AnyRef](x: Int)(implicit ec: EC) extends B[T](x) with C with D",
		"p.A.apply": "override def apply[R](t: T, r: R): R",
		"p.A.proc":  "def proc()",
		"p.A.abs":   "def abs: Int",
		"p.I":       "trait I extends J with K[String]",
		"p.O":       "object O extends I",
	})
	expectBases(t, f, map[string]string{
		"p.A": "B[T],C,D",
		"p.I": "J,K[String]",
		"p.O": "I",
		"p.E": "I",
	})
	if got := symbol(t, f, "p.A").StartLine; got != 4 {
		t.Errorf("start line of p.A = %d, want 4", got)
	}
	if got := symbol(t, f, "p.A.apply").StartLine; got != 9 {
		t.Errorf("start line of p.A.apply = %d, want 9", got)
	}
}

func TestScalaDocs(t *testing.T) {
	f := extractString(t, "A.scala", `package p

/** A does things.
  *
  * @param x the x
  */
@deprecated("old", "1")
class A(x: Int) {
  /** One line. */
  def one(): Unit = ()

  // Line comment,
  // two lines.
  def line(): Unit = ()

  /** Detached. */

  def detached(): Unit = ()
}
`)
	for _, c := range []struct{ q, doc string }{
		{"p.A", "A does things.\n\n@param x the x"},
		{"p.A.one", "One line."},
		{"p.A.line", "Line comment,\ntwo lines."},
		{"p.A.detached", ""},
	} {
		if got := symbol(t, f, c.q).Doc; got != c.doc {
			t.Errorf("doc of %s = %q, want %q", c.q, got, c.doc)
		}
	}
}

func TestScalaExported(t *testing.T) {
	f := extractString(t, "A.scala", `package p
class A {
  def pub(): Unit = ()
  protected def prot(): Unit = ()
  private def priv(): Unit = ()
  private[p] def scoped(): Unit = ()
  private[this] def mine(): Unit = ()
  def outer(): Unit = { def local(): Unit = () }
  private class Hidden { def m(): Unit = () }
}
private object Secret { def m(): Unit = () }
`)
	want := map[string]bool{
		"p.A": true, "p.A.pub": true, "p.A.prot": true, "p.A.priv": false,
		"p.A.scoped": false, "p.A.mine": false, "p.A.outer": true, "p.A.outer.local": false,
		"p.A.Hidden": false, "p.A.Hidden.m": false, "p.Secret": false, "p.Secret.m": false,
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

func TestScalaImports(t *testing.T) {
	f := extractString(t, "A.scala", `package p
import scala.collection.mutable
import scala.util.{Try, Success => Ok, Failure => _, _}
import java.util._
import a.b.c.*
import a.b.given
import x.Y, z.W
import com.acme.{Logger as Log, given}
import com.acme.Logger as Log2
class A {
  import A._
}
`)
	expectImports(t, f,
		"scala.collection {mutable} @2",
		"scala.util {Try, Success as Ok, Failure as _, *} @3",
		"java.util {*} @4",
		"a.b.c {*} @5",
		"a.b {given} @6",
		"x {Y} @7",
		"z {W} @7",
		"com.acme {Logger as Log, given} @8",
		"com.acme {Logger as Log2} @9",
		"A {*} @11",
	)
}

func TestScalaCalls(t *testing.T) {
	f := extractString(t, "A.scala", `package p

class A(x: Int) extends Base(x) with Iface {
  private val f = () => seed()
  def this() = this(0)
  init()
  def m(xs: List[Int]): Unit = {
    helper()
    this.helper()
    super.helper()
    xs.filter(keep).map(x => convert(x)).foreach { y => use(y) }
    xs map double
    identity[Int](1)
    xs.foldLeft[Int](0)(_ + _)
    new Foo
    new Box[Int](1)
    new scala.collection.mutable.ArrayBuffer[Int]()
    val r = new Runnable { def run(): Unit = work() }
    xs.size
  }
}

val top = compute()
`)
	expectCalls(t, f,
		"p.A -> Base @3",
		"p.A -> seed @4",
		"p.A.A -> this @5",
		"p.A -> init @6",
		"p.A.m -> helper @8",
		"p.A.m -> this.helper @9",
		"p.A.m -> super.helper @10",
		"p.A.m -> xs.filter @11",
		"p.A.m -> xs.filter(keep).map @11",
		"p.A.m -> convert @11",
		"p.A.m -> xs.filter(keep).map(x => convert(x)).foreach @11",
		"p.A.m -> use @11",
		"p.A.m -> xs.map @12",
		"p.A.m -> identity @13",
		"p.A.m -> xs.foldLeft @14",
		"p.A.m -> Foo @15",
		"p.A.m -> Box @16",
		"p.A.m -> scala.collection.mutable.ArrayBuffer @17",
		"p.A.m -> Runnable @18",
		"p.A.m -> work @18",
		"p -> compute @23",
	)
	// Anonymous class members are not symbols.
	expectSymbols(t, f,
		"class p.A parent= line=3-21",
		"method p.A.A parent=A line=5-5",
		"method p.A.m parent=A line=7-20",
	)
}

// An anonymous given with a template body ("given Ordering[T] with
// { ... }") is beyond the grammar: a syntax error. What comes before it is
// intact; after it, definitions and calls survive without their object.
func TestScalaSyntaxErrors(t *testing.T) {
	f := extractString(t, "A.scala", `package p
object A { def before(): Unit = go() }
given Ordering[Int] with { def compare(a: Int, b: Int) = 0 }

object B {
  def after(): Unit = done()
}
`)
	if len(f.Errors) == 0 {
		t.Fatal("no syntax errors reported")
	}
	symbol(t, f, "p.A.before")
	symbol(t, f, "p.after")
	expectCalls(t, f,
		"p.A.before -> go @2",
		"p.after -> done @6",
	)
}

func TestScalaLanguageOf(t *testing.T) {
	for _, c := range []struct{ path, head string }{
		{"src/A.scala", ""},
		{"build.sc", ""},
		{"tool", "#!/usr/bin/env -S scala-cli shebang\n"},
		{"tool", "#!/usr/bin/env amm\n"},
	} {
		if l := LanguageOf(c.path, []byte(c.head)); l == nil || l.Name != "scala" {
			t.Errorf("LanguageOf(%q, %q) = %v, want scala", c.path, c.head, l)
		}
	}
}
