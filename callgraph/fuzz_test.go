package callgraph

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/extract"
)

// The fuzz targets feed arbitrary source through extract into Build and
// fail on any file Build had to skip: a skip means resolution panicked,
// which the recovery hides from users but a test must not. Run each for
// a minute after changing resolution or flow tracking:
//
//	go test ./callgraph -run '^$' -fuzz '^FuzzBuildPython$' -fuzztime 60s
//
// Seeds are extract's golden sources; each input is resolved beside
// them, so cross-file lookups meet real declarations.

func FuzzBuildGo(f *testing.F)     { fuzzBuild(f, "go") }
func FuzzBuildPython(f *testing.F) { fuzzBuild(f, "python") }
func FuzzBuildJS(f *testing.F)     { fuzzBuild(f, "javascript", "typescript", "tsx") }
func FuzzBuildJVM(f *testing.F)    { fuzzBuild(f, "java", "kotlin", "scala", "csharp") }
func FuzzBuildC(f *testing.F)      { fuzzBuild(f, "c", "cpp", "rust", "swift") }
func FuzzBuildScript(f *testing.F) { fuzzBuild(f, "ruby", "php", "lua", "bash") }

// fuzzExt is a file name of each language, which picks the grammar.
var fuzzExt = map[string]string{
	"go": "x.go", "python": "x.py", "javascript": "x.js", "typescript": "x.ts", "tsx": "x.tsx",
	"java": "X.java", "kotlin": "x.kt", "scala": "x.scala", "csharp": "x.cs",
	"c": "x.c", "cpp": "x.cpp", "rust": "src/x.rs", "swift": "x.swift",
	"ruby": "x.rb", "php": "x.php", "lua": "x.lua", "bash": "x.sh",
}

func fuzzBuild(f *testing.F, langs ...string) {
	ex, err := extract.New(f.TempDir(), extract.Options{Workers: 1})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(ex.Close)
	// Each language's golden sources are the seeds and the neighbours.
	neighbours := map[string][]extract.File{}
	for i, lang := range langs {
		paths, _ := filepath.Glob(filepath.Join("..", "extract", "testdata", "golden", lang, "*"))
		for _, p := range paths {
			if strings.HasSuffix(p, ".json") {
				continue
			}
			src, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(uint8(i), src)
			rel := "golden/" + filepath.Base(p)
			if file, err := ex.Source(context.Background(), rel, src); err == nil {
				neighbours[lang] = append(neighbours[lang], *file)
			}
		}
		for _, s := range []string{"", "}}}{{{", strings.Repeat("(", 300), "a.b.c(d(e))[f](g)"} {
			f.Add(uint8(i), []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, src []byte) {
		lang := langs[int(which)%len(langs)]
		file, err := ex.Source(context.Background(), fuzzExt[lang], src)
		if err != nil {
			return // skipped by extract (binary, ...): not Build's input
		}
		expectBuilds(t, append([]extract.File{*file}, neighbours[lang]...))
	})
}

// expectBuilds builds files and fails the test if any was skipped.
func expectBuilds(t *testing.T, files []extract.File) *Graph {
	t.Helper()
	g := Build(files)
	for _, s := range g.Skipped() {
		t.Errorf("Build skipped %s: %s", s.Path, s.Reason)
	}
	return g
}

// FuzzPythonExpressions generates Python from the fuzzer's bytes, every
// expression shape the grammar has nested in every other (brackets,
// comprehensions, conditionals, calls, subscripts, splats, lambdas), in
// every place flow tracking reads one (assignment values and targets,
// returns, loops, arguments, decorators, called expressions), and
// checks that Build resolves it without a skip.
func FuzzPythonExpressions(f *testing.F) {
	ex, err := extract.New(f.TempDir(), extract.Options{Workers: 1})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(ex.Close)
	for _, seed := range []string{"", "\x00\x01\x02", "\x05\x06\x07\x08\x09", "\xff\xfe\xfd\xfc", "comprehension", strings.Repeat("\x09\x0a", 40)} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		src := pythonProgram(data)
		file, err := ex.Source(context.Background(), "gen.py", []byte(src))
		if err != nil {
			t.Fatalf("extract: %v\n%s", err, src)
		}
		g := Build([]extract.File{*file})
		for _, s := range g.Skipped() {
			t.Errorf("Build skipped the program: %s\n%s", s.Reason, src)
		}
	})
}

// pythonProgram writes a small Python module whose shape the bytes pick.
func pythonProgram(data []byte) string {
	gen := &pyGen{data: data}
	var b strings.Builder
	b.WriteString("def f(a, *b, c=1, **d):\n    return a\n\nclass K:\n    def m(self, x):\n        return x\n\n")
	for i := 0; i < 6 && gen.more(); i++ {
		e, e2 := gen.expr(0), gen.expr(0)
		switch gen.pick(8) {
		case 0:
			fmt.Fprintf(&b, "x%d = %s\n", i, e)
		case 1:
			fmt.Fprintf(&b, "%s = %s\n", gen.target(0), e)
		case 2:
			fmt.Fprintf(&b, "def g%d():\n    return %s\n", i, e)
		case 3:
			fmt.Fprintf(&b, "for %s in %s:\n    pass\n", gen.target(0), e)
		case 4:
			fmt.Fprintf(&b, "f(%s, c=%s)\n", e, e2)
		case 5:
			fmt.Fprintf(&b, "@%s\ndef h%d():\n    pass\n", e, i)
		case 6:
			fmt.Fprintf(&b, "(%s)(%s)\n", e, e2)
		default:
			fmt.Fprintf(&b, "x%d = y%d = %s\n", i, i, e)
		}
	}
	return b.String()
}

// pyGen draws choices from bytes; past their end every choice is 0.
type pyGen struct {
	data []byte
	at   int
}

func (g *pyGen) more() bool { return g.at < len(g.data) }

func (g *pyGen) pick(n int) int {
	if g.at >= len(g.data) {
		return 0
	}
	g.at++
	return int(g.data[g.at-1]) % n
}

var pyNames = []string{"a", "f", "K", "self", "x0", "d", "super", "lambda_", "_"}

func (g *pyGen) name() string { return pyNames[g.pick(len(pyNames))] }

// expr writes an expression, nesting at most 6 deep.
func (g *pyGen) expr(depth int) string {
	if depth > 6 {
		return g.name()
	}
	sub := func() string { return g.expr(depth + 1) }
	switch g.pick(24) {
	case 0:
		return g.name()
	case 1:
		return sub() + "." + g.name()
	case 2:
		return sub() + "(" + g.args(depth) + ")"
	case 3:
		return sub() + "[" + sub() + "]"
	case 4:
		return "[" + g.elems(depth) + "]"
	case 5:
		return "(" + g.elems(depth) + ")"
	case 6:
		return "{" + g.elems(depth) + "}"
	case 7:
		return "{" + sub() + ": " + sub() + ", **" + sub() + "}"
	case 8:
		return "[" + sub() + " for " + g.target(depth+1) + " in " + sub() + " if " + sub() + "]"
	case 9:
		return "(" + sub() + " for " + g.name() + " in " + sub() + ")"
	case 10:
		return "{" + sub() + ": " + sub() + " for " + g.name() + " in " + sub() + "}"
	case 11:
		return "(" + sub() + " if " + sub() + " else " + sub() + ")"
	case 12:
		return "(" + sub() + " or " + sub() + " and " + sub() + ")"
	case 13:
		return "(lambda " + g.name() + ": " + sub() + ")"
	case 14:
		return `"k"`
	case 15:
		return "-1"
	case 16:
		return "(" + sub() + ")"
	case 17:
		return "(" + g.name() + " := " + sub() + ")"
	case 18:
		return "f'{" + sub() + "}'"
	case 19:
		return "(await " + sub() + ")"
	case 20:
		return "super()." + g.name()
	case 21:
		return sub() + "[1:" + sub() + "]"
	case 22:
		return "((" + sub() + "),)"
	default:
		return "(not " + sub() + ")"
	}
}

// elems writes up to three elements, some starred.
func (g *pyGen) elems(depth int) string {
	var parts []string
	for range g.pick(4) {
		e := g.expr(depth + 1)
		if g.pick(4) == 0 {
			e = "*" + e
		}
		parts = append(parts, e)
	}
	if len(parts) == 1 && g.pick(2) == 0 {
		return parts[0] + ","
	}
	return strings.Join(parts, ", ")
}

// args writes call arguments: positional, keyword and splats.
func (g *pyGen) args(depth int) string {
	var parts []string
	for range g.pick(4) {
		e := g.expr(depth + 1)
		switch g.pick(4) {
		case 0:
			e = "*" + e
		case 1:
			e = "k=" + e
		case 2:
			e = "**" + e
		}
		parts = append(parts, e)
	}
	return strings.Join(parts, ", ")
}

// target writes an assignment target: names, attributes, subscripts,
// tuples and lists of them, a starred one.
func (g *pyGen) target(depth int) string {
	if depth > 3 {
		return g.name()
	}
	switch g.pick(7) {
	case 0:
		return g.name()
	case 1:
		return "self." + g.name()
	case 2:
		return g.name() + "[" + g.expr(depth+1) + "]"
	case 3:
		return g.target(depth+1) + ", *" + g.name()
	case 4:
		return "(" + g.target(depth+1) + ", " + g.target(depth+1) + ")"
	case 5:
		return "[" + g.target(depth+1) + ", " + g.target(depth+1) + "]"
	default:
		return g.name() + "." + g.name()
	}
}
