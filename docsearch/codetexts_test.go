package docsearch

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/internal/fixture"
)

// TestCodeTextsAsSerial: the texts codeTexts renders on several
// goroutines are CodeText's, by file and symbol, whatever the workers.
func TestCodeTextsAsSerial(t *testing.T) {
	files := slices.Concat(spillCode(3, 7, 5)...)
	files = append(files, CodeFile{Path: "empty.go"})
	for _, workers := range []int{1, 2, 4, 64} {
		got := codeTexts(files, workers)
		if len(got) != len(files) {
			t.Fatalf("%d workers: texts of %d files, want %d", workers, len(got), len(files))
		}
		for i, f := range files {
			if len(got[i]) != len(f.Symbols) {
				t.Fatalf("%d workers: %s: %d texts, want %d", workers, f.Path, len(got[i]), len(f.Symbols))
			}
			for j, s := range f.Symbols {
				if want := CodeText(f.Path, s); got[i][j] != want {
					t.Fatalf("%d workers: %s symbol %d:\n%q\nwant\n%q", workers, f.Path, j, got[i][j], want)
				}
			}
		}
	}
}

// TestPutCodeTextsOnEveryWorker: a batch's code texts are rendered by
// more than one goroutine at once (putCode rendered them all on its own
// before its workers started).
func TestPutCodeTextsOnEveryWorker(t *testing.T) {
	over := fixture.NewOverlap(200 * time.Millisecond)
	textsMade = over.Enter
	t.Cleanup(func() { textsMade = nil })
	ix := openTest(t, mapFS(nil), Options{Workers: 2})
	if err := ix.PutCode(context.Background(), spillCode(1, 6, 3)[0], nil); err != nil {
		t.Fatal(err)
	}
	if most := over.Most(); most < 2 {
		t.Errorf("at most %d files' texts rendered at once; want 2", most)
	}
}
