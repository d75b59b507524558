package extract

import "testing"

const swiftSrc = `import Foundation

/// Something drawable.
public protocol Drawable: AnyObject {
    func draw(in rect: CGRect)
    init(name: String)
}

open class View: NSObject, Drawable {
    public static let shared = View(name: "root")
    private var children: [View] = []

    public required init(name: String) {
        super.init()
    }

    deinit {
        children.removeAll()
    }

    public func draw(in rect: CGRect) {}

    static func == (lhs: View, rhs: View) -> Bool { lhs === rhs }

    subscript(index: Int) -> View { children[index] }

    struct Layout {
        enum Axis { case x, y }
        func apply() {}
    }
}

extension View: CustomStringConvertible {
    public var description: String { "view" }
    func describe() -> String { description }
}

extension View.Layout {
    func reset() {}
}

extension [View] {
    func drawAll() {}
}

private extension View {
    func hidden() {}
}

fileprivate struct Cache {
    func lookup() {}
}

actor Store {
    func save() {}
}

typealias Views = [View]

func render(_ views: Views) -> Int {
    func count() -> Int { views.count }
    return count()
}
`

func TestSwiftSymbols(t *testing.T) {
	f := extractString(t, "Sources/UIKitLite/View.swift", swiftSrc)
	expectSymbols(t, f,
		"interface UIKitLite.Drawable parent= line=4-7",
		"method UIKitLite.Drawable.draw parent=Drawable line=5-5",
		"method UIKitLite.Drawable.init parent=Drawable line=6-6",
		"class UIKitLite.View parent= line=9-31",
		"method UIKitLite.View.init parent=View line=13-15",
		"method UIKitLite.View.deinit parent=View line=17-19",
		"method UIKitLite.View.draw parent=View line=21-21",
		"method UIKitLite.View.== parent=View line=23-23",
		"method UIKitLite.View.subscript parent=View line=25-25",
		"struct UIKitLite.View.Layout parent=View line=27-30",
		"enum UIKitLite.View.Layout.Axis parent=Layout line=28-28",
		"method UIKitLite.View.Layout.apply parent=Layout line=29-29",
		"method UIKitLite.View.describe parent=View line=35-35",
		"method UIKitLite.View.Layout.reset parent=Layout line=39-39",
		"method UIKitLite.Array.drawAll parent=Array line=43-43",
		"method UIKitLite.View.hidden parent=View line=47-47",
		"struct UIKitLite.Cache parent= line=50-52",
		"method UIKitLite.Cache.lookup parent=Cache line=51-51",
		"class UIKitLite.Store parent= line=54-56",
		"method UIKitLite.Store.save parent=Store line=55-55",
		"type UIKitLite.Views parent= line=58-58",
		"function UIKitLite.render parent= line=60-63",
		"function UIKitLite.render.count parent=render line=61-61",
	)
}

func TestSwiftModules(t *testing.T) {
	for path, want := range map[string]string{
		"Sources/NetKit/Conn.swift":          "NetKit",
		"Sources/NetKit/HTTP/Client.swift":   "NetKit",
		"Tests/NetKitTests/ConnTests.swift":  "NetKitTests",
		"Packages/Core/Sources/Core/A.swift": "Core",
		"MyApp/Views/Home.swift":             "MyApp",
		"main.swift":                         "main",
	} {
		if got := extractString(t, path, "func f() {}\n").Module; got != want {
			t.Errorf("module of %s = %q, want %q", path, got, want)
		}
	}
}

func TestSwiftExportedDocsBases(t *testing.T) {
	f := extractString(t, "Sources/UIKitLite/View.swift", swiftSrc)
	for q, want := range map[string]bool{
		"UIKitLite.View":              true,
		"UIKitLite.View.init":         true,
		"UIKitLite.View.describe":     true, // internal
		"UIKitLite.View.hidden":       false,
		"UIKitLite.Cache":             false,
		"UIKitLite.Cache.lookup":      false,
		"UIKitLite.render.count":      false,
		"UIKitLite.View.Layout.Axis":  true,
		"UIKitLite.Drawable.draw":     true,
		"UIKitLite.Store.save":        true,
		"UIKitLite.View.Layout.reset": true,
		"UIKitLite.Array.drawAll":     true,
		"UIKitLite.View.subscript":    true,
		"UIKitLite.View.deinit":       true,
		"UIKitLite.render":            true,
		"UIKitLite.Views":             true,
		"UIKitLite.View.Layout.apply": true,
		"UIKitLite.View.==":           true,
		"UIKitLite.Drawable":          true,
		"UIKitLite.View.Layout":       true,
		"UIKitLite.Drawable.init":     true,
		"UIKitLite.View.draw":         true,
		"UIKitLite.Store":             true,
	} {
		if got := symbol(t, f, q).Exported; got != want {
			t.Errorf("exported(%s) = %v, want %v", q, got, want)
		}
	}
	if got := symbol(t, f, "UIKitLite.View").Bases; len(got) != 2 || got[0] != "NSObject" || got[1] != "Drawable" {
		t.Errorf("bases of View = %q", got)
	}
	if s := symbol(t, f, "UIKitLite.Drawable"); s.Doc != "Something drawable." || s.Signature != "public protocol Drawable: AnyObject" {
		t.Errorf("Drawable = %+v", s)
	}

	src := `/**
 Loads data.

 - Parameter url: where from.
 */
@discardableResult
public func load(url: URL) async throws -> Data { Data() }

// A plain comment is no documentation.
func plain() {}

/// Doc, then a MARK.
// MARK: - helpers
func marked() {}
`
	g := extractString(t, "Sources/Kit/Load.swift", src)
	for q, want := range map[string]string{
		"Kit.load":   "Loads data.\n\n- Parameter url: where from.",
		"Kit.plain":  "",
		"Kit.marked": "Doc, then a MARK.",
	} {
		if got := symbol(t, g, q).Doc; got != want {
			t.Errorf("doc of %s = %q, want %q", q, got, want)
		}
	}
	if s := symbol(t, g, "Kit.load"); s.StartLine != 7 || s.Signature != "@discardableResult public func load(url: URL) async throws -> Data" {
		t.Errorf("load = %+v", s)
	}
}

func TestSwiftImports(t *testing.T) {
	src := `import Foundation
import Darwin.C
@testable import NetKit
import struct CoreGraphics.CGPoint
import func Darwin.sqrt
`
	expectImports(t, extractString(t, "Sources/App/main.swift", src),
		"Foundation @1",
		"Darwin.C @2",
		"NetKit @3",
		"CoreGraphics {CGPoint} @4",
		"Darwin {sqrt} @5",
	)
}

func TestSwiftCalls(t *testing.T) {
	src := `let shared = makeShared()

final class Loader {
    func run(items: [Item]) async throws {
        defer { cleanup() }
        let first = items[0]
        items.forEach { process($0) }
        try await fetch(first)
        self.log("ok")
        super.run()
        delegate?.didFinish(self)
        let cache = Cache<String>(capacity: 2)
        if !cache.isEmpty() { reset() }
        handler.map { $0.value }.filter { valid($0) }
        notify(.done)
        DispatchQueue.main.async { self.update() }
    }
}
`
	f := extractString(t, "Sources/Kit/Loader.swift", src)
	expectCalls(t, f,
		"Kit -> makeShared @1",
		"Kit.Loader.run -> cleanup @5",
		"Kit.Loader.run -> items.forEach @7",
		"Kit.Loader.run -> process @7",
		"Kit.Loader.run -> fetch @8",
		"Kit.Loader.run -> self.log @9",
		"Kit.Loader.run -> super.run @10",
		"Kit.Loader.run -> delegate.didFinish @11",
		"Kit.Loader.run -> Cache @12",
		"Kit.Loader.run -> cache.isEmpty @13",
		"Kit.Loader.run -> reset @13",
		"Kit.Loader.run -> handler.map @14",
		"Kit.Loader.run -> handler.map { $0.value }.filter @14",
		"Kit.Loader.run -> valid @14",
		"Kit.Loader.run -> notify @15",
		"Kit.Loader.run -> DispatchQueue.main.async @16",
		"Kit.Loader.run -> self.update @16",
	)
}

func TestSwiftSyntaxErrors(t *testing.T) {
	src := `struct Good {
    func ok() {}
}

func broken( {
    let = 
}

class After {
    func fine() {}
}
`
	f := extractString(t, "Sources/Kit/Bad.swift", src)
	if len(f.Errors) == 0 {
		t.Fatal("no syntax errors reported")
	}
	for _, q := range []string{"Kit.Good", "Kit.Good.ok"} {
		symbol(t, f, q)
	}
}
