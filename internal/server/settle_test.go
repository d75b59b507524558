package server

import (
	"strings"
	"sync"
	"testing"
	"time"
)

// TestFetchReportAtOnce: the doc index learns of a report's artifact in
// the background; fetch_doc and doc_outline right after the report wait
// for it rather than answer that no such document exists. The test holds
// the doc index's update until both calls have started.
func TestFetchReportAtOnce(t *testing.T) {
	release := make(chan struct{})
	var once sync.Once
	hooks := &testHooks{docs: func(paths []string) {
		for _, p := range paths {
			if strings.HasSuffix(p, "store.go.md") {
				<-release
			}
		}
	}}
	s := connect(t, shop, Options{NoWatch: true, hooks: hooks})
	defer once.Do(func() { close(release) })
	var listed listDocsOut
	s.ok("list_docs", map[string]any{}, &listed) // the doc index is open: the artifact comes as a change
	var rep reportOut
	s.ok("report_file_info", storeReport(), &rep)
	time.AfterFunc(300*time.Millisecond, func() { once.Do(func() { close(release) }) })
	for _, c := range []struct{ tool, want string }{
		{"fetch_doc", "Holds integers by key."},
		{"doc_outline", "Store"},
	} {
		res := s.call(c.tool, map[string]any{"path": ".artifacts/lib/store.go.md"})
		if res.IsError || !strings.Contains(text(res), c.want) {
			t.Errorf("%s right after the report: %s", c.tool, text(res))
		}
	}
}
