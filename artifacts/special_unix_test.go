//go:build unix

package artifacts

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within fails the test if fn has not returned after a minute, a bound on
// a hang that no load of the machine reaches: a read that blocks on a
// FIFO never would.
func within(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatalf("%s still blocked after a minute", what)
	}
}

func TestFIFOArtifactIsRefused(t *testing.T) {
	s, root := newStore(t)
	mustWrite(t, s, "keep.go", Basic, "")
	fifo := filepath.Join(root, Dir, "x.go.md")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	within(t, "Read of a FIFO", func() {
		if _, _, err := s.Read("x.go"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("Read of a FIFO: %v, want not a regular file", err)
		}
	})
	within(t, "ReadMeta of a FIFO", func() {
		if _, err := s.ReadMeta("x.go"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("ReadMeta of a FIFO: %v, want not a regular file", err)
		}
	})
	within(t, "Status of a FIFO", func() {
		if st, err := s.Status("x.go", Fingerprint{}); err == nil {
			t.Errorf("Status of a FIFO = %q", st)
		}
	})
	within(t, "List with a FIFO", func() {
		if got := list(t, s); len(got) != 1 || got[0].Source != "keep.go" {
			t.Errorf("List = %+v, want only keep.go", got)
		}
	})
	// Writing replaces the FIFO with an artifact.
	mustWrite(t, s, "x.go", Enriched, "mine")
	if _, body, err := s.Read("x.go"); err != nil || string(body) != "mine" {
		t.Errorf("Read after Write = %q, %v", body, err)
	}
}

func TestFIFOSwappedInBeforeList(t *testing.T) {
	// listDir decides by the directory entry's type, then opens the name:
	// what is opened must be checked again.
	s, root := newStore(t)
	mustWrite(t, s, "x.go", Basic, "")
	r, err := s.openRoot(false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	fifo := filepath.Join(root, Dir, "x.go.md")
	os.Remove(fifo)
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	within(t, "readMeta of a FIFO", func() {
		if _, err := readMeta(r, "x.go.md", "x.go"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("readMeta of a FIFO: %v", err)
		}
	})
}

func TestDeviceThroughSymlinkIsRefused(t *testing.T) {
	s, root := newStore(t)
	mustWrite(t, s, "keep.go", Basic, "")
	dir := filepath.Join(root, Dir)
	symlink(t, "/dev/zero", filepath.Join(dir, "abs.go.md"))
	rel, _ := filepath.Rel(dir, "/dev/zero")
	symlink(t, rel, filepath.Join(dir, "rel.go.md"))
	for _, source := range []string{"abs.go", "rel.go"} {
		within(t, "Read of "+source, func() {
			if _, _, err := s.Read(source); err == nil {
				t.Errorf("Read(%s) through a link to /dev/zero succeeded", source)
			}
		})
		within(t, "ReadMeta of "+source, func() {
			if _, err := s.ReadMeta(source); err == nil {
				t.Errorf("ReadMeta(%s) through a link to /dev/zero succeeded", source)
			}
		})
	}
	within(t, "List", func() {
		if _, err := s.List(context.Background()); err != nil {
			t.Error(err)
		}
	})
}
