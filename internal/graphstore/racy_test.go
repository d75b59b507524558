package graphstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// afterWindow has now report a time past racyWindow, for the rest of
// the test.
func afterWindow(t *testing.T) {
	t.Cleanup(func() { now = time.Now })
	now = func() time.Time { return time.Now().Add(racyWindow + time.Second) }
}

// TestAsRead: a file keeps its time while it has the size and time it
// was stat'd with and the content that was extracted, once racyWindow
// has passed since that time; not before, nor when any of them differs.
func TestAsRead(t *testing.T) {
	root := t.TempDir()
	write(t, root, "a.py", "def a():\n    pass\n")
	dir, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	tree := sourceTree{root: root, dir: dir, max: 1 << 20}
	st, err := os.Stat(filepath.Join(root, "a.py"))
	if err != nil {
		t.Fatal(err)
	}
	as := Entry{Path: "a.py", Size: st.Size(), ModTime: st.ModTime().UnixNano(), Hash: tree.hash("a.py")}
	if tree.asRead(&as) {
		t.Error("kept within racyWindow of its time")
	}
	afterWindow(t)
	if !tree.asRead(&as) {
		t.Error("not kept past racyWindow, unchanged")
	}
	for name, e := range map[string]Entry{
		"other content": {Path: as.Path, Size: as.Size, ModTime: as.ModTime, Hash: digest([]byte("def b():\n    pass\n"))},
		"other size":    {Path: as.Path, Size: as.Size + 1, ModTime: as.ModTime, Hash: as.Hash},
		"other time":    {Path: as.Path, Size: as.Size, ModTime: as.ModTime - 1, Hash: as.Hash},
		"not hashed":    {Path: as.Path, Size: as.Size, ModTime: as.ModTime},
		"gone":          {Path: "gone.py", Size: as.Size, ModTime: as.ModTime, Hash: as.Hash},
	} {
		if tree.asRead(&e) {
			t.Errorf("%s: kept", name)
		}
	}
}

// TestQuickAfterSyncOfFreshEdit: a file saved just before a Sync, in a
// directory it was renamed into, keeps its time once racyWindow has
// passed and it holds what was extracted; the directory is then vouched
// for by its listing, and the next lookup's quick check holds. While the
// window has not passed, the time is forgotten and the check refuses,
// as before: the directory cannot be vouched for.
func TestQuickAfterSyncOfFreshEdit(t *testing.T) {
	ctx := context.Background()
	for _, passed := range []bool{false, true} {
		root := symbolsTree(t)
		ageTree(t, root)
		if _, err := Sync(ctx, Options{Root: root}); err != nil {
			t.Fatal(err)
		}
		ageTree(t, root)
		write(t, root, "pkg/m1.py.tmp", "def edited():\n    pass\n")
		if err := os.Rename(filepath.Join(root, "pkg/m1.py.tmp"), filepath.Join(root, "pkg/m1.py")); err != nil {
			t.Fatal(err)
		}
		if passed {
			afterWindow(t)
		}
		if _, err := Sync(ctx, Options{Root: root}); err != nil {
			t.Fatal(err)
		}
		now = time.Now
		q, err := openQuick(t, root)
		switch {
		case passed && (err != nil || q.Relisted != 1):
			t.Errorf("past the window: %d relisted, %v; want pkg/ listed again", q.Relisted, err)
		case !passed && !errors.Is(err, ErrStale):
			t.Errorf("within the window: %v; want ErrStale", err)
		}
	}
}
