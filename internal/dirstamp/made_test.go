package dirstamp

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestVouch: a path this process made just before its walk is stamped by
// its time while it is as made, and stays unsure once it changed or when
// it was not made here; the stamp it gives holds for FirstChanged.
func TestVouch(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"made", "theirs"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	made := []Stamp{Lstat(root, "made")}
	since := time.Now().UnixNano()
	s := Of(root, "made", since)
	if s.Size != Unsure {
		t.Fatalf("made just now: %+v, want unsure by time", s)
	}
	v := Vouch(root, s, made)
	if v != made[0] || v.Size == Unsure {
		t.Errorf("Vouch: %+v, want %+v", v, made[0])
	}
	if got := FirstChanged(root, []Stamp{v}, 1); got != 1 {
		t.Errorf("the vouched stamp does not hold: first changed %d", got)
	}
	if th := Of(root, "theirs", since); Vouch(root, th, made).Size != Unsure {
		t.Errorf("a path not made here was vouched for")
	}
	// Changed since it was made: unsure, and the vouched stamp fails.
	later := time.Now().Add(time.Second)
	if err := os.Chtimes(filepath.Join(root, "made"), later, later); err != nil {
		t.Fatal(err)
	}
	if got := Vouch(root, Of(root, "made", since), made); got.Size != Unsure {
		t.Errorf("changed since made: %+v, want unsure", got)
	}
	if got := FirstChanged(root, []Stamp{v}, 1); got != 0 {
		t.Errorf("changed since vouched: first changed %d, want 0", got)
	}
	if err := os.Remove(filepath.Join(root, "made")); err != nil {
		t.Fatal(err)
	}
	if got := Vouch(root, Stamp{"made", Unsure, 0}, []Stamp{{"made", Absent, 0}}); got.Size != Unsure {
		t.Errorf("an absent path was vouched for: %+v", got)
	}
}
