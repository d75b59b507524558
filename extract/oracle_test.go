package extract

import (
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// The oracle tests hold extraction to what each language's own parser
// sees, on real code: ≥ 99.5% precision and recall.
const oracleThreshold = 0.995

// agreement compares two sets of facts and reports precision and recall of
// got against want, with a few examples of each kind of difference.
func agreement(t *testing.T, what string, got, want map[string]bool) {
	t.Helper()
	var tp int
	var extra, missing []string
	for k := range got {
		if want[k] {
			tp++
		} else {
			extra = append(extra, k)
		}
	}
	for k := range want {
		if !got[k] {
			missing = append(missing, k)
		}
	}
	sort.Strings(extra)
	sort.Strings(missing)
	precision := float64(tp) / float64(max(len(got), 1))
	recall := float64(tp) / float64(max(len(want), 1))
	t.Logf("%s: %d facts, precision %.4f, recall %.4f", what, len(want), precision, recall)
	if len(want) < 100 {
		t.Fatalf("%s: only %d oracle facts; the corpus is missing", what, len(want))
	}
	if precision < oracleThreshold || recall < oracleThreshold {
		t.Errorf("%s: precision %.4f recall %.4f, want ≥ %.3f\nextra (first 20): %s\nmissing (first 20): %s",
			what, precision, recall, oracleThreshold, head(extra, 20), head(missing, 20))
	}
}

func head(s []string, n int) string {
	return strings.Join(s[:min(n, len(s))], "\n  ")
}

// TestOracleGo: every function and method in GOROOT/src/net/http (non-test
// files, recursively, skipping testdata) as go/ast sees it — same name,
// receiver type and line.
func TestOracleGo(t *testing.T) {
	root := filepath.Join(runtime.GOROOT(), "src", "net", "http")
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			rel, _ := filepath.Rel(root, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Skipf("no GOROOT sources: %v", err)
	}

	want := map[string]bool{}
	fset := token.NewFileSet()
	for _, rel := range files {
		af, err := parser.ParseFile(fset, filepath.Join(root, rel), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range af.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			recv := ""
			if fd.Recv != nil && len(fd.Recv.List) > 0 {
				recv = goRecvName(fd.Recv.List[0].Type)
			}
			want[fmt.Sprintf("%s:%d %s.%s", rel, fset.Position(fd.Name.Pos()).Line, recv, fd.Name.Name)] = true
		}
	}

	ex, err := New(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	got := map[string]bool{}
	extracted, skipped, err := ex.Files(context.Background(), files)
	if err != nil || len(skipped) > 0 {
		t.Fatalf("extract: %v %v", err, skipped)
	}
	for _, f := range extracted {
		interfaces := map[string]bool{}
		for _, s := range f.Symbols {
			if s.Kind == KindInterface {
				interfaces[s.Name] = true
			}
		}
		for _, s := range f.Symbols {
			if (s.Kind == KindFunction || s.Kind == KindMethod) && !interfaces[s.Parent] {
				got[fmt.Sprintf("%s:%d %s.%s", f.Path, s.StartLine, s.Parent, s.Name)] = true
			}
		}
	}
	agreement(t, "go net/http functions and methods", got, want)
}

// goRecvName is the receiver's type name without '*' or type parameters.
func goRecvName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return fmt.Sprintf("%T", e)
		}
	}
}

// pythonOracle prints, for each file argument, one JSON line per def,
// async def and class: name, enclosing class/function and line.
const pythonOracle = `
import ast, json, sys
for path in sys.argv[1:]:
    with open(path, "rb") as fh:
        src = fh.read()
    try:
        tree = ast.parse(src, path)
    except SyntaxError:
        print(json.dumps({"file": path, "error": True}))
        continue
    def visit(node, parent):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                print(json.dumps({"file": path, "name": child.name, "parent": parent, "line": child.lineno}))
                visit(child, child.name)
            else:
                visit(child, parent)
    visit(tree, "")
`

// TestOraclePython: every def, async def and class in the Python standard
// library's top-level *.py files as Python's ast sees them — same name,
// enclosing class/function and line.
func TestOraclePython(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	out, err := exec.Command(py, "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])").Output()
	if err != nil {
		t.Fatal(err)
	}
	root := strings.TrimSpace(string(out))
	matches, err := filepath.Glob(filepath.Join(root, "*.py"))
	if err != nil || len(matches) < 50 {
		t.Fatalf("stdlib at %s: %d files, %v", root, len(matches), err)
	}
	sort.Strings(matches)

	cmd := exec.Command(py, append([]string{"-c", pythonOracle}, matches...)...)
	cmd.Stderr = os.Stderr
	out, err = cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	var files []string
	bad := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var r struct {
			File, Name, Parent string
			Line               int
			Error              bool
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		rel := filepath.Base(r.File)
		if r.Error {
			bad[rel] = true
			continue
		}
		want[fmt.Sprintf("%s:%d %s.%s", rel, r.Line, r.Parent, r.Name)] = true
	}
	for _, m := range matches {
		if rel := filepath.Base(m); !bad[rel] {
			files = append(files, rel)
		}
	}

	ex, err := New(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	extracted, skipped, err := ex.Files(context.Background(), files)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range skipped {
		t.Logf("skipped %s: %s", s.Path, s.Reason)
	}
	got := map[string]bool{}
	for _, f := range extracted {
		for _, s := range f.Symbols {
			got[fmt.Sprintf("%s:%d %s.%s", f.Path, s.StartLine, s.Parent, s.Name)] = true
		}
	}
	agreement(t, "python stdlib defs and classes", got, want)
}
