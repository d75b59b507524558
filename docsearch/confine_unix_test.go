//go:build unix

package docsearch

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hangBound bounds within's wait: it bounds a hang, and says nothing of
// speed, which a loaded machine makes many times slower.
const hangBound = time.Minute

// within runs f and fails the test if it has not returned after d: what
// a FIFO or a device used to do to the index was to hang it.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s still running after %v", what, d)
	}
}

// openRoot opens dir as an os.Root closed with the test.
func openRoot(t *testing.T, dir string) *os.Root {
	t.Helper()
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// filesUnder lists every file and directory under dir, as slash paths.
func filesUnder(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if p != dir {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
}

// TestIndexDirLinkedOutOfRoot links .artifacts, or the index directory
// in it, out of the workspace: nothing is written there, and the index
// serves searches from memory, saying why it is not saved.
func TestIndexDirLinkedOutOfRoot(t *testing.T) {
	for _, link := range []string{".artifacts", ".artifacts/.index"} {
		t.Run(link, func(t *testing.T) {
			dir := t.TempDir()
			root, outside := filepath.Join(dir, "ws"), filepath.Join(dir, "outside")
			writeTree(t, root, workspace)
			os.RemoveAll(filepath.Join(root, ".artifacts"))
			if err := os.MkdirAll(outside, 0o755); err != nil {
				t.Fatal(err)
			}
			os.MkdirAll(filepath.Dir(filepath.Join(root, link)), 0o755)
			if err := os.Symlink(outside, filepath.Join(root, link)); err != nil {
				t.Skip("no symbolic links here:", err)
			}
			ix := openTest(t, RootFS(openRoot(t, root)), Options{Dir: filepath.Join(root, ".artifacts", ".index")})
			expectTop(t, ix, "sparklines", "docs/intro.rst")
			if got := filesUnder(t, outside); len(got) != 0 {
				t.Errorf("written outside the root: %v", got)
			}
			if st := ix.Stats(); st.Unsaved == "" {
				t.Error("Stats.Unsaved is empty: the index claims to be saved")
			}
			if err := ix.Save(); err == nil {
				t.Error("Save through a link out of the root succeeded")
			}
			if got := filesUnder(t, outside); len(got) != 0 {
				t.Errorf("Save wrote outside the root: %v", got)
			}
		})
	}
}

// TestWalkRefusesSwappedLink swaps a directory of the workspace for a
// symbolic link out of it while the walk is listing the workspace: the
// walk enters nothing outside, lists nothing there, reads nothing there.
func TestWalkRefusesSwappedLink(t *testing.T) {
	dir := t.TempDir()
	root, outside := filepath.Join(dir, "ws"), filepath.Join(dir, "outside")
	writeTree(t, root, workspace)
	writeTree(t, outside, map[string]string{"secret.md": "# Secret\n\nplutonium recipe\n"})
	swapped := false
	walkHook = func(p string) {
		if p != "docs" || swapped {
			return
		}
		swapped = true
		if err := os.Rename(filepath.Join(root, "docs"), filepath.Join(dir, "moved")); err != nil {
			t.Error(err)
		}
		if err := os.Symlink(outside, filepath.Join(root, "docs")); err != nil {
			t.Error(err)
		}
	}
	defer func() { walkHook = nil }()
	ix := openTest(t, RootFS(openRoot(t, root)), Options{})
	if !swapped {
		t.Fatal("the walk never reached docs")
	}
	if res, _ := ix.Search(ctx, Query{Text: "plutonium", MinScore: zero()}); len(res.Results) != 0 {
		t.Errorf("a document from outside the root was indexed: %+v", res.Results)
	}
	for _, s := range ix.Skipped() {
		if strings.Contains(s.Path, "secret") {
			t.Errorf("the walk listed a file outside the root: %+v", s)
		}
	}
}

// TestIndexFileNotRegular puts something other than a regular file
// where the saved index goes: a link to /dev/zero, a FIFO, a directory.
// Opening reads none of it, rebuilds the index, and, where the thing
// can be replaced, saves the index over it; where it cannot, it says so
// and serves searches from memory. Each within 5 s.
func TestIndexFileNotRegular(t *testing.T) {
	cases := []struct {
		name    string
		make    func(t *testing.T, p string)
		replace bool
	}{
		{"link to /dev/zero", func(t *testing.T, p string) {
			if err := os.Symlink("/dev/zero", p); err != nil {
				t.Skip(err)
			}
		}, true},
		{"FIFO", mkfifo, true},
		{"empty directory", func(t *testing.T, p string) { os.Mkdir(p, 0o755) }, true},
		{"directory", func(t *testing.T, p string) { writeTree(t, p, map[string]string{"keep.txt": "mine"}) }, false},
	}
	for _, c := range cases {
		for _, confined := range []bool{true, false} {
			t.Run(c.name+map[bool]string{true: " (RootFS)", false: " (DirFS)"}[confined], func(t *testing.T) {
				root := t.TempDir()
				writeTree(t, root, workspace)
				dir := filepath.Join(root, ".artifacts", ".index")
				os.MkdirAll(dir, 0o755)
				p := filepath.Join(dir, storeFile)
				c.make(t, p)
				fsys := os.DirFS(root)
				if confined {
					fsys = RootFS(openRoot(t, root))
				}
				var ix *Index
				within(t, hangBound, "Open", func() { ix = openTest(t, fsys, Options{Dir: dir}) })
				expectTop(t, ix, "sparklines", "docs/intro.rst")
				info, err := os.Lstat(p)
				if err != nil {
					t.Fatal(err)
				}
				if saved := info.Mode().IsRegular(); saved != c.replace {
					t.Errorf("saved over it: %v, want %v (mode %v)", saved, c.replace, info.Mode())
				}
				if unsaved := ix.Stats().Unsaved; (unsaved == "") != c.replace {
					t.Errorf("Stats.Unsaved = %q", unsaved)
				}
			})
		}
	}
}

// TestDocNotRegular puts a FIFO where a document would be: the walk,
// Update and Fetch pass over it with a reason, without blocking.
func TestDocNotRegular(t *testing.T) {
	for _, confined := range []bool{true, false} {
		root := t.TempDir()
		writeTree(t, root, workspace)
		mkfifo(t, filepath.Join(root, "docs", "pipe.md"))
		fsys := os.DirFS(root)
		if confined {
			fsys = RootFS(openRoot(t, root))
		}
		var ix *Index
		within(t, hangBound, "Open", func() { ix = openTest(t, fsys, Options{}) })
		if r := skippedReason(ix, "docs/pipe.md"); !strings.Contains(r, "named pipe") {
			t.Errorf("skipped reason for a FIFO = %q", r)
		}
		within(t, hangBound, "Update", func() {
			if err := ix.Update(ctx, []string{"docs/pipe.md"}); err != nil {
				t.Error(err)
			}
		})
		// A document that turns into a FIFO after it was indexed.
		os.Remove(filepath.Join(root, "docs", "guide.md"))
		mkfifo(t, filepath.Join(root, "docs", "guide.md"))
		within(t, hangBound, "Fetch", func() {
			if _, err := ix.Fetch("docs/guide.md", ""); err == nil || !strings.Contains(err.Error(), "named pipe") {
				t.Errorf("Fetch of a FIFO: err = %v", err)
			}
		})
	}
}

// TestReadFileBounded reads through RootFS a FIFO, a device reached by
// a link, and a file over the limit: each is refused, without blocking
// or reading on.
func TestReadFileBounded(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"big.md": strings.Repeat("x", 100), "ok.md": "# ok\n"})
	mkfifo(t, filepath.Join(root, "pipe.md"))
	os.Symlink("/dev/zero", filepath.Join(root, "zero.md"))
	fsys := RootFS(openRoot(t, root))
	for name, want := range map[string]string{"pipe.md": "named pipe", "zero.md": "symbolic link", "big.md": "over the 50 limit"} {
		within(t, hangBound, "readFile "+name, func() {
			if _, err := readFile(fsys, name, 50); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("readFile %s: err = %v, want %q", name, err, want)
			}
		})
	}
	if b, err := readFile(fsys, "ok.md", 50); err != nil || string(b) != "# ok\n" {
		t.Errorf("readFile ok.md = %q, %v", b, err)
	}
}

// TestStaleTempFilesRemoved leaves temporary files of saves behind, as a
// process killed while saving does: opening the index removes those of
// our own name that are old and that no process holds, and nothing else.
func TestStaleTempFilesRemoved(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, workspace)
	dir := filepath.Join(root, ".artifacts", ".index")
	old := time.Now().Add(-2 * time.Hour)
	files := map[string]bool{ // name: removed
		".docsearch-1.tmp":     true,
		".docsearch-2.tmp":     false, // recent: another process may have just made it
		".docsearch-3.tmp":     false, // old but locked: another process is writing it
		"notes.tmp":            false, // not ours
		".docsearch-4.tmp.bak": false,
	}
	for name := range files {
		writeTree(t, dir, map[string]string{name: "partial"})
		if name != ".docsearch-2.tmp" {
			os.Chtimes(filepath.Join(dir, name), old, old)
		}
	}
	held, err := os.Open(filepath.Join(dir, ".docsearch-3.tmp"))
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if err := syscall.Flock(int(held.Fd()), syscall.LOCK_EX); err != nil {
		t.Skip("no flock here:", err)
	}
	openTest(t, RootFS(openRoot(t, root)), Options{Dir: dir})
	for name, removed := range files {
		_, err := os.Stat(filepath.Join(dir, name))
		if gone := os.IsNotExist(err); gone != removed {
			t.Errorf("%s removed: %v, want %v", name, gone, removed)
		}
	}
}
