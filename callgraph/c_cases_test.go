package callgraph

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/fileinfo/fileinfo/extract"
)

// TestCCases checks the cases of testdata/c (see testCases): C
// declarations, linkage, includes and macros.
func TestCCases(t *testing.T) { testCases(t, "testdata/c/*.txtar") }

// TestCCasesUpdate checks that Update gives what Build does on the C
// cases, whose resolution reads the include graph.
func TestCCasesUpdate(t *testing.T) { testCasesUpdate(t, "testdata/c/*.txtar") }

// TestCUpdateIncludes changes what a header includes, adds a header that
// an include then means, removes it, and turns a prototype into a
// definition and back: the files whose calls resolved through these are
// resolved again, as Build would.
func TestCUpdateIncludes(t *testing.T) {
	root := writeArchive(t, `
-- include/linux/kernel.h --
#include <linux/list_sort.h>
-- include/linux/list_sort.h --
void list_sort(void *h);
-- lib/list_sort.c --
#include <linux/list_sort.h>
void list_sort(void *h) {}
-- tools/lib/list_sort.c --
void list_sort(void *h) {}
-- kernel/user.c --
#include <linux/kernel.h>
void sort_all(void *h) { list_sort(h); }
`)
	ex := newExtractor(t, root)
	g := Build(extractAll(t, ex))
	if !hasEdge(t, g, "kernel.user.sort_all", "lib.list_sort.list_sort (import)") {
		t.Fatalf("before: callees %v", calleeNames(g, "kernel.user.sort_all"))
	}
	steps := []struct {
		what, path, src string // src "" removes the file
	}{
		{"kernel.h stops including list_sort.h", "include/linux/kernel.h", "/* nothing */\n"},
		{"kernel.h includes it again", "include/linux/kernel.h", "#include <linux/list_sort.h>\n"},
		{"a nearer list_sort.h appears", "kernel/linux/list_sort.h", "void list_sort(void *h);\n"},
		{"it goes", "kernel/linux/list_sort.h", ""},
		{"the prototype becomes a definition", "include/linux/list_sort.h", "void list_sort(void *h) {}\n"},
		{"and a prototype again", "include/linux/list_sort.h", "void list_sort(void *h);\n"},
	}
	for _, s := range steps {
		writeAndUpdate(t, g, ex, root, s.path, s.src)
		if diff := graphDiff(g, Build(extractAll(t, ex))); diff != "" {
			t.Fatalf("%s: Update differs from Build:\n%s", s.what, diff)
		}
	}
}

// TestCRestore: a graph restored from saved C cases answers as the one
// built (restoreDiff compares the nodes, Declaration included).
func TestCRestore(t *testing.T) {
	paths, _ := filepath.Glob("testdata/c/*.txtar")
	decls := 0
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		r := restoreBuilt(t, extractDir(t, writeArchive(t, string(data))))
		for i := range r.Len() {
			if r.Node(SymbolID(i)).Declaration {
				decls++
			}
		}
	}
	if decls == 0 {
		t.Error("no declaration among the restored nodes of the C cases")
	}
}

// writeAndUpdate writes src to path under root (removes it when src is
// empty) and updates g with the file's extraction (its removal).
func writeAndUpdate(t *testing.T, g *Graph, ex *extract.Extractor, root, path, src string) {
	t.Helper()
	full := filepath.Join(root, filepath.FromSlash(path))
	if src == "" {
		if err := os.Remove(full); err != nil {
			t.Fatal(err)
		}
		g.Update(nil, []string{path})
		return
	}
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := ex.File(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	g.Update([]extract.File{*f}, nil)
}
