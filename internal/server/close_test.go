package server

import (
	"io/fs"
	"path/filepath"
	"testing"
	"time"
)

// TestNothingWrittenAfterClose: a server closed while its first load
// (which saves the graph under .artifacts/.index) runs writes nothing
// into the workspace afterwards.
func TestNothingWrittenAfterClose(t *testing.T) {
	for range 5 {
		s := connect(t, shop, Options{})
		s.srv.Close()
		list := func() map[string]bool {
			m := map[string]bool{}
			filepath.WalkDir(s.root, func(p string, _ fs.DirEntry, _ error) error { m[p] = true; return nil })
			return m
		}
		before := list()
		time.Sleep(200 * time.Millisecond)
		for p := range list() {
			if !before[p] {
				t.Errorf("written after Close: %s", p)
			}
		}
	}
}
