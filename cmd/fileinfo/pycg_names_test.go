package main

import (
	"strings"
	"testing"
)

// A lambda bound to a name is a node named by the binding; PyCG names it
// <lambdaN> in its scope.
func TestPyCGLambdaNames(t *testing.T) {
	root := writeTree(t, map[string]string{
		"main.py": "def helper():\n    pass\n\nx = lambda a: helper()\ny = lambda: 1\n\nx(1)\n",
	})
	pycg, _ := pycgOf(t, root)
	if got := strings.Join(pycg["main"], ","); got != "main.<lambda1>" {
		t.Errorf("main → %q", got)
	}
	if got := strings.Join(pycg["main.<lambda1>"], ","); got != "main.helper" {
		t.Errorf("main.<lambda1> → %q", got)
	}
	if _, ok := pycg["main.<lambda2>"]; !ok {
		t.Errorf("the second lambda is a key: %v", pycg)
	}
}

// Builtins and the methods of builtin types are callees in the PyCG
// export, named as the PyCG micro-benchmark names them; so is a method
// of an outside class's instance held in an attribute.
func TestPyCGOutsideNames(t *testing.T) {
	root := writeTree(t, map[string]string{
		"main.py": "import requests\n\n" +
			"class C:\n    def __init__(self):\n        self.s = requests.Session()\n\n" +
			"    def f(self):\n        self.s.get('u')\n\n" +
			"len([1])\n' '.join(['a'])\nd = {}\nd.items()\n",
	})
	pycg, _ := pycgOf(t, root)
	if got, want := strings.Join(pycg["main"], ","), "<**PyDict**>.items,<**PyStr**>.join,<builtin>.len"; got != want {
		t.Errorf("main → %q, want %q", got, want)
	}
	if got := strings.Join(pycg["main.C.f"], ","); got != "requests.Session.get" {
		t.Errorf("main.C.f → %q", got)
	}
}

// A class without __init__ of its own, derived from an outside class,
// calls the outside class's constructor when instantiated (PyCG's
// external/cls_parent); one with its own __init__ calls that.
func TestPyCGOutsideConstructor(t *testing.T) {
	root := writeTree(t, map[string]string{
		"main.py": "from invoke import Program\n\n" +
			"class Fab(Program):\n    pass\n\n" +
			"class Own(Program):\n    def __init__(self):\n        pass\n\n" +
			"def make():\n    Fab()\n    Own()\n",
	})
	pycg, _ := pycgOf(t, root)
	if got, want := strings.Join(pycg["main.make"], ","), "invoke.Program.__init__,main.Own.__init__"; got != want {
		t.Errorf("main.make → %q, want %q", got, want)
	}
}
