package docsearch

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestSaveLoadRoundTrip(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, workspace)
	dir := filepath.Join(root, ".artifacts", ".index")
	emb := &trigramEmbedder{}
	a := openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: emb})
	b := openTest(t, os.DirFS(root), Options{Dir: dir, Embedder: emb})
	if emb.calls.Load() == 0 {
		t.Fatal("nothing embedded")
	}
	if sa, sb := a.Stats(), b.Stats(); sa != sb {
		t.Errorf("stats after load %+v, before %+v", sb, sa)
	}
	q := Query{Text: "configure the chart width", MinScore: new(float64)}
	ra, err := a.Search(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := b.Search(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ra, rb) {
		t.Errorf("results after load differ:\n%+v\n%+v", rb, ra)
	}
}
