package docsearch

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestRootFS indexes a workspace through RootFS and through the root's
// own FS: the same documents and the same skipped files, and no document
// from outside, whether a file or a directory links there. (That the
// walk goes through the root even when a link is swapped in midway is
// TestWalkRefusesSwappedLink.)
func TestRootFS(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "ws")
	writeTree(t, root, workspace)
	writeTree(t, dir, map[string]string{"outside/secret.md": "# Secret\n\nplutonium recipe\n"})
	for link, target := range map[string]string{"docs/escape.md": "../../outside/secret.md", "docs/out": "../../outside"} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	fsys := RootFS(r)
	a := openTest(t, fsys, Options{})
	b := openTest(t, r.FS(), Options{})
	if sa, sb := a.Stats(), b.Stats(); sa != sb {
		t.Errorf("stats through RootFS %+v, through the root %+v", sa, sb)
	}
	if sa, sb := a.Skipped(), b.Skipped(); !reflect.DeepEqual(sa, sb) {
		t.Errorf("skipped through RootFS %v, through the root %v", sa, sb)
	}
	if res, _ := a.Search(ctx, Query{Text: "plutonium", MinScore: zero()}); len(res.Results) != 0 {
		t.Errorf("a document from outside the root was indexed: %+v", res.Results)
	}
	expectTop(t, a, "sparklines", "docs/intro.rst")
	if _, err := a.Fetch("docs/escape.md", ""); err == nil {
		t.Error("fetched a document through a link out of the root")
	}
}

// TestUpdateSkipsLinks checks that Update treats a document that is a
// symbolic link as the walk does: skipped with a reason, not indexed, so
// that an update and the next rescan agree.
func TestUpdateSkipsLinks(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, workspace)
	if err := os.Symlink("guide.md", filepath.Join(root, "docs/alias.md")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ix := openTest(t, RootFS(r), Options{})
	before := ix.Stats()
	if err := ix.Update(ctx, []string{"docs/alias.md"}); err != nil {
		t.Fatal(err)
	}
	if got := ix.Stats(); got.Docs != before.Docs {
		t.Errorf("Update indexed a link: %d documents, %d before", got.Docs, before.Docs)
	}
	var reason string
	for _, s := range ix.Skipped() {
		if s.Path == "docs/alias.md" {
			reason = s.Reason
		}
	}
	if reason != "symbolic link" {
		t.Errorf("skipped reason for the link = %q", reason)
	}
}
