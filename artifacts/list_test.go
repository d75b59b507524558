package artifacts

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func list(t testing.TB, s *Store) []Entry {
	t.Helper()
	entries, err := s.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

func TestList(t *testing.T) {
	s, root := newStore(t)
	if got := list(t, s); len(got) != 0 {
		t.Errorf("List with no %s = %+v", Dir, got)
	}
	sources := []string{"a/b.go", "a.go", "z.go", ".github/ci.yml", "a/b/c.py", "B.go", "a-b.go"}
	want := map[string]Meta{}
	for _, src := range sources {
		want[src] = mustWrite(t, s, src, Basic, "# "+src)
	}
	dir := filepath.Join(root, Dir)
	for name, content := range map[string]string{
		"notes.txt":              "not an artifact",
		"a/.artifact-123.tmp":    "left by a crash",
		".md":                    "no source name",
		"bad.go.md":              "# no front matter",
		"a/b.go.md.orig":         "backup",
		"dir.md/keep.txt":        "a directory named like an artifact",
		"nested/deeper/x.rs.md":  "# no front matter",
		"windows\\style.go.orig": "",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(content), 0o644)
	}
	symlink(t, "a.go.md", filepath.Join(dir, "link.go.md"))

	got := list(t, s)
	var names []string
	for _, e := range got {
		names = append(names, e.Source)
		switch {
		case e.Source == "bad.go" || e.Source == "nested/deeper/x.rs":
			if !errors.Is(e.Err, ErrMalformed) {
				t.Errorf("%s: Err = %v, want ErrMalformed", e.Source, e.Err)
			}
		case e.Err != nil || e.Meta != want[e.Source]:
			t.Errorf("%s: %+v, %v; want %+v", e.Source, e.Meta, e.Err, want[e.Source])
		}
	}
	wantNames := []string{".github/ci.yml", "B.go", "a-b.go", "a.go", "a/b.go", "a/b/c.py", "bad.go", "nested/deeper/x.rs", "z.go"}
	if !slices.Equal(names, wantNames) {
		t.Errorf("List sources:\n %q\nwant\n %q", names, wantNames)
	}
}

func TestListCanceled(t *testing.T) {
	s, _ := newStore(t)
	mustWrite(t, s, "a.go", Basic, "")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.List(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("List after cancel: %v", err)
	}
}
