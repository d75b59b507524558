package callgraph

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// withGoSource makes goExternal read interfaces from goroot and modcache
// ("" for none) for the rest of the test.
func withGoSource(t *testing.T, goroot, modcache string) {
	t.Helper()
	saved := goExternal
	s := &goSource{goroot: goroot, modcache: modcache}
	s.once.Do(func() {})
	goExternal = s
	t.Cleanup(func() { goExternal = saved })
}

// realGOROOT is the GOROOT the go command reports, or skips the test.
func realGOROOT(t *testing.T) string {
	t.Helper()
	s := &goSource{}
	s.roots()
	if s.goroot == "" {
		t.Skip("no GOROOT: neither $GOROOT nor the go command")
	}
	return s.goroot
}

// Calls through interfaces declared in the standard library dispatch to
// the repository's types that implement them.
func TestGoExternalInterfaceDispatch(t *testing.T) {
	withGoSource(t, realGOROOT(t), "")
	g := buildArchive(t, `
-- go.mod --
module example.com/m
-- w/w.go --
package w

import (
	"fmt"
	"io"
	"net/http"
)

type File struct{}

func (f *File) Write(p []byte) (int, error) { return len(p), nil }
func (f *File) String() string               { return "file" }

type Fail struct{}

func (Fail) Error() string { return "fail" }

type Handler struct{}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {}

type Out struct{ w io.Writer }

func Emit(w io.Writer, s fmt.Stringer, err error, h http.Handler, o Out) {
	w.Write(nil)
	s.String()
	err.Error()
	h.ServeHTTP(nil, nil)
	o.w.Write(nil)
}
`)
	expectCallees(t, g, "example.com/m/w.Emit",
		"example.com/m/w.File.Write:interface",
		"example.com/m/w.File.String:interface",
		"example.com/m/w.Fail.Error:interface",
		"example.com/m/w.Handler.ServeHTTP:interface",
	)
}

// A method of another signature (here: parameter count) does not
// implement an interface's method of the same name.
func TestGoInterfaceSignature(t *testing.T) {
	g := buildArchive(t, `
-- go.mod --
module example.com/m
-- log.go --
package m

type Entry interface {
	Write(status int, msg string)
}

type Log struct{}

func (Log) Write(status int, msg string) {}

type File struct{}

func (*File) Write(p []byte) (int, error) { return 0, nil }

func Record(e Entry) { e.Write(200, "ok") }
`)
	expectCallees(t, g, "example.com/m.Record",
		"example.com/m.Entry.Write:interface",
		"example.com/m.Log.Write:interface",
	)
}

// An interface that embeds one declared outside the repository has its
// methods too: only types with Write and Sync implement WriteSyncer, and
// Write is called through it.
func TestGoEmbeddedOutsideInterface(t *testing.T) {
	withGoSource(t, realGOROOT(t), "")
	g := buildArchive(t, `
-- go.mod --
module example.com/m
-- ws.go --
package m

import "io"

type WriteSyncer interface {
	io.Writer
	Sync() error
}

type File struct{}

func (*File) Write(p []byte) (int, error) { return 0, nil }
func (*File) Sync() error                 { return nil }

// Clock has Sync but no Write: no WriteSyncer.
type Clock struct{}

func (Clock) Sync() error { return nil }

// Buffered gets Write from the io.Writer it embeds.
type Buffered struct{ io.Writer }

func (Buffered) Sync() error { return nil }

func Flush(ws WriteSyncer) {
	ws.Sync()
}

func Put(ws WriteSyncer) {
	ws.Write(nil)
}
`)
	expectCallees(t, g, "example.com/m.Flush",
		"example.com/m.WriteSyncer.Sync:interface",
		"example.com/m.File.Sync:interface",
		"example.com/m.Buffered.Sync:interface",
	)
	expectCallees(t, g, "example.com/m.Put", "example.com/m.File.Write:interface")
}

// A field embedded by its type name is selected by that name.
func TestGoEmbeddedFieldByTypeName(t *testing.T) {
	g := buildArchive(t, `
-- go.mod --
module example.com/m
-- core/core.go --
package core

type Core struct{}

func (*Core) Check() bool { return true }
-- h.go --
package m

import "example.com/m/core"

type Local struct{}

func (Local) Check() bool { return false }

type Hook struct {
	*core.Core
	Local
}

func (h *Hook) Run() {
	h.Core.Check()
	h.Local.Check()
}
`)
	expectCallees(t, g, "example.com/m.Hook.Run",
		"example.com/m/core.Core.Check:receiver",
		"example.com/m.Local.Check:receiver",
	)
}

// An unexported interface method is implemented only by types of the
// interface's package.
func TestGoUnexportedInterfaceMethod(t *testing.T) {
	g := buildArchive(t, `
-- go.mod --
module example.com/m
-- a/a.go --
package a

type locker interface{ lock() }

type A struct{}

func (A) lock() {}

func Use(l locker) { l.lock() }
-- b/b.go --
package b

type B struct{}

func (B) lock() {}
`)
	expectCallees(t, g, "example.com/m/a.Use",
		"example.com/m/a.locker.lock:interface",
		"example.com/m/a.A.lock:interface",
	)
}

// Interfaces of other modules are read from the module cache, the highest
// version on disk; a module not there gives "external interface unknown".
func TestGoModuleCacheInterface(t *testing.T) {
	cache := t.TempDir()
	for path, src := range map[string]string{
		"example.com/!dep@v1.2.0/sink/sink.go":  "package sink\n\ntype Sink interface {\n\tPut(v int) error\n\tclose()\n}\n\ntype Sinker interface{ Sink }\n",
		"example.com/!dep@v1.10.0/sink/sink.go": "package sink\n\ntype (\n\tSink interface {\n\t\tPut(v int) error\n\t}\n\tSinker = Sink\n)\n",
	} {
		p := filepath.Join(cache, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	withGoSource(t, "", cache)
	g := buildArchive(t, `
-- go.mod --
module example.com/m

require (
	example.com/Dep v1.10.0
	example.com/gone v1.0.0
)
-- m.go --
package m

import (
	"example.com/Dep/sink"
	"example.com/gone/api"
)

type Mem struct{}

func (*Mem) Put(v int) error { return nil }

func Store(s sink.Sinker, c api.Client) {
	s.Put(1)
	c.Do()
}
`)
	expectCallees(t, g, "example.com/m.Store", "example.com/m.Mem.Put:interface")
	expectUnresolved(t, g, "example.com/m.Store", "Do", "external interface unknown: the source of example.com/gone/api is not in GOROOT or the module cache")
}

func TestSemverLess(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"v1.2.0", "v1.10.0", true},
		{"v1.10.0", "v1.2.0", false},
		{"v1.2.0-rc.1", "v1.2.0", true},
		{"v1.2.0", "v1.2.0-rc.1", false},
		{"v0.0.0-20240101000000-abcdef", "v0.1.0", true},
		{"v2.0.0+incompatible", "v10.0.0", true},
	} {
		if got := semverLess(tc.a, tc.b); got != tc.want {
			t.Errorf("semverLess(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestSigArity(t *testing.T) {
	for _, tc := range []struct {
		sig             string
		params, results int
	}{
		{"func (o Other) Write(p []byte, q ...int) (n int, err error)", 2, 2},
		{"func (o *Other) Multi(a, b int, c string) error", 3, 1},
		{"Sync() error", 0, 1},
		{"Close()", 0, 0},
		{"Do(f func(int, string) error, m map[string][]int) (x struct{ a, b int })", 2, 1},
		{"func (s *Set[K, V]) Put(k K, v V)", 2, 0},
		{"func Map[T any](x T) T", -1, -1},
		{"func (", -1, -1},
	} {
		p, r := sigArity(tc.sig)
		if p != tc.params || r != tc.results {
			t.Errorf("sigArity(%q) = %d, %d; want %d, %d", tc.sig, p, r, tc.params, tc.results)
		}
	}
}

// FuzzTypeDecls: reducing any text to its type declarations never panics,
// and a Go file that parses still parses reduced, with the same top-level
// type names.
func FuzzTypeDecls(f *testing.F) {
	f.Add("package p\n\nimport \"io\"\n\ntype W interface {\n\tio.Writer\n\tSync() error\n}\n\nfunc f() { type local int }\n")
	f.Add("package p\ntype (\n\tA = B\n\tB[T any] struct{ x T }\n)\nvar s = `type X interface{}`\n")
	f.Add("package p\nimport (\n\t\"a\"\n\tb \"c/d\"\n)\n/* type Y int */ type Z func() (int, error)\n")
	f.Fuzz(func(t *testing.T, src string) {
		out := typeDecls([]byte(src))
		orig, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
		if err != nil {
			return
		}
		red, err := parser.ParseFile(token.NewFileSet(), "", out, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("reduced file does not parse: %v\n%s", err, out)
		}
		if a, b := typeNames(orig), typeNames(red); !slices.Equal(a, b) {
			t.Errorf("type names %v, reduced %v\n%s", a, b, out)
		}
	})
}

func typeNames(f *ast.File) []string {
	var out []string
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
			for _, sp := range gd.Specs {
				out = append(out, sp.(*ast.TypeSpec).Name.Name)
			}
		}
	}
	return out
}

// The results of functions and methods declared outside the repository
// are typed from their source: an error from fmt.Errorf, a context.Context
// from (*http.Request).Context dispatch to the repository's implementers.
func TestGoExternalResults(t *testing.T) {
	withGoSource(t, realGOROOT(t), "")
	g := buildArchive(t, `
-- go.mod --
module example.com/m
-- m.go --
package m

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

type Fail struct{}

func (Fail) Error() string { return "" }

type Ctx struct{}

func (Ctx) Deadline() (time.Time, bool) { return time.Time{}, false }
func (Ctx) Done() <-chan struct{}       { return nil }
func (Ctx) Err() error                  { return nil }
func (Ctx) Value(key any) any           { return nil }

func Serve(r *http.Request) {
	err := fmt.Errorf("x")
	err.Error()
	ctx := r.Context()
	ctx.Done()
	context.Background().Err()
}
`)
	expectCallees(t, g, "example.com/m.Serve",
		"example.com/m.Fail.Error:interface",
		"example.com/m.Ctx.Done:interface",
		"example.com/m.Ctx.Err:interface",
	)
}

// An import path with ".." elements names no module: it is not followed
// out of the module cache to a directory that looks like one.
func TestGoModuleCacheNoEscape(t *testing.T) {
	base := t.TempDir()
	cache := filepath.Join(base, "cache")
	p := filepath.Join(base, "out", "pkg@v1.0.0", "secret.go")
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.MkdirAll(cache, 0o755)
	if err := os.WriteFile(p, []byte("package pkg\n\ntype Secret interface{ Reveal() }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	withGoSource(t, "", cache)
	g := buildArchive(t, `
-- go.mod --
module example.com/m
-- m.go --
package m

import s "example.com/../../out/pkg"

type T struct{}

func (T) Reveal() {}

func Use(v s.Secret) { v.Reveal() }
`)
	expectCallees(t, g, "example.com/m.Use")
}
