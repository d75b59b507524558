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
