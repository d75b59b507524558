package docsearch

import (
	"context"
	"os"
	"slices"
	"testing"
)

// limiterCode is a project's rate limiter and the library it vendors
// under external/, which has no name auxiliaryCode knows. The vendored
// function is put first and says "token bucket" more: by its words alone
// it ranks first.
func limiterCode() []CodeFile {
	return []CodeFile{
		{Path: "external/ratelimit/bucket.go", Vendor: true, Symbols: []CodeSymbol{
			{Name: "Allow", Kind: "function", Signature: "func Allow(key string) bool",
				Doc:  "Allow reports whether a request for key is let through by its token bucket; a token bucket refills at a fixed rate.",
				Body: "b := buckets.get(key)\nreturn b.take(1)", Line: 40, End: 44},
		}},
		{Path: "internal/throttle/throttle.go", Symbols: []CodeSymbol{
			{Name: "Allow", Kind: "function", Signature: "func Allow(key string) bool",
				Doc: "Allow reports whether a request for key is let through by its token bucket.", Body: "b := buckets[key]\nreturn b.take(1)", Line: 10, End: 14},
		}},
	}
}

// TestVendorScope checks that vendored code is a scope of its own:
// searched with every scope and on its own, never with code, ranked
// under the project's code that matches as well, and kept in a saved
// index.
func TestVendorScope(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	ix := openTest(t, os.DirFS(root), Options{Dir: dir})
	putCode(t, ix, limiterCode())
	if !slices.Contains(ix.Scopes(), ScopeVendor) {
		t.Errorf("scopes %v: no %s", ix.Scopes(), ScopeVendor)
	}
	expectPathFirst(t, ix, "token bucket allow", nil, "internal/throttle/throttle.go")
	r := expectPathFirst(t, ix, "token bucket allow", []string{ScopeVendor}, "external/ratelimit/bucket.go")
	if r.Scope != ScopeVendor || r.Path != "external/ratelimit/bucket.go" || r.Kind != "function" || r.Lines != [2]int{40, 44} {
		t.Errorf("vendored result %+v", r)
	}
	zero := 0.0
	res, err := ix.Search(context.Background(), Query{Text: "token bucket allow", Scopes: []string{ScopeCode}, MinScore: &zero})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Results {
		if r.Scope != ScopeCode {
			t.Errorf("a search of the code scope found %s in %s", r.Path, r.Scope)
		}
	}
	if got := ix.VendorFiles(); !slices.Equal(got, []string{"external/ratelimit/bucket.go"}) {
		t.Errorf("VendorFiles %v", got)
	}
	if got := ix.CodeFiles(); !slices.Equal(got, []string{"internal/throttle/throttle.go"}) {
		t.Errorf("CodeFiles %v", got)
	}
	again := openTest(t, os.DirFS(root), Options{Dir: dir})
	expectPathFirst(t, again, "token bucket allow", []string{ScopeVendor}, "external/ratelimit/bucket.go")
	expectPathFirst(t, again, "token bucket allow", nil, "internal/throttle/throttle.go")
}

// TestVendorScopeMoves checks that a file put again with another scope
// leaves the one it was in, though its symbols are as they were.
func TestVendorScopeMoves(t *testing.T) {
	ix := openTest(t, mapFS(nil), Options{})
	files := limiterCode()
	putCode(t, ix, files)
	files[0].Vendor = false
	putCode(t, ix, files[:1])
	if got := ix.VendorFiles(); len(got) != 0 {
		t.Errorf("VendorFiles after the move %v", got)
	}
	if got := ix.CodeFiles(); len(got) != 2 {
		t.Errorf("CodeFiles after the move %v", got)
	}
	zero := 0.0
	res, err := ix.Search(context.Background(), Query{Text: "token bucket allow", Scopes: []string{ScopeCode}, MinScore: &zero})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) != 2 {
		t.Errorf("the code scope found %d results after the move, want 2", len(res.Results))
	}
	putCode(t, ix, nil, "external/ratelimit/bucket.go")
	if got := ix.CodeFiles(); !slices.Equal(got, []string{"internal/throttle/throttle.go"}) {
		t.Errorf("CodeFiles after removal %v", got)
	}
}

// expectPathFirst checks the file of the first result of query.
func expectPathFirst(t *testing.T, ix *Index, query string, scopes []string, want string) Result {
	t.Helper()
	zero := 0.0
	res, err := ix.Search(context.Background(), Query{Text: query, Scopes: scopes, MinScore: &zero, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) == 0 || res.Results[0].Path != want {
		var got []string
		for _, r := range res.Results {
			got = append(got, r.Scope+":"+r.Path+"#"+r.Symbol)
		}
		t.Fatalf("%q in %v: want %s first; got %v", query, scopes, want, got)
	}
	return res.Results[0]
}

// TestHoldsVendor checks HoldsVendor on an index built, on the saved
// table with and without vendored code, and on a vendored file put over
// a table that had none.
func TestHoldsVendor(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	ix := openTest(t, os.DirFS(root), Options{Dir: dir})
	putCode(t, ix, limiterCode()[1:]) // the project's file alone
	if ix.HoldsVendor() {
		t.Error("an index of the project's code holds vendored code")
	}
	again := openTest(t, os.DirFS(root), Options{Dir: dir})
	if again.HoldsVendor() {
		t.Error("the saved table holds vendored code")
	}
	putCode(t, again, limiterCode()[:1])
	if !again.HoldsVendor() {
		t.Error("a vendored file put over the table is not held")
	}
	if third := openTest(t, os.DirFS(root), Options{Dir: dir}); !third.HoldsVendor() {
		t.Error("the table saved with vendored code does not hold it")
	}
}
