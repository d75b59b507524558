package extract

import "testing"

func TestGoSymbols(t *testing.T) {
	f := extractString(t, "p/x.go", `package p

import (
	"fmt"
	str "strings"
	. "math"
	_ "embed"
)
import "os"

type (
	// List is generic.
	List[T any] struct{ items []T }
	Reader interface {
		Read(p []byte) (int, error)
	}
	ID = string
	Celsius float64
)

func (l *List[T]) Push(v T) { l.items = append(l.items, v) }
func (List[T]) Len() int    { return 0 }
func (c Celsius) String() string {
	return fmt.Sprintf("%v", float64(c))
}

func New[T any](xs ...T) *List[T] {
	l := &List[T]{}
	for _, x := range xs {
		l.Push(x)
	}
	go func() { os.Exit(Abs(-1)) }()
	return l
}

var _ = str.ToUpper("x")
`)
	expectSymbols(t, f,
		"struct p.List parent= line=13-13",
		"interface p.Reader parent= line=14-16",
		"method p.Reader.Read parent=Reader line=15-15",
		"type p.ID parent= line=17-17",
		"type p.Celsius parent= line=18-18",
		"method p.List.Push parent=List line=21-21",
		"method p.List.Len parent=List line=22-22",
		"method p.Celsius.String parent=Celsius line=23-25",
		"function p.New parent= line=27-34",
	)
	expectImports(t, f,
		"fmt @4",
		"strings as str @5",
		"math as . @6",
		"embed as _ @7",
		"os @9",
	)
	expectCalls(t, f,
		"p.List.Push -> append @21",
		"p.Celsius.String -> fmt.Sprintf @24",
		"p.Celsius.String -> float64 @24",
		"p.New -> l.Push @30",
		"p.New -> os.Exit @32",
		"p.New -> Abs @32",
		"p -> str.ToUpper @36",
	)
	for q, sig := range map[string]string{
		"p.List":           "type List[T any] struct",
		"p.List.Push":      "func (l *List[T]) Push(v T)",
		"p.New":            "func New[T any](xs ...T) *List[T]",
		"p.Reader.Read":    "Read(p []byte) (int, error)",
		"p.Celsius":        "type Celsius float64",
		"p.Celsius.String": "func (c Celsius) String() string",
	} {
		if got := symbol(t, f, q).Signature; got != sig {
			t.Errorf("%s signature = %q, want %q", q, got, sig)
		}
	}
	if d := symbol(t, f, "p.List").Doc; d != "List is generic." {
		t.Errorf("doc inside a type group = %q", d)
	}
	if symbol(t, f, "p.List.Len").Exported != true || symbol(t, f, "p.New").Exported != true {
		t.Errorf("exported: upper-case names are exported")
	}
}

func TestGoModulePaths(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod":             "module example.com/top // comment\n",
		"a/a.go":             "package a\nfunc A() {}\n",
		"a/a_test.go":        "package a_test\nfunc TestA() {}\n",
		"main.go":            "package main\nfunc main() {}\n",
		"sub/go.mod":         "module \"example.com/sub\"\n",
		"sub/inner/i.go":     "package inner\nfunc I() {}\n",
		"nomod/x/testdata/t": "",
	})
	ex, err := New(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	for path, want := range map[string]string{
		"a/a.go":         "example.com/top/a.A",
		"a/a_test.go":    "example.com/top/a_test.TestA",
		"main.go":        "example.com/top.main",
		"sub/inner/i.go": "example.com/sub/inner.I",
	} {
		f, err := ex.File(t.Context(), path)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Symbols[0].Qualified; got != want {
			t.Errorf("%s: qualified %q, want %q", path, got, want)
		}
	}
}

// TestGoImportPathsLikeTheGoCommand names packages the way the go
// command maps import paths to directories: the standard library tree
// (GOROOT/src, "module std"), its vendored packages and cmd's, a module's
// vendor directory, and directories that replace directives of go.work
// and go.mod name, whatever their own go.mod says.
func TestGoImportPathsLikeTheGoCommand(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  map[string]string // file → qualified name of its first symbol
		// imports: file → the Resolved of its first import
		imports map[string]string
	}{
		{"standard library", map[string]string{
			"go.mod":             "module std\n\ngo 1.26\n",
			"strings/strings.go": "package strings\nfunc Index(s, sep string) int { return 0 }\n",
			"net/dnsclient.go":   "package net\nimport \"golang.org/x/net/dns/dnsmessage\"\nfunc lookup() { dnsmessage.NewBuilder() }\n",
			"net/http/server.go": "package http\nimport \"strings\"\nfunc Serve() { strings.Index(\"\", \"\") }\n",
			"vendor/golang.org/x/net/dns/dnsmessage/message.go": "package dnsmessage\nfunc NewBuilder() {}\n",
			"cmd/go.mod":     "module cmd\n",
			"cmd/go/main.go": "package main\nimport \"golang.org/x/mod/module\"\nfunc main() { module.Check() }\n",
			"cmd/vendor/golang.org/x/mod/module/module.go": "package module\nfunc Check() {}\n",
		}, map[string]string{
			"strings/strings.go": "strings.Index",
			"net/dnsclient.go":   "net.lookup",
			"net/http/server.go": "net/http.Serve",
			"vendor/golang.org/x/net/dns/dnsmessage/message.go": "vendor/golang.org/x/net/dns/dnsmessage.NewBuilder",
			"cmd/go/main.go": "cmd/go.main",
			"cmd/vendor/golang.org/x/mod/module/module.go": "golang.org/x/mod/module.Check",
		}, map[string]string{
			"net/dnsclient.go":   "vendor/golang.org/x/net/dns/dnsmessage",
			"net/http/server.go": "",
			"cmd/go/main.go":     "", // cmd is a module: its vendored packages keep their paths
		}},
		{"GOROOT itself", map[string]string{
			"src/go.mod":             "module std\n",
			"src/strings/strings.go": "package strings\nfunc Index(s, sep string) int { return 0 }\n",
		}, map[string]string{"src/strings/strings.go": "strings.Index"}, nil},
		{"vendor", map[string]string{
			"go.mod":                     "module example.com/app\n",
			"app.go":                     "package app\nimport \"github.com/x/y\"\nfunc Run() { y.Y() }\n",
			"vendor/github.com/x/y/y.go": "package y\nfunc Y() {}\n",
		}, map[string]string{
			"app.go":                     "example.com/app.Run",
			"vendor/github.com/x/y/y.go": "github.com/x/y.Y",
		}, map[string]string{"app.go": ""}},
		{"replace in go.mod", map[string]string{
			"go.mod":             "module example.com/app\n\nrequire example.com/lib v1.0.0\n\nreplace example.com/lib v1.0.0 => ./forks/lib\nreplace example.com/far => ../far\n",
			"forks/lib/go.mod":   "module github.com/someone/lib\n",
			"forks/lib/lib.go":   "package lib\nfunc L() {}\n",
			"forks/lib/sub/s.go": "package sub\nfunc S() {}\n",
			"other/go.mod":       "module example.com/other\n",
			"other/o.go":         "package other\nfunc O() {}\n",
		}, map[string]string{
			"forks/lib/lib.go":   "example.com/lib.L",
			"forks/lib/sub/s.go": "example.com/lib/sub.S",
			"other/o.go":         "example.com/other.O",
		}, nil},
		{"go.work", map[string]string{
			"go.work":              "go 1.26\n\nuse (\n\t./a\n\t./b\n)\n\nreplace example.com/c => ./third_party/c\n",
			"a/go.mod":             "module example.com/a\n\nreplace example.com/d => ../vendored-d\n",
			"a/a.go":               "package a\nfunc A() {}\n",
			"b/go.mod":             "module example.com/b\n",
			"b/pkg/b.go":           "package pkg\nfunc B() {}\n",
			"third_party/c/go.mod": "module c\n",
			"third_party/c/c.go":   "package c\nfunc C() {}\n",
			"vendored-d/d.go":      "package d\nfunc D() {}\n",
		}, map[string]string{
			"a/a.go":             "example.com/a.A",
			"b/pkg/b.go":         "example.com/b/pkg.B",
			"third_party/c/c.go": "example.com/c.C",
			"vendored-d/d.go":    "example.com/d.D",
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeFiles(t, root, tc.files)
			ex, err := New(root, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer ex.Close()
			for path, want := range tc.want {
				f, err := ex.File(t.Context(), path)
				if err != nil {
					t.Fatal(err)
				}
				if got := f.Symbols[0].Qualified; got != want {
					t.Errorf("%s: qualified %q, want %q", path, got, want)
				}
				if want, ok := tc.imports[path]; ok {
					if len(f.Imports) == 0 {
						t.Fatalf("%s: no imports", path)
					}
					if got := f.Imports[0].Resolved; got != want {
						t.Errorf("%s: import %s resolved %q, want %q", path, f.Imports[0].Path, got, want)
					}
				}
			}
		})
	}
}

func TestGoEmbeddedBases(t *testing.T) {
	f := extractString(t, "e.go", `package e
type S struct {
	io.Reader
	*Base
	name string
}
type RW interface {
	io.Reader
	Write([]byte) (int, error)
}
`)
	if got := symbol(t, f, "S").Bases; len(got) != 2 || got[0] != "io.Reader" || got[1] != "Base" {
		t.Errorf("struct bases = %v", got)
	}
	if got := symbol(t, f, "RW").Bases; len(got) != 1 || got[0] != "io.Reader" {
		t.Errorf("interface bases = %v", got)
	}
}

func TestGoDocNotFromTrailingComments(t *testing.T) {
	f := extractString(t, "c.go", `package c

/* Header comment. */
var a = 1
var b = 2 /* trailing */
func F() {}

var c = 3 // note
/*
G has a block doc.
*/
func G() {}
`)
	if d := symbol(t, f, "F").Doc; d != "" {
		t.Errorf("F doc = %q, want none", d)
	}
	if d := symbol(t, f, "G").Doc; d != "G has a block doc." {
		t.Errorf("G doc = %q", d)
	}
}
