package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/artifacts"
)

const quickNote = "index: quick check:"

// indexedTree writes files under a new root, sets every time an hour
// back (a tree not touched as it was indexed: see
// dirstamp.Slack), and indexes it.
func indexedTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	writeFiles(t, root, files)
	// What the first index makes beside the index itself, made first.
	writeFiles(t, root, map[string]string{".artifacts/.gitignore": artifacts.Gitignore})
	if err := os.MkdirAll(filepath.Join(root, ".artifacts", ".index"), 0o755); err != nil {
		t.Fatal(err)
	}
	ageTree(t, root)
	if code, stdout, stderr := runCLI(t, "index", "--root", root); code != 0 {
		t.Fatalf("index: exit %d, %q %s", code, stdout, stderr)
	}
	return root
}

// ageTree sets every time under root an hour back: a tree not touched as
// it is indexed (see dirstamp.Slack).
func ageTree(t *testing.T, root string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	err := filepath.Walk(root, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
}

var quickFiles = map[string]string{
	"go.mod":     "module example.com/m\n",
	"a/alpha.go": "package a\n\n// Frobnicate turns the widgets over.\nfunc Frobnicate() {}\n",
	"b/beta.go":  "package b\n\n// Beetroot boils the roots.\nfunc Beetroot() {}\n",
	"README.md":  "# Tool\n\nThe tool renders sparkline charts.\n",
}

// search runs a search of root and returns its output; quick says
// whether the quick check answered.
func search(t *testing.T, root string, args ...string) (stdout string, quick bool) {
	t.Helper()
	code, stdout, stderr := runCLI(t, append([]string{"search", "--root", root}, args...)...)
	if code != 0 {
		t.Fatalf("search %v: exit %d, %q %s", args, code, stdout, stderr)
	}
	return stdout, strings.Contains(stderr, quickNote)
}

// TestQuickSearch: after an index, a search checks directories, not
// files, and says so; what changed since is seen all the same: a file
// the search returns that was edited in place, a file added, a file
// removed.
func TestQuickSearch(t *testing.T) {
	t.Run("unchanged", func(t *testing.T) {
		root := indexedTree(t, quickFiles)
		out, quick := search(t, root, "Frobnicate")
		if !quick || !strings.Contains(out, "a/alpha.go") {
			t.Errorf("quick %v: %q", quick, out)
		}
		full, quick := search(t, root, "--full", "Frobnicate")
		if quick || full != out {
			t.Errorf("--full: quick %v, %q, want %q", quick, full, out)
		}
	})
	t.Run("result edited in place", func(t *testing.T) {
		root := indexedTree(t, quickFiles)
		p := filepath.Join(root, "a/alpha.go")
		if err := os.WriteFile(p, []byte("package a\n\n// Frobnicate turns the widgets over.\nfunc Frobnicate(times int) {}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		out, quick := search(t, root, "Frobnicate")
		if quick || !strings.Contains(out, "Frobnicate(times int)") {
			t.Errorf("quick %v: %q, want the new signature", quick, out)
		}
	})
	t.Run("added", func(t *testing.T) {
		root := indexedTree(t, quickFiles)
		writeFiles(t, root, map[string]string{"b/gamma.go": "package b\n\n// Zanzibar spices the stew.\nfunc Zanzibar() {}\n"})
		out, quick := search(t, root, "Zanzibar")
		if quick || !strings.Contains(out, "b/gamma.go") {
			t.Errorf("quick %v: %q, want b/gamma.go", quick, out)
		}
	})
	t.Run("added just before the search", func(t *testing.T) {
		// The full check stamps b unsure (changed within dirstamp.Slack
		// of its walk) and vouches for it by its listing: the next search
		// lists b again, not every file, and finds the file all the same.
		root := indexedTree(t, quickFiles)
		writeFiles(t, root, map[string]string{"b/gamma.go": "package b\n\n// Zanzibar spices the stew.\nfunc Zanzibar() {}\n"})
		out, quick := search(t, root, "Zanzibar")
		if quick || !strings.Contains(out, "b/gamma.go") {
			t.Fatalf("quick %v: %q, want b/gamma.go from the full check", quick, out)
		}
		code, next, stderr := runCLI(t, "search", "--root", root, "Zanzibar")
		if code != 0 || !strings.Contains(stderr, quickNote) || !strings.Contains(stderr, "(1 of them listed again)") || next != out {
			t.Errorf("the next search: exit %d, %q, %s; want the quick check, b listed again, and %q", code, next, stderr, out)
		}
	})
	t.Run("removed", func(t *testing.T) {
		root := indexedTree(t, quickFiles)
		if err := os.Remove(filepath.Join(root, "b/beta.go")); err != nil {
			t.Fatal(err)
		}
		out, quick := search(t, root, "Beetroot")
		if quick || strings.Contains(out, "b/beta.go") {
			t.Errorf("quick %v: %q, want no b/beta.go", quick, out)
		}
	})
	t.Run("edited in place, not returned", func(t *testing.T) {
		// What the quick check does not see, it says; --full sees it.
		root := indexedTree(t, quickFiles)
		writeFiles(t, root, map[string]string{"b/beta.go": "package b\n\n// Beetroot boils the roots.\nfunc Beetroot() {}\n\n// Quagmire sinks.\nfunc Quagmire() {}\n"})
		if _, quick := search(t, root, "sparkline"); !quick {
			t.Error("no note of the quick check")
		}
		if out, quick := search(t, root, "--full", "Quagmire"); quick || !strings.Contains(out, "b/beta.go") {
			t.Errorf("--full: quick %v: %q, want b/beta.go", quick, out)
		}
	})
	t.Run("extra scope", func(t *testing.T) {
		root := indexedTree(t, quickFiles)
		extra := t.TempDir()
		writeFiles(t, extra, map[string]string{"guide.md": "# Guide\n\nDeploy the widget.\n"})
		if _, quick := search(t, root, "--docs", "ext="+extra, "widget"); quick {
			t.Error("a search with a --docs scope outside the root was checked quickly")
		}
	})
}

// TestQuickSearchAfterFirstIndex: the first index of a tree makes
// .artifacts itself; the search after it is a quick check all the same
// (it was a full check, and on the kernel 5.6 s instead of 0.5).
func TestQuickSearchAfterFirstIndex(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, quickFiles)
	ageTree(t, root)
	if code, stdout, stderr := runCLI(t, "index", "--root", root); code != 0 {
		t.Fatalf("index: exit %d, %q %s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(root, ".artifacts", ".gitignore")); err != nil {
		t.Fatalf("the first index made no .artifacts/.gitignore: %v", err)
	}
	out, quick := search(t, root, "Frobnicate")
	if !quick || !strings.Contains(out, "a/alpha.go") {
		t.Errorf("the search after a first index: quick %v, %q; want the quick check", quick, out)
	}
}
