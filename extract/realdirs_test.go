package extract

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestFilesSymlinkEscape: a batch (Files, which remembers real
// directories) skips what File skips, escaping symlinks to files and to
// directories, and extracts what File extracts.
func TestFilesSymlinkEscape(t *testing.T) {
	outside := t.TempDir()
	writeFiles(t, outside, map[string]string{"secret.go": "package s\nfunc Secret() {}\n", "sub/deeper.go": "package sub\n"})
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"in.go": "package in\nfunc In() {}\n", "d/a.go": "package d\n", "d/b.go": "package d\n"})
	for link, target := range map[string]string{
		"link.go": filepath.Join(outside, "secret.go"), "dirlink": outside,
		"alias.go": filepath.Join(root, "in.go"), "d/alias.go": filepath.Join(root, "d", "a.go"),
		"dalias": filepath.Join(root, "d"),
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Skip(err)
		}
	}
	ex, err := New(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	paths := []string{"in.go", "link.go", "dirlink/secret.go", "d/a.go", "dirlink/sub/deeper.go", "alias.go",
		"d/b.go", "d/alias.go", "dalias/a.go", "dirlink/secret.go", "missing/x.go", "../x.go"}
	files, skipped, err := ex.Files(context.Background(), paths)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range files {
		got[f.Path] = "ok"
	}
	for _, s := range skipped {
		got[s.Path] = s.Reason
	}
	for _, p := range paths {
		_, err := ex.File(context.Background(), p)
		want := "ok"
		if err != nil {
			want = skipReason(err)
		}
		rel, _ := ex.Rel(p)
		if got[p] != want && got[rel] != want {
			t.Errorf("%s: Files %q, File %q", p, got[p], want)
		}
	}
}

// TestRealDirsSameAsEvalSymlinks: the remembered directories give what
// filepath.EvalSymlinks gives, for files, symlinks and missing paths.
func TestRealDirsSameAsEvalSymlinks(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"a/b/c.go": "x", "a/d.go": "y"})
	if err := os.Symlink(filepath.Join(root, "a"), filepath.Join(root, "l")); err != nil {
		t.Skip(err)
	}
	if err := os.Symlink(filepath.Join(root, "a", "d.go"), filepath.Join(root, "a", "b", "e.go")); err != nil {
		t.Skip(err)
	}
	d := &realDirs{}
	for range 2 { // the second time from what the first remembered
		for _, p := range []string{"a/b/c.go", "a/d.go", "l/b/c.go", "l/d.go", "a/b/e.go", "l/b/e.go", "a/x.go", "x/y.go"} {
			abs := filepath.Join(root, p)
			want, werr := filepath.EvalSymlinks(abs)
			got, gerr := d.evalSymlinks(abs)
			if got != want || (werr == nil) != (gerr == nil) {
				t.Errorf("%s: %q, %v; EvalSymlinks %q, %v", p, got, gerr, want, werr)
			}
		}
	}
}

// BenchmarkRel resolves a deep path as Rel does alone and in a batch.
func BenchmarkRel(b *testing.B) {
	root := b.TempDir()
	writeFiles(b, root, map[string]string{"drivers/net/ethernet/intel/e1000/e1000_main.c": "x"})
	ex, err := New(root, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer ex.Close()
	const p = "drivers/net/ethernet/intel/e1000/e1000_main.c"
	b.Run("alone", func(b *testing.B) {
		for b.Loop() {
			if _, err := ex.rel(p, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("batch", func(b *testing.B) {
		d := &realDirs{}
		for b.Loop() {
			if _, err := ex.rel(p, d); err != nil {
				b.Fatal(err)
			}
		}
	})
}
