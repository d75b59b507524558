package server

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/internal/watch"
)

func TestIndexStatus(t *testing.T) {
	s := watched(t, shop)
	var fi fileInfoOut
	var rep reportOut
	s.ok("file_info", map[string]any{"path": "main.go"}, &fi)
	s.ok("file_info", map[string]any{"path": "lib/store.go"}, &fi)
	s.ok("report_file_info", storeReport(), &rep)
	var st indexStatusOut
	res := s.ok("index_status", map[string]any{}, &st)
	if st.Loading || st.Files != 2 || st.Symbols < 5 || st.Edges != 3 || st.Root != s.srv.workspace().root {
		t.Errorf("index_status = %+v", st)
	}
	if st.Artifacts["enriched"] != 1 || st.Artifacts["basic"] != 1 || st.Watch.Mode != watch.Events || st.LastUpdate.IsZero() {
		t.Errorf("index_status = %+v", st)
	}
	if !strings.Contains(text(res), "1 enriched, 1 basic, 0 stale") {
		t.Errorf("text: %s", text(res))
	}
	s.fails("index_status", map[string]any{"verbose": true}, "verbose")
}

func TestGitHead(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := t.TempDir()
	git := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if got := gitHead(root); got != "" {
		t.Errorf("gitHead of a plain directory = %q", got)
	}
	git(root, "init", "-q", "-b", "main")
	if got := gitHead(root); got != "" {
		t.Errorf("gitHead before the first commit = %q", got)
	}
	writeTree(t, root, map[string]string{"a.go": "package a\n"})
	git(root, "add", ".")
	git(root, "commit", "-qm", "one")
	want := git(root, "rev-parse", "HEAD")
	if got := gitHead(root); got != want {
		t.Errorf("gitHead = %q, want %q", got, want)
	}
	git(root, "pack-refs", "--all")
	if got := gitHead(root); got != want {
		t.Errorf("gitHead with packed refs = %q, want %q", got, want)
	}
	wt := filepath.Join(t.TempDir(), "wt")
	git(root, "worktree", "add", "-q", "-b", "other", wt)
	if got := gitHead(wt); got != want {
		t.Errorf("gitHead of a worktree = %q, want %q", got, want)
	}
	git(root, "checkout", "-q", "--detach")
	if got := gitHead(root); got != want {
		t.Errorf("gitHead detached = %q, want %q", got, want)
	}
}
