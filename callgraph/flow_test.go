package callgraph

import (
	"strings"
	"testing"
)

func TestPythonFlow(t *testing.T) {
	g := buildArchive(t, `
-- m.py --
def target():
    pass

def other():
    pass

def returns_target():
    return target

def takes(cb):
    cb()

def dec(f):
    def inner():
        f()
    return inner

@dec
def decorated():
    pass

class K:
    def __init__(self):
        self.handler = other

    def run(self):
        self.handler()

alias = target
alias()
returns_target()()
takes(target)
takes(cb=other)
decorated()
table = {"a": target, "b": other}
table["a"]()
K().run()
`)
	expectCallees(t, g, "m",
		"m.target:local", "m.target:receiver", "m.returns_target:local", "m.takes:local",
		"m.dec:local", "m.dec.inner:local", "m.K.__init__:constructor", "m.K.run:receiver",
	)
	expectCallees(t, g, "m.takes", "m.target:local", "m.other:local")
	expectCallees(t, g, "m.dec.inner", "m.decorated:local")
	expectCallees(t, g, "m.K.run", "m.other:receiver")
}

// TestPythonDecoratorStack checks that stacked decorators apply bottom up:
// `@outer @inner def f` is outer(inner(f)).
func TestPythonDecoratorStack(t *testing.T) {
	g := buildArchive(t, `
-- m.py --
def outer(f):
    def wrap_outer():
        return f()
    return wrap_outer

def inner(f):
    def wrap_inner():
        return f()
    return wrap_inner

@outer
@inner
def f():
    pass

f()
`)
	expectCallees(t, g, "m.outer.wrap_outer", "m.inner.wrap_inner:local")
	expectCallees(t, g, "m.inner.wrap_inner", "m.f:local")
}

// TestPythonDestructuring checks nested and starred tuple assignments.
func TestPythonDestructuring(t *testing.T) {
	g := buildArchive(t, `
-- m.py --
def f1():
    pass

def f2():
    pass

def f3():
    pass

def f4():
    pass

def nested():
    a, (b, [c, d]) = f1, (f2, [f3, f4])
    d()

def starred():
    first, *middle, last = f1, f2, f3, f4
    middle[1]()
    last()

def unknown(pair):
    x, y = pair
    x()
`)
	expectCallees(t, g, "m.nested", "m.f4:local")
	expectCallees(t, g, "m.starred", "m.f3:receiver", "m.f4:local")
}

// TestPythonIteration checks that a for loop over an instance calls its
// class's __iter__ and the __next__ of the iterator that returns, and
// that the loop variable takes what __next__ returns.
func TestPythonIteration(t *testing.T) {
	g := buildArchive(t, `
-- m.py --
def item():
    pass

class Counter:
    def __next__(self):
        return item

class Numbers:
    def __iter__(self):
        return Counter()

def loop(n):
    for x in n:
        x()

def main():
    loop(Numbers())
    for y in [item]:
        y()
`)
	expectCallees(t, g, "m.loop", "m.Numbers.__iter__:receiver", "m.Counter.__next__:receiver", "m.item:local")
	expectCallees(t, g, "m.main", "m.loop:local", "m.Numbers:constructor", "m.item:local")
}

// TestPythonArgumentsAcrossModules checks that a function passed to a
// function of another module, one without assignments, reaches its
// parameter.
func TestPythonArgumentsAcrossModules(t *testing.T) {
	g := buildArchive(t, `
-- lib.py --
def apply(fn):
    fn()
-- main.py --
from lib import apply

def callback():
    pass

apply(callback)
`)
	expectCallees(t, g, "lib.apply", "main.callback:local")
}

// TestPythonBoundMethodValue checks that a bound method called through a
// parameter takes its arguments after self.
func TestPythonBoundMethodValue(t *testing.T) {
	g := buildArchive(t, `
-- m.py --
class K:
    def target(self):
        pass

    def receive(self, f):
        f()

    def call(self, cb, arg):
        cb(arg)

k = K()
k.call(k.receive, k.target)
`)
	expectCallees(t, g, "m.K.receive", "m.K.target:local")
}

// TestPythonExternalValues checks that calls through names holding what
// an import brings from outside the repository say what they call.
func TestPythonExternalValues(t *testing.T) {
	g := buildArchive(t, `
-- m.py --
from ext import Cls, function, Base

def use(cb):
    cb()

obj = Cls()
obj.fun()
alias = function
alias()
use(obj.other)

class Child(Base):
    def run(self):
        self.inherited()
`)
	expectUnresolved(t, g, "m", "fun", "external: ext.Cls.fun")
	expectUnresolved(t, g, "m", "alias", "external: ext.function")
	expectUnresolved(t, g, "m.use", "cb", "external: ext.Cls.other")
	expectUnresolved(t, g, "m.Child.run", "inherited", "external: ext.Base.inherited")
}

// TestPythonExternalValuesBounded checks that names walking a structure
// from outside (n = n.left; n = n.right) do not grow without bound: each
// round of the fixpoint would double them.
func TestPythonExternalValuesBounded(t *testing.T) {
	g := buildArchive(t, `
-- m.py --
from ext import Node

n = Node()
while n:
    n = n.left
    n = n.right
n.value()
`)
	for _, u := range g.Unresolved() {
		if u.Name == "value" {
			if k := strings.Count(u.Reason, ", ") + 1; k > maxExt || len(u.Reason) > 1000 {
				t.Errorf("reason names %d externals (%d bytes)", k, len(u.Reason))
			}
			return
		}
	}
	t.Error("no unresolved call of value")
}
