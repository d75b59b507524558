package artifacts

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSourcePathsRefused(t *testing.T) {
	s, root := newStore(t)
	for _, source := range []string{
		"",
		".",
		"./",
		"..",
		"../x.go",
		"a/../../x.go",
		"/abs/x.go",
		"/",
		"a\x00b.go",
		"a\xffb.go",
	} {
		t.Run(source, func(t *testing.T) {
			if p, err := s.Path(source); err == nil {
				t.Errorf("Path(%q) = %q", source, p)
			}
			if err := s.Write(source, Meta{Status: Basic}, nil); err == nil {
				t.Errorf("Write(%q) succeeded", source)
			}
			if _, _, err := s.Read(source); err == nil || errors.Is(err, fs.ErrNotExist) {
				t.Errorf("Read(%q) = %v, want a path error", source, err)
			}
		})
	}
	expectFiles(t, root)
	if _, err := os.Stat(filepath.Join(filepath.Dir(root), "x.go.md")); err == nil {
		t.Error("an artifact was written outside the root")
	}
}

func TestSymlinkedDirectoryOutside(t *testing.T) {
	s, root := newStore(t)
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.go.md"), []byte(sampleHead), 0o644)
	mustWrite(t, s, "keep.go", Basic, "")
	symlink(t, outside, filepath.Join(root, Dir, "out"))

	for _, source := range []string{"out/x.go", "out/new/x.go", "out/secret.go"} {
		if err := s.Write(source, Meta{Status: Basic}, nil); err == nil {
			t.Errorf("Write(%q) through a link to outside succeeded", source)
		}
	}
	if _, _, err := s.Read("out/secret.go"); err == nil {
		t.Error("Read through a link to outside succeeded")
	}
	if err := s.Remove("out/secret.go"); err == nil {
		t.Error("Remove through a link to outside succeeded")
	}
	entries, err := os.ReadDir(outside)
	if err != nil || len(entries) != 1 || entries[0].Name() != "secret.go.md" {
		t.Errorf("outside directory now holds %v (%v)", entries, err)
	}
	if got := list(t, s); len(got) != 1 || got[0].Source != "keep.go" {
		t.Errorf("List = %+v, want only keep.go", got)
	}
}

func TestSymlinkedArtifactOutside(t *testing.T) {
	s, root := newStore(t)
	outside := filepath.Join(t.TempDir(), "secret.md")
	os.WriteFile(outside, []byte(sampleHead), 0o644)
	mustWrite(t, s, "keep.go", Basic, "")
	symlink(t, outside, filepath.Join(root, Dir, "x.go.md"))
	if _, _, err := s.Read("x.go"); err == nil {
		t.Error("Read of an artifact linked outside succeeded")
	}
	if _, err := s.Status("x.go", Fingerprint{}); err == nil {
		t.Error("Status of an artifact linked outside succeeded")
	}
	// Writing replaces the link itself, and leaves its target alone.
	mustWrite(t, s, "x.go", Basic, "mine")
	if b, _ := os.ReadFile(outside); string(b) != sampleHead {
		t.Errorf("link target changed to %q", b)
	}
	if _, body, err := s.Read("x.go"); string(body) != "mine" || err != nil {
		t.Errorf("Read = %q, %v", body, err)
	}
}

func TestSymlinkedArtifactDir(t *testing.T) {
	s, root := newStore(t)
	outside := t.TempDir()
	symlink(t, outside, filepath.Join(root, Dir))
	if err := s.Write("x.go", Meta{Status: Basic}, nil); err == nil {
		t.Errorf("Write with %s linked outside succeeded", Dir)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("outside directory now holds %v", entries)
	}
}

func TestSymlinkInside(t *testing.T) {
	s, root := newStore(t)
	mustWrite(t, s, "real/a.go", Basic, "via real")
	symlink(t, "real", filepath.Join(root, Dir, "alias"))
	if _, body, err := s.Read("alias/a.go"); err == nil || string(body) != "" {
		// The front matter records real/a.go, not alias/a.go.
		t.Errorf("Read(alias/a.go) = %q, %v; want ErrMalformed", body, err)
	}
	mustWrite(t, s, "alias/b.go", Basic, "via alias")
	if _, err := os.Stat(filepath.Join(root, Dir, "real", "b.go.md")); err != nil {
		t.Errorf("write through a link that stays inside: %v", err)
	}
}

func TestSourceIsSymlink(t *testing.T) {
	s, root := newStore(t)
	symlink(t, t.TempDir(), filepath.Join(root, "linked"))
	symlink(t, "/etc/passwd", filepath.Join(root, "passwd.go"))
	mustWrite(t, s, "linked/x.go", Basic, "a")
	mustWrite(t, s, "passwd.go", Basic, "b")
	expectFiles(t, root, "linked/x.go.md", "passwd.go.md")
}

func TestFailedWriteLeavesNothing(t *testing.T) {
	s, root := newStore(t)
	mustWrite(t, s, "a.go", Basic, "old")
	dir := filepath.Join(root, Dir)

	// The artifact's name is taken by a non-empty directory: the rename
	// fails after the temporary file was written.
	os.MkdirAll(filepath.Join(dir, "b.go.md", "x"), 0o755)
	if err := s.Write("b.go", Meta{Status: Basic}, []byte("new")); err == nil {
		t.Error("Write over a directory succeeded")
	}
	// The artifact of a.go is a file, so the directory a.go.md/ cannot be
	// made: "a.go" and "a.go.md/x.go" cannot both have artifacts.
	if err := s.Write("a.go.md/x.go", Meta{Status: Basic}, nil); err == nil {
		t.Error("Write under a file succeeded")
	}
	expectFiles(t, root, "a.go.md")
	if _, body, _ := s.Read("a.go"); string(body) != "old" {
		t.Errorf("a.go's artifact changed to %q", body)
	}

	if os.Geteuid() == 0 {
		t.Log("running as root: skipping the read-only directory case")
		return
	}
	os.Chmod(dir, 0o555)
	defer os.Chmod(dir, 0o755)
	if err := s.Write("a.go", Meta{Status: Enriched}, []byte("new")); err == nil {
		t.Error("Write into a read-only directory succeeded")
	}
	expectFiles(t, root, "a.go.md")
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}

func TestOversizedArtifactIsRefused(t *testing.T) {
	s, root := newStore(t)
	mustWrite(t, s, "big.go", Enriched, "# big.go\n")
	// Sparse: the file claims the size without the disk holding it.
	if err := os.Truncate(filepath.Join(root, Dir, "big.go.md"), MaxSize+1); err != nil {
		t.Fatal(err)
	}
	if _, body, err := s.Read("big.go"); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("Read of an oversized artifact = %d bytes, %v; want too large", len(body), err)
	}
	if _, err := s.ReadMeta("big.go"); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("ReadMeta of an oversized artifact: %v; want too large", err)
	}
	if got := list(t, s); len(got) != 1 || got[0].Err == nil {
		t.Errorf("List = %+v, want big.go with an error", got)
	}
	big := make([]byte, MaxSize)
	if err := s.Write("big.go", Meta{Status: Basic}, big); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("Write of an oversized artifact: %v; want too large", err)
	}
}
