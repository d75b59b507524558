//go:build linux

package server

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocIndexSpillsAfterChange checks that a restarted server's doc
// index, loaded from its file, keeps what its first change decodes past
// docsSpillBytes (texts, vectors, postings) in a scratch file of the
// index's directory, mapped and unlinked, not on the heap.
func TestDocIndexSpillsAfterChange(t *testing.T) {
	defer func(n int64) { docsSpillBytes = n }(docsSpillBytes)
	docsSpillBytes = 1
	logs := &logBuffer{}
	opt := func() Options { return Options{NoWatch: true, Logger: slog.New(slog.NewTextHandler(logs, nil))} }
	s := connect(t, shop, opt())
	waitFor(t, "the code index", func() bool { return strings.Contains(logs.String(), `msg="code indexed"`) })
	s.srv.Close()
	writeTree(t, s.root, map[string]string{"lib/store.go": shop["lib/store.go"] + "\nfunc Extra() {}\n"})
	logs = &logBuffer{}
	s = reconnect(t, s, opt())
	if _, err := s.srv.ready(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the changed file's code", func() bool { return strings.Contains(logs.String(), `msg="code indexed" files=1`) })
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Skip("no /proc/self/maps:", err)
	}
	dir := filepath.Join(s.root, ".artifacts", ".index") + "/"
	for _, line := range strings.Split(string(maps), "\n") {
		if strings.Contains(line, dir) && strings.HasSuffix(line, "(deleted)") {
			return
		}
	}
	t.Errorf("no spill of the doc index mapped after its first change (no unlinked file of %s in /proc/self/maps)", dir)
}
