package extract

import (
	"testing"
)

func TestCSharpSymbols(t *testing.T) {
	f := extractString(t, "src/Shop.cs", `namespace Acme.Shop;

[Serializable]
public partial class Store<T> where T : class
{
    public Store() { }
    static Store() { }
    ~Store() { }
    public void Add(T item) { }
    public void Add(IEnumerable<T> items)
    {
        int Count(int n) => n;
    }
    public static Store<T> operator +(Store<T> a, T b) => a;
    public static explicit operator T[](Store<T> s) => null;
    public int Size { get; }
    public class Shelf { void Stack() { } }
    private delegate void Changed(T item);
}
public record Item(string Name);
public record struct Money(decimal Amount);
public struct Point { }
public interface IStore { void Put(object o); }
public enum Kind { A, B }
`)
	if f.Module != "Acme.Shop" {
		t.Errorf("module = %q, want Acme.Shop", f.Module)
	}
	expectSymbols(t, f,
		"class Acme.Shop.Store parent= line=4-19",
		"method Acme.Shop.Store.Store parent=Store line=6-6",
		"method Acme.Shop.Store.Store parent=Store line=7-7",
		"method Acme.Shop.Store.~Store parent=Store line=8-8",
		"method Acme.Shop.Store.Add parent=Store line=9-9",
		"method Acme.Shop.Store.Add parent=Store line=10-13",
		"function Acme.Shop.Store.Add.Count parent=Add line=12-12",
		"method Acme.Shop.Store.operator + parent=Store line=14-14",
		"method Acme.Shop.Store.operator T[] parent=Store line=15-15",
		"class Acme.Shop.Store.Shelf parent=Store line=17-17",
		"method Acme.Shop.Store.Shelf.Stack parent=Shelf line=17-17",
		"type Acme.Shop.Store.Changed parent=Store line=18-18",
		"class Acme.Shop.Item parent= line=20-20",
		"struct Acme.Shop.Money parent= line=21-21",
		"struct Acme.Shop.Point parent= line=22-22",
		"interface Acme.Shop.IStore parent= line=23-23",
		"method Acme.Shop.IStore.Put parent=IStore line=23-23",
		"enum Acme.Shop.Kind parent= line=24-24",
	)
}

// Block namespaces are symbols, and the module is empty; the qualified
// names come out as with a file-scoped namespace.
func TestCSharpBlockNamespaces(t *testing.T) {
	f := extractString(t, "src/Shop.cs", `using System;
namespace Acme.Shop
{
    namespace Data
    {
        class Repo { void Load() { Init(); } }
    }
    class Top { }
}
`)
	if f.Module != "" {
		t.Errorf("module = %q, want empty", f.Module)
	}
	expectSymbols(t, f,
		"namespace Acme.Shop parent= line=2-9",
		"namespace Acme.Shop.Data parent=Acme.Shop line=4-7",
		"class Acme.Shop.Data.Repo parent=Data line=6-6",
		"method Acme.Shop.Data.Repo.Load parent=Repo line=6-6",
		"class Acme.Shop.Top parent=Acme.Shop line=8-8",
	)
	expectCalls(t, f, "Acme.Shop.Data.Repo.Load -> Init @6")
}

// Top-level statements have no namespace: the module is the path, and
// their calls belong to it.
func TestCSharpTopLevelStatements(t *testing.T) {
	f := extractString(t, "tools/Program.cs", `using System;
Console.WriteLine(Greet("world"));
static string Greet(string name) => Format(name);
class Helper { }
`)
	if f.Module != "tools.Program" {
		t.Errorf("module = %q, want tools.Program", f.Module)
	}
	expectSymbols(t, f,
		"function tools.Program.Greet parent= line=3-3",
		"class tools.Program.Helper parent= line=4-4",
	)
	expectCalls(t, f,
		"tools.Program -> Console.WriteLine @2",
		"tools.Program -> Greet @2",
		"tools.Program.Greet -> Format @3",
	)
}

func TestCSharpSignatures(t *testing.T) {
	f := extractString(t, "A.cs", `namespace P;
[Obsolete("x")]
[return: NotNull]
public sealed class A<T> : B<T>, IC, ID where T : new()
{
    [HttpGet("/a")]
    public async Task<int> GetAsync(int id,
                                    CancellationToken ct = default) => await Run(id);
    public A(int x) : base(x) { }
    public static int Ext(this string s) => s.Length;
    abstract void Hook();
}
public interface I : IA, IB<int> { }
public record R(int X) : Base(X), I;
public struct S : IEquatable<S> { }
`)
	expectSignatures(t, f, map[string]string{
		"P.A":          "public sealed class A<T> : B<T>, IC, ID where T : new()",
		"P.A.GetAsync": "public async Task<int> GetAsync(int id, CancellationToken ct = default)",
		"P.A.A":        "public A(int x) : base(x)",
		"P.A.Ext":      "public static int Ext(this string s)",
		"P.A.Hook":     "abstract void Hook()",
		"P.R":          "public record R(int X) : Base(X), I",
	})
	expectBases(t, f, map[string]string{
		"P.A": "B<T>,IC,ID",
		"P.I": "IA,IB<int>",
		"P.R": "Base,I",
		"P.S": "IEquatable<S>",
	})
	if got := symbol(t, f, "P.A").StartLine; got != 4 {
		t.Errorf("start line of P.A = %d, want 4", got)
	}
	if got := symbol(t, f, "P.A.GetAsync").StartLine; got != 7 {
		t.Errorf("start line of P.A.GetAsync = %d, want 7", got)
	}
}

func TestCSharpDocs(t *testing.T) {
	f := extractString(t, "A.cs", `namespace P;

/// <summary>
/// Stores <see cref="T:P.Item"/> values &amp; more.
/// </summary>
/// <remarks>Not thread-safe.</remarks>
[Serializable]
public class Store
{
    /// <summary>Finds <paramref name="name"/>; see <see langword="null"/>.</summary>
    /// <param name="name">The name.</param>
    /// <returns>The item.</returns>
    /// <exception cref="ArgumentException">If name is empty.</exception>
    public Item Find(string name) => null;

    // Plain comment.
    public void Plain() { }

    /** Block doc. */
    public void Block() { }

    /// Unterminated <b tag
    public void Odd() { }

    /// <inheritdoc/>
    public override string ToString() => "";

    /// <inheritdoc cref="object.Equals"/>
    public override bool Equals(object o) => false;
}
`)
	for _, c := range []struct{ q, doc string }{
		{"P.Store", "Stores P.Item values & more.\n\nNot thread-safe."},
		{"P.Store.Find", "Finds name; see null.\nname: The name.\nReturns: The item.\nThrows ArgumentException: If name is empty."},
		{"P.Store.Plain", "Plain comment."},
		{"P.Store.Block", "Block doc."},
		{"P.Store.Odd", "Unterminated <b tag"},
		{"P.Store.ToString", "Inherits the documentation of the base member."},
		{"P.Store.Equals", "Inherits the documentation of object.Equals."},
	} {
		if got := symbol(t, f, c.q).Doc; got != c.doc {
			t.Errorf("doc of %s = %q, want %q", c.q, got, c.doc)
		}
	}
}

func TestCSharpExported(t *testing.T) {
	f := extractString(t, "A.cs", `namespace P
{
    public class A
    {
        public void Pub() { }
        protected void Prot() { }
        protected internal void ProtInt() { }
        private protected void PrivProt() { }
        internal void Int() { }
        void Default() { }
        public void Outer() { void Local() { } }
        public class PubNested { public void M() { } }
        class PrivNested { public void M() { } }
    }
    class Hidden { public void M() { } }
    public interface I { void Implicit(); }
    internal struct S { }
}
`)
	want := map[string]bool{
		"P": true, "P.A": true, "P.A.Pub": true, "P.A.Prot": true, "P.A.ProtInt": true,
		"P.A.PrivProt": false, "P.A.Int": false, "P.A.Default": false,
		"P.A.Outer": true, "P.A.Outer.Local": false,
		"P.A.PubNested": true, "P.A.PubNested.M": true,
		"P.A.PrivNested": false, "P.A.PrivNested.M": false,
		"P.Hidden": false, "P.Hidden.M": false,
		"P.I": true, "P.I.Implicit": true, "P.S": false,
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

func TestCSharpImports(t *testing.T) {
	f := extractString(t, "A.cs", `using System;
using System.Collections.Generic;
using static System.Math;
using Json = System.Text.Json.JsonSerializer;
using IntList = System.Collections.Generic.List<int>;
global using System.Linq;
global using static System.Console;
namespace P
{
    using Inner.Stuff;
    class A { }
}
`)
	expectImports(t, f,
		"System @1",
		"System.Collections.Generic @2",
		"System.Math {*} @3",
		"System.Text.Json.JsonSerializer as Json @4",
		"System.Collections.Generic.List<int> as IntList @5",
		"System.Linq @6",
		"System.Console {*} @7",
		"Inner.Stuff @10",
	)
}

func TestCSharpCalls(t *testing.T) {
	f := extractString(t, "A.cs", `namespace P;
class A : B
{
    private readonly Func<int> _f = () => Seed();
    public A() : base(1) { Init(); }
    public A(int x) : this() { }
    int Total => Sum();
    void M(List<int> xs)
    {
        Helper();
        this.Helper();
        base.Helper();
        xs.Where(x => Keep(x)).Select(Map).ToList();
        Generic<int>();
        xs.Cast<long>();
        obj?.Maybe();
        a?.b?.Deep();
        System.Console.WriteLine();
        new Foo();
        new Box<int>(1);
        new System.Text.StringBuilder();
        Action act = delegate { InDelegate(); };
        void Local() { InLocal(); }
    }
}
`)
	expectCalls(t, f,
		"P.A -> Seed @4",
		"P.A.A -> base @5",
		"P.A.A -> Init @5",
		"P.A.A -> this @6",
		"P.A -> Sum @7",
		"P.A.M -> Helper @10",
		"P.A.M -> this.Helper @11",
		"P.A.M -> base.Helper @12",
		"P.A.M -> xs.Where @13",
		"P.A.M -> Keep @13",
		"P.A.M -> xs.Where(x => Keep(x)).Select @13",
		"P.A.M -> xs.Where(x => Keep(x)).Select(Map).ToList @13",
		"P.A.M -> Generic @14",
		"P.A.M -> xs.Cast @15",
		"P.A.M -> obj.Maybe @16",
		"P.A.M -> a?.b.Deep @17",
		"P.A.M -> System.Console.WriteLine @18",
		"P.A.M -> Foo @19",
		"P.A.M -> Box @20",
		"P.A.M -> System.Text.StringBuilder @21",
		"P.A.M -> InDelegate @22",
		"P.A.M.Local -> InLocal @23",
	)
}

// The grammar reads a C# 14 extension block as a constructor named
// "extension"; its members become methods of the static class.
func TestCSharpExtensionBlock(t *testing.T) {
	f := extractString(t, "E.cs", `namespace P;
public static class StringExtensions
{
    extension(string s)
    {
        public int Words() => s.Split(' ').Length;
        private bool Empty() => s.Length == 0;
    }
    public static int Classic(this string s) => s.Length;
}
`)
	expectSymbols(t, f,
		"class P.StringExtensions parent= line=2-10",
		"method P.StringExtensions.Words parent=StringExtensions line=6-6",
		"method P.StringExtensions.Empty parent=StringExtensions line=7-7",
		"method P.StringExtensions.Classic parent=StringExtensions line=9-9",
	)
	expectCalls(t, f, "P.StringExtensions.Words -> s.Split @6")
	if !symbol(t, f, "P.StringExtensions.Words").Exported {
		t.Error("public extension member not exported")
	}
	if symbol(t, f, "P.StringExtensions.Empty").Exported {
		t.Error("private extension member exported")
	}
}

// Syntax errors leave the rest of the file's structure intact.
func TestCSharpSyntaxErrors(t *testing.T) {
	f := extractString(t, "A.cs", `namespace P;
class A
{
    void Broken( { Go(); }
    void After() { Done(); }
}
`)
	if len(f.Errors) == 0 {
		t.Fatal("no syntax errors reported")
	}
	symbol(t, f, "P.A")
	symbol(t, f, "P.A.After")
	found := false
	for _, c := range f.Calls {
		if c.Name == "Done" && c.Caller == "P.A.After" {
			found = true
		}
	}
	if !found {
		t.Errorf("call Done() in P.A.After not found in %v", f.Calls)
	}
}

func TestCSharpDeclaredTypes(t *testing.T) {
	f := extractString(t, "K.cs", `namespace A.B;
class K(Foo pf) : Base {
    private Foo foo, bar = new Bar();
    public Svc Prop { get; set; }
    List<Foo> xs;
    Foo? n;
    int k;
    void M(Foo p, ref Bar<X> q, params Foo[] r, int i) {
        Foo f = new Foo();
        var v = new A.B.Foo();
        var s = Make();
        foreach (Foo e in xs) {}
        try {} catch (IOException ex) {}
        using (Res res = Open()) {}
        global::A.B.Foo z;
    }
}
`)
	expectBindings(t, f,
		"A.B.K: pf type=Foo @2",
		"A.B.K: foo type=Foo @3",
		"A.B.K: bar type=Foo @3",
		"A.B.K: Prop type=Svc @4",
		"A.B.K: xs type=List<Foo> @5",
		"A.B.K: n type=Foo? @6",
		"A.B.K.M: p type=Foo @8",
		"A.B.K.M: q type=Bar<X> @8",
		"A.B.K.M: f type=Foo @9",
		"A.B.K.M: v = new A.B.Foo() @10",
		"A.B.K.M: e type=Foo @12",
		"A.B.K.M: ex type=IOException @13",
		"A.B.K.M: res type=Res @14",
		"A.B.K.M: z type=global::A.B.Foo @15",
	)
}
