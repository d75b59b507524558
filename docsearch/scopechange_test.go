package docsearch

import (
	"os"
	"path/filepath"
	"testing"
)

// TestScopeChange reopens a saved index with other extra scopes: the
// index is rebuilt, never broken.
func TestScopeChange(t *testing.T) {
	root, a, b := t.TempDir(), t.TempDir(), t.TempDir()
	writeTree(t, root, map[string]string{"README.md": "# Root\n\nroot words\n"})
	writeTree(t, a, map[string]string{"x.md": "# A\n\nalpha words\n"})
	writeTree(t, b, map[string]string{"y.md": "# B\n\nbeta words\n"})
	dir := filepath.Join(root, ".artifacts/.index")
	for _, scopes := range [][]Scope{
		{{Name: "a", Dir: ".", FS: os.DirFS(a)}},
		{{Name: "b", Dir: ".", FS: os.DirFS(b)}},
		nil,
		{{Name: "a", Dir: ".", FS: os.DirFS(a)}, {Name: "b", Dir: ".", FS: os.DirFS(b)}},
	} {
		ix := openTest(t, os.DirFS(root), Options{Dir: dir, Scopes: scopes})
		if got, want := ix.Stats().Docs, 1+len(scopes); got != want {
			t.Errorf("scopes %v: %d docs, want %d", scopes, got, want)
		}
	}
}

// TestRemoveEmptyDoc removes a document without chunks and saves.
func TestRemoveEmptyDoc(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"empty.md": "", "README.md": "# R\n\nwords\n"})
	dir := filepath.Join(root, ".artifacts/.index")
	ix := openTest(t, os.DirFS(root), Options{Dir: dir})
	if err := os.Remove(filepath.Join(root, "empty.md")); err != nil {
		t.Fatal(err)
	}
	if err := ix.Update(ctx, []string{"empty.md"}); err != nil {
		t.Fatal(err)
	}
	if got := openTest(t, os.DirFS(root), Options{Dir: dir}).Stats().Docs; got != 1 {
		t.Errorf("%d docs after removing the empty one, want 1", got)
	}
}
