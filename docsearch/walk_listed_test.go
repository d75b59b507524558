package docsearch

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"testing"
)

// listTree reads every directory under root whose slash path keep
// accepts, as another walk would, and the lstat of every file in them.
func listTree(t *testing.T, root string, keep func(dir string) bool) *Listing {
	t.Helper()
	l := NewListing()
	stats := map[string]FileStat{}
	var list func(dir string)
	list = func(dir string) {
		entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
		if err != nil {
			t.Fatal(err)
		}
		l.AddDir(dir, entries)
		for _, e := range entries {
			p := path.Join(dir, e.Name())
			if e.IsDir() {
				if keep(p) {
					list(p)
				}
				continue
			}
			info, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p)))
			if err != nil {
				t.Fatal(err)
			}
			stats[p] = FileStat{info.Mode(), info.Size(), info.ModTime().UnixNano()}
		}
	}
	list(".")
	l.SetStats(func(p string) (FileStat, bool) { st, ok := stats[p]; return st, ok })
	return l
}

// TestWalkListed checks that a walk given a listing finds what a walk of
// its own finds, with the listing whole or in part, and reads only the
// directories the listing lacks.
func TestWalkListed(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, sphinxWorkspace)
	writeTree(t, root, map[string]string{"Pods/notes.md": "# Notes\n", ".artifacts/src/main.py.md": "# main.py\n"})
	if err := os.Symlink("README.rst", filepath.Join(root, "link.md")); err != nil {
		t.Fatal(err)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, fsys := range []fs.FS{RootFS(r), os.DirFS(root)} {
		ss, err := newScopeSet(fsys, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, wantSkipped, err := ss.walk(4 << 20)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name  string
			keep  func(string) bool
			reads int // directories the walk reads itself
		}{
			{"whole", func(string) bool { return true }, 0},
			// The code walk passes over .artifacts and Pods: the doc walk
			// reads .artifacts, .artifacts/src and Pods itself.
			{"code's", func(d string) bool { return d != ".artifacts" && d != "Pods" }, 3},
		} {
			t.Run(c.name, func(t *testing.T) {
				l := listTree(t, root, c.keep)
				got, gotSkipped, err := ss.walkListed(4<<20, l)
				if err != nil {
					t.Fatal(err)
				}
				for i := range got {
					got[i].fsys = want[i].fsys
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("documents\n%+v\nwant\n%+v", got, want)
				}
				if !reflect.DeepEqual(gotSkipped, wantSkipped) {
					t.Errorf("skipped\n%+v\nwant\n%+v", gotSkipped, wantSkipped)
				}
				if l.Reads() != c.reads {
					t.Errorf("the walk read %d directories itself; want %d", l.Reads(), c.reads)
				}
				if _, ok := l.Dir(".artifacts/src"); !ok {
					t.Errorf("the listing lacks .artifacts/src, which the walk read")
				}
			})
		}
	}
}

// TestWalkListedTakesStats checks that a walk given a listing takes a
// file's size and time from it instead of asking again: the listing's
// word is the one reported.
func TestWalkListedTakesStats(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"docs/guide.md": "# Guide\n"})
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ss, err := newScopeSet(RootFS(r), nil)
	if err != nil {
		t.Fatal(err)
	}
	l := listTree(t, root, func(string) bool { return true })
	l.SetStats(func(p string) (FileStat, bool) { return FileStat{Size: 12345, MTime: 42}, p == "docs/guide.md" })
	srcs, _, err := ss.walkListed(4<<20, l)
	if err != nil {
		t.Fatal(err)
	}
	if len(srcs) != 1 || srcs[0].size != 12345 || srcs[0].mtime != 42 {
		t.Errorf("sources %+v; want docs/guide.md with the listing's size 12345 and time 42", srcs)
	}
}
