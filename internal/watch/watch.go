// Package watch reports which paths under a workspace root changed, in
// debounced batches, from fsnotify events. Linux has no recursive watch:
// the caller says which directories to watch (SetDirs, after each walk of
// the tree) and decides what a batch means by looking at the files
// (Lstat), not at the kinds of events, which editors' safe-writes and
// renames make unreliable.
//
// A batch is flushed when no event has come for Options.Debounce (100 ms),
// or at the latest Options.MaxDelay (1 s) after its first event, so that a
// burst — a git checkout of thousands of files — is one batch and a file
// written without pause still gets seen. Editors' temporary files (vim's
// swap and backup files and its 4913 probe, JetBrains' ___jb_tmp___ and
// ___jb_old___, Emacs' lock and auto-save files) never enter a batch: the
// rename that ends a safe-write names the real file.
//
// When the kernel's event queue overflows, the next batch asks for a
// rescan. When inotify runs out of watches (ENOSPC), the watcher logs the
// sysctl to raise and falls back to polling: every Options.Poll (2 s) it
// sends a batch asking for a rescan.
package watch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Batch is what changed since the last batch.
type Batch struct {
	// Paths are the slash paths, relative to the root, that events named:
	// files or directories created, written, renamed (old and new name) or
	// removed. Sorted and distinct.
	Paths []string
	// Rescan says events may have been lost: compare the whole tree.
	Rescan bool
}

// Mode says how changes are noticed.
type Mode string

const (
	Events  Mode = "events"  // fsnotify (inotify on Linux)
	Polling Mode = "polling" // out of watches: a rescan every Options.Poll
	Stopped Mode = "stopped" // closed
)

// State is a snapshot of a watcher, for status reports.
type State struct {
	Mode      Mode      `json:"mode"`
	Dirs      int       `json:"dirs"`    // directories watched
	Batches   int       `json:"batches"` // batches flushed so far
	LastBatch time.Time `json:"last_batch,omitzero"`
}

// Options configure a Watcher. The zero value is ready to use.
type Options struct {
	// Debounce is the quiet time that ends a batch. Default 100 ms.
	Debounce time.Duration
	// MaxDelay bounds how long a batch collects events. Default 1 s.
	MaxDelay time.Duration
	// Poll is the rescan interval after a fallback to polling. Default 2 s.
	Poll time.Duration
	// Logger receives warnings. Default: none.
	Logger *slog.Logger
}

// A Watcher watches directories under one root. SetDirs and State may be
// called from any goroutine; Run from one.
type Watcher struct {
	root string // absolute, symbolic links evaluated
	opt  Options
	log  *slog.Logger
	fw   *fsnotify.Watcher
	// add and remove change the watch list; tests replace add to run out
	// of watches.
	add    func(path string) error
	remove func(path string) error
	// flushAt, which tests set before Run, ends a batch at once at an
	// event for a path it returns true for, which the batch leaves out:
	// events come in order, so the batch holds every change made before
	// that path's, whatever the time each took.
	flushAt func(rel string) bool

	mu      sync.Mutex
	dirs    map[string]bool // watched, by slash path relative to root
	polling bool
	closed  bool
	batches int
	last    time.Time
	poll    chan struct{} // closed when polling starts
}

// New returns a watcher of root, watching nothing until SetDirs.
func New(root string, opt Options) (*Watcher, error) {
	if opt.Debounce <= 0 {
		opt.Debounce = 100 * time.Millisecond
	}
	if opt.MaxDelay <= 0 {
		opt.MaxDelay = time.Second
	}
	if opt.Poll <= 0 {
		opt.Poll = 2 * time.Second
	}
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	fw, err := fsnotify.NewBufferedWatcher(4096)
	if err != nil {
		return nil, err
	}
	return &Watcher{
		root: root, opt: opt, log: log, fw: fw, add: fw.Add, remove: fw.Remove,
		dirs: map[string]bool{}, poll: make(chan struct{}),
	}, nil
}

// Close stops watching. Run returns.
func (w *Watcher) Close() error {
	w.mu.Lock()
	w.closed = true
	w.dirs = map[string]bool{}
	w.mu.Unlock()
	return w.fw.Close()
}

// State returns a snapshot of the watcher.
func (w *Watcher) State() State {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := State{Mode: Events, Dirs: len(w.dirs), Batches: w.batches, LastBatch: w.last}
	switch {
	case w.closed:
		s.Mode = Stopped
	case w.polling:
		s.Mode = Polling
	}
	return s
}

// SetDirs makes the watched directories exactly dirs (slash paths
// relative to the root, "" for the root): new ones are added, gone ones
// dropped. Running out of watches switches the watcher to polling.
func (w *Watcher) SetDirs(dirs []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed || w.polling {
		return
	}
	want := make(map[string]bool, len(dirs))
	for _, d := range dirs {
		want[d] = true
	}
	for d := range w.dirs {
		if !want[d] {
			// A removed directory's watch is gone already; the error says so.
			_ = w.remove(w.abs(d))
			delete(w.dirs, d)
		}
	}
	for _, d := range dirs {
		if !w.addLocked(d, len(dirs)) {
			return
		}
	}
}

// AddDir adds dir (a slash path relative to the root, "" for the root) to
// the watched directories. A walk calls it on entering each directory,
// before reading it, so that nothing created there while the walk runs
// goes unseen. It reports whether dir was not watched before: what was
// written there until now came with no event, so the caller reads it.
// Running out of watches switches the watcher to polling.
func (w *Watcher) AddDir(dir string) (added bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed || w.polling || w.dirs[dir] {
		return false
	}
	w.addLocked(dir, len(w.dirs)+1)
	return w.dirs[dir]
}

// Watching reports whether dir (a slash path relative to the root, ""
// for the root) is watched for events: false once polling, or closed.
func (w *Watcher) Watching(dir string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return !w.closed && !w.polling && w.dirs[dir]
}

// forget drops dir and the directories under it from the watched ones,
// after an event says it was removed or renamed: the kernel dropped its
// watch (or it follows the directory under another name), so a
// directory made again at that path is watched anew when a walk enters
// it.
func (w *Watcher) forget(dir string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for d := range w.dirs {
		if d == dir || dir == "" || strings.HasPrefix(d, dir+"/") {
			_ = w.remove(w.abs(d)) // gone already: the error says so
			delete(w.dirs, d)
		}
	}
}

// addLocked watches d, unless it is watched already; wanted is how many
// directories the caller wants watched, for the log. It returns false
// when the watcher ran out of watches and fell back to polling. The
// caller holds mu.
func (w *Watcher) addLocked(d string, wanted int) bool {
	if w.dirs[d] {
		return true
	}
	err := w.add(w.abs(d))
	switch {
	case err == nil:
		w.dirs[d] = true
	case errors.Is(err, syscall.ENOSPC):
		w.log.Warn("out of inotify watches: watching changes by polling instead; raise the limit with "+
			"`sudo sysctl fs.inotify.max_user_watches=524288` (and in /etc/sysctl.conf to keep it)",
			"watched", len(w.dirs), "wanted", wanted, "poll", w.opt.Poll)
		for d := range w.dirs {
			_ = w.remove(w.abs(d))
		}
		w.dirs = map[string]bool{}
		w.polling = true
		close(w.poll)
		return false
	default:
		// The directory went away between the walk and now: the next
		// batch sees that.
		w.log.Debug("watch failed", "dir", d, "err", err)
	}
	return true
}

func (w *Watcher) abs(rel string) string {
	if rel == "" {
		return w.root
	}
	return filepath.Join(w.root, filepath.FromSlash(rel))
}

// rel returns the slash path of an event's absolute path, or false for a
// path outside the root.
func (w *Watcher) rel(name string) (string, bool) {
	r, err := filepath.Rel(w.root, name)
	if err != nil || r == "." || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

// Run sends batches to flush until ctx is done or the watcher is closed.
// flush runs on Run's goroutine; events that arrive meanwhile go into the
// next batch. A panic in flush is recovered and logged, and drops that
// batch only.
func (w *Watcher) Run(ctx context.Context, flush func(context.Context, Batch)) error {
	pending := map[string]bool{}
	rescan := false
	quiet := time.NewTimer(time.Hour)
	quiet.Stop()
	var deadline <-chan time.Time // the batch's MaxDelay
	var ticker <-chan time.Time   // polling
	pollStarted := w.poll
	send := func() {
		quiet.Stop()
		deadline = nil
		if len(pending) == 0 && !rescan {
			return
		}
		b := Batch{Paths: make([]string, 0, len(pending)), Rescan: rescan}
		for p := range pending {
			b.Paths = append(b.Paths, p)
		}
		slices.Sort(b.Paths)
		clear(pending)
		rescan = false
		w.mu.Lock()
		w.batches++
		w.last = time.Now()
		w.mu.Unlock()
		w.flush(ctx, flush, b)
	}
	note := func() {
		quiet.Reset(w.opt.Debounce)
		if deadline == nil {
			deadline = time.After(w.opt.MaxDelay)
		}
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.fw.Events:
			if !ok {
				return nil
			}
			rel, inside := w.rel(ev.Name)
			if inside && w.flushAt != nil && w.flushAt(rel) {
				send()
				continue
			}
			if !inside || Temporary(rel) || ev.Op == fsnotify.Chmod {
				continue
			}
			if ev.Op.Has(fsnotify.Remove) || ev.Op.Has(fsnotify.Rename) {
				w.forget(rel)
			}
			pending[rel] = true
			note()
		case err, ok := <-w.fw.Errors:
			if !ok {
				return nil
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				w.log.Warn("file events were lost (queue overflow): rescanning the workspace")
				rescan = true
				note()
				continue
			}
			w.log.Warn("watch error", "err", err)
		case <-quiet.C:
			send()
		case <-deadline:
			send()
		case <-pollStarted:
			pollStarted = nil
			t := time.NewTicker(w.opt.Poll)
			defer t.Stop()
			ticker = t.C
			rescan = true
			send()
		case <-ticker:
			rescan = true
			send()
		}
	}
}

// flush calls f with b. A panic in f is logged and the batch dropped:
// watching goes on, and the caller's next batch or read of the files
// catches up.
func (w *Watcher) flush(ctx context.Context, f func(context.Context, Batch), b Batch) {
	defer func() {
		if v := recover(); v != nil {
			w.log.Error("handling a batch of changes panicked; the batch is dropped", "paths", len(b.Paths),
				"rescan", b.Rescan, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
		}
	}()
	f(ctx, b)
}

// Temporary reports whether the file at slash path p is an editor's
// temporary file, which never holds a project's source.
func Temporary(p string) bool {
	base := p[strings.LastIndexByte(p, '/')+1:]
	switch {
	case base == "4913", // vim's probe of whether it may write a directory
		strings.HasSuffix(base, "~"),                                     // backups: vim, emacs, gedit
		strings.HasSuffix(base, ".swp"), strings.HasSuffix(base, ".swx"), // vim swap files
		strings.HasSuffix(base, ".swo"),
		strings.HasSuffix(base, "___jb_tmp___"), strings.HasSuffix(base, "___jb_old___"), // JetBrains safe-write
		strings.HasPrefix(base, ".#"),                                  // emacs lock files
		strings.HasPrefix(base, "#") && strings.HasSuffix(base, "#"),   // emacs auto-save
		strings.HasSuffix(base, ".tmp") && strings.Contains(base, "."), // generic temp + rename
		strings.HasPrefix(base, ".goutputstream-"):                     // GNOME's safe-write
		return true
	}
	return false
}
