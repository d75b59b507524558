package extract

import "testing"

const cppHeader = `#pragma once
#include <string>
#include "base.hpp"

namespace app {
namespace detail { int helper(); }

/// A widget on screen.
template <typename T>
class Widget : public Base<T>, protected virtual Observer {
public:
    Widget();
    explicit Widget(T value);
    ~Widget() override;
    Widget(const Widget &) = delete;
    Widget &operator=(const Widget &) = default;
    bool operator==(const Widget &o) const;
    explicit operator bool() const { return ok_; }
    static Widget *make();
    virtual void draw() const = 0;
    template <typename U> U as() const;
    friend void swap(Widget &a, Widget &b);
protected:
    void repaint();
private:
    struct State { int dirty; };
    bool ok_ = false;
};

struct Point { int x, y; int sum() const { return x + y; } };
union Raw { int i; float f; };
enum class Color { Red, Green };
using Callback = void (*)(int);
}

namespace app::io {
class Reader;
}
`

func TestCppSymbols(t *testing.T) {
	f := extractString(t, "ui/widget.hpp", cppHeader)
	expectSymbols(t, f,
		"namespace ui.widget.app parent= line=5-34",
		"namespace ui.widget.app.detail parent=app line=6-6",
		"function ui.widget.app.detail.helper parent=detail line=6-6",
		"class ui.widget.app.Widget parent=app line=10-28",
		"method ui.widget.app.Widget.Widget parent=Widget line=12-12",
		"method ui.widget.app.Widget.Widget parent=Widget line=13-13",
		"method ui.widget.app.Widget.~Widget parent=Widget line=14-14",
		"method ui.widget.app.Widget.operator= parent=Widget line=16-16",
		"method ui.widget.app.Widget.operator== parent=Widget line=17-17",
		"method ui.widget.app.Widget.operator bool parent=Widget line=18-18",
		"method ui.widget.app.Widget.make parent=Widget line=19-19",
		"method ui.widget.app.Widget.draw parent=Widget line=20-20",
		"method ui.widget.app.Widget.as parent=Widget line=21-21",
		"method ui.widget.app.Widget.repaint parent=Widget line=24-24",
		"struct ui.widget.app.Widget.State parent=Widget line=26-26",
		"struct ui.widget.app.Point parent=app line=30-30",
		"method ui.widget.app.Point.sum parent=Point line=30-30",
		"struct ui.widget.app.Raw parent=app line=31-31",
		"enum ui.widget.app.Color parent=app line=32-32",
		"type ui.widget.app.Callback parent=app line=33-33",
		"namespace ui.widget.app.io parent=app line=36-38",
	)
}

func TestCppOutOfLineDefinitions(t *testing.T) {
	src := `#include "widget.hpp"

namespace {
int counter = 0;
void bump() { ++counter; }
}

namespace app {

template <typename T>
Widget<T>::Widget() : ok_(true) {
    bump();
}

template <typename T>
Widget<T>::~Widget() {}

template <typename T>
bool Widget<T>::operator==(const Widget &o) const { return ok_ == o.ok_; }

int detail::helper() { return 42; }

}  // namespace app

void app::Widget<int>::repaint() {}
std::string app::io::Reader::read(int n) { return std::string(n, ' '); }
static void local() {}
`
	f := extractString(t, "ui/widget.cpp", src)
	expectSymbols(t, f,
		"function ui.widget.bump parent= line=5-5",
		"namespace ui.widget.app parent= line=8-23",
		"method ui.widget.app.Widget.Widget parent=Widget line=11-13",
		"method ui.widget.app.Widget.~Widget parent=Widget line=16-16",
		"method ui.widget.app.Widget.operator== parent=Widget line=19-19",
		"method ui.widget.app.detail.helper parent=detail line=21-21",
		"method ui.widget.app.Widget.repaint parent=Widget line=25-25",
		"method ui.widget.app.io.Reader.read parent=Reader line=26-26",
		"function ui.widget.local parent= line=27-27",
	)
	for q, want := range map[string]bool{
		"ui.widget.bump":                  false, // anonymous namespace
		"ui.widget.app.Widget.Widget":     true,
		"ui.widget.app.io.Reader.read":    true,
		"ui.widget.local":                 false, // static
		"ui.widget.app.Widget.operator==": true,
		"ui.widget.app.detail.helper":     true,
		"ui.widget.app.Widget.~Widget":    true,
		"ui.widget.app.Widget.repaint":    true,
		"ui.widget.app":                   true,
	} {
		if got := symbol(t, f, q).Exported; got != want {
			t.Errorf("exported(%s) = %v, want %v", q, got, want)
		}
	}
}

func TestCppDeclarationsOnlyInHeaders(t *testing.T) {
	src := `class Impl {
public:
    void run();
    int size() const { return 0; }
};
void Impl::run() {}
int free_function(int);
`
	expectSymbols(t, extractString(t, "impl.cpp", src),
		"class impl.Impl parent= line=1-5",
		"method impl.Impl.size parent=Impl line=4-4",
		"method impl.Impl.run parent=Impl line=6-6",
	)
	expectSymbols(t, extractString(t, "impl.hh", src),
		"class impl.Impl parent= line=1-5",
		"method impl.Impl.run parent=Impl line=3-3",
		"method impl.Impl.size parent=Impl line=4-4",
		"method impl.Impl.run parent=Impl line=6-6",
		"function impl.free_function parent= line=7-7",
	)
}

func TestCppSignaturesAndDocs(t *testing.T) {
	f := extractString(t, "ui/widget.hpp", cppHeader)
	expectSignatures(t, f, map[string]string{
		"ui.widget.app.Widget":               "template <typename T> class Widget : public Base<T>, protected virtual Observer",
		"ui.widget.app.Widget.as":            "template <typename U> U as() const",
		"ui.widget.app.Widget.draw":          "virtual void draw() const = 0",
		"ui.widget.app.Widget.operator bool": "explicit operator bool() const",
		"ui.widget.app.Callback":             "using Callback = void (*)(int)",
		"ui.widget.app.Color":                "enum class Color",
		"ui.widget.app.io":                   "namespace app::io",
	})
	if got := symbol(t, f, "ui.widget.app.Widget").Doc; got != "A widget on screen." {
		t.Errorf("doc of Widget = %q", got)
	}
	g := extractString(t, "w.cpp", "// Builds it.\nWidget::Widget(int v) : value_(v), ok_(true) {}\n")
	if s := symbol(t, g, "w.Widget.Widget"); s.Signature != "Widget::Widget(int v)" || s.Doc != "Builds it." {
		t.Errorf("constructor = %+v", s)
	}
}

func TestCppExportedAndBases(t *testing.T) {
	f := extractString(t, "ui/widget.hpp", cppHeader)
	for q, want := range map[string]bool{
		"ui.widget.app.Widget":         true,
		"ui.widget.app.Widget.draw":    true,
		"ui.widget.app.Widget.repaint": false, // protected
		"ui.widget.app.Widget.State":   false, // private
		"ui.widget.app.Point.sum":      true,  // struct members are public
		"ui.widget.app.detail.helper":  true,
		"ui.widget.app.Callback":       true,
	} {
		if got := symbol(t, f, q).Exported; got != want {
			t.Errorf("exported(%s) = %v, want %v", q, got, want)
		}
	}
	if got := symbol(t, f, "ui.widget.app.Widget").Bases; len(got) != 2 || got[0] != "Base<T>" || got[1] != "Observer" {
		t.Errorf("bases of Widget = %q", got)
	}
	// A class in a source file is not visible elsewhere, nor its members.
	g := extractString(t, "a.cpp", "class Hidden { public: void f() {} };\nstruct Qt { public slots: void s() {} private: void p() {} };\n")
	for q, want := range map[string]bool{"a.Hidden": false, "a.Hidden.f": false} {
		if got := symbol(t, g, q).Exported; got != want {
			t.Errorf("exported(%s) = %v, want %v", q, got, want)
		}
	}
	h := extractString(t, "qt.h", "class Qt {\npublic slots:\n  void s() {}\nprivate:\n  void p() {}\n};\n")
	if !symbol(t, h, "qt.Qt.s").Exported || symbol(t, h, "qt.Qt.p").Exported {
		t.Errorf("Qt access sections: s should be public, p private")
	}
}

func TestCppCalls(t *testing.T) {
	src := `#include <memory>
static const int kSize = compute(3);

void Engine::run(Task *task) {
    auto done = [this, task](int code) { return finish(task, code); };
    start();
    this->tick(1);
    task->step().then(done);
    queue_.push_back(std::make_unique<Task>(2));
    Engine::instance().log("run");
    core::util::Clock::now();
    auto *w = new Widget(1);
    auto v = cast<int>(3) + static_cast<int>(4.5);
    cfg.get<bool>("x");
    Base::run(task);
}
`
	f := extractString(t, "engine.cpp", src)
	expectCalls(t, f,
		"engine -> compute @2",
		"engine.Engine.run -> finish @5",
		"engine.Engine.run -> start @6",
		"engine.Engine.run -> this.tick @7",
		"engine.Engine.run -> task.step @8",
		"engine.Engine.run -> task->step().then @8",
		"engine.Engine.run -> queue_.push_back @9",
		"engine.Engine.run -> std.make_unique @9",
		"engine.Engine.run -> Engine.instance @10",
		"engine.Engine.run -> Engine::instance().log @10",
		"engine.Engine.run -> Clock.now @11",
		"engine.Engine.run -> Widget @12",
		"engine.Engine.run -> cast @13",
		"engine.Engine.run -> cfg.get @14",
		"engine.Engine.run -> Base.run @15",
	)
}

func TestCppImports(t *testing.T) {
	files := map[string]string{
		"src/app/main.cpp": "#include <vector>\n#include \"app.hpp\"\n#include \"lib/log.h\"\n#include \"nope.hpp\"\n",
		"src/app/app.hpp":  "class App {};\n",
		"lib/log.h":        "namespace log {}\n",
	}
	f := extractTree(t, files, "src/app/main.cpp")
	expectImports(t, f,
		"vector @1",
		"app.hpp => src.app.app @2",
		"lib/log.h => lib.log @3",
		"nope.hpp @4",
	)
}

func TestCppSyntaxErrors(t *testing.T) {
	src := `namespace ok {
class Good { void f() {} };
}
class Broken {
  void g( {
};
int after() { return 1; }
`
	f := extractString(t, "bad.cpp", src)
	if len(f.Errors) == 0 {
		t.Fatal("no syntax errors reported")
	}
	for _, q := range []string{"bad.ok.Good", "bad.ok.Good.f"} {
		symbol(t, f, q)
	}
}

func TestCppGrammarQuirks(t *testing.T) {
	// Members with initialisers parse as pure virtual functions; a
	// noexcept-like macro wraps the declarator in an error; an attribute
	// macro garbles a namespace name. None of them makes a bogus symbol.
	src := `class S {
    unsigned count = 0;
    static R &
    instance() NOEXCEPT_MACRO
    { return r; }
};
inline namespace __v1 __attribute__((__abi_tag__ ("v1"))) { }
`
	f := extractString(t, "q.hpp", src)
	expectSymbols(t, f,
		"class q.S parent= line=1-6",
		"method q.S.instance parent=S line=4-5",
	)
}

// TestCppDeclarations: members declared in their class, prototypes and
// pure virtual members are marked Declaration; defined and defaulted
// members are not.
func TestCppDeclarations(t *testing.T) {
	src := `class Shape {
public:
	virtual double area() const = 0;
	Shape() = default;
	void move(int dx);
	int id() const { return id_; }
};
int helper(int x);
`
	f := extractString(t, "include/shape.hpp", src)
	want := map[string]bool{"Shape.area": true, "Shape.Shape": false, "Shape.move": true, "Shape.id": false, "helper": true}
	for name, decl := range want {
		if s := symbol(t, f, "include.shape."+name); s.Declaration != decl {
			t.Errorf("%s: Declaration %v, want %v", name, s.Declaration, decl)
		}
	}
}
