package callgraph

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/extract"
)

// TestPythonCases checks the cases of testdata/python (see testCases).
func TestPythonCases(t *testing.T) { testCases(t, "testdata/python/*.txtar") }

// testCases builds each archive matching glob and checks the
// expectations its comment (the text before the first file) states, one
// a line:
//
//	edge: CALLER -> CALLEE          an edge, however resolved
//	edge: CALLER -> CALLEE (HOW)    an edge resolved as HOW
//	noedge: CALLER -> CALLEE        no such edge
//	node: QUALIFIED                 a node of that name
//	unresolved: CALLER NAME REASON  the call of NAME from CALLER is
//	                                unresolved, its reason containing REASON
//	reason-not: CALLER NAME TEXT    no unresolved call of NAME from CALLER
//	                                has TEXT in its reason
func testCases(t *testing.T, glob string) {
	paths, err := filepath.Glob(glob)
	if err != nil || len(paths) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, p := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(p), ".txtar"), func(t *testing.T) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			archive := string(data)
			g := buildArchive(t, archive)
			comment, _, _ := strings.Cut(archive, "\n-- ")
			n := 0
			for _, line := range strings.Split(comment, "\n") {
				kind, rest, ok := strings.Cut(strings.TrimSpace(line), ": ")
				if !ok {
					continue
				}
				n++
				switch kind {
				case "edge", "noedge":
					caller, callee, _ := strings.Cut(rest, " -> ")
					if got := hasEdge(t, g, strings.TrimSpace(caller), strings.TrimSpace(callee)); got != (kind == "edge") {
						t.Errorf("%s: %s; callees of %s: %v", kind, rest, caller, calleeNames(g, strings.TrimSpace(caller)))
					}
				case "node":
					if len(g.Lookup(rest)) == 0 {
						t.Errorf("no node %s", rest)
					}
				case "reason-not":
					f := strings.SplitN(rest, " ", 3)
					if len(f) != 3 {
						t.Fatalf("bad line %q", line)
					}
					for _, u := range g.Unresolved() {
						if u.Caller == f[0] && u.Name == f[1] && strings.Contains(u.Reason, f[2]) {
							t.Errorf("unresolved %s → %s: reason %q has %q", f[0], f[1], u.Reason, f[2])
						}
					}
				case "unresolved":
					f := strings.SplitN(rest, " ", 3)
					if len(f) != 3 {
						t.Fatalf("bad line %q", line)
					}
					expectUnresolved(t, g, f[0], f[1], f[2])
				default:
					n--
				}
			}
			if n == 0 {
				t.Fatal("the case states no expectation")
			}
		})
	}
}

// hasEdge reports whether caller calls callee; the caller must exist.
// A callee written "name (how)" must be resolved as how.
func hasEdge(t *testing.T, g *Graph, caller, callee string) bool {
	t.Helper()
	if len(g.Lookup(caller)) == 0 {
		t.Errorf("no node %s", caller)
		return false
	}
	callee, how, labelled := strings.Cut(callee, " (")
	how = strings.TrimSuffix(how, ")")
	for _, c := range calleeNames(g, caller) {
		name, got, _ := strings.Cut(c, "(")
		if name == callee && (!labelled || strings.TrimSuffix(got, ")") == how) {
			return true
		}
	}
	return false
}

// calleeNames lists the qualified names caller calls.
func calleeNames(g *Graph, caller string) []string {
	var out []string
	for _, id := range g.Lookup(caller) {
		for _, e := range g.Callees(id) {
			out = append(out, g.Node(e.Callee).Qualified+"("+string(e.Resolution)+")")
		}
	}
	return out
}

// TestPythonCasesUpdate checks that Update keeps re-exports, scoped
// imports, fixtures and roots exact (see testCasesUpdate).
func TestPythonCasesUpdate(t *testing.T) { testCasesUpdate(t, "testdata/python/*.txtar") }

// testCasesUpdate edits the files of each case matching glob at random
// (delete, duplicate or rename on a line) and checks that Update gives
// the graph Build does.
func testCasesUpdate(t *testing.T, glob string) {
	paths, _ := filepath.Glob(glob)
	steps := 40
	if testing.Short() {
		steps = 8
	}
	for ci, p := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(p), ".txtar"), func(t *testing.T) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			root := writeArchive(t, string(data))
			ex := newExtractor(t, root)
			g := Build(extractAll(t, ex))
			idents := identRE.FindAllString(string(data), -1)
			rng := rand.New(rand.NewPCG(uint64(ci), 3))
			for step := range steps {
				files := g.Files()
				rel := files[rng.IntN(len(files))]
				full := filepath.Join(root, rel)
				src, err := os.ReadFile(full)
				if err != nil {
					t.Fatal(err)
				}
				lines := strings.Split(string(src), "\n")
				i := rng.IntN(len(lines))
				what := ""
				switch rng.IntN(3) {
				case 0:
					what = fmt.Sprintf("delete line %d of %s", i+1, rel)
					lines = append(lines[:i], lines[i+1:]...)
				case 1:
					what = fmt.Sprintf("duplicate line %d of %s", i+1, rel)
					lines = append(lines[:i+1], lines[i:]...)
				default:
					ids := identRE.FindAllStringIndex(lines[i], -1)
					if len(ids) == 0 {
						continue
					}
					m := ids[rng.IntN(len(ids))]
					repl := idents[rng.IntN(len(idents))]
					what = fmt.Sprintf("rename %q to %q on line %d of %s", lines[i][m[0]:m[1]], repl, i+1, rel)
					lines[i] = lines[i][:m[0]] + repl + lines[i][m[1]:]
				}
				if err := os.WriteFile(full, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
					t.Fatal(err)
				}
				f, err := ex.File(context.Background(), rel)
				if err != nil {
					t.Fatalf("step %d (%s): %v", step, what, err)
				}
				g.Update([]extract.File{*f}, nil)
				if diff := graphDiff(g, Build(extractAll(t, ex))); diff != "" {
					t.Fatalf("step %d (%s): Update differs from Build:\n%s", step, what, diff)
				}
			}
		})
	}
}
