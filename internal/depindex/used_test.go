package depindex

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/deps"
)

// extractOne extracts one source file written to a temporary directory.
func extractOne(t *testing.T, name, src string) *extract.File {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := extract.New(dir, extract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	f, err := e.File(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func usedNames(us []UsedSymbol) []string {
	var out []string
	for _, u := range us {
		out = append(out, u.Dep+" "+u.Qualified)
	}
	return out
}

func TestUsedGo(t *testing.T) {
	ds, err := deps.Resolve(filepath.Join("..", ".."), deps.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var apis []*API
	for _, d := range ds {
		if d.Name == "golang.org/x/sync" {
			a, err := Build(context.Background(), d, Options{})
			if err != nil {
				t.Fatal(err)
			}
			apis = append(apis, a)
		}
	}
	if len(apis) != 1 {
		t.Fatalf("%d APIs", len(apis))
	}
	// Another module's method of the same name does not make g.Go
	// ambiguous: it is not in a package the file imports.
	apis = append(apis, &API{Ecosystem: deps.Go, Name: "example.com/other", Version: "v1.0.0",
		Symbols: []Symbol{{Qualified: "example.com/other.Pool.Go", Kind: "method", Path: "pool.go", Line: 3}}})
	f := extractOne(t, "main.go", `package main

import (
	"context"

	"golang.org/x/sync/errgroup"
)

func run(ctx context.Context) error {
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error { return nil })
	return g.Wait()
}
`)
	v := apis[0].Version
	got := usedNames(Used(f, apis, 10))
	want := []string{
		"golang.org/x/sync@" + v + " golang.org/x/sync/errgroup.WithContext",
		"golang.org/x/sync@" + v + " golang.org/x/sync/errgroup.Group.Go",
		"golang.org/x/sync@" + v + " golang.org/x/sync/errgroup.Group.Wait",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Used = %q\nwant %q", got, want)
	}
	if got := Used(f, apis, 1); len(got) != 1 {
		t.Errorf("max 1 gave %d", len(got))
	}
}

func TestUsedPython(t *testing.T) {
	dir := unpack(t, "python.txtar")
	d := deps.Dep{Ecosystem: deps.Python, Name: "tinyhttp", Version: "1.2.0", Status: deps.Present,
		Dir: filepath.Join(dir, "site"), Roots: []string{"tinyhttp"}}
	a, err := Build(context.Background(), d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := extractOne(t, "app.py", `import tinyhttp
import tinyhttp.client as tc
from tinyhttp.client import Client as C

def main():
    tinyhttp.get("https://example.org")
    c = C(timeout=5)
    c.get("/x")
    tc.Client()
    unrelated.get()
`)
	got := usedNames(Used(f, []*API{a}, 10))
	want := []string{
		"tinyhttp@1.2.0 tinyhttp.get",
		"tinyhttp@1.2.0 tinyhttp.client.Client",
		"tinyhttp@1.2.0 tinyhttp.client.Client.get",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Used = %q\nwant %q", got, want)
	}
}
