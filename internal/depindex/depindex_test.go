package depindex

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/internal/deps"
	"github.com/fileinfo/fileinfo/internal/fixture"
)

// unpack writes testdata/name into a temporary directory and returns it.
func unpack(t *testing.T, name string) string {
	t.Helper()
	return fixture.Unpack(t, filepath.Join("testdata", name))
}

// symbols lists an API's symbols as "qualified path:line".
func symbols(a *API) []string {
	var out []string
	for _, s := range a.Symbols {
		out = append(out, s.Qualified)
	}
	return out
}

func TestBuildPython(t *testing.T) {
	dir := unpack(t, "python.txtar")
	d := deps.Dep{Ecosystem: deps.Python, Name: "tinyhttp", Version: "1.2.0", Status: deps.Present,
		Dir: filepath.Join(dir, "site"), Roots: []string{"tinyhttp"}}
	a, err := Build(context.Background(), d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(symbols(a), " ")
	for _, want := range []string{"tinyhttp.get", "tinyhttp.client.Client", "tinyhttp.client.Client.get"} {
		if !strings.Contains(" "+got+" ", " "+want+" ") {
			t.Errorf("symbols %q lack %s", got, want)
		}
	}
	if strings.Contains(got, "_helper") || strings.Contains(got, "test_get") {
		t.Errorf("symbols %q hold a private or test function", got)
	}
	if len(a.Docs) != 1 || !strings.HasPrefix(a.Docs[0].Text, "# tinyhttp") {
		t.Fatalf("docs = %+v, want the METADATA description without its headers", a.Docs)
	}
	docs := Documents(a, "deps")
	var page string
	for _, doc := range docs {
		if doc.Path == "deps:tinyhttp@1.2.0/tinyhttp/__init__.py.md" {
			page = doc.Text
		}
	}
	if !strings.Contains(page, "Fetch url and return the response body.") || !strings.Contains(page, "tinyhttp/__init__.py:3") {
		t.Errorf("API page lacks the doc or the location:\n%s", page)
	}
}

func TestBuildPrefersDeclarations(t *testing.T) {
	dir := unpack(t, "npm.txtar")
	d := deps.Dep{Ecosystem: deps.NPM, Name: "@scope/ui", Version: "1.2.0", Status: deps.Present,
		Dir: filepath.Join(dir, "pkg"), Roots: []string{"."}}
	a, err := Build(context.Background(), d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Symbols) != 1 || a.Symbols[0].Path != "index.d.ts" || !strings.Contains(a.Symbols[0].Doc, "Opens a dialog") {
		t.Errorf("symbols = %+v, want openDialog from index.d.ts alone", a.Symbols)
	}
	if len(a.Docs) != 1 || a.Docs[0].Path != "README.md" {
		t.Errorf("docs = %+v, want README.md", a.Docs)
	}
}

// TestCacheRealModule builds golang.org/x/sync at the version fileinfo's
// own go.sum locks, from the real module cache, then reads it back.
func TestCacheRealModule(t *testing.T) {
	ds, err := deps.Resolve(filepath.Join("..", ".."), deps.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var sync deps.Dep
	for _, d := range ds {
		if d.Name == "golang.org/x/sync" {
			sync = d
		}
	}
	if sync.Status != deps.Present {
		t.Fatalf("golang.org/x/sync: %+v", sync)
	}
	c := Cache{Dir: t.TempDir()}
	a, built, err := c.Get(context.Background(), sync, Options{})
	if err != nil || !built {
		t.Fatalf("first Get: built=%v err=%v", built, err)
	}
	var goDoc string
	for _, s := range a.Symbols {
		if strings.HasSuffix(s.Qualified, "Group.Go") && strings.HasPrefix(s.Path, "errgroup/") {
			goDoc = s.Doc
		}
		if strings.Contains(s.Path, "_test.go") {
			t.Errorf("test file in the API: %s", s.Path)
		}
	}
	if goDoc == "" {
		t.Fatalf("errgroup's Group.Go missing or undocumented among %d symbols", len(a.Symbols))
	}
	t.Logf("%s: %d files, %d symbols, %d docs", a.ID(), a.Files, len(a.Symbols), len(a.Docs))
	again, built, err := c.Get(context.Background(), sync, Options{})
	if err != nil || built || len(again.Symbols) != len(a.Symbols) {
		t.Fatalf("second Get: built=%v err=%v symbols %d/%d", built, err, len(again.Symbols), len(a.Symbols))
	}
	// A corrupt file is rebuilt.
	if err := os.WriteFile(filepath.Join(c.Dir, entry(sync, a.Digest)), []byte("\x1f\x8bgarbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, built, err := c.Get(context.Background(), sync, Options{}); err != nil || !built {
		t.Fatalf("Get over a corrupt file: built=%v err=%v", built, err)
	}
}

func TestCachePathEscapes(t *testing.T) {
	digest := "sha256:" + strings.Repeat("ab", 32)
	for _, tt := range []struct {
		d    deps.Dep
		want string
	}{
		{deps.Dep{Ecosystem: deps.NPM, Name: "@scope/ui", Version: "1.2.0"}, "npm/@scope%2Fui@1.2.0/" + strings.Repeat("ab", 32) + ".json.gz"},
		{deps.Dep{Ecosystem: "..", Name: "../..", Version: "/x"}, "%2E%2E/..%2F..@%2Fx/" + strings.Repeat("ab", 32) + ".json.gz"},
	} {
		if p := entry(tt.d, digest); p != filepath.FromSlash(tt.want) {
			t.Errorf("entry(%+v) = %s, want %s", tt.d, p, tt.want)
		}
	}
}

func TestGetRefusesMissing(t *testing.T) {
	c := Cache{Dir: t.TempDir()}
	if _, _, err := c.Get(context.Background(), deps.Dep{Name: "x", Status: deps.Missing}, Options{}); err == nil {
		t.Error("a missing dependency was built")
	}
}

// TestLockedVersionWins: with two versions in the module cache, the API
// is the one go.sum locks.
func TestLockedVersionWins(t *testing.T) {
	dir := unpack(t, "gotwo.txtar")
	env := map[string]string{"GOMODCACHE": filepath.Join(dir, "cache")}
	ds, err := deps.Resolve(filepath.Join(dir, "project"), deps.Options{Getenv: func(k string) string { return env[k] }})
	if err != nil || len(ds) != 1 {
		t.Fatalf("Resolve: %v, %v", ds, err)
	}
	a, _, err := Cache{Dir: t.TempDir()}.Get(context.Background(), ds[0], Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(symbols(a), " ")
	if a.Version != "v0.18.0" || !strings.Contains(got, "OnlyIn018") || strings.Contains(got, "OnlyIn020") {
		t.Errorf("%s: symbols %q; want v0.18.0's", a.ID(), got)
	}
	t.Logf("found %s with %s", a.ID(), got)
}
