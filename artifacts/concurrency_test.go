package artifacts

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// TestConcurrentWritesAndReads has writers replace one artifact over and
// over while readers read it: every read must see one whole write — a
// front matter and the body written with it — and no temporary file may
// survive.
func TestConcurrentWritesAndReads(t *testing.T) {
	s, root := newStore(t)
	const writers, readers, rounds = 4, 4, 20
	// Bodies are large enough that a torn write would show.
	body := func(w, i int) string {
		return strings.Repeat(fmt.Sprintf("writer %d round %d\n", w, i), 2000)
	}

	var wg sync.WaitGroup
	done := make(chan struct{})
	for w := range writers {
		wg.Go(func() {
			for i := range rounds {
				m := Meta{ToolVersion: fmt.Sprintf("%d/%d", w, i), Status: Basic}
				if err := s.Write("src/hot.go", m, []byte(body(w, i))); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	var readersWG sync.WaitGroup
	for range readers {
		readersWG.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				m, b, err := s.Read("src/hot.go")
				if errors.Is(err, fs.ErrNotExist) {
					continue
				}
				if err != nil {
					t.Error(err)
					return
				}
				w, i, _ := strings.Cut(m.ToolVersion, "/")
				wn, _ := strconv.Atoi(w)
				in, _ := strconv.Atoi(i)
				if string(b) != body(wn, in) {
					t.Errorf("read meta of write %s with another body (%d bytes)", m.ToolVersion, len(b))
					return
				}
				if _, err := s.Status("src/hot.go", m.Fingerprint); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	// Other artifacts in the same directory come and go meanwhile, so
	// pruning races with writing.
	wg.Go(func() {
		for i := range rounds {
			src := fmt.Sprintf("src/tmp/%d.go", i)
			if err := s.Write(src, Meta{Status: Basic}, nil); err != nil {
				t.Error(err)
				return
			}
			if err := s.Remove(src); err != nil {
				t.Error(err)
				return
			}
			if _, err := s.List(context.Background()); err != nil {
				t.Error(err)
				return
			}
		}
	})
	wg.Wait()
	close(done)
	readersWG.Wait()
	expectFiles(t, root, "src/hot.go.md")
}
