package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
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

// pycgOf runs callgraph --format pycg on root and returns the graph and
// the output it was decoded from; a failure fails t.
func pycgOf(t *testing.T, root string) (map[string][]string, string) {
	t.Helper()
	code, stdout, stderr := runCLI(t, "callgraph", "--format", "pycg", "--root", root)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var pycg map[string][]string
	if err := json.Unmarshal([]byte(stdout), &pycg); err != nil {
		t.Fatal(err)
	}
	return pycg, stdout
}

func TestCallgraphCommand(t *testing.T) {
	root := writeTree(t, map[string]string{
		"main.py": "from lib import f\n\ndef g():\n    f()\n\ng()\n",
		"lib.py":  "def f():\n    pass\n\nclass K:\n    def f(self):\n        pass\n",
	})
	pycg, stdout := pycgOf(t, root)
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

	code, stdout, _ := runCLI(t, "callgraph", "--root", root)
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

	_, stdout, _ = runCLI(t, "callgraph", "--format", "dot", "--root", root)
	expectDOTEdges(t, stdout, "main>main.g:local", "main.g>lib.f:import")
	if _, out, _ := runCLI(t, "callgraph", "--format", "mermaid", "--root", root); !strings.Contains(out, "-->|import|") {
		t.Errorf("mermaid output lacks -->|import|:\n%s", out)
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

// TestCallersNamePlaces: `fileinfo callers` says which place (an
// anonymous function outside named functions) a module's call is in, in
// its text and its JSON.
func TestCallersNamePlaces(t *testing.T) {
	root := writeTree(t, map[string]string{
		"go.mod":  "module example.com/p\n",
		"cmd.go":  "package p\n\ntype Command struct{ Run func() }\n\nvar rootCmd = &Command{\n\tRun: func() {\n\t\twork()\n\t},\n}\n\nvar started = work()\n",
		"work.go": "package p\n\nfunc work() bool { return true }\n\nfunc Main() { work() }\n",
	})
	code, stdout, stderr := runCLI(t, "callers", "--root", root, "work")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "<- example.com/p, in rootCmd.Run (cmd.go:7) [local]") || strings.Count(stdout, ", in ") != 1 {
		t.Errorf("callers output does not name the one place:\n%s", stdout)
	}
	_, stdout, _ = runCLI(t, "callers", "--root", root, "--json", "work")
	if strings.Count(stdout, `"in": "rootCmd.Run"`) != 1 {
		t.Errorf("JSON lacks the place:\n%s", stdout)
	}
}

var (
	dotNodeRE = regexp.MustCompile(`(?m)^\t"(\d+)" \[ .*label="([^"\\]*)\\n`)
	dotEdgeRE = regexp.MustCompile(`(?m)^\t"(\d+)" -> "(\d+)" \[ label="([^"]*)"`)
)

// expectDOTEdges checks the edges of a DOT output, each rendered
// "caller>callee:label" by the qualified names in the node labels.
func expectDOTEdges(t *testing.T, out string, want ...string) {
	t.Helper()
	if !strings.HasPrefix(out, "strict digraph {\n") || !strings.HasSuffix(out, "}\n") {
		t.Fatalf("not a digraph:\n%s", out)
	}
	names := map[string]string{}
	for _, m := range dotNodeRE.FindAllStringSubmatch(out, -1) {
		names[m[1]] = m[2]
	}
	var got []string
	for _, m := range dotEdgeRE.FindAllStringSubmatch(out, -1) {
		got = append(got, names[m[1]]+">"+names[m[2]]+":"+m[3])
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("DOT edges:\n got  %v\n want %v\n%s", got, want, out)
	}
}

// hoodTree has a self-call (h), a chain k → h → g → f and an unresolved
// call in f.
var hoodTree = map[string]string{
	"main.py": "from lib import f\n\ndef g():\n    f()\n\ndef h():\n    g()\n    h()\n\ndef k():\n    h()\n\nk()\n",
	"lib.py":  "def f():\n    print('x')\n\nclass K:\n    def f(self):\n        pass\n",
}

func TestCallgraphNeighbourhood(t *testing.T) {
	root := writeTree(t, hoodTree)
	for _, tc := range []struct {
		args                     []string
		nodes, edges, unresolved string
	}{
		{[]string{"--symbol", "main.g"}, "lib.f main.g main.h main.k", "main.g>lib.f main.h>main.g main.h>main.h main.k>main.h", "print"},
		{[]string{"--symbol", "main.py:g", "--depth", "1", "--direction", "callers"}, "main.g main.h", "main.h>main.g main.h>main.h", ""},
		{[]string{"--symbol", "g", "--depth", "0"}, "main.g", "", ""},
		{[]string{"--symbol", "main.k", "--depth", "3", "--direction", "callees"}, "lib.f main.g main.h main.k", "main.g>lib.f main.h>main.g main.h>main.h main.k>main.h", "print"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, stdout, stderr := runCLI(t, append([]string{"callgraph", "--root", root}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var js struct {
				Nodes      []struct{ Qualified string }
				Edges      []struct{ Caller, Callee string }
				Unresolved []struct{ Name string }
			}
			if err := json.Unmarshal([]byte(stdout), &js); err != nil {
				t.Fatal(err)
			}
			var nodes, edges, unresolved []string
			for _, n := range js.Nodes {
				nodes = append(nodes, n.Qualified)
			}
			for _, e := range js.Edges {
				edges = append(edges, e.Caller+">"+e.Callee)
			}
			for _, u := range js.Unresolved {
				unresolved = append(unresolved, u.Name)
			}
			for _, l := range [][]string{nodes, edges} {
				slices.Sort(l)
			}
			for what, got := range map[string][]string{tc.nodes: nodes, tc.edges: edges, tc.unresolved: unresolved} {
				if strings.Join(got, " ") != what {
					t.Errorf("got %v, want %s\n%s", got, what, stdout)
				}
			}
		})
	}

	_, stdout, _ := runCLI(t, "callgraph", "--root", root, "--format", "dot", "--symbol", "main.h", "--depth", "1")
	expectDOTEdges(t, stdout, "main.h>main.g:local", "main.h>main.h:local", "main.k>main.h:local")
	if !strings.Contains(stdout, `label="main.h\nmain.py:6", shape="box", style="filled"`) {
		t.Errorf("the seed is not filled:\n%s", stdout)
	}
	_, stdout, _ = runCLI(t, "callgraph", "--root", root, "--format", "mermaid", "--symbol", "main.h", "--depth", "1", "--direction", "callees")
	if strings.Contains(stdout, "main.k") || strings.Count(stdout, "-->|local|") != 2 {
		t.Errorf("mermaid neighbourhood:\n%s", stdout)
	}
}

func TestCallgraphBadNeighbourhood(t *testing.T) {
	root := writeTree(t, hoodTree)
	for _, tc := range []struct {
		args []string
		code int
		want []string // in stderr
	}{
		{[]string{"--symbol", "f"}, 1, []string{"ambiguous symbol f", "lib.f (lib.py:1)", "lib.K.f (lib.py:5)"}},
		{[]string{"--symbol", "nope"}, 1, []string{`no symbol "nope"`}},
		{[]string{"--symbol", "main.gg"}, 1, []string{`no symbol "main.gg"`, "similar:", "main.g (main.py:3)"}},
		{[]string{"--symbol", "main.py:zz"}, 1, []string{`no symbol "zz" in main.py`, "main.h (main.py:6)"}},
		{[]string{"--symbol", "none.py:g"}, 1, []string{`no file "none.py"`}},
		{[]string{"--symbol", "main.g", "--depth", "-1"}, 2, []string{`invalid value "-1" for flag -depth: -1 is out of range; want an integer from 0 to 100`}},
		{[]string{"--symbol", "main.g", "--direction", "up"}, 2, []string{`--direction "up"`}},
		{[]string{"--depth", "3"}, 2, []string{"need --symbol"}},
		{[]string{"--symbol", "main.g", "--format", "pycg"}, 2, []string{"does not apply to pycg"}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, stdout, stderr := runCLI(t, append([]string{"callgraph", "--root", root}, tc.args...)...)
			if code != tc.code || stdout != "" {
				t.Errorf("exit %d, want %d; stdout %q", code, tc.code, stdout)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
		})
	}
}

// TestCallgraphSurvivesCrashShapes runs the commands on the Python shapes
// that made the flow evaluator panic (exit 2): both exit 0, and the JSON
// lists what was left out with the reason, here a binary file.
func TestCallgraphSurvivesCrashShapes(t *testing.T) {
	root := writeTree(t, map[string]string{
		"shapes.py": "def target():\n    pass\n\ndef f(d, y, a):\n    x = ([(k) for k in d])\n    m = [[[0,0] for i in x] for j in y]\n    return ([(s, o) for s, o in a if s])\n\ndef g():\n    f(1, 2, 3)\n",
		"blob.py":   "\x00\x01binary",
	})
	code, stdout, stderr := runCLI(t, "callgraph", "--root", root)
	if code != 0 {
		t.Fatalf("callgraph: exit %d: %s", code, stderr)
	}
	var js struct {
		Skipped []struct{ Path, Reason string }
	}
	if err := json.Unmarshal([]byte(stdout), &js); err != nil {
		t.Fatal(err)
	}
	if len(js.Skipped) != 1 || js.Skipped[0].Path != "blob.py" || js.Skipped[0].Reason != "binary file" {
		t.Errorf("skipped = %+v, want blob.py as a binary file", js.Skipped)
	}
	if code, stdout, stderr := runCLI(t, "callers", "--root", root, "shapes.f"); code != 0 || !strings.Contains(stdout, "shapes.g") {
		t.Errorf("callers: exit %d: %s%s", code, stdout, stderr)
	}
}

// TestCallersGuesses: callers and mermaid say which edges are guesses by
// name.
func TestCallersGuesses(t *testing.T) {
	root := writeTree(t, map[string]string{
		"lib.py":  "class K:\n    def finish(self):\n        pass\n",
		"main.py": "def g(x):\n    x.finish()\n",
	})
	code, stdout, stderr := runCLI(t, "callers", "--root", root, "lib.K.finish")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"(possible callers by name only, unverified:)\n  <? possible main.g (main.py:2) [name: by name only, unverified]",
		"(1 of 1 direct calls resolved by name only",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("callers lib.K.finish lacks %q:\n%s", want, stdout)
		}
	}
	_, stdout, _ = runCLI(t, "callgraph", "--root", root, "--format", "mermaid", "--symbol", "main.g")
	if !strings.Contains(stdout, "-->|name (guess)|") {
		t.Errorf("mermaid lacks -->|name (guess)|:\n%s", stdout)
	}
}
