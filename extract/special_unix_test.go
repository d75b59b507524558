//go:build unix

package extract

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within fails the test if f does not return within a minute, a bound on
// a hang that no load of the machine reaches: a FIFO opened for reading
// blocks until a writer comes.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatalf("%s blocked", what)
	}
}

// TestSpecialFilesNeverBlock checks that a FIFO with a source file's name
// (x.go, a go.mod, a .gitignore) is skipped, not waited on, by File and
// All.
func TestSpecialFilesNeverBlock(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"ok.go": "package ok\nfunc F() {}\n"})
	for _, name := range []string{"pipe.go", "go.mod", ".gitignore", "sub/.gitignore"} {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skip(err)
		}
	}
	ex, err := New(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	ctx := context.Background()
	within(t, "File on a FIFO", func() {
		_, err := ex.File(ctx, "pipe.go")
		expectSkip(t, err, "named pipe")
	})
	within(t, "All", func() {
		files, _, err := ex.All(ctx)
		if err != nil || len(files) != 1 || files[0].Path != "ok.go" {
			t.Errorf("All = %v, %v; want ok.go only", files, err)
		}
	})
}

// TestWalkRefusesSwappedDirectory swaps a directory the walk has listed
// for a symbolic link to a directory outside the root, before the walk
// opens it: nothing outside may be listed.
func TestWalkRefusesSwappedDirectory(t *testing.T) {
	outside := t.TempDir()
	writeFiles(t, outside, map[string]string{"secret.go": "package s\n"})
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"a/one/x.go": "package one\n", "a/two/y.go": "package two\n"})
	swapped := ""
	opt := WalkOptions{Dir: func(rel string) {
		// Entering one of a's directories: a was listed already, so
		// swap the other one.
		for _, d := range []string{"a/one", "a/two"} {
			if rel != d && strings.HasPrefix(rel, "a/") && swapped == "" {
				p := filepath.Join(root, filepath.FromSlash(d))
				if err := os.RemoveAll(p); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(outside, p); err != nil {
					t.Skip(err)
				}
				swapped = d
			}
		}
	}}
	files, skipped, err := Walk(context.Background(), root, opt)
	if err != nil {
		t.Fatal(err)
	}
	if swapped == "" {
		t.Fatal("no directory was swapped")
	}
	for _, f := range files {
		if strings.Contains(f, "secret") {
			t.Errorf("the walk followed the swapped link: %v", files)
		}
	}
	t.Logf("files %v, skipped %v", files, skipped)
}

// TestReadRefusesSwappedLink swaps a file for a symbolic link to a file
// outside the root after the walk found it: reading it must fail.
func TestReadRefusesSwappedLink(t *testing.T) {
	outside := t.TempDir()
	writeFiles(t, outside, map[string]string{"secret.go": "package secret\nfunc Secret() {}\n"})
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"a.go": "package a\nfunc A() {}\n"})
	ex, err := New(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	p := filepath.Join(root, "a.go")
	os.Remove(p)
	if err := os.Symlink(filepath.Join(outside, "secret.go"), p); err != nil {
		t.Skip(err)
	}
	// file is what All calls for the paths its walk returned, without
	// checking them again.
	if f, err := ex.file(context.Background(), "a.go"); err == nil {
		t.Fatalf("read through a swapped link: %v", f.Symbols)
	}
}
