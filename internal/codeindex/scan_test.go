package codeindex

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/fileinfo/fileinfo/docsearch"
)

// scanTree is a workspace with directories that only the code walk
// enters (testdata, a hidden one, vendor), one that only the doc walk
// enters (Pods, .artifacts), one both pass over (git-ignored) and some
// both enter.
var scanTree = map[string]string{
	".gitignore":                "build/\n",
	"main.go":                   "package main\n\nfunc main() { helper() }\n",
	"lib/util.go":               "package lib\n\n// Helper helps.\nfunc Helper() int { return 1 }\n",
	"lib/deep/tool.py":          "def tool():\n    return 2\n",
	"docs/guide.md":             "# Guide\n\nHow to use the shop.\n",
	"docs/api/ref.md":           "# Reference\n\nEvery call of the shop.\n",
	"testdata/case.go":          "package testdata\n\nfunc Case() {}\n",
	".github/workflows/ci.yml":  "on: push\n",
	"Pods/notes.md":             "# Notes\n\nPods are not walked for code.\n",
	"build/out.go":              "package out\n",
	"vendor/modules.txt":        "# example.com/x v1.0.0\n",
	"vendor/example.com/x/x.go": "package x\n\nfunc X() {}\n",
}

// countFS counts the directory reads and lstats the doc walk makes, and
// the files it opens (a file read through a plain fs.FS is lstat'd first,
// to refuse what is not a regular file: that lstat is part of reading it).
type countFS struct {
	fs.FS
	mu                  sync.Mutex
	reads, stats, opens map[string]int
}

func (c *countFS) Open(name string) (fs.File, error) {
	c.mu.Lock()
	c.opens[name]++
	c.mu.Unlock()
	return c.FS.Open(name)
}

func (c *countFS) ReadDir(name string) ([]fs.DirEntry, error) {
	c.mu.Lock()
	c.reads[name]++
	c.mu.Unlock()
	return fs.ReadDir(c.FS, name)
}

func (c *countFS) Lstat(name string) (fs.FileInfo, error) {
	c.mu.Lock()
	c.stats[name]++
	c.mu.Unlock()
	return fs.Lstat(c.FS, name)
}

func (c *countFS) ReadLink(name string) (string, error) { return fs.ReadLink(c.FS, name) }

// work is what one freshness check read: directory reads and lstats by
// slash path, whichever walk made them.
type work struct {
	reads, stats map[string]int
	docReads     []string // the directories the doc walk read itself
	dirStats     []string // directories stat'd to look for artifacts
}

// searchOpen opens the index of root as a CLI search does (cmd/fileinfo
// openIndex): the code walk begun first, the doc index opened with what
// it read, the code scope synced with it; and returns the work done.
func searchOpen(t *testing.T, root string) (*docsearch.Index, work) {
	t.Helper()
	w := work{reads: map[string]int{}, stats: map[string]int{}}
	var mu sync.Mutex
	dirHook = func(rel string) {
		if rel == "" {
			rel = "."
		}
		mu.Lock()
		w.reads[rel]++
		mu.Unlock()
	}
	lstat = func(name string) (fs.FileInfo, error) {
		rel, err := filepath.Rel(root, name)
		if err != nil {
			t.Errorf("lstat %s outside %s", name, root)
		}
		mu.Lock()
		w.stats[filepath.ToSlash(rel)]++
		mu.Unlock()
		return os.Lstat(name)
	}
	stat = func(name string) (fs.FileInfo, error) {
		rel, _ := filepath.Rel(root, name)
		mu.Lock()
		w.dirStats = append(w.dirStats, filepath.ToSlash(rel))
		mu.Unlock()
		return os.Stat(name)
	}
	t.Cleanup(func() { dirHook, lstat, stat = nil, os.Lstat, os.Stat })
	ctx := context.Background()
	dir := filepath.Join(root, ".artifacts", ".index")
	cfs := &countFS{FS: os.DirFS(root), reads: map[string]int{}, stats: map[string]int{}, opens: map[string]int{}}
	scan := StartScan(ctx, root, SelectOptions{Dir: dir})
	ix, err := docsearch.Open(ctx, cfs, docsearch.Options{Dir: dir, Walked: scan.Listing})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := SyncScanned(ctx, ix, scan, nil); err != nil {
		t.Fatal(err)
	}
	dirHook, lstat, stat = nil, os.Lstat, os.Stat
	for p, n := range cfs.reads {
		w.reads[p] += n
		w.docReads = append(w.docReads, p)
	}
	for p, n := range cfs.stats {
		if n -= cfs.opens[p]; n > 0 { // not a read's own lstat
			w.stats[p] += n
		}
	}
	slices.Sort(w.docReads)
	return ix, w
}

// TestOneWalk checks that a CLI search's freshness check reads each
// directory once and lstats each file at most once: the doc walk takes
// the directories and stats the code walk read, and reads only those it
// alone enters. Before the walks were shared, the doc walk read every
// directory it entered a second time.
func TestOneWalk(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, scanTree)
	for _, run := range []struct {
		name     string
		docReads []string
		dirStats int // directories stat'd to look for artifacts
	}{
		// The doc index is saved under .artifacts at the end of the
		// first's doc walk: until then there is none. Then the doc walk
		// lists .artifacts, which tells that there is no artifacts'
		// directory: none is stat'd.
		{"first (builds the index)", []string{"Pods"}, 0},
		{"second (a search)", []string{".artifacts", "Pods"}, 0},
	} {
		t.Run(run.name, func(t *testing.T) {
			_, w := searchOpen(t, root)
			for p, n := range w.reads {
				if n != 1 {
					t.Errorf("directory %s read %d times; want once", p, n)
				}
			}
			for _, d := range append([]string{".", "lib", "lib/deep", "docs", "docs/api", "testdata", ".github", "vendor"}, run.docReads...) {
				if w.reads[d] == 0 {
					t.Errorf("directory %s not read", d)
				}
			}
			if want := run.docReads; !slices.Equal(w.docReads, want) {
				t.Errorf("the doc walk read %q itself; want only the directories the code walk does not enter, %q", w.docReads, want)
			}
			if len(w.dirStats) != run.dirStats {
				t.Errorf("directories stat'd to look for artifacts: %q; want %d", w.dirStats, run.dirStats)
			}
			for p, n := range w.stats {
				if n != 1 {
					t.Errorf("%s stat'd %d times; want once", p, n)
				}
			}
			for _, f := range []string{"main.go", "lib/util.go", "lib/deep/tool.py", "docs/guide.md", "Pods/notes.md", "vendor/example.com/x/x.go"} {
				if w.stats[f] != 1 {
					t.Errorf("%s stat'd %d times; want once", f, w.stats[f])
				}
			}
		})
	}
}

// TestOneWalkFresh checks that what changed after an index, in a
// directory both walks enter or in one only the doc walk enters, is what
// the next search sees: nothing is served stale from the shared walk.
func TestOneWalkFresh(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, scanTree)
	searchOpen(t, root)
	writeFiles(t, root, map[string]string{
		"lib/util.go":     "package lib\n\n// Discount takes ten percent off.\nfunc Discount(p int) int { return p * 9 / 10 }\n",
		"docs/api/new.md": "# Refunds\n\nHow refunds are paid.\n",
		"Pods/more.md":    "# Pods again\n\nAnother note.\n",
		"lib/fresh.go":    "package lib\n\nfunc Fresh() {}\n",
	})
	if err := os.Remove(filepath.Join(root, "lib", "deep", "tool.py")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "docs", "guide.md")); err != nil {
		t.Fatal(err)
	}
	ix, _ := searchOpen(t, root)
	if got, want := ix.CodeFiles(), []string{"lib/fresh.go", "lib/util.go", "main.go", "testdata/case.go"}; !slices.Equal(got, want) {
		t.Errorf("code files %q; want %q", got, want)
	}
	docs, err := ix.List(docsearch.ScopeDocs)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, d := range docs {
		paths = append(paths, d.Path)
	}
	if want := []string{"Pods/more.md", "Pods/notes.md", "docs/api/new.md", "docs/api/ref.md"}; !slices.Equal(paths, want) {
		t.Errorf("docs %q; want %q", paths, want)
	}
	res, err := ix.Search(context.Background(), docsearch.Query{Text: "Discount", Scopes: []string{docsearch.ScopeCode}, Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range res.Results {
		found = found || r.Path == "lib/util.go" && strings.HasSuffix(r.Symbol, "Discount")
	}
	if !found {
		t.Errorf("search Discount: %+v; want lib/util.go's Discount, edited after the index", res.Results)
	}
}

// TestDirCacheListing checks that the directories an artifact may be in
// are found in the listing as os.Stat finds them, with a stat only where
// the listing cannot tell: a link, or a directory below one the walks
// did not enter.
func TestDirCacheListing(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{".artifacts/lib/deep", ".artifacts/docs"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.FromSlash(d)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFiles(t, root, map[string]string{".artifacts/file.md": "x"})
	if err := os.Symlink("lib", filepath.Join(root, ".artifacts", "link")); err != nil {
		t.Fatal(err)
	}
	l := docsearch.NewListing()
	for _, d := range []string{".", ".artifacts"} {
		entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(d)))
		if err != nil {
			t.Fatal(err)
		}
		l.AddDir(d, entries)
	}
	var stats []string
	stat = func(name string) (fs.FileInfo, error) {
		rel, _ := filepath.Rel(root, name)
		stats = append(stats, filepath.ToSlash(rel))
		return os.Stat(name)
	}
	t.Cleanup(func() { stat = os.Stat })
	c := newDirCache(root, l)
	for _, d := range []string{".artifacts", ".artifacts/lib", ".artifacts/lib/deep", ".artifacts/lib/none", ".artifacts/docs",
		".artifacts/file.md", ".artifacts/link", ".artifacts/none", ".artifacts/none/deeper", "none/x"} {
		info, err := os.Stat(filepath.Join(root, filepath.FromSlash(d)))
		want := err == nil && info.IsDir()
		if got := c.exists(filepath.Join(root, filepath.FromSlash(d))); got != want {
			t.Errorf("exists(%s) = %v; want %v", d, got, want)
		}
	}
	if want := []string{".artifacts/lib/deep", ".artifacts/lib/none", ".artifacts/link"}; !slices.Equal(stats, want) {
		t.Errorf("stat'd %q; want only %q", stats, want)
	}
}
