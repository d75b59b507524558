package extract

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
)

func TestEachMatchesAll(t *testing.T) {
	for _, workers := range []int{1, 3} {
		var mu sync.Mutex
		var calls, lastDone, lastTotal int
		var lastBytes, size int64
		e, err := New("testdata/golden", Options{Workers: workers, Progress: func(p Progress) {
			mu.Lock()
			defer mu.Unlock()
			calls++
			if p.Done > lastDone {
				lastDone, lastTotal, lastBytes, size = p.Done, p.Total, p.Read, p.Size
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		files, skipped, err := e.All(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if calls == 0 || lastDone != lastTotal || lastBytes <= 0 || lastBytes != size {
			t.Errorf("All's progress: %d calls, last %d/%d, %d bytes", calls, lastDone, lastTotal, lastBytes)
		}
		allCalls := calls
		var got []File
		gotSkipped, err := e.Each(context.Background(), func(f *File) error {
			got = append(got, *f)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, files) || !reflect.DeepEqual(gotSkipped, skipped) {
			t.Errorf("workers %d: Each gave %d files, %d skipped; All %d, %d", workers, len(got), len(gotSkipped), len(files), len(skipped))
		}
		if calls-allCalls != allCalls || lastDone != lastTotal || lastBytes != size {
			t.Errorf("Each's progress: %d calls, All's %d", calls-allCalls, allCalls)
		}
	}
}

func TestEachStops(t *testing.T) {
	// One worker and more files than its window (eachWindow), so that
	// the dispatcher is still waiting when fn fails.
	dir := t.TempDir()
	for i := range 3 * eachWindow {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("m%03d.py", i)), []byte("def f():\n    g()\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e, err := New(dir, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	stop := errors.New("stop")
	n := 0
	if _, err := e.Each(context.Background(), func(*File) error {
		if n++; n == 3 {
			return stop
		}
		return nil
	}); err != stop || n != 3 {
		t.Errorf("fn's error: got %v after %d files", err, n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	n = 0
	if _, err := e.Each(ctx, func(*File) error {
		if n++; n == 2 {
			cancel()
		}
		return nil
	}); !errors.Is(err, context.Canceled) || n != 2 {
		t.Errorf("cancelled: got %v after %d files", err, n)
	}
}
