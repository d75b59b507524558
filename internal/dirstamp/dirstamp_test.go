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

// TestVouchListed: a directory unsure by its time is vouched for by its
// listing while it holds what the walk read, each file as its caller
// saw it or, one it did not look at, older than the walk; anything else
// leaves it unsure.
func TestVouchListed(t *testing.T) {
	old := time.Now().Add(-time.Hour)
	for _, tc := range []struct {
		name   string
		change func(d string)
		seen   bool // the caller saw file a as it is
		want   int64
	}{
		{"as walked", func(string) {}, true, Listed},
		{"a not looked at, old", func(string) {}, false, Listed},
		{"a not looked at, new", func(d string) { os.Chtimes(filepath.Join(d, "a"), time.Now(), time.Now()) }, false, Unsure},
		{"a changed since seen", func(d string) { os.WriteFile(filepath.Join(d, "a"), []byte("alpha, longer"), 0o644) }, true, Unsure},
		{"added since the walk", func(d string) { os.WriteFile(filepath.Join(d, "c"), nil, 0o644) }, true, Unsure},
		{"removed since the walk", func(d string) { os.Remove(filepath.Join(d, "b")) }, true, Unsure},
		{"directory made since the walk", func(d string) { os.Mkdir(filepath.Join(d, "sub"), 0o755) }, true, Unsure},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			d := filepath.Join(root, "d")
			os.Mkdir(d, 0o755)
			for _, n := range []string{"b", "a"} {
				if err := os.WriteFile(filepath.Join(d, n), []byte(n), 0o644); err != nil {
					t.Fatal(err)
				}
				os.Chtimes(filepath.Join(d, n), old, old)
			}
			walked, err := os.ReadDir(d)
			if err != nil {
				t.Fatal(err)
			}
			walked[0], walked[1] = walked[1], walked[0] // a walk's order
			info, _ := os.Stat(filepath.Join(d, "a"))
			stat := func(p string) (int64, int64, bool) {
				if p == "d/a" && tc.seen {
					return info.Size(), info.ModTime().UnixNano(), true
				}
				return 0, 0, false
			}
			since := time.Now().UnixNano()
			tc.change(d)
			s := VouchListed(root, "d", walked, stat, since, Stamp{Path: "d", Size: Unsure, MTime: 1})
			if s.Size != tc.want {
				t.Fatalf("stamp size %d, want %d", s.Size, tc.want)
			}
			if s.Size == Listed {
				if _, ok := Relist(root, s); !ok {
					t.Error("the stamp vouched for does not hold")
				}
			}
		})
	}
	sure := Stamp{Path: "d", Size: 4096, MTime: 7}
	if s := VouchListed(t.TempDir(), "d", nil, nil, 0, sure); s != sure {
		t.Errorf("a stamp sure by its time became %+v", s)
	}
}
