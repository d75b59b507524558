package extract

import (
	"testing"
)

func TestJavaSymbols(t *testing.T) {
	f := extractString(t, "src/main/java/com/acme/Shop.java", `package com.acme;

@Entity
public class Shop<T> {
    static class Nested {}
    class Inner {
        Inner() {}
    }
    public Shop() {}
    <R> R map(T t) { return null; }
    void map(int i) {}
    void local() {
        class Local {
            void run() {}
        }
        Runnable r = new Runnable() {
            public void run() {}
            class Hidden { void h() {} }
        };
    }
}

interface Api {
    void call();
    default void twice() { call(); call(); }
}

enum Color {
    RED { void paint() {} },
    GREEN;
    Color() {}
}

record Point(int x, int y) {
    Point {}
    static Point origin() { return new Point(0, 0); }
}

@interface Tag {
    String value() default "";
}
`)
	if f.Module != "com.acme" {
		t.Errorf("module = %q, want com.acme", f.Module)
	}
	expectSymbols(t, f,
		"class com.acme.Shop parent= line=4-21",
		"class com.acme.Shop.Nested parent=Shop line=5-5",
		"class com.acme.Shop.Inner parent=Shop line=6-8",
		"method com.acme.Shop.Inner.Inner parent=Inner line=7-7",
		"method com.acme.Shop.Shop parent=Shop line=9-9",
		"method com.acme.Shop.map parent=Shop line=10-10",
		"method com.acme.Shop.map parent=Shop line=11-11",
		"method com.acme.Shop.local parent=Shop line=12-20",
		"class com.acme.Shop.local.Local parent=local line=13-15",
		"method com.acme.Shop.local.Local.run parent=Local line=14-14",
		"interface com.acme.Api parent= line=23-26",
		"method com.acme.Api.call parent=Api line=24-24",
		"method com.acme.Api.twice parent=Api line=25-25",
		"enum com.acme.Color parent= line=28-32",
		"method com.acme.Color.Color parent=Color line=31-31",
		"class com.acme.Point parent= line=34-37",
		"method com.acme.Point.Point parent=Point line=35-35",
		"method com.acme.Point.origin parent=Point line=36-36",
		"interface com.acme.Tag parent= line=39-41",
		"method com.acme.Tag.value parent=Tag line=40-40",
	)
}

func TestJavaSignatures(t *testing.T) {
	f := extractString(t, "A.java", `package p;
@Deprecated(since = "9", forRemoval = true) @SuppressWarnings({"a", "b"})
public abstract class A<T extends Comparable<T>> extends B<T>
        implements C, D<T> {
    @Override
    public <R> R apply(T t,
                       R r) throws IOException {
        return r;
    }
    abstract void hook();
    protected A(int x) { }
}
interface I extends J, K<String> { }
record R(int x) implements I { }
enum E implements I { A }
@interface Ann { int n() default 1; }
`)
	expectSignatures(t, f, map[string]string{
		"p.A":       "public abstract class A<T extends Comparable<T>> extends B<T> implements C, D<T>",
		"p.A.apply": "public <R> R apply(T t, R r) throws IOException",
		"p.A.hook":  "abstract void hook()",
		"p.A.A":     "protected A(int x)",
		"p.I":       "interface I extends J, K<String>",
		"p.R":       "record R(int x) implements I",
		"p.E":       "enum E implements I",
		"p.Ann":     "@interface Ann",
		"p.Ann.n":   "int n() default 1",
	})
	expectBases(t, f, map[string]string{
		"p.A":   "B<T>,C,D<T>",
		"p.I":   "J,K<String>",
		"p.R":   "I",
		"p.E":   "I",
		"p.Ann": "",
	})
	// The name's line, not the annotations'.
	if got := symbol(t, f, "p.A").StartLine; got != 3 {
		t.Errorf("start line of p.A = %d, want 3", got)
	}
	if got := symbol(t, f, "p.A.apply").StartLine; got != 6 {
		t.Errorf("start line of p.A.apply = %d, want 6", got)
	}
}

func TestJavaDocs(t *testing.T) {
	f := extractString(t, "A.java", `package p;

/**
 * A does things.
 *
 * @author me
 */
@Deprecated
public class A {
    /** One line. */
    void one() {}

    // Line comment,
    // two lines.
    void line() {}

    /* Block comment. */
    void block() {}

    /**
     * Annotated.
     */
    @Override
    @SuppressWarnings({
        "x"
    })
    public String toString() { return ""; }

    /** Detached. */

    void detached() {}

    int x; /** Trailing. */ void trailing() {}
}
`)
	for _, c := range []struct{ q, doc string }{
		{"p.A", "A does things.\n\n@author me"},
		{"p.A.one", "One line."},
		{"p.A.line", "Line comment,\ntwo lines."},
		{"p.A.block", "Block comment."},
		{"p.A.toString", "Annotated."},
		{"p.A.detached", "Detached."}, // javac binds a /** */ block across blank lines
		{"p.A.trailing", ""},
	} {
		if got := symbol(t, f, c.q).Doc; got != c.doc {
			t.Errorf("doc of %s = %q, want %q", c.q, got, c.doc)
		}
	}
}

func TestJavaExported(t *testing.T) {
	f := extractString(t, "A.java", `package p;
public class A {
    public void pub() {}
    protected void prot() {}
    void pkg() {}
    private void priv() {}
    public static class PubNested { public void m() {} }
    private static class PrivNested { public void m() {} }
    public void outer() { class Local { public void m() {} } }
}
class Hidden { public void m() {} }
public interface I {
    void implicit();
    private void helper() {}
    class Nested { public void m() {} }
}
public enum E { X; public void m() {} E() {} }
public @interface Ann { int n(); }
`)
	want := map[string]bool{
		"p.A": true, "p.A.pub": true, "p.A.prot": true, "p.A.pkg": false, "p.A.priv": false,
		"p.A.PubNested": true, "p.A.PubNested.m": true,
		"p.A.PrivNested": false, "p.A.PrivNested.m": false,
		"p.A.outer": true, "p.A.outer.Local": false, "p.A.outer.Local.m": false,
		"p.Hidden": false, "p.Hidden.m": false,
		"p.I": true, "p.I.implicit": true, "p.I.helper": false, "p.I.Nested": true, "p.I.Nested.m": true,
		"p.E": true, "p.E.m": true, "p.E.E": false,
		"p.Ann": true, "p.Ann.n": true,
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

func TestJavaImports(t *testing.T) {
	f := extractString(t, "A.java", `package p;
import java.util.List;
import java.util.Map.Entry;
import java.util.concurrent.*;
import static java.lang.Math.max;
import static org.junit.Assert.*;
import  java . io . File ;
class A {}
`)
	expectImports(t, f,
		"java.util {List} @2",
		"java.util.Map {Entry} @3",
		"java.util.concurrent {*} @4",
		"java.lang.Math {max} @5",
		"org.junit.Assert {*} @6",
		"java.io {File} @7",
	)
}

func TestJavaCalls(t *testing.T) {
	f := extractString(t, "A.java", `package p;
class A extends B {
    Runnable r = () -> init();
    A() {
        super(1);
        this.x = make();
    }
    A(int n) {
        this();
    }
    void m(List<String> xs) {
        helper();
        this.helper();
        super.helper();
        xs.stream().map(String::trim).forEach(s -> use(s));
        Collections.<String>emptyList();
        java.util.Objects.hash(1);
        new Foo();
        new Box<>(1);
        new java.util.ArrayList<String>();
        outer.new Inner();
        xs.forEach(this::use);
        Supplier<Foo> s = Foo::new;
        new Thread(new Runnable() {
            public void run() { work(); }
        }).start();
    }
}
`)
	expectCalls(t, f,
		"p.A -> init @3",
		"p.A.A -> super @5",
		"p.A.A -> make @6",
		"p.A.A -> this @9",
		"p.A.m -> helper @12",
		"p.A.m -> this.helper @13",
		"p.A.m -> super.helper @14",
		"p.A.m -> xs.stream @15",
		"p.A.m -> xs.stream().map @15",
		"p.A.m -> String.trim @15",
		"p.A.m -> xs.stream().map(String::trim).forEach @15",
		"p.A.m -> use @15",
		"p.A.m -> Collections.emptyList @16",
		"p.A.m -> java.util.Objects.hash @17",
		"p.A.m -> Foo @18",
		"p.A.m -> Box @19",
		"p.A.m -> java.util.ArrayList @20",
		"p.A.m -> outer.Inner @21",
		"p.A.m -> xs.forEach @22",
		"p.A.m -> this.use @22",
		"p.A.m -> Foo @23",
		"p.A.m -> Thread @24",
		"p.A.m -> Runnable @24",
		"p.A.m -> work @25",
		"p.A.m -> new Thread(new Runnable() { public void run() { work(); } }).start @26",
	)
	// Anonymous class methods are not symbols.
	expectSymbols(t, f,
		"class p.A parent= line=2-28",
		"method p.A.A parent=A line=4-7",
		"method p.A.A parent=A line=8-10",
		"method p.A.m parent=A line=11-27",
	)
}

// A file without a package declaration is named after its path.
func TestJavaDefaultPackage(t *testing.T) {
	f := extractString(t, "scripts/Hello.java", `public class Hello {
    public static void main(String[] args) { System.out.println("hi"); }
}
`)
	if f.Module != "scripts.Hello" {
		t.Errorf("module = %q, want scripts.Hello", f.Module)
	}
	expectSymbols(t, f,
		"class scripts.Hello.Hello parent= line=1-3",
		"method scripts.Hello.Hello.main parent=Hello line=2-2",
	)
}

// Syntax errors leave the rest of the file's structure intact. Unnamed
// patterns in a multi-pattern case label (Java 22) are beyond the grammar.
func TestJavaSyntaxErrors(t *testing.T) {
	f := extractString(t, "A.java", `package p;
class A {
    int size(Object o) {
        return switch (o) {
            case Integer _, Long _ -> 8;
            default -> 1;
        };
    }
    void broken( { go(); }
    void after() { done(); }
}
`)
	if len(f.Errors) == 0 {
		t.Fatal("no syntax errors reported")
	}
	for _, q := range []string{"p.A", "p.A.size", "p.A.after"} {
		symbol(t, f, q)
	}
	found := false
	for _, c := range f.Calls {
		if c.Name == "done" && c.Caller == "p.A.after" {
			found = true
		}
	}
	if !found {
		t.Errorf("call done() in p.A.after not found in %v", f.Calls)
	}
}

func TestJavaDeclaredTypes(t *testing.T) {
	f := extractString(t, "A.java", `package p;
class A {
    private Foo foo, bar = new Bar();
    List<Foo> xs;
    a.b.Foo q;
    int n;
    Foo[] arr;
    void m(Foo p, final Bar<X> q, int k, Foo... rest) {
        Foo f = new Foo();
        var v = new a.b.Foo<>();
        var w = make();
        for (Foo e : xs) {}
        try (Res r = open()) {} catch (IOException ex) {} catch (A | B multi) {}
        if (o instanceof Foo g) {}
    }
    record R(Foo f) {}
}
`)
	expectBindings(t, f,
		"p.A: foo type=Foo @3",
		"p.A: bar type=Foo @3",
		"p.A: xs type=List<Foo> @4",
		"p.A: q type=a.b.Foo @5",
		"p.A.m: p type=Foo @8",
		"p.A.m: q type=Bar<X> @8",
		"p.A.m: f type=Foo @9",
		"p.A.m: v = new a.b.Foo<>() @10",
		"p.A.m: e type=Foo @12",
		"p.A.m: r type=Res @13",
		"p.A.m: ex type=IOException @13",
		"p.A.m: g type=Foo @14",
		"p.A.R: f type=Foo @16",
	)
}
