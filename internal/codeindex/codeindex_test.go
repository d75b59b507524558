package codeindex

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/enrich"
	"github.com/fileinfo/fileinfo/extract"
)

const shopGo = `// Package shop sells things.
package shop

import "fmt"

var taxRate = 0.2

// Store keeps prices.
type Store interface {
	// Price returns the price of name.
	Price(name string) int
}

type memStore struct{ m map[string]int }

// Price looks name up.
func (s *memStore) Price(name string) int {
	fmt.Println(name)
	return s.m[name]
}
`

func extractOne(t *testing.T, root, rel string) *extract.File {
	t.Helper()
	ex, err := extract.New(root, extract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	f, err := ex.File(context.Background(), rel)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func symbol(t *testing.T, cf docsearch.CodeFile, suffix string) docsearch.CodeSymbol {
	t.Helper()
	for _, s := range cf.Symbols {
		if strings.HasSuffix(s.Name, suffix) {
			return s
		}
	}
	t.Fatalf("no symbol %s in %+v", suffix, cf.Symbols)
	return docsearch.CodeSymbol{}
}

func TestFile(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "shop.go"), []byte(shopGo), 0o644); err != nil {
		t.Fatal(err)
	}
	f := extractOne(t, root, "shop.go")
	cf := File(f, []byte(shopGo), &Prose{Docs: map[string]enrich.SymbolDoc{}, Stale: true})
	mod := cf.Symbols[0]
	if mod.Kind != "module" || !strings.Contains(mod.Body, "taxRate") || strings.Contains(mod.Body, "s.m[name]") {
		t.Errorf("module body holds other symbols' code, or not its own:\n%s", mod.Body)
	}
	impl := symbol(t, cf, "memStore.Price")
	if impl.Decl || !strings.Contains(impl.Body, "return s.m[name]") || !strings.Contains(strings.Join(impl.Calls, " "), "Println") {
		t.Errorf("implementation %+v", impl)
	}
	if decl := symbol(t, cf, "Store.Price"); !decl.Decl {
		t.Errorf("interface method not a declaration: %+v", decl)
	}
	if st := symbol(t, cf, "Store"); !strings.Contains(st.Body, "members: Price") {
		t.Errorf("interface members not listed: %q", st.Body)
	}

	// Prose joins its symbol, marked stale.
	q := impl.Name
	cf = File(f, []byte(shopGo), &Prose{Docs: map[string]enrich.SymbolDoc{q: {Purpose: "Looks up a price.", Implementation: "1. Read the map."}}, Stale: true})
	if s := symbol(t, cf, "memStore.Price"); s.Purpose != "Looks up a price." || !s.Stale || s.Implementation == "" {
		t.Errorf("prose not joined: %+v", s)
	}
}

// TestFileCPrototype: a C prototype in a header is a declaration in the
// code index, as it is in the call graph; the definition is not.
func TestFileCPrototype(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"slab.h": "struct kmem_cache;\nstruct kmem_cache *kmem_cache_create(const char *name, unsigned int size);\n",
		"slab.c": "#include \"slab.h\"\nstruct kmem_cache *kmem_cache_create(const char *name, unsigned int size)\n{\n\treturn create_cache(name, size);\n}\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range map[string]bool{"slab.h": true, "slab.c": false} {
		cf := File(extractOne(t, root, name), []byte(files[name]), nil)
		if s := symbol(t, cf, "kmem_cache_create"); s.Decl != want {
			t.Errorf("%s: kmem_cache_create Decl %v, want %v", name, s.Decl, want)
		}
	}
}

// TestFileRustTests: a Rust function compiled only for tests, in a
// #[cfg(test)] module of a production file, is test code in its
// document; the function it tests is not.
func TestFileRustTests(t *testing.T) {
	root := t.TempDir()
	src := "pub fn parse(s: &str) -> u32 {\n    s.len() as u32\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn parses() {\n        assert_eq!(parse(\"ab\"), 2);\n    }\n}\n"
	if err := os.WriteFile(filepath.Join(root, "lib.rs"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cf := File(extractOne(t, root, "lib.rs"), []byte(src), nil)
	if s := symbol(t, cf, "parse"); s.Test {
		t.Errorf("parse is marked test code: %+v", s)
	}
	if s := symbol(t, cf, "tests.parses"); !s.Test {
		t.Errorf("tests.parses is not marked test code: %+v", s)
	}
}

func TestSyncReadsOnlyChanges(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".artifacts", ".index")
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("shop.go", shopGo)
	write("broken.py", "\x00\x01binary")
	write("tax.py", "def tax(amount):\n    \"\"\"Adds the sales tax.\"\"\"\n    return amount * 1.2\n")
	ctx := context.Background()
	ix, err := docsearch.Open(ctx, fstest.MapFS{}, docsearch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := Sync(ctx, ix, root, dir, nil)
	if err != nil || st.Extracted != 2 || st.Read != 3 {
		t.Fatalf("first sync: %+v, %v", st, err)
	}
	if st, err = Sync(ctx, ix, root, dir, nil); err != nil || st.Read != 0 {
		t.Fatalf("unchanged sync: %+v, %v", st, err)
	}
	write("tax.py", "def vat(amount):\n    \"\"\"Adds value added tax.\"\"\"\n    return amount * 1.2\n")
	os.Remove(filepath.Join(root, "shop.go"))
	if st, err = Sync(ctx, ix, root, dir, nil); err != nil || st.Extracted != 1 || st.Removed != 1 {
		t.Fatalf("sync after a change: %+v, %v", st, err)
	}
	if got := ix.CodeFiles(); len(got) != 1 || got[0] != "tax.py" {
		t.Errorf("code files %q", got)
	}
	zero := 0.0
	res, err := ix.Search(ctx, docsearch.Query{Text: "value added tax", Scopes: []string{docsearch.ScopeCode}, MinScore: &zero})
	if err != nil || len(res.Results) == 0 || res.Results[0].Symbol != "tax.vat" {
		t.Errorf("search after sync: %+v, %v", res.Results, err)
	}
}

// TestSyncReadsAllAfterAnotherBuild: stamps written by another build of
// fileinfo vouch for nothing (its code documents carry its build in
// their stamps, which serve would find stale), so the next Sync reads
// every file again and records this build; the one after reads none.
func TestSyncReadsAllAfterAnotherBuild(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".artifacts", ".index")
	writeFiles(t, root, map[string]string{"shop.go": shopGo, "tax.py": "def tax(amount):\n    return amount * 1.2\n"})
	ctx := context.Background()
	ix, err := docsearch.Open(ctx, fstest.MapFS{}, docsearch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func(was string) { buildStamp = was }(buildStamp)
	buildStamp = "fileinfo v1 (test)"
	if st, err := Sync(ctx, ix, root, dir, nil); err != nil || st.Read != 2 {
		t.Fatalf("first sync: %+v, %v", st, err)
	}
	if st, err := Sync(ctx, ix, root, dir, nil); err != nil || st.Read != 0 {
		t.Fatalf("unchanged sync, same build: %+v, %v", st, err)
	}
	buildStamp = "fileinfo v2 (test)"
	if st, err := Sync(ctx, ix, root, dir, nil); err != nil || st.Read != 2 {
		t.Fatalf("sync by another build: %+v, %v, want every file read", st, err)
	}
	if st, err := Sync(ctx, ix, root, dir, nil); err != nil || st.Read != 0 {
		t.Fatalf("unchanged sync after it: %+v, %v", st, err)
	}
	if err := os.Remove(filepath.Join(dir, buildFile)); err != nil {
		t.Fatal(err)
	}
	if st, err := Sync(ctx, ix, root, dir, nil); err != nil || st.Read != 2 {
		t.Fatalf("sync of stamps with no build recorded: %+v, %v, want every file read", st, err)
	}
}

// TestFilePlaces checks that an anonymous function no named function
// holds (extract.Place) is a code document of its own, with its calls,
// and that the module's document leaves its lines out: a routes file's
// later routes were past the module document's head.
func TestFilePlaces(t *testing.T) {
	var src strings.Builder
	src.WriteString("<?php\nuse App\\Models\\User;\n")
	for i := range 40 {
		src.WriteString("Route::get('/filler" + strings.Repeat("x", i) + "', function () { return view('filler'); });\n")
	}
	src.WriteString("Route::get('/users', function () {\n    return User::where('active', 1)->paginate(25);\n});\n")
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "web.php"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	f := extractOne(t, root, "web.php")
	cf := File(f, []byte(src.String()), nil)
	users := symbol(t, cf, "<callback of Route::get('/users')>")
	if users.Kind != "function" || users.Line != 43 || users.End != 45 || !strings.Contains(users.Body, "paginate(25)") ||
		!strings.Contains(strings.Join(users.Calls, " "), "paginate") || !strings.HasPrefix(users.Signature, "Route::get('/users'") {
		t.Errorf("place document %+v", users)
	}
	if mod := cf.Symbols[0]; mod.Kind != "module" || strings.Contains(mod.Body, "Route::get") || !strings.Contains(mod.Body, "use App") {
		t.Errorf("module document holds the places' lines, or not its own:\n%s", mod.Body)
	}
}

// TestFileOverloads: a TypeScript function's overload signatures are its
// implementation's document, signatures and doc comment, not documents
// of their own; a declaration alone (an ambient function, a declaration
// file's) keeps its own.
func TestFileOverloads(t *testing.T) {
	root := t.TempDir()
	src := "/** Runs a hook once something observes the value. */\n" +
		"export function onBecomeObserved(value: IObservable, listener: Lambda): Lambda\n" +
		"export function onBecomeObserved<K>(value: ObservableMap<K, any>, property: K, listener: Lambda): Lambda\n" +
		"export function onBecomeObserved(thing, arg2, arg3?): Lambda {\n    return interceptHook(thing, arg2, arg3)\n}\n" +
		"declare function ambient(x: number): void;\n"
	if err := os.WriteFile(filepath.Join(root, "observed.ts"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cf := File(extractOne(t, root, "observed.ts"), []byte(src), nil)
	var impls []docsearch.CodeSymbol
	for _, s := range cf.Symbols {
		if s.Name == "observed.onBecomeObserved" {
			impls = append(impls, s)
		}
	}
	if len(impls) != 1 {
		t.Fatalf("onBecomeObserved: %d documents, want 1 (its implementation's): %+v", len(impls), impls)
	}
	s := impls[0]
	if s.Decl || s.Line != 4 || !strings.Contains(s.Signature, "listener: Lambda") || !strings.Contains(s.Signature, "thing, arg2, arg3?") ||
		s.Doc != "Runs a hook once something observes the value." {
		t.Errorf("the implementation's document: %+v", s)
	}
	if a := symbol(t, cf, "ambient"); !a.Decl {
		t.Errorf("the ambient function: %+v, want a declaration", a)
	}
}
