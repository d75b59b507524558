package extract

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPythonSymbols(t *testing.T) {
	f := extractString(t, "pkg/mod.py", `"""Module."""
import os
from .sib import helper as h

@decorate
class A(Base, metaclass=M):
    """A docstring."""

    @staticmethod
    def s():
        return h()

    async def run(self):
        def inner():
            return os.getcwd()
        cb = lambda: self.s()
        return inner()

    class Nested:
        def m(self): ...

def _private(x):
    # comment between header and body
    return x

print(A.s())
`)
	expectSymbols(t, f,
		"class pkg.mod.A parent= line=6-20",
		"method pkg.mod.A.s parent=A line=10-11",
		"method pkg.mod.A.run parent=A line=13-17",
		"function pkg.mod.A.run.inner parent=run line=14-15",
		"function pkg.mod.A.run.cb parent=run line=16-16", // a lambda bound to a name
		"class pkg.mod.A.Nested parent=A line=19-20",
		"method pkg.mod.A.Nested.m parent=Nested line=20-20",
		"function pkg.mod._private parent= line=22-24",
	)
	expectCalls(t, f,
		"pkg.mod -> decorate @5",
		"pkg.mod.A -> staticmethod @9",
		"pkg.mod.A.s -> h @11",
		"pkg.mod.A.run.inner -> os.getcwd @15",
		"pkg.mod.A.run.cb -> self.s @16",
		"pkg.mod.A.run -> inner @17",
		"pkg.mod -> print @26",
		"pkg.mod -> A.s @26",
	)
	expectImports(t, f, "os @2", ".sib {helper as h} => pkg.sib @3")
	a := symbol(t, f, "pkg.mod.A")
	if a.Doc != "A docstring." || a.Signature != "class A(Base, metaclass=M)" || len(a.Bases) != 1 || a.Bases[0] != "Base" {
		t.Errorf("class A: %+v", a)
	}
	if s := symbol(t, f, "pkg.mod._private"); s.Exported || s.Signature != "def _private(x)" {
		t.Errorf("_private: %+v", s)
	}
	if symbol(t, f, "pkg.mod.A.run.inner").Exported {
		t.Errorf("nested functions are not exported")
	}
}

func TestPythonModules(t *testing.T) {
	for _, tc := range []struct{ path, module, rel, resolved string }{
		{"pkg/__init__.py", "pkg", ".", "pkg"},
		{"pkg/__init__.py", "pkg", "..up", ""},
		{"pkg/sub/mod.py", "pkg.sub.mod", "..x", "pkg.x"},
		{"pkg/sub/mod.py", "pkg.sub.mod", ".", "pkg.sub"},
		{"top.py", "top", "...", ""},
	} {
		f := extractString(t, tc.path, "from "+tc.rel+" import name\n")
		if f.Module != tc.module {
			t.Errorf("%s: module %q, want %q", tc.path, f.Module, tc.module)
		}
		if got := f.Imports[0].Resolved; got != tc.resolved {
			t.Errorf("%s: from %s resolved %q, want %q", tc.path, tc.rel, got, tc.resolved)
		}
	}
}

func TestPythonDocstringCleaning(t *testing.T) {
	f := extractString(t, "d.py", "def f():\n    r'''First line.\n\n        Indented more.\n    Back.\n    '''\n")
	if got, want := symbol(t, f, "d.f").Doc, "First line.\n\n    Indented more.\nBack."; got != want {
		t.Errorf("doc = %q, want %q", got, want)
	}
}

func TestPythonCalledExpressions(t *testing.T) {
	f := extractString(t, "c.py", "def g():\n    pass\nd = {}\ng()()\nd['k'](1, x=2)\nraise E\nraise m.E(1)\n")
	expectCalls(t, f,
		"c -> g @4",
		"c -> g().() @4",
		"c -> d['k'].() @5",
		"c -> E @6",
		"c -> m.E @7",
	)
	if args := f.Calls[2].Args(); len(args) != 2 || args[0] != "1" || args[1] != "x=2" {
		t.Errorf("args = %q", args)
	}
}

func TestPythonImportScope(t *testing.T) {
	f := extractString(t, "m.py", "import os\n\nclass A:\n    import json\n\n    def f(self):\n        from .x import y as cls\n\n        def g():\n            import re\n")
	var got []string
	for _, im := range f.Imports {
		got = append(got, im.Path+"@"+im.Scope)
	}
	if want := "os@ json@m.A .x@m.A.f re@m.A.f.g"; strings.Join(got, " ") != want {
		t.Errorf("imports %v, want %s", got, want)
	}
}

func TestPythonRootPackage(t *testing.T) {
	for _, tc := range []struct {
		dir, init string
		want      []string
	}{
		{"flask", "", []string{"flask", "flask.app"}}, // a package directory
		{"flask", "-", []string{"__init__", "app"}},   // no __init__.py: not a package
		{"my-app", "", []string{"__init__", "app"}},   // not an identifier
	} {
		root := filepath.Join(t.TempDir(), tc.dir)
		files := map[string]string{"app.py": "def f(): pass\n"}
		if tc.init == "" {
			files["__init__.py"] = "from .app import f\n"
		}
		for name, src := range files {
			if err := os.MkdirAll(root, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, name), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		ex, err := New(root, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := ex.All(context.Background())
		ex.Close()
		if err != nil {
			t.Fatal(err)
		}
		var mods []string
		for _, f := range got {
			if f.Module == "" {
				mods = append(mods, pathModule(f.Path))
			} else {
				mods = append(mods, f.Module)
			}
		}
		want := tc.want
		if tc.init == "-" {
			want = want[1:]
		}
		if strings.Join(mods, " ") != strings.Join(want, " ") {
			t.Errorf("%s (init %q): modules %v, want %v", tc.dir, tc.init, mods, want)
		}
	}
}
