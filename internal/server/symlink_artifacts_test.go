package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSymlinkedArtifactsDir: a checkout whose .artifacts is a symbolic
// link to a directory outside the root gets prompts, but the artifact
// store writes nothing through the link, and the errors say why. (The doc
// index, which keeps its own files under .artifacts/.index, is off.)
func TestSymlinkedArtifactsDir(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	writeTree(t, root, shop)
	if err := os.Symlink(outside, filepath.Join(root, ".artifacts")); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	s := reconnect(t, &session{root: root}, Options{NoDocs: true})
	var fi fileInfoOut
	res := s.ok("file_info", map[string]any{"path": "lib/store.go"}, &fi)
	if fi.Status != statusPromptReady || !strings.Contains(text(res), "symbolic link") {
		t.Errorf("file_info = %+v\n%s", fi, text(res)[max(0, len(text(res))-300):])
	}
	s.fails("report_file_info", storeReport(), "symbolic link")
	s.fails("index_status", map[string]any{}, "symbolic link")
	s.srv.Close()
	var found []string
	filepath.WalkDir(outside, func(p string, d os.DirEntry, err error) error {
		if p != outside {
			found = append(found, p)
		}
		return nil
	})
	if len(found) > 0 {
		t.Errorf("written outside the root through .artifacts: %q", found)
	}
}
