package server

import (
	"fmt"
	"sync"
	"testing"
)

// TestConcurrentCalls runs file_info, report_file_info and inspect_source
// from several goroutines while files change under them (run with -race).
func TestConcurrentCalls(t *testing.T) {
	s := connect(t, shop, Options{})
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Go(func() {
			for i := range 10 {
				switch (g + i) % 4 {
				case 0:
					s.call("file_info", map[string]any{"path": "lib/store.go", "refresh": true})
				case 1:
					s.call("report_file_info", storeReport())
				case 2:
					s.call("inspect_source", map[string]any{"path": "main.go", "start_line": 1, "end_line": 5})
				case 3:
					// Editing main.go changes lib/store.go's callers.
					writeTree(t, s.root, map[string]string{"main.go": shop["main.go"] + fmt.Sprintf("\nfunc f%d() { _ = 0 }\n", g*100+i)})
					s.call("file_info", map[string]any{"path": "main.go"})
				}
			}
		})
	}
	wg.Wait()
	var fi fileInfoOut
	s.ok("file_info", map[string]any{"path": "lib/store.go", "refresh": true}, &fi)
	if fi.Status != statusPromptReady || len(fi.Symbols) != 4 {
		t.Errorf("after concurrent calls: %+v", fi)
	}
}
