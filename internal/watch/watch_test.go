package watch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

// run starts a watcher of root watching dirs, after setup, and returns a
// channel of its batches.
func run(t *testing.T, root string, dirs []string, opt Options, setup ...func(*Watcher)) (*Watcher, <-chan Batch) {
	t.Helper()
	w, err := New(root, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range setup {
		f(w)
	}
	w.SetDirs(dirs)
	ch := make(chan Batch, 16)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.Run(ctx, func(_ context.Context, b Batch) { ch <- b })
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		w.Close()
	})
	return w, ch
}

// hangBound is how long a test waits for a batch before it fails: it
// bounds a hang, and says nothing of speed, which a loaded machine makes
// many times slower.
const hangBound = time.Minute

// next returns the next batch, failing after hangBound.
func next(t *testing.T, ch <-chan Batch) Batch {
	t.Helper()
	select {
	case b := <-ch:
		return b
	case <-time.After(hangBound):
		t.Fatalf("no batch within %v", hangBound)
	}
	return Batch{}
}

// synced is a watcher whose batches end when the test says (see flush),
// not after a quiet time: a test of what goes into one batch then does
// not depend on how long its changes took to make.
type synced struct {
	*Watcher
	root string
	ch   <-chan Batch
	n    int
}

// runSynced starts a synced watcher of root watching dirs; its Debounce
// and MaxDelay are an hour.
func runSynced(t *testing.T, root string, dirs []string) *synced {
	t.Helper()
	s := &synced{root: root}
	s.Watcher, s.ch = run(t, root, dirs, Options{Debounce: time.Hour, MaxDelay: time.Hour}, func(w *Watcher) {
		w.flushAt = func(rel string) bool { return strings.HasPrefix(rel, flushMark) }
	})
	return s
}

// flushMark starts the names of the files whose events end a synced
// watcher's batch.
const flushMark = ".flush-"

// mark writes a new flush mark in root, which must be watched: its event
// ends the batch after every event of the changes made before it.
func (s *synced) mark(t *testing.T) {
	t.Helper()
	s.n++
	write(t, filepath.Join(s.root, fmt.Sprintf("%s%d", flushMark, s.n)), "")
}

// flush ends the batch and returns it: the changes made since the last.
func (s *synced) flush(t *testing.T) Batch {
	t.Helper()
	s.mark(t)
	return next(t, s.ch)
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBatches(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "a.go"), "package a\n")
	w := runSynced(t, root, []string{""})

	// Several writes in a burst are one batch.
	for i := range 5 {
		write(t, filepath.Join(root, "a.go"), "package a // "+string(rune('0'+i))+"\n")
	}
	write(t, filepath.Join(root, "b.go"), "package a\n")
	if b := w.flush(t); !slices.Equal(b.Paths, []string{"a.go", "b.go"}) || b.Rescan {
		t.Errorf("burst: %+v", b)
	}

	// A vim-style safe-write: backup by rename, write the new file, delete
	// the backup. Only the real file is named.
	path := filepath.Join(root, "a.go")
	if err := os.Rename(path, path+"~"); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(root, "4913"), "")
	os.Remove(filepath.Join(root, "4913"))
	write(t, filepath.Join(root, ".a.go.swp"), "swap")
	write(t, path, "package a // saved\n")
	os.Remove(path + "~")
	if b := w.flush(t); !slices.Equal(b.Paths, []string{"a.go"}) {
		t.Errorf("vim save: %+v", b)
	}

	// A JetBrains safe-write: write a temp file, rename it over the real one.
	write(t, filepath.Join(root, "b.go___jb_tmp___"), "package a // jb\n")
	if err := os.Rename(filepath.Join(root, "b.go___jb_tmp___"), filepath.Join(root, "b.go")); err != nil {
		t.Fatal(err)
	}
	if b := w.flush(t); !slices.Equal(b.Paths, []string{"b.go"}) {
		t.Errorf("JetBrains save: %+v", b)
	}

	// A new directory is named; its files are the caller's to find.
	write(t, filepath.Join(root, "d", "e", "f.go"), "package e\n")
	if b := w.flush(t); !slices.Equal(b.Paths, []string{"d"}) {
		t.Errorf("mkdir -p d/e: %+v", b)
	}
}

func TestSetDirs(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"x", "y", "x/z"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	w := runSynced(t, root, []string{"", "x", "y"})
	if s := w.State(); s.Dirs != 3 || s.Mode != Events {
		t.Errorf("state %+v", s)
	}
	write(t, filepath.Join(root, "x", "f.go"), "package x\n")
	if b := w.flush(t); !slices.Equal(b.Paths, []string{"x/f.go"}) {
		t.Errorf("x/f.go: %+v", b)
	}
	// x/z is not watched until SetDirs says so.
	w.SetDirs([]string{"", "x", "x/z"})
	write(t, filepath.Join(root, "x", "z", "g.go"), "package z\n")
	write(t, filepath.Join(root, "y", "h.go"), "package y\n")
	if b := w.flush(t); !slices.Equal(b.Paths, []string{"x/z/g.go"}) {
		t.Errorf("after SetDirs: %+v", b)
	}
	if s := w.State(); s.Dirs != 3 || s.Batches != 2 {
		t.Errorf("state %+v", s)
	}
	// rm -rf x: its files and itself are named.
	if err := os.RemoveAll(filepath.Join(root, "x")); err != nil {
		t.Fatal(err)
	}
	b := w.flush(t)
	if !slices.Contains(b.Paths, "x") {
		t.Errorf("rm -rf x: %+v", b)
	}
}

func TestOutOfWatchesFallsBackToPolling(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "a"), 0o755)
	w, err := New(root, Options{Poll: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	n := 0
	w.add = func(path string) error {
		if n++; n > 1 {
			return errors.Join(errors.New("inotify_add_watch"), syscall.ENOSPC)
		}
		return w.fw.Add(path)
	}
	w.SetDirs([]string{"", "a"})
	if s := w.State(); s.Mode != Polling || s.Dirs != 0 {
		t.Fatalf("after ENOSPC: %+v", s)
	}
	ch := make(chan Batch, 4)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go w.Run(ctx, func(_ context.Context, b Batch) { ch <- b })
	for range 2 {
		if b := next(t, ch); !b.Rescan {
			t.Errorf("polling batch %+v does not ask for a rescan", b)
		}
	}
}

func TestTemporary(t *testing.T) {
	for p, want := range map[string]bool{
		"a.go": false, "dir/a.go": false, "README.md": false, "Makefile": false,
		"a.go~": true, "d/.a.go.swp": true, "d/.a.go.swx": true, "4913": true, "d/4913": true,
		"a.go___jb_tmp___": true, "a.go___jb_old___": true, ".#a.go": true, "#a.go#": true,
		"d/x.tmp": true, ".goutputstream-ABC123": true, "tmp/a.go": false,
	} {
		if got := Temporary(p); got != want {
			t.Errorf("Temporary(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestOverflowAsksForRescan(t *testing.T) {
	root := t.TempDir()
	w, ch := run(t, root, []string{""}, Options{})
	w.fw.Errors <- fsnotify.ErrEventOverflow
	if b := next(t, ch); !b.Rescan || len(b.Paths) != 0 {
		t.Errorf("after an overflow: %+v", b)
	}
}

// TestFlushPanicIsRecovered makes the first flush panic: Run logs it and
// goes on, and the next change still arrives.
func TestFlushPanicIsRecovered(t *testing.T) {
	root := t.TempDir()
	w, err := New(root, Options{Debounce: time.Hour, MaxDelay: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.flushAt = func(rel string) bool { return strings.HasPrefix(rel, flushMark) }
	w.SetDirs([]string{""})
	ch := make(chan Batch, 4)
	calls := 0
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.Run(ctx, func(_ context.Context, b Batch) {
			calls++
			if calls == 1 {
				panic("flush bug")
			}
			ch <- b
		})
	}()
	defer func() { cancel(); <-done }()
	s := &synced{Watcher: w, root: root, ch: ch}
	write(t, filepath.Join(root, "a.go"), "package a\n")
	s.mark(t) // the first batch, which panics: its mark's event comes before b.go's
	write(t, filepath.Join(root, "b.go"), "package a\n")
	if b := s.flush(t); !slices.Equal(b.Paths, []string{"b.go"}) {
		t.Errorf("after a panicking flush: %+v", b)
	}
}

// TestAddDir adds directories one at a time, as a walk enters them: each
// is watched from then on, and SetDirs later keeps them.
func TestAddDir(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "sub", "x.go"), "package sub\n")
	w, ch := run(t, root, nil, Options{Debounce: 10 * time.Millisecond})
	w.AddDir("")
	w.AddDir("sub")
	w.AddDir("sub") // twice is once
	if st := w.State(); st.Dirs != 2 {
		t.Errorf("state after AddDir: %+v", st)
	}
	write(t, filepath.Join(root, "sub", "y.go"), "package sub\n")
	if b := next(t, ch); !slices.Equal(b.Paths, []string{"sub/y.go"}) {
		t.Errorf("batch: %+v", b)
	}
	w.SetDirs([]string{"", "sub"})
	if st := w.State(); st.Dirs != 2 {
		t.Errorf("state after SetDirs: %+v", st)
	}
}

// TestRemovedDirIsWatchedAnew removes a watched directory and makes it
// again at the same path: the kernel dropped the old watch, so AddDir
// must watch the new directory (and say it was not watched), or nothing
// written in it is ever seen.
func TestRemovedDirIsWatchedAnew(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "sub")
	write(t, filepath.Join(sub, "x.go"), "package sub\n")
	w, ch := run(t, root, nil, Options{Debounce: 10 * time.Millisecond})
	if !w.AddDir("") || !w.AddDir("sub") {
		t.Fatal("AddDir of directories not watched yet said they were")
	}
	if w.AddDir("sub") {
		t.Error("AddDir of a watched directory said it was not")
	}
	if err := os.RemoveAll(sub); err != nil {
		t.Fatal(err)
	}
	if b := next(t, ch); !slices.Contains(b.Paths, "sub") {
		t.Errorf("batch of the removal: %+v", b)
	}
	if st := w.State(); st.Dirs != 1 {
		t.Errorf("%d directories watched after sub was removed, want 1 (the root)", st.Dirs)
	}
	write(t, filepath.Join(sub, "x.go"), "package sub\n")
	next(t, ch) // sub made again
	if !w.AddDir("sub") {
		t.Fatal("AddDir of sub made again said it was watched")
	}
	write(t, filepath.Join(sub, "y.go"), "package sub\n")
	if b := next(t, ch); !slices.Contains(b.Paths, "sub/y.go") {
		t.Errorf("batch after sub was made again: %+v", b)
	}
}

// TestWatching: a directory is watched once added, until the watcher
// polls or closes.
func TestWatching(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "a", "b"), 0o755)
	w, err := New(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.AddDir("")
	w.AddDir("a")
	for dir, want := range map[string]bool{"": true, "a": true, "a/b": false, "c": false} {
		if got := w.Watching(dir); got != want {
			t.Errorf("Watching(%q) = %v, want %v", dir, got, want)
		}
	}
	w.mu.Lock()
	w.polling = true
	w.mu.Unlock()
	if w.Watching("a") {
		t.Error("Watching while polling")
	}
	w.Close()
	if w.Watching("") {
		t.Error("Watching once closed")
	}
}
