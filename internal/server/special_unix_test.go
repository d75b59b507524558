//go:build unix

package server

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
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
