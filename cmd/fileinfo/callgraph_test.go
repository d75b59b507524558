package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, src := range files {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestCallgraphCommand(t *testing.T) {
	root := writeTree(t, map[string]string{
		"main.py": "from lib import f\n\ndef g():\n    f()\n\ng()\n",
		"lib.py":  "def f():\n    pass\n\nclass K:\n    def f(self):\n        pass\n",
	})
	code, stdout, stderr := runCLI(t, "callgraph", "--format", "pycg", "--root", root)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var pycg map[string][]string
	if err := json.Unmarshal([]byte(stdout), &pycg); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(pycg["main.g"], ","); got != "lib.f" {
		t.Errorf("main.g → %q", got)
	}
	if got := strings.Join(pycg["main"], ","); got != "main.g" {
		t.Errorf("main → %q", got)
	}
	if _, ok := pycg["lib.K.f"]; !ok {
		t.Errorf("every function is a key: %v", pycg)
	}
	// The PyCG scorer passes the directory as the last argument.
	if code, stdout2, _ := runCLI(t, "callgraph", "--format", "pycg", root); code != 0 || stdout2 != stdout {
		t.Errorf("directory argument form differs")
	}

	code, stdout, _ = runCLI(t, "callgraph", "--root", root)
	var js struct {
		Nodes []struct{ Qualified string }
		Edges []struct {
			Caller, Callee, Resolution string
			Line                       int
		}
		Unresolved []struct{ Name, Reason string }
	}
	if err := json.Unmarshal([]byte(stdout), &js); err != nil || code != 0 {
		t.Fatalf("json: %v", err)
	}
	found := false
	for _, e := range js.Edges {
		found = found || e.Caller == "main.g" && e.Callee == "lib.f" && e.Resolution == "import" && e.Line == 4
	}
	if !found || len(js.Nodes) < 4 {
		t.Errorf("json edges %+v nodes %d", js.Edges, len(js.Nodes))
	}

	for format, want := range map[string]string{"dot": `"main.g" -> "lib.f" [label="import"]`, "mermaid": "-->|import|"} {
		if _, out, _ := runCLI(t, "callgraph", "--format", format, "--root", root); !strings.Contains(out, want) {
			t.Errorf("%s output lacks %q:\n%s", format, want, out)
		}
	}
	if code, _, _ := runCLI(t, "callgraph", "--format", "svg", "--root", root); code != 2 {
		t.Errorf("unknown format: exit %d", code)
	}
}

func TestCallersCommand(t *testing.T) {
	root := writeTree(t, map[string]string{
		"main.py": "from lib import f\n\ndef g():\n    f()\n\ndef h():\n    g()\n",
		"lib.py":  "def f():\n    pass\n\nclass K:\n    def f(self):\n        pass\n",
	})
	code, stdout, stderr := runCLI(t, "callers", "--root", root, "--depth", "2", "lib.f")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"lib.f (lib.py:1)", "<- main.g (main.py:4) [import]", "    <- main.h (main.py:7) [local]"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("callers output lacks %q:\n%s", want, stdout)
		}
	}
	if code, _, _ := runCLI(t, "callers", "--root", root, "main.py:g"); code != 0 {
		t.Errorf("path:Name form failed")
	}
	code, _, stderr = runCLI(t, "callers", "--root", root, "f")
	if code != 1 || !strings.Contains(stderr, "lib.K.f") || !strings.Contains(stderr, "candidates") {
		t.Errorf("ambiguous symbol: exit %d, %s", code, stderr)
	}
}
