package codeindex

import (
	"context"
	"strconv"
	"testing"
	"testing/fstest"
	"time"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/internal/fixture"
	"github.com/fileinfo/fileinfo/internal/graphstore"
)

// TestRenderAllInOrder: the documents come in the order of their items
// whichever worker rendered them and when it finished; the index's
// document numbers, and so its bytes, follow that order.
func TestRenderAllInOrder(t *testing.T) {
	defer func(w int) { renderWorkers = w }(renderWorkers)
	const n = 64
	for _, workers := range []int{1, 2, 4, 16} {
		renderWorkers = workers
		got := renderAll(n, func(i int) docsearch.CodeFile {
			time.Sleep(time.Duration(n-i) * 20 * time.Microsecond) // the first items finish last
			return docsearch.CodeFile{Path: strconv.Itoa(i)}
		})
		if len(got) != n {
			t.Fatalf("%d workers: %d documents, want %d", workers, len(got), n)
		}
		for i, cf := range got {
			if cf.Path != strconv.Itoa(i) {
				t.Fatalf("%d workers: document %d is item %s's", workers, i, cf.Path)
			}
		}
	}
}

// TestSyncGraphRendersOnEveryCore: a batch's files are rendered by more
// than one goroutine at once (they were rendered one after another on
// the pass's goroutine while the other core idled).
func TestSyncGraphRendersOnEveryCore(t *testing.T) {
	defer func(w int) { renderWorkers = w }(renderWorkers)
	renderWorkers = 2
	root := t.TempDir()
	const files = 8
	writeTree(t, root, files)
	over := fixture.NewOverlap(200 * time.Millisecond)
	renderHook = over.Enter
	defer func() { renderHook = nil }()
	ctx := context.Background()
	ix, err := docsearch.Open(ctx, fstest.MapFS{}, docsearch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := SyncGraph(ctx, ix, root, GraphOptions{Graph: graphstore.Options{Batch: files, Dir: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	if st.Extracted != files || len(ix.CodeFiles()) != files {
		t.Fatalf("%+v, %d files indexed; want %d", st, len(ix.CodeFiles()), files)
	}
	if most := over.Most(); most < 2 {
		t.Errorf("at most %d files rendered at once; want 2", most)
	}
}
