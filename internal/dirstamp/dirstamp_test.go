package dirstamp

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestFirstChanged: of many stamps, the first in order that no longer
// holds is reported, however the workers interleave; all holding gives
// len.
func TestFirstChanged(t *testing.T) {
	root := t.TempDir()
	old := time.Now().Add(-time.Hour)
	var stamps []Stamp
	for _, d := range []string{"a", "b", "c", "d", "e", "f"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(filepath.Join(root, d), old, old); err != nil {
			t.Fatal(err)
		}
		stamps = append(stamps, Of(root, d, time.Now().UnixNano()))
	}
	stamps = append(stamps, Of(root, "g/.gitignore", time.Now().UnixNano()))
	stamps = Sort(append(stamps, stamps[0]))
	if len(stamps) != 7 || stamps[6].Size != Absent {
		t.Fatalf("stamps: %+v", stamps)
	}
	for _, w := range []int{0, 1, 8} {
		if got := FirstChanged(root, stamps, w); got != len(stamps) {
			t.Errorf("%d workers, nothing changed: first changed %d", w, got)
		}
	}
	for _, d := range []string{"e", "b"} {
		if err := os.WriteFile(filepath.Join(root, d, "new"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, w := range []int{1, 3, 8} {
		if got := FirstChanged(root, stamps, w); got != 1 {
			t.Errorf("%d workers, b and e changed: first changed %d, want 1 (b)", w, got)
		}
	}
	// Changed just before the walk began: not to be trusted.
	if s := Of(root, "b", time.Now().UnixNano()); s.Size != Unsure {
		t.Errorf("a directory changed within Slack of the walk: %+v", s)
	}
}

// TestRelist: a Listed stamp holds while the directory's entries are
// the same ones, as they were, and fails on each change to them.
func TestRelist(t *testing.T) {
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name   string
		change func(d string)
	}{
		{"added", func(d string) { write(filepath.Join(d, "c"), "") }},
		{"removed", func(d string) { os.Remove(filepath.Join(d, "a")) }},
		{"renamed", func(d string) { os.Rename(filepath.Join(d, "a"), filepath.Join(d, "z")) }},
		{"written", func(d string) { write(filepath.Join(d, "a"), "alpha, longer") }},
		{"directory made", func(d string) { os.Mkdir(filepath.Join(d, "sub"), 0o755) }},
		{"replaced by one alike", func(d string) {
			info, _ := os.Stat(filepath.Join(d, "a"))
			write(filepath.Join(d, "a.tmp"), "alpha")
			os.Chtimes(filepath.Join(d, "a.tmp"), info.ModTime(), info.ModTime())
			os.Rename(filepath.Join(d, "a.tmp"), filepath.Join(d, "a"))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			d := filepath.Join(root, "d")
			if err := os.Mkdir(d, 0o755); err != nil {
				t.Fatal(err)
			}
			write(filepath.Join(d, "a"), "alpha")
			write(filepath.Join(d, "b"), "beta")
			es, err := List(root, "d")
			if err != nil || len(es) != 2 || es[0].Name != "a" || es[1].Size != 4 {
				t.Fatalf("List: %+v %v", es, err)
			}
			s := Stamp{Path: "d", Size: Listed, MTime: Hash(es)}
			if _, ok := Relist(root, s); !ok {
				t.Fatal("an unchanged directory does not hold")
			}
			tc.change(d)
			if _, ok := Relist(root, s); ok {
				t.Errorf("%s: the stamp still holds", tc.name)
			}
		})
	}
	if _, ok := Relist(t.TempDir(), Stamp{Path: "gone", Size: Listed}); ok {
		t.Error("a directory that is gone holds")
	}
}
