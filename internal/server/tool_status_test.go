package server

import (
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fileinfo/fileinfo/extract"

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

// skippedReason returns the reason index_status gives for skipping p, or
// "" when it does not list p.
func skippedReason(st indexStatusOut, p string) string {
	for _, sk := range st.SkippedPaths {
		if sk.Path == p {
			return sk.Reason
		}
	}
	return ""
}

// TestSkippedFollowsWatchedChanges: index_status lists the files left
// out, with reasons, as the watcher sees them come and go; internal
// errors come first and are logged once per change.
func TestSkippedFollowsWatchedChanges(t *testing.T) {
	var logs logBuffer
	var broken atomic.Bool
	hooks := &testHooks{graphSkipped: func(sk []extract.Skipped) []extract.Skipped {
		if broken.Load() {
			sk = append(sk, extract.Skipped{Path: "main.go", Reason: "internal error while resolving calls: test"})
		}
		return sk
	}}
	files := map[string]string{"notes.txt": "notes\n", "z/blob.go": "package z\n\x00\x01"}
	maps.Copy(files, shop)
	s := watchedWith(t, files, Options{Logger: slog.New(slog.NewTextHandler(&logs, nil)), hooks: hooks})
	status := func() indexStatusOut {
		var st indexStatusOut
		s.ok("index_status", map[string]any{}, &st)
		return st
	}
	st := status()
	if skippedReason(st, "notes.txt") != "unknown language" || !strings.Contains(skippedReason(st, "z/blob.go"), "binary") || st.Skipped != len(st.SkippedPaths) {
		t.Fatalf("skipped at start: %d %+v", st.Skipped, st.SkippedPaths)
	}

	writeTree(t, s.root, map[string]string{"z/blob.go": "package z\n\nfunc B() {}\n", "lib/bad.go": "package lib\n\x00"})
	if err := os.Remove(filepath.Join(s.root, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the skipped list to follow", func() bool {
		st = status()
		return skippedReason(st, "z/blob.go") == "" && skippedReason(st, "notes.txt") == "" && strings.Contains(skippedReason(st, "lib/bad.go"), "binary")
	})
	if st.Skipped != len(st.SkippedPaths) {
		t.Errorf("skipped %d, listed %+v", st.Skipped, st.SkippedPaths)
	}

	// A file the call graph could not resolve: listed first, logged once
	// when a change brings it, not on every look nor on other changes.
	broken.Store(true)
	writeTree(t, s.root, map[string]string{"main.go": shop["main.go"] + "\n// touched\n"})
	const warning = "level=WARN msg=\"file skipped for an internal error\" path=main.go"
	waitFor(t, "the warning", func() bool { return strings.Contains(logs.String(), warning) })
	res := s.ok("index_status", map[string]any{}, &st)
	if len(st.SkippedPaths) == 0 || st.SkippedPaths[0].Path != "main.go" {
		t.Errorf("the internal error is not listed first: %+v", st.SkippedPaths)
	}
	if !strings.Contains(text(res), "main.go: internal error while resolving calls: test") {
		t.Errorf("the text does not show the internal error:\n%s", text(res))
	}
	writeTree(t, s.root, map[string]string{"lib/store.go": shop["lib/store.go"] + "\n// touched\n"})
	waitFor(t, "another batch", func() bool { return strings.Count(logs.String(), "workspace updated") >= 3 })
	status()
	if n := strings.Count(logs.String(), warning); n != 1 {
		t.Errorf("%d warnings for main.go, want 1:\n%s", n, logs.String())
	}
	broken.Store(false)
	writeTree(t, s.root, map[string]string{"main.go": shop["main.go"]})
	waitFor(t, "the internal error to go", func() bool { return skippedReason(status(), "main.go") == "" })
}
