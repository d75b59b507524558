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
	since := time.Now().UnixNano()
	for _, w := range []int{0, 1, 8} {
		if got := FirstChanged(root, stamps, since, w); got != len(stamps) {
			t.Errorf("%d workers, nothing changed: first changed %d", w, got)
		}
	}
	for _, d := range []string{"e", "b"} {
		if err := os.WriteFile(filepath.Join(root, d, "new"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, w := range []int{1, 3, 8} {
		if got := FirstChanged(root, stamps, since, w); got != 1 {
			t.Errorf("%d workers, b and e changed: first changed %d, want 1 (b)", w, got)
		}
	}
	// Changed just before the walk began: not to be trusted.
	if s := Of(root, "b", time.Now().UnixNano()); s.Size != Unsure {
		t.Errorf("a directory changed within Slack of the walk: %+v", s)
	}
}
