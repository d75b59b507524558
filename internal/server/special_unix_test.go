//go:build unix

package server

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/internal/fixture"
)

// TestFIFOsNeverBlock puts FIFOs where the server reads: a source file
// the client asks about, and .git/HEAD, read for the commit at start and
// by index_status. Opening a FIFO for reading waits for a writer:
// every call must answer (hangBound bounds the wait).
func TestFIFOsNeverBlock(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"ok.py": "def f():\n    pass\n"})
	for _, p := range []string{"pipe.py", ".git/HEAD"} {
		full := filepath.Join(root, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := syscall.Mkfifo(full, 0o644); err != nil {
			t.Skip(err)
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		s := connect(t, nil, Options{Root: root, Logger: discard(), NoDocs: true})
		s.fails("file_info", map[string]any{"path": "pipe.py"}, "not a regular file")
		s.fails("inspect_source", map[string]any{"path": "pipe.py", "start_line": 1, "end_line": 2}, "not a regular file")
		s.call("index_status", map[string]any{})
		s.call("file_info", map[string]any{"path": "ok.py"})
	}()
	select {
	case <-done:
	case <-time.After(hangBound):
		t.Fatalf("a FIFO blocked the server (no answer in %v)", hangBound)
	}
}

// TestSourceSpoilsRefused puts in the workspace source files no reader
// may follow or read whole: a link to /dev/zero (a device outside the
// root) and a 1 TB sparse file. The load and every tool refuse them,
// saying why, and the other files answer.
func TestSourceSpoilsRefused(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"ok.py": "def f():\n    pass\n", "zero.py": "x = 1\n", "huge.py": "x = 1\n"})
	fixture.Spoil(t, filepath.Join(root, "zero.py"), fixture.LinkToDevZero)
	fixture.Spoil(t, filepath.Join(root, "huge.py"), fixture.Sparse)
	done := make(chan struct{})
	go func() {
		defer close(done)
		s := connect(t, nil, Options{Root: root, Logger: discard(), NoDocs: true})
		for _, tc := range []struct{ path, why string }{{"zero.py", "symlink escapes"}, {"huge.py", "too large"}} {
			s.fails("file_info", map[string]any{"path": tc.path}, tc.why)
			s.fails("inspect_source", map[string]any{"path": tc.path, "start_line": 1, "end_line": 2}, tc.why)
		}
		s.call("file_info", map[string]any{"path": "ok.py"})
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Minute): // a guard against a hang, not a measure
		t.Fatal("a spoiled source blocked the server")
	}
}
