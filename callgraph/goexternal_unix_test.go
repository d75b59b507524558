//go:build unix

package callgraph

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestGoExternalSpoiledFiles puts beside an interface's declaration in
// GOROOT files no reader may block on or read whole: a FIFO, a link to
// /dev/zero, a 1 TB sparse file. They are passed over and the interface
// is still read.
func TestGoExternalSpoiledFiles(t *testing.T) {
	goroot := t.TempDir()
	dir := filepath.Join(goroot, "src", "io")
	os.MkdirAll(dir, 0o755)
	if err := os.WriteFile(filepath.Join(dir, "io.go"), []byte("package io\n\ntype Writer interface {\n\tWrite(p []byte) (n int, err error)\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "a_pipe.go"), 0o644); err != nil {
		t.Skip(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "b_zero.go")); err != nil {
		t.Skip(err)
	}
	f, err := os.Create(filepath.Join(dir, "c_huge.go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 40); err != nil {
		t.Skip("no sparse file:", err)
	}
	f.Close()
	withGoSource(t, goroot, "")
	done := make(chan *Graph, 1)
	go func() {
		done <- buildArchive(t, `
-- go.mod --
module example.com/m
-- w.go --
package w

import "io"

type File struct{}

func (f *File) Write(p []byte) (int, error) { return len(p), nil }

func Emit(w io.Writer) { w.Write(nil) }
`)
	}()
	select {
	case g := <-done:
		expectCallees(t, g, "example.com/m.Emit", "example.com/m.File.Write:interface")
	case <-time.After(2 * time.Minute): // a guard against a hang, not a measure
		t.Fatal("reading GOROOT blocked")
	}
}
