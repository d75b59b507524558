package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPathsAreConfined sends every tool paths that leave the workspace
// and files that must not be shown; each is refused, and nothing outside
// the root is read or written.
func TestPathsAreConfined(t *testing.T) {
	outside := t.TempDir()
	secret := "TOP SECRET outside the workspace"
	writeTree(t, outside, map[string]string{"secret.go": "package secret\n// " + secret + "\nfunc S() {}\n"})
	files := map[string]string{
		"go.mod":      "module example.com/w\n",
		"a.go":        "package w\nfunc A() {}\n",
		"bin.go":      "package w\x00\x01\x02",
		"latin1.go":   "package w\n// caf\xe9\nfunc L() {}\n",
		"dir/keep.go": "package dir\n",
	}
	s := connect(t, files, Options{MaxFileSize: 1 << 10})
	writeTree(t, s.root, map[string]string{"huge.go": "package w\n//" + strings.Repeat("x", 2<<10) + "\n"})
	for _, link := range []struct{ name, target string }{
		{"escape.go", filepath.Join(outside, "secret.go")},
		{"escapedir", outside},
		{"rel.go", "../" + filepath.Base(outside) + "/secret.go"},
	} {
		if err := os.Symlink(link.target, filepath.Join(s.root, link.name)); err != nil {
			t.Fatal(err)
		}
	}
	refused := []struct{ path, why string }{
		{"../" + filepath.Base(outside) + "/secret.go", "outside the workspace"},
		{filepath.Join(outside, "secret.go"), "outside the workspace"},
		{"/etc/passwd", "outside the workspace"},
		{"escape.go", "symlink escapes"},
		{"escapedir/secret.go", "symlink escapes"},
		{"rel.go", "symlink escapes"},
		{"", "path is empty"},
		{"a.go\x00", "NUL"},
		{".", "not a file"},
		{"dir", "directory"},
		{"missing.go", "no such file"},
		{"bin.go", "binary"},
		{"latin1.go", "not UTF-8"},
		{"huge.go", "too large"},
	}
	report := func(p string) map[string]any {
		return map[string]any{"path": p, "overview": "x", "functions": []any{}}
	}
	for _, tc := range refused {
		for tool, args := range map[string]map[string]any{
			"file_info":        {"path": tc.path},
			"report_file_info": report(tc.path),
			"inspect_source":   {"path": tc.path, "start_line": 1, "end_line": 3},
		} {
			msg := s.fails(tool, args, tc.why)
			if strings.Contains(msg, secret) {
				t.Errorf("%s(%q) leaked content from outside the workspace: %s", tool, tc.path, msg)
			}
		}
	}
	// An absolute path inside the root is fine.
	var out inspectOut
	s.ok("inspect_source", map[string]any{"path": filepath.Join(s.root, "a.go"), "start_line": 1, "end_line": 1}, &out)
	if out.Path != "a.go" || out.Text != "1\tpackage w\n" {
		t.Errorf("absolute path inside the root: %+v", out)
	}
	// Nothing was written outside the root, and no artifact for a refused path.
	entries, _ := os.ReadDir(outside)
	if len(entries) != 1 {
		t.Errorf("the outside directory now holds %d entries", len(entries))
	}
	for _, p := range []string{".artifacts/escape.go.md", ".artifacts/bin.go.md", ".artifacts/etc"} {
		if s.exists(p) {
			t.Errorf("%s was written", p)
		}
	}
}

// TestArtifactSymlinkOutIsRefused plants a symbolic link inside
// .artifacts that leads outside: reports must not write through it.
func TestArtifactSymlinkOutIsRefused(t *testing.T) {
	outside := t.TempDir()
	s := connect(t, shop, Options{})
	if err := os.MkdirAll(filepath.Join(s.root, ".artifacts"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(s.root, ".artifacts", "lib")); err != nil {
		t.Fatal(err)
	}
	s.fails("report_file_info", storeReport(), "write the artifact")
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("a report wrote %d files outside the workspace", len(entries))
	}
}
