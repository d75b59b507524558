package codeindex

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/graphstore"
)

// TestSyncGraphPutsWhileExtracting: a batch is put into the code index
// while the next is extracted, and rendered only once the one before it
// is indexed. The put of the first batch holds until a file of the
// second is extracted or the pass waits for the put (which, before,
// it did without extracting further): ordering by hooks, not by time.
func TestSyncGraphPutsWhileExtracting(t *testing.T) {
	const batch, n = 8, 3 * 8
	root := t.TempDir()
	writeTree(t, root, n)
	ctx := context.Background()
	ix, err := docsearch.Open(ctx, fstest.MapFS{}, docsearch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var extracted atomic.Int32
	second := make(chan struct{}) // a file of the second batch was extracted
	waited := make(chan struct{}) // the pass waits for the first batch's put
	var secondOnce, waitedOnce sync.Once
	xo := extract.Options{Extracted: func(*extract.File) {
		if extracted.Add(1) > batch {
			secondOnce.Do(func() { close(second) })
		}
	}}
	overlapped := false
	var puts, waits []int
	var mu sync.Mutex
	putHook = func(b int) {
		mu.Lock()
		puts = append(puts, b)
		mu.Unlock()
		if b != 0 {
			return
		}
		select {
		case <-second:
			overlapped = true
		case <-waited:
			select {
			case <-second:
				overlapped = true
			default:
			}
		}
	}
	waitHook = func(b int) {
		mu.Lock()
		waits = append(waits, b)
		mu.Unlock()
		if b == 0 {
			waitedOnce.Do(func() { close(waited) })
		}
	}
	peak := -1
	inFlightHook = func(files int) { peak = files }
	defer func() { putHook, waitHook, inFlightHook = nil, nil, nil }()
	st, _, err := SyncGraph(ctx, ix, root, GraphOptions{Graph: graphstore.Options{Batch: batch, Dir: t.TempDir(), Extract: xo}})
	if err != nil {
		t.Fatal(err)
	}
	if !overlapped {
		t.Errorf("the first batch was put before a file of the second was extracted; want the put beside the extraction")
	}
	if st.Extracted != n || len(ix.CodeFiles()) != n {
		t.Errorf("%+v, %d indexed; want all %d", st, len(ix.CodeFiles()), n)
	}
	if peak < 1 || peak > batch {
		t.Errorf("at most %d files in flight; want 1 to %d (a batch)", peak, batch)
	}
	// Each batch but the last is waited for before the next is rendered.
	if len(puts) != n/batch || len(waits) != n/batch-1 {
		t.Errorf("puts %v, waits %v; want %d puts and a wait before each but the first", puts, waits, n/batch)
	}
}
