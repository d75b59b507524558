package enrich

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// repo is an extracted archive: its files by path, their source and the
// call graph.
type repo struct {
	files map[string]*extract.File
	src   map[string][]byte
	graph *callgraph.Graph
}

// file returns the extracted file at p and its source.
func (r *repo) file(t testing.TB, p string) (*extract.File, []byte) {
	t.Helper()
	f, ok := r.files[p]
	if !ok {
		t.Fatalf("no file %s in the archive", p)
	}
	return f, r.src[p]
}

// loadArchive writes the txtar archive testdata/name to a temporary
// directory, extracts it and builds its graph.
func loadArchive(t testing.TB, name string) *repo {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	r := &repo{files: map[string]*extract.File{}, src: map[string][]byte{}}
	for _, f := range ar.Files {
		p := filepath.Join(root, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		r.src[f.Name] = f.Data
	}
	ex, err := extract.New(root, extract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	files, _, err := ex.All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i := range files {
		r.files[files[i].Path] = &files[i]
	}
	r.graph = callgraph.Build(files)
	return r
}

// sharedBuilder is one Builder for all tests, as a server would hold one.
var sharedBuilder = sync.OnceValue(NewBuilder)

// goldenFiles are the files of testdata/repo.txtar with golden outputs;
// each has a report in testdata/<base>.report.json.
var goldenFiles = []string{"shop/store.py", "ledger/ledger.go"}
