package docsearch

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestOpenSaved: the saved index opens as it was saved, without a walk
// (a file added since is not in it), and answers as Open's did; what
// Open would rebuild or read again is an error.
func TestOpenSaved(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"README.md":      "# Tool\n\nThe tool renders sparkline charts.\n",
		"docs/deploy.md": "# Deploy\n\nDeploy the widget to the cluster.\n",
	})
	dir := filepath.Join(t.TempDir(), "idx")
	emb := &trigramEmbedder{}
	if _, err := OpenSaved(ctx, os.DirFS(root), Options{Dir: dir, Embedder: emb}); err == nil {
		t.Fatal("OpenSaved with nothing saved: no error")
	}
	q := Query{Text: "sparkline charts"}
	want, err := openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: emb}).Search(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	writeTree(t, root, map[string]string{"docs/new.md": "# New\n\nSparkline charts, again.\n"})
	ix, err := OpenSaved(ctx, os.DirFS(root), Options{Dir: dir, Embedder: emb})
	if err != nil {
		t.Fatal(err)
	}
	got, err := ix.Search(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("OpenSaved's search:\n%+v\nOpen's:\n%+v", got, want)
	}
	if emb.calls.Load() == 0 {
		t.Fatal("the embedder was never called")
	}
	for _, tc := range []struct {
		name string
		opts Options
	}{
		{"no dir", Options{Embedder: emb}},
		{"another embedder", Options{Dir: dir, Embedder: &trigramEmbedder{name: "other"}}},
		{"no embedder", Options{Dir: dir}},
	} {
		if _, err := OpenSaved(ctx, os.DirFS(root), tc.opts); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

// TestOpenWithoutRoot: a nil root file system is a clear error, not a
// panic in the walk that Open starts.
func TestOpenWithoutRoot(t *testing.T) {
	if _, err := Open(ctx, nil, Options{}); err == nil || !strings.Contains(err.Error(), "no root file system") {
		t.Errorf("Open(nil): %v, want the missing root named", err)
	}
	if _, err := OpenSaved(ctx, nil, Options{Dir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "no root file system") {
		t.Errorf("OpenSaved(nil): %v, want the missing root named", err)
	}
}
