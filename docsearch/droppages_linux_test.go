//go:build linux

package docsearch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// residentKB returns the kilobytes of b's pages mapped into the process,
// from /proc/self/smaps: the Rss of the mappings b lies in.
func residentKB(t *testing.T, b []byte) int {
	t.Helper()
	raw, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps:", err)
	}
	lo := uint64(uintptr(unsafe.Pointer(&b[0])))
	hi := lo + uint64(len(b))
	kb, in := 0, false
	for _, l := range strings.Split(string(raw), "\n") {
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		if a, z, ok := strings.Cut(f[0], "-"); ok && !strings.HasSuffix(f[0], ":") {
			start, err1 := strconv.ParseUint(a, 16, 64)
			end, err2 := strconv.ParseUint(z, 16, 64)
			in = err1 == nil && err2 == nil && start < hi && end > lo
			continue
		}
		if in && f[0] == "Rss:" && len(f) > 1 {
			n, _ := strconv.Atoi(f[1])
			kb += n
		}
	}
	return kb
}

// TestDropPages: a pass over every document of a loaded index (the
// stamps and paths a sync compares) leaves its tables mapped; DropPages
// unmaps the file's pages, and searches after it answer as before. Once
// a change has been made it drops nothing: rows of the mapping may have
// been written.
func TestDropPages(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	files := map[string]string{}
	for i := range 1500 {
		files[fmt.Sprintf("docs/d%04d.md", i)] = fmt.Sprintf("# Page %d\n\nThe widget %d renders sparkline charts of cluster %d.\n\n## Deploy\n\nDeploy widget %d to region %d.\n", i, i, i%37, i, i%11)
	}
	writeTree(t, root, files)
	dir := filepath.Join(t.TempDir(), "idx")
	opts := Options{Dir: dir, Embedder: &trigramEmbedder{}}
	openTest(t, os.DirFS(root), opts)
	ix := openTest(t, os.DirFS(root), opts)
	if ix.tab == nil || !ix.mmapped {
		t.Fatal("the saved index was not opened in place from a mapping")
	}
	queries := []Query{{Text: "sparkline charts cluster 12"}, {Text: "deploy widget 700"}, {Text: "region", Mode: Vector}}
	search := func() (out []Results) {
		for _, q := range queries {
			r, err := ix.Search(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, r)
		}
		return out
	}
	want := search()
	ix.Stats() // every document's entry
	for range ix.paths() {
	}
	before := residentKB(t, ix.mapped)
	if before < 64 {
		t.Fatalf("a pass over every document left %d KB of the %d KB index mapped", before, len(ix.mapped)>>10)
	}
	if !ix.DropPages() {
		t.Fatal("DropPages dropped nothing")
	}
	if after := residentKB(t, ix.mapped); after > 8 {
		t.Errorf("after DropPages %d KB of the index are mapped, %d before", after, before)
	}
	if got := search(); !reflect.DeepEqual(got, want) {
		t.Errorf("searches after DropPages:\n%+v\nbefore:\n%+v", got, want)
	}

	writeTree(t, root, map[string]string{"docs/d0001.md": "# Page one\n\nRewritten: sparkline charts.\n"})
	if err := ix.Update(ctx, []string{"docs/d0001.md"}); err != nil {
		t.Fatal(err)
	}
	if ix.tab != nil {
		t.Fatal("a change left the tables in place")
	}
	if ix.DropPages() {
		t.Error("DropPages dropped the pages of an index changed since it was loaded")
	}
}

// TestFullLoadDropsPages: a load that checks the whole file (no seal)
// reads every table and posting through the mapping, and leaves none of
// it mapped.
func TestFullLoadDropsPages(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	files := map[string]string{}
	for i := range 1500 {
		files[fmt.Sprintf("docs/d%04d.md", i)] = fmt.Sprintf("# Page %d\n\nThe widget %d renders sparkline charts of cluster %d.\n", i, i, i%37)
	}
	writeTree(t, root, files)
	dir := filepath.Join(t.TempDir(), "idx")
	opts := Options{Dir: dir, Embedder: &trigramEmbedder{}}
	want, err := openTest(t, os.DirFS(root), opts).Search(ctx, Query{Text: "sparkline cluster 5"})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, sealFile)); err != nil {
		t.Fatal(err)
	}
	ix, err := OpenSaved(ctx, os.DirFS(root), opts)
	if err != nil {
		t.Fatal(err)
	}
	if !ix.mmapped {
		t.Fatal("not mapped")
	}
	if kb := residentKB(t, ix.mapped); kb > 8 {
		t.Errorf("a full load left %d KB of the %d KB index mapped", kb, len(ix.mapped)>>10)
	}
	got, err := ix.Search(ctx, Query{Text: "sparkline cluster 5"})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after a full load:\n%+v\nwant:\n%+v", got, want)
	}
}
