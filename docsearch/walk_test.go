package docsearch

import (
	"os"
	"testing"
)

// TestUpdateIgnoresNonDocuments checks that a changed file no scope
// would index (a source file, a file in node_modules) is passed over
// quietly: a watcher hands Update every change, documents or not.
func TestUpdateIgnoresNonDocuments(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, workspace)
	ix := openTest(t, os.DirFS(root), Options{})
	before := ix.Stats()
	if err := ix.Update(ctx, []string{"src/main.go", "node_modules/x/README.md", ".git/HEAD", "docs/notes.txt"}); err != nil {
		t.Errorf("Update of files that are not documents: %v", err)
	}
	if after := ix.Stats(); after.Docs != before.Docs {
		t.Errorf("docs %d after the update, %d before", after.Docs, before.Docs)
	}
	if err := ix.Update(ctx, []string{"../outside.md"}); err == nil {
		t.Error("update outside the root accepted")
	}
}
