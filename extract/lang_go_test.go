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
