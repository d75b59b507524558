package server

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestLikelyDefines(t *testing.T) {
	for _, c := range []struct {
		src  string
		want bool
	}{
		{"struct kmem_cache *kmem_cache_create(const char *name);\n", true}, // a C prototype
		{"static int\nkmem_cache_create(void)\n{\n}\n", true},               // GNU style
		{"void f(void)\n{\n\tkmem_cache_create(\"x\", 8);\n}\n", false},     // a call
		{"#define kmem_cache_create(n) other(n)\n", true},
		{"#include \"kmem_cache_create.h\"\n", false},
		{"#ifdef kmem_cache_create\n", false},
		{"// kmem_cache_create makes a cache.\n", false},
		{" * kmem_cache_create - makes a cache\n", false},
		{"class Store:\n    def kmem_cache_create(self):\n        pass\n", true},
		{"def caller():\n    return kmem_cache_create()\n", false},
		{"func (s *Store) kmem_cache_create() {}\n", true},
		{"func f() {\n\tx := kmem_cache_create()\n}\n", false},
		{"class A {\n  static function kmem_cache_create() {}\n}\n", true},
		{"fn main() {\n    let kmem_cache_create = 1;\n}\n", true},
		{"", false},
	} {
		if got := likelyDefines([]byte(c.src), [][]byte{[]byte("kmem_cache_create")}, false); got != c.want {
			t.Errorf("likelyDefines(%q) = %v, want %v", c.src, got, c.want)
		}
	}
	if !likelyDefines([]byte("func KmemCacheCreate() {}\n"), [][]byte{[]byte("kmemcachecreate")}, true) {
		t.Error("a definition matched folded: false")
	}
}

// FuzzLikelyDefines: any source and name give an answer without a panic,
// and true only for a source that holds the name.
func FuzzLikelyDefines(f *testing.F) {
	f.Add([]byte("static int\nname(void)\n"), []byte("name"), false)
	f.Add([]byte("    def Name(self):\n"), []byte("name"), true)
	f.Add([]byte("func (r T) name()"), []byte("name"), false)
	f.Fuzz(func(t *testing.T, src, name []byte, fold bool) {
		if fold {
			name = bytes.ToLower(name)
		}
		if likelyDefines(src, [][]byte{name}, fold) && (len(name) == 0 || !holds(src, name, fold)) {
			t.Fatalf("likelyDefines(%q, %q, %v) without the name", src, name, fold)
		}
	})
}

// TestColdSearchBudget: a code search while the load runs extracts the
// files that mention the name within its budget, those that likely
// define it first, and minScanExtracted whatever the budget: with no
// budget left, the answer holds the definition, says how many files were
// not extracted yet, and each search again extracts more.
func TestColdSearchBudget(t *testing.T) {
	defer func(b time.Duration, n int) { coldNamesBudget, minScanExtracted = b, n }(coldNamesBudget, minScanExtracted)
	coldNamesBudget, minScanExtracted = time.Nanosecond, 2
	files := heldTree()
	const callers = 12
	for i := range callers {
		files[fmt.Sprintf("c%d/c%d.go", i, i)] = fmt.Sprintf("package c%d\n\nimport \"example.com/x/z\"\n\nfunc Use%d() {\n\tz.Zeta()\n}\n", i, i)
	}
	release := make(chan struct{})
	defer close(release)
	s := connect(t, files, Options{NoWatch: true, loadWait: time.Millisecond, hooks: holdExtraction(release)})
	search := func() searchDocsOut {
		t.Helper()
		res, err := s.callHeld("search_docs", map[string]any{"query": "zeta"})
		if err != nil || res.IsError {
			t.Fatalf("search_docs zeta while the load is held: %v %v", err, res)
		}
		var out searchDocsOut
		decode(t, res, &out)
		if len(out.Results) == 0 || out.Results[0].Symbol != "example.com/x/z.Zeta" {
			t.Fatalf("search zeta: %+v %v", out.Results, out.Coverage)
		}
		return out
	}
	out := search()
	cov := out.Coverage["code"]
	if !strings.Contains(cov, "whole names partial") || !strings.Contains(cov, fmt.Sprintf("found %d that mention", callers+3)) {
		t.Errorf("coverage of the first search: %s", cov)
	}
	notExtracted(t, s, "z/last.go")
	c := s.srv.workspace().early.Load().cold
	c.mu.Lock()
	extracted := len(c.done)
	c.mu.Unlock()
	if extracted != minScanExtracted {
		t.Errorf("the first search extracted %d files within a budget of 1ns, want %d", extracted, minScanExtracted)
	}
	for range callers + 3 {
		if strings.Contains(search().Coverage["code"], "whole names complete") {
			return
		}
	}
	t.Errorf("searches again never extracted every file that mentions the name: %s", search().Coverage["code"])
}
