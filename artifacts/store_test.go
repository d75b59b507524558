package artifacts

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// newStore returns a store over a fresh workspace directory.
func newStore(t testing.TB) (*Store, string) {
	t.Helper()
	root := t.TempDir()
	s, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	return s, root
}

// mustWrite writes body as source's artifact with status st.
func mustWrite(t testing.TB, s *Store, source string, st Status, body string) Meta {
	t.Helper()
	m := Meta{
		Fingerprint: Fingerprint{SourceSHA256: SourceDigest([]byte(source)), CallersDigest: CallersDigest(nil)},
		ExtractedAt: when,
		ToolVersion: "test",
		Status:      st,
	}
	if err := s.Write(source, m, []byte(body)); err != nil {
		t.Fatal(err)
	}
	m.Source = filepath.ToSlash(filepath.Clean(source))
	return m
}

// expectFiles checks that the artifact directory holds exactly the files
// want (slash paths), so no temporary file was left behind.
func expectFiles(t *testing.T, root string, want ...string) {
	t.Helper()
	var got []string
	dir := filepath.Join(root, Dir)
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			if rel == ".gitignore" { // Write's, see TestGitignore
				return nil
			}
			got = append(got, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("files in %s: %q, want %q", Dir, got, want)
	}
}

func TestOpen(t *testing.T) {
	root := t.TempDir()
	if _, err := Open(filepath.Join(root, "nope")); err == nil {
		t.Error("Open of a missing directory succeeded")
	}
	file := filepath.Join(root, "f")
	os.WriteFile(file, nil, 0o644)
	if _, err := Open(file); err == nil {
		t.Error("Open of a file succeeded")
	}
	if _, err := os.Stat(filepath.Join(root, Dir)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open created %s: %v", Dir, err)
	}
}

func TestPath(t *testing.T) {
	s, root := newStore(t)
	for source, want := range map[string]string{
		"src/graph/builder.ts": "src/graph/builder.ts.md",
		"./a//b/../c.go":       "a/c.go.md",
		".github/ci.yml":       ".github/ci.yml.md",
		"a.go.md":              "a.go.md.md",
	} {
		got, err := s.Path(source)
		if want := filepath.Join(root, Dir, filepath.FromSlash(want)); got != want || err != nil {
			t.Errorf("Path(%q) = %q, %v; want %q", source, got, err, want)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	s, root := newStore(t)
	body := "# src/a.go\n\n---\nstatus: not front matter\n"
	want := mustWrite(t, s, "src/a.go", Basic, body)
	m, got, err := s.Read("src/a.go")
	if err != nil {
		t.Fatal(err)
	}
	if m != want || string(got) != body {
		t.Errorf("Read = %+v, %q; want %+v, %q", m, got, want, body)
	}
	if m, err := s.ReadMeta("./src//a.go"); m != want || err != nil {
		t.Errorf("ReadMeta = %+v, %v; want %+v", m, err, want)
	}
	b, _ := os.ReadFile(filepath.Join(root, Dir, "src", "a.go.md"))
	if !strings.HasPrefix(string(b), "---\nsource: \"src/a.go\"\n") || !strings.HasSuffix(string(b), "---\n"+body) {
		t.Errorf("file:\n%s", b)
	}
	// Artifacts are shared files, not private temporary ones.
	ref := filepath.Join(root, "ref")
	os.WriteFile(ref, nil, 0o644)
	fi, _ := os.Stat(filepath.Join(root, Dir, "src", "a.go.md"))
	if want, _ := os.Stat(ref); fi.Mode() != want.Mode() {
		t.Errorf("artifact mode %v, want %v (0644 less the umask)", fi.Mode(), want.Mode())
	}

	// A write replaces the artifact and leaves no temporary file.
	want = mustWrite(t, s, "src/a.go", Enriched, "# enriched\n")
	if m, got, err := s.Read("src/a.go"); m != want || string(got) != "# enriched\n" || err != nil {
		t.Errorf("Read after rewrite = %+v, %q, %v", m, got, err)
	}
	expectFiles(t, root, "src/a.go.md")
}

func TestWriteMeta(t *testing.T) {
	s, _ := newStore(t)
	before := time.Now().Add(-time.Second)
	local := time.FixedZone("X", 3600)
	for _, tc := range []struct {
		name string
		in   Meta
		want time.Time // zero: now
	}{
		{"zero time means now", Meta{Status: Basic}, time.Time{}},
		{"UTC to the second", Meta{Status: Basic, ExtractedAt: time.Date(2026, 1, 2, 4, 4, 5, 999, local)}, when},
		{"same source", Meta{Source: "./x.go", Status: Basic, ExtractedAt: when}, when},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := s.Write("x.go", tc.in, nil); err != nil {
				t.Fatal(err)
			}
			m, err := s.ReadMeta("x.go")
			if err != nil {
				t.Fatal(err)
			}
			if m.Source != "x.go" {
				t.Errorf("Source = %q", m.Source)
			}
			if tc.want.IsZero() {
				if m.ExtractedAt.Before(before) || m.ExtractedAt.After(time.Now()) {
					t.Errorf("ExtractedAt = %v, want about now", m.ExtractedAt)
				}
			} else if m.ExtractedAt != tc.want {
				t.Errorf("ExtractedAt = %v, want %v", m.ExtractedAt, tc.want)
			}
		})
	}
	for _, tc := range []struct {
		name string
		in   Meta
	}{
		{"other source", Meta{Source: "y.go", Status: Basic}},
		{"no status", Meta{}},
		{"computed status", Meta{Status: Missing}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := s.Write("x.go", tc.in, nil); err == nil || !strings.HasPrefix(err.Error(), "artifacts: write x.go: ") {
				t.Errorf("Write(%+v) = %v, want an error", tc.in, err)
			}
		})
	}
}

func TestReadMissing(t *testing.T) {
	s, _ := newStore(t)
	if _, _, err := s.Read("a.go"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Read with no %s: %v, want fs.ErrNotExist", Dir, err)
	}
	mustWrite(t, s, "b.go", Basic, "")
	if _, _, err := s.Read("a.go"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Read: %v, want fs.ErrNotExist", err)
	}
	if _, err := s.ReadMeta("a.go"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadMeta: %v, want fs.ErrNotExist", err)
	}
}

func TestReadMalformed(t *testing.T) {
	s, root := newStore(t)
	mustWrite(t, s, "a.go", Basic, "")
	for name, content := range map[string]string{
		"a.go.md": "# no front matter\n",
		"b.go.md": strings.Replace(sampleHead, "src/graph/builder.ts", "b.go", 1) + "body",
		"c.go.md": sampleHead, // records another source
		"d.go.md": sampleHead[:60],
	} {
		os.WriteFile(filepath.Join(root, Dir, name), []byte(content), 0o644)
		source := strings.TrimSuffix(name, ".md")
		_, _, rerr := s.Read(source)
		_, merr := s.ReadMeta(source)
		if source == "b.go" {
			if rerr != nil || merr != nil {
				t.Errorf("%s: %v, %v; want no error", name, rerr, merr)
			}
			continue
		}
		if !errors.Is(rerr, ErrMalformed) || !errors.Is(merr, ErrMalformed) {
			t.Errorf("%s: Read: %v; ReadMeta: %v; want ErrMalformed", name, rerr, merr)
		}
	}
}

func TestRemove(t *testing.T) {
	s, root := newStore(t)
	if err := s.Remove("a/b/c.go"); err != nil {
		t.Errorf("Remove with no %s: %v", Dir, err)
	}
	mustWrite(t, s, "a/b/c.go", Basic, "")
	mustWrite(t, s, "a/d.go", Basic, "")
	if err := s.Remove("a/b/c.go"); err != nil {
		t.Fatal(err)
	}
	if err := s.Remove("a/b/c.go"); err != nil {
		t.Errorf("second Remove: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, Dir, "a", "b")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("empty directory a/b kept: %v", err)
	}
	expectFiles(t, root, "a/d.go.md")
	if err := s.Remove("a/d.go"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, Dir)); err != nil {
		t.Errorf("%s itself was removed: %v", Dir, err)
	}
	if err := s.Remove("../x.go"); err == nil {
		t.Error("Remove(../x.go) succeeded")
	}
}

func TestOpenRemovesStaleTemps(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, Dir)
	outside := t.TempDir()
	old := time.Now().Add(-time.Hour)
	files := map[string]bool{ // slash path under dir → whether Open removes it
		".artifact-3k9z2.tmp":               true,
		"a/b/.artifact-0.tmp":               true,
		".index/.artifact-zzzz.tmp":         true,
		"a/.artifact-fresh1.tmp":            false, // a concurrent writer's
		"a/.artifact-ABC.tmp":               false, // not a name createTemp makes
		".artifact-.tmp":                    false,
		".artifact-x.tmp.md":                false,
		"x.tmp":                             false,
		".index/.docsearch-123.tmp":         false,
		"a.go.md":                           false,
		".artifact-dir.tmp/keep.go.md":      false,
		"a/.artifact-toolongforauint64.tmp": false,
	}
	for p := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(p, "fresh") {
			os.Chtimes(full, old, old)
		}
	}
	os.Chtimes(filepath.Join(dir, ".artifact-dir.tmp"), old, old)
	// A link to a directory outside: nothing is removed through it.
	os.WriteFile(filepath.Join(outside, ".artifact-abc.tmp"), nil, 0o644)
	os.Chtimes(filepath.Join(outside, ".artifact-abc.tmp"), old, old)
	symlink(t, outside, filepath.Join(dir, "out"))
	symlink(t, filepath.Join(outside, ".artifact-abc.tmp"), filepath.Join(dir, ".artifact-link.tmp"))

	if _, err := Open(root); err != nil {
		t.Fatal(err)
	}
	var want []string
	for p, removed := range files {
		if !removed {
			want = append(want, p)
		}
	}
	want = append(want, "out", ".artifact-link.tmp")
	expectFiles(t, root, want...)
	if _, err := os.Stat(filepath.Join(outside, ".artifact-abc.tmp")); err != nil {
		t.Errorf("a temporary file outside was removed: %v", err)
	}
}

func TestOpenWithoutArtifactDir(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, Dir), []byte("a file"), 0o644)
	if _, err := Open(root); err != nil {
		t.Errorf("Open with %s a file: %v", Dir, err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, Dir)); string(b) != "a file" {
		t.Errorf("%s changed to %q", Dir, b)
	}
}

// oddNames are legal file names that quoting, escaping or path mapping
// could mangle.
var oddNames = []string{
	" lead.go", "trail.go ", `back\slash.go`, `dir\with\backslashes/x.go`, "-dash.go", "--.go",
	"ünïcödé/😀.go", "a#b.go", "a%41.go", "100%.go", "a b/c d.go", "quote\"s.go", "tab\tx.go",
	"new\nline.go", "colon:x.go", "star*?.go", "[x].go", "{a,b}.go", "~home.go", "$VAR.go",
	".hidden.go", "..dots.go", "x.go.md", "\u2028sep.go", "\u00a0nbsp.go",
}

func TestOddNames(t *testing.T) {
	s, root := newStore(t)
	now := Fingerprint{SourceSHA256: "s", CallersDigest: "c"}
	var want []string
	for i, name := range oddNames {
		body := fmt.Sprintf("# %d\n", i)
		if err := s.Write(name, Meta{Fingerprint: now, Status: Enriched}, []byte(body)); err != nil {
			t.Errorf("Write(%q): %v", name, err)
			continue
		}
		want = append(want, name)
		m, got, err := s.Read(name)
		if err != nil || string(got) != body || m.Source != name {
			t.Errorf("Read(%q) = %+v, %q, %v", name, m, got, err)
		}
		if st, err := s.Status(name, now); st != Enriched || err != nil {
			t.Errorf("Status(%q) = %q, %v", name, st, err)
		}
		p, _ := s.Path(name)
		if _, err := os.Stat(p); err != nil || p != filepath.Join(root, Dir, filepath.FromSlash(name)+".md") {
			t.Errorf("Path(%q) = %q: %v", name, p, err)
		}
	}
	slices.Sort(want)
	var got []string
	for _, e := range list(t, s) {
		if e.Err != nil || e.Meta.Status != Enriched {
			t.Errorf("List: %q: %+v, %v", e.Source, e.Meta, e.Err)
		}
		got = append(got, e.Source)
	}
	if !slices.Equal(got, want) {
		t.Errorf("List = %q\nwant %q", got, want)
	}
	for _, name := range oddNames {
		if err := s.Remove(name); err != nil {
			t.Errorf("Remove(%q): %v", name, err)
		}
	}
	expectFiles(t, root)
}

// TestGitignore checks that the first artifact brings a .gitignore that
// keeps the index and temporary files out of commits, and that one the
// user wrote is kept.
func TestGitignore(t *testing.T) {
	root := t.TempDir()
	s, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Write("a.go", Meta{Status: Basic}, []byte("# a.go\n")); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, Dir, ".gitignore"))
	if err != nil || !strings.Contains(string(data), "\n.index/\n") || !strings.Contains(string(data), ".artifact-*.tmp") {
		t.Fatalf(".gitignore %q, %v", data, err)
	}
	mine := filepath.Join(root, Dir, ".gitignore")
	if err := os.WriteFile(mine, []byte("*\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteGitignore(); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(mine); string(data) != "*\n" {
		t.Errorf("the user's .gitignore became %q", data)
	}
	list, err := s.List(context.Background())
	if err != nil || len(list) != 1 {
		t.Errorf("List = %v, %v: want only a.go", list, err)
	}
}
