package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// A lambda bound to a name is a node named by the binding; PyCG names it
// <lambdaN> in its scope.
func TestPyCGLambdaNames(t *testing.T) {
	root := writeTree(t, map[string]string{
		"main.py": "def helper():\n    pass\n\nx = lambda a: helper()\ny = lambda: 1\n\nx(1)\n",
	})
	code, stdout, stderr := runCLI(t, "callgraph", "--format", "pycg", "--root", root)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var pycg map[string][]string
	if err := json.Unmarshal([]byte(stdout), &pycg); err != nil {
		t.Fatal(err)
	}
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
