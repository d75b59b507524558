package callgraph

import (
	"fmt"
	"strings"
	"testing"
)

// Java, C# and Kotlin: one archive per rule, each naming the resolution
// it expects.

func TestJavaResolution(t *testing.T) {
	t.Run("same package", func(t *testing.T) {
		g := buildArchive(t, `
-- src/a/b/Helper.java --
package a.b;
public class Helper {
    public static void util() {}
}
-- src/a/b/Made.java --
package a.b;
public class Made {
    public Made() {}
}
-- src/a/b/Main.java --
package a.b;
public class Main {
    void run() {
        new Helper();
        new Made();
        Helper.util();
    }
}
`)
		expectCallees(t, g, "a.b.Main.run", "a.b.Helper:constructor", "a.b.Made.Made:constructor", "a.b.Helper.util:local")
	})

	t.Run("imports", func(t *testing.T) {
		g := buildArchive(t, `
-- src/a/b/Helper.java --
package a.b;
public class Helper {
    public static void util() {}
    public static void other() {}
}
-- src/a/c/Tool.java --
package a.c;
public class Tool {
    public static void use() {}
}
-- src/a/d/Statics.java --
package a.d;
public class Statics {
    public static void any() {}
}
-- src/x/Main.java --
package x;
import a.b.Helper;
import a.c.*;
import static a.b.Helper.other;
import static a.d.Statics.*;
public class Main {
    void run() {
        Helper.util();
        new Tool();
        Tool.use();
        other();
        any();
        a.b.Helper.util();
        new a.c.Tool();
    }
}
`)
		expectCallees(t, g, "x.Main.run",
			"a.b.Helper.util:import", "a.c.Tool:constructor", "a.c.Tool.use:import",
			"a.b.Helper.other:import", "a.d.Statics.any:import")
	})

	t.Run("class scope and inheritance", func(t *testing.T) {
		g := buildArchive(t, `
-- src/p/Base.java --
package p;
public class Base {
    public Base() {}
    protected void setup() {}
    protected void shared() {}
}
-- src/q/Child.java --
package q;
import p.Base;
public class Child extends Base {
    public Child() { super(); }
    public Child(int x) { this(); }
    protected void setup() {
        super.setup();
        this.shared();
        shared();
        own();
        new Base();
    }
    private void own() { getClass(); }
}
`)
		expectCallees(t, g, "q.Child.setup",
			"p.Base.setup:inherited", "p.Base.shared:inherited", "q.Child.own:local", "p.Base.Base:constructor")
		expectCallees(t, g, "q.Child.Child", "p.Base.Base:constructor", "q.Child.Child:constructor")
		expectUnresolved(t, g, "q.Child.own", "getClass", "not defined")
	})

	t.Run("declared types", func(t *testing.T) {
		g := buildArchive(t, `
-- src/p/Repo.java --
package p;
public class Repo {
    public void save() {}
    public Repo child() { return this; }
}
-- src/p/Other.java --
package p;
public class Other {
    public void save() {}
}
-- src/p/Main.java --
package p;
import java.util.List;
public class Main {
    private Repo repo;
    private List<Repo> all;
    void run(Repo param, String s) {
        Repo local = new Repo();
        var inferred = new Repo();
        local.save();
        inferred.save();
        param.save();
        repo.save();
        this.repo.save();
        all.add(local);
        s.save();
        for (Repo r : all) { r.child(); }
    }
}
`)
		expectCallees(t, g, "p.Main.run", "p.Repo:constructor", "p.Repo.save:receiver", "p.Repo.child:receiver")
		expectUnresolved(t, g, "p.Main.run", "add", "receiver type List is not in the repository")
		expectUnresolved(t, g, "p.Main.run", "save", "receiver type String is not in the repository")
	})

	t.Run("interfaces", func(t *testing.T) {
		g := buildArchive(t, `
-- src/p/Shape.java --
package p;
public interface Shape {
    double area();
}
-- src/p/Square.java --
package p;
public class Square implements Shape {
    public double area() { return 1; }
}
-- src/p/Circle.java --
package p;
public abstract class Circle implements Shape {
    public double area() { return 3; }
}
-- src/p/Ring.java --
package p;
public class Ring extends Circle {
    public double area() { return 2; }
}
-- src/p/Use.java --
package p;
public class Use {
    double total(Shape s, Square q) {
        return s.area() + q.area();
    }
}
`)
		expectCallees(t, g, "p.Use.total",
			"p.Shape.area:interface", "p.Square.area:interface", "p.Circle.area:interface", "p.Ring.area:interface",
			"p.Square.area:receiver")
	})

	t.Run("nested classes", func(t *testing.T) {
		g := buildArchive(t, `
-- src/p/Outer.java --
package p;
public class Outer {
    void helper() {}
    static class Nested {
        static void make() {}
    }
    class Inner {
        void work() { helper(); }
    }
    void run() {
        Inner i = new Inner();
        i.work();
        Nested.make();
    }
}
-- src/p/User.java --
package p;
public class User {
    void use() { Outer.Nested.make(); }
}
`)
		expectCallees(t, g, "p.Outer.Inner.work", "p.Outer.helper:local")
		expectCallees(t, g, "p.Outer.run", "p.Outer.Inner:constructor", "p.Outer.Inner.work:receiver", "p.Outer.Nested.make:local")
		expectCallees(t, g, "p.User.use", "p.Outer.Nested.make:local")
	})
}

func TestCSharpResolution(t *testing.T) {
	t.Run("namespaces and usings", func(t *testing.T) {
		g := buildArchive(t, `
-- Core/Tools.cs --
namespace Acme.Core
{
    public class Tools
    {
        public static void Util() {}
    }
    public class Made
    {
        public Made() {}
    }
}
-- App/Helper.cs --
namespace Acme.App;
public class Helper
{
    public static void Static() {}
}
-- App/Sibling.cs --
namespace Acme.App
{
    public class Sibling
    {
        public static void Near() {}
    }
}
-- App/Main.cs --
using Acme.Core;
using T = Acme.Core.Tools;
namespace Acme.App;
public class Main
{
    void Run()
    {
        Helper.Static();
        Sibling.Near();
        Tools.Util();
        T.Util();
        new Made();
        Acme.Core.Tools.Util();
    }
}
`)
		expectCallees(t, g, "Acme.App.Main.Run",
			"Acme.App.Helper.Static:local", "Acme.App.Sibling.Near:local", "Acme.Core.Tools.Util:import", "Acme.Core.Made.Made:constructor")
	})

	t.Run("this base and constructors", func(t *testing.T) {
		g := buildArchive(t, `
-- Base.cs --
namespace Acme;
public class Base
{
    public Base(int x) {}
    public virtual void Setup() {}
    public void Shared() {}
}
-- Child.cs --
namespace Acme;
public class Child : Base
{
    public Child() : base(1) {}
    public Child(int y) : this() {}
    public override void Setup()
    {
        base.Setup();
        this.Shared();
        Shared();
        Own();
    }
    void Own() {}
}
`)
		expectCallees(t, g, "Acme.Child.Setup", "Acme.Base.Setup:inherited", "Acme.Base.Shared:inherited", "Acme.Child.Own:local")
		expectCallees(t, g, "Acme.Child.Child", "Acme.Base.Base:constructor", "Acme.Child.Child:constructor")
	})

	t.Run("declared types and interfaces", func(t *testing.T) {
		g := buildArchive(t, `
-- Store.cs --
namespace Acme;
public interface IStore { void Put(); }
public class Store : IStore
{
    public void Put() {}
    public void Flush() {}
}
public static class StoreExtensions
{
    public static void Dump(this Store s) {}
}
-- Use.cs --
using System.Text;
namespace Acme;
public class Use
{
    private IStore store;
    public Store Current { get; set; }
    void Run(Store param, StringBuilder sb)
    {
        var made = new Store();
        Store typed = made;
        made.Flush();
        typed.Flush();
        param.Dump();
        Current.Flush();
        store.Put();
        sb.Append();
    }
}
`)
		expectCallees(t, g, "Acme.Use.Run",
			"Acme.Store:constructor", "Acme.Store.Flush:receiver", "Acme.StoreExtensions.Dump:receiver",
			"Acme.IStore.Put:interface", "Acme.Store.Put:interface")
		expectUnresolved(t, g, "Acme.Use.Run", "Append", "receiver type StringBuilder is not in the repository")
	})
}

func TestKotlinResolution(t *testing.T) {
	t.Run("packages and imports", func(t *testing.T) {
		g := buildArchive(t, `
-- core/Util.kt --
package acme.core

fun topUtil() {}
fun renamed() {}
class Tool
-- core/More.kt --
package acme.core

fun samePackage() { topUtil() }
-- app/Main.kt --
package acme.app

import acme.core.Tool
import acme.core.*
import acme.core.renamed as r

fun main() {
    Tool()
    topUtil()
    r()
}
`)
		expectCallees(t, g, "acme.core.samePackage", "acme.core.topUtil:local")
		expectCallees(t, g, "acme.app.main", "acme.core.Tool:constructor", "acme.core.topUtil:import", "acme.core.renamed:import")
	})

	t.Run("classes objects and companions", func(t *testing.T) {
		g := buildArchive(t, `
-- Base.kt --
package acme

open class Base(val x: Int) {
    constructor() : this(0)
    open fun setup() {}
    fun shared() {}
}

object Registry {
    fun register() {}
}

class Factory {
    companion object {
        fun create(): Factory = Factory()
    }
    fun build() { create() }
}
-- Child.kt --
package acme

class Child : Base(1) {
    override fun setup() {
        super.setup()
        this.shared()
        shared()
        Registry.register()
        Factory.create()
    }
}
`)
		// Base(1) may reach the primary constructor (the class) or the
		// secondary one: arity is not compared.
		expectCallees(t, g, "acme.Child", "acme.Base:constructor", "acme.Base.Base:constructor")
		expectCallees(t, g, "acme.Base.Base", "acme.Base:constructor")
		expectCallees(t, g, "acme.Child.setup",
			"acme.Base.setup:inherited", "acme.Base.shared:inherited", "acme.Registry.register:local", "acme.Factory.Companion.create:local")
		expectCallees(t, g, "acme.Factory.build", "acme.Factory.Companion.create:local")
	})

	t.Run("declared types and interfaces", func(t *testing.T) {
		g := buildArchive(t, `
-- Service.kt --
package acme

interface Service { fun serve() }
class Impl : Service {
    override fun serve() {}
    fun close() {}
}
-- Other.kt --
package acme

class Other { fun close() {} }
-- Ext.kt --
package acme.ext

fun String.shout() {}
-- Main.kt --
package acme

import acme.ext.shout

class Main(private val svc: Service) {
    lateinit var impl: Impl

    fun run(p: Impl?) {
        val made = Impl()
        made.close()
        p?.close()
        impl.close()
        svc.serve()
        val s: String = "x"
        s.shout()
        s.trim()
    }
}
`)
		expectCallees(t, g, "acme.Main.run",
			"acme.Impl:constructor", "acme.Impl.close:receiver", "acme.ext.String.shout:receiver",
			"acme.Service.serve:interface", "acme.Impl.serve:interface")
		expectUnresolved(t, g, "acme.Main.run", "trim", "receiver type String is not in the repository")
	})
}

func TestCSharpLibraryTypes(t *testing.T) {
	g := buildArchive(t, `
-- Acme/Writer.cs --
using Lib;
namespace Acme
{
    public class TreeWriter : IWriter
    {
        public void Begin() {}
    }
    public static class WriterExtensions
    {
        public static void Put(this IWriter w, int x) {}
        public static void Put(this IWriter w, string x) {}
        public static void Named(this ISymbol s) {}
    }
}
-- Acme/Use.cs --
using Lib;
namespace Acme
{
    public class Use
    {
        void Run(IWriter w, INamedSymbol s, IOther o)
        {
            w.Begin();
            w.Put(1);
            s.Named();
            o.Begin();
        }
    }
}
`)
	// IWriter is a library interface: TreeWriter implements it here, and
	// Put extends it. INamedSymbol is not ISymbol as written, but Named
	// is the only extension method of that name.
	expectCallees(t, g, "Acme.Use.Run",
		"Acme.TreeWriter.Begin:interface", "Acme.WriterExtensions.Put:receiver", "Acme.WriterExtensions.Named:name")
	expectUnresolved(t, g, "Acme.Use.Run", "Begin", "receiver type IOther is not in the repository")
}

// TestCSharpTypeNamedLikeItsPath: a block-namespace file's module is its
// path, which can be the qualified name of the type it declares.
func TestCSharpTypeNamedLikeItsPath(t *testing.T) {
	g := buildArchive(t, `
-- Acme/Point.cs --
namespace Acme
{
    public struct Point
    {
        public Point(int x) : this() {}
        public static Point Origin() { return new Point(0); }
    }
}
-- Acme/Use.cs --
namespace Acme
{
    public class Use
    {
        void Run() { Point.Origin(); }
    }
}
`)
	// this() is the implicit parameterless constructor: the struct.
	expectCallees(t, g, "Acme.Point.Point", "Acme.Point:constructor")
	expectCallees(t, g, "Acme.Use.Run", "Acme.Point.Origin:local")
}

// TestInterfaceImplementationsAreBounded: past maxImplementations, a
// call through an interface reaches the interface method alone.
func TestInterfaceImplementationsAreBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("-- src/p/Sink.java --\npackage p;\npublic interface Sink { void accept(); }\n")
	for i := 0; i <= maxImplementations; i++ {
		fmt.Fprintf(&b, "-- src/p/S%d.java --\npackage p;\nclass S%d implements Sink { public void accept() {} }\n", i, i)
	}
	b.WriteString("-- src/p/Use.java --\npackage p;\nclass Use { void run(Sink s) { s.accept(); } }\n")
	g := buildArchive(t, b.String())
	expectCallees(t, g, "p.Use.run", "p.Sink.accept:interface")
}
