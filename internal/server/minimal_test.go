package server

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestNoBlockTwice calls every tool on a documented fixture and checks
// that no answer says a thing twice: no paragraph of its text repeats, no
// prose of the report appears more than once in its text content or more
// than once in its structured content (a client reads one of the two: the
// specification asks a tool for both), and an up-to-date file_info is the
// artifact without its machine record.
func TestNoBlockTwice(t *testing.T) {
	files := map[string]string{
		"README.md": "# Shop\n\nShop keeps integers by key for the command in main.go.\n\n## Store\n\nSee lib/store.go for the Store type and its methods.\n",
	}
	for p, c := range shop {
		files[p] = c
	}
	s := connect(t, files, Options{})
	// With the code scope complete, a question finds the code documents
	// too, which carry the artifact's prose.
	waitFor(t, "the code index", func() bool { return s.srv.workspace().code.complete() })
	var rep reportOut
	s.ok("report_file_info", storeReport(), &rep)
	prose := []string{"Defines Store, an in-memory map of integers by key", "Returns an empty Store.", "Holds integers by key.",
		"Sets a key's value.", "Returns a key's value.", "Allocate a Store with an empty map."}
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"file_info", map[string]any{"path": "lib/store.go"}},
		{"file_info", map[string]any{"path": "main.go"}},
		{"file_info", map[string]any{"path": "lib/store.go", "refresh": true}},
		{"inspect_source", map[string]any{"path": "lib/store.go", "start_line": 1, "end_line": 12}},
		{"index_status", map[string]any{}},
		{"find_symbol", map[string]any{"query": "Store"}},
		{"callers", map[string]any{"symbol": "NewStore"}},
		{"callees", map[string]any{"symbol": "main"}},
		{"search_docs", map[string]any{"query": "integers by key"}},
		{"fetch_doc", map[string]any{"path": ".artifacts/lib/store.go.md"}},
		{"fetch_doc", map[string]any{"path": "README.md"}},
		{"list_docs", map[string]any{}},
		{"doc_outline", map[string]any{"path": ".artifacts/lib/store.go.md"}},
		{"ask_docs", map[string]any{"question": "What does Store hold?"}},
		{"report_file_info", storeReport()},
	}
	for _, c := range calls {
		res := s.call(c.tool, c.args)
		if res.IsError {
			t.Errorf("%s(%v) failed: %s", c.tool, c.args, text(res))
			continue
		}
		txt := text(res)
		structured, _ := json.Marshal(res.StructuredContent)
		seen := map[string]bool{}
		for _, para := range strings.Split(txt, "\n\n") {
			para = strings.TrimSpace(para)
			if len(para) < 40 {
				continue
			}
			if seen[para] {
				t.Errorf("%s(%v) says this twice:\n%s", c.tool, c.args, para)
			}
			seen[para] = true
		}
		for _, p := range prose {
			if n := strings.Count(txt, p); n > 1 {
				t.Errorf("%s(%v) carries %q %d times in its text", c.tool, c.args, p, n)
			}
			if n := strings.Count(string(structured), p); n > 1 {
				t.Errorf("%s(%v) carries %q %d times in its structured content", c.tool, c.args, p, n)
			}
		}
		if c.tool == "file_info" && !strings.Contains(txt, "prompt") && strings.Contains(txt, "fileinfo:report") {
			t.Errorf("%s(%v) hands the model the artifact's machine record", c.tool, c.args)
		}
	}
}
