package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

var lookupTree = map[string]string{
	"pkg/__init__.py": "",
	"pkg/scaffold.py": "class Scaffold:\n    def register_blueprint(self, bp):\n        \"\"\"Register a blueprint. More.\"\"\"\n        self.record(bp)\n\n    def record(self, bp):\n        pass\n",
	"pkg/app.py": "from pkg.scaffold import Scaffold\n\nclass Flask(Scaffold):\n    def run(self):\n        self.register_blueprint(None)\n\n" +
		"class Other:\n    def run(self):\n        pass\n",
}

func TestFindSymbol(t *testing.T) {
	s := connect(t, lookupTree, Options{})
	s.srv.workspace().wait(context.Background()) // the loaded graph's answers, not a scan's while loading
	var out findSymbolOut
	res := s.ok("find_symbol", map[string]any{"query": "Flask.register_blueprint"}, &out)
	if len(out.Symbols) != 1 || out.Symbols[0].Qualified != "pkg.scaffold.Scaffold.register_blueprint" || out.Symbols[0].Match != "inherited" ||
		out.Symbols[0].Doc != "Register a blueprint." || !strings.Contains(text(res), "pkg/scaffold.py:2-") {
		t.Errorf("inherited: %+v\n%s", out, text(res))
	}
	s.ok("find_symbol", map[string]any{"query": "registr_blueprint"}, &out)
	if !out.Fuzzy || len(out.Symbols) == 0 || out.Symbols[0].Qualified != "pkg.scaffold.Scaffold.register_blueprint" {
		t.Errorf("near name: %+v", out)
	}
	s.ok("find_symbol", map[string]any{"query": "run", "kind": "method"}, &out)
	if out.Total != 2 {
		t.Errorf("run: %+v", out)
	}
	s.fails("find_symbol", map[string]any{"query": "qqqqqqqqq"}, "no symbol matches")
	s.fails("find_symbol", map[string]any{"query": "run", "kind": "func"}, "unknown kind", "function")
	s.fails("find_symbol", map[string]any{"query": "run", "limit": 101}, "limit: 101 is out of range; want an integer from 1 to 100")
	s.fails("find_symbol", map[string]any{"query": "run", "cursor": "bogus"}, "not a next_cursor")
}

func TestCallersCallees(t *testing.T) {
	s := connect(t, lookupTree, Options{})
	s.srv.workspace().wait(context.Background()) // the loaded graph's answers, not a scan's while loading
	var out treeOut
	res := s.ok("callers", map[string]any{"symbol": "record", "depth": 2}, &out)
	want := "pkg.scaffold.Scaffold.record (method) pkg/scaffold.py:6\n" +
		"  <- pkg.scaffold.Scaffold.register_blueprint (pkg/scaffold.py:4) [receiver]\n" +
		"    <- pkg.app.Flask.run (pkg/app.py:5) [inherited]\n"
	if text(res) != want || out.Total != 2 || out.Calls[1].Site != "pkg/app.py:5" || out.Calls[1].Resolution != "inherited" {
		t.Errorf("callers:\n%s\nwant\n%s\n%+v", text(res), want, out)
	}
	s.ok("callees", map[string]any{"symbol": "pkg/app.py:Flask.run"}, &out)
	if len(out.Calls) != 1 || out.Calls[0].Symbol != "pkg.scaffold.Scaffold.register_blueprint" || out.Calls[0].Path != "pkg/scaffold.py" {
		t.Errorf("callees: %+v", out)
	}
	s.fails("callers", map[string]any{"symbol": "run"}, "ambiguous", "pkg.app.Flask.run (method) pkg/app.py:4", "pkg.app.Other.run (method) pkg/app.py:8")
	s.fails("callers", map[string]any{"symbol": "recrod"}, "no symbol \"recrod\"", "pkg.scaffold.Scaffold.record")
	s.fails("callees", map[string]any{"symbol": "record", "depth": 6}, "depth: 6 is out of range; want an integer from 1 to 5")
	s.fails("callees", map[string]any{"symbol": "record", "depth": -1}, "depth: -1 is out of range; want an integer from 1 to 5")
}

// TestLookupPages checks every page stays within the budget and the
// cursors walk all results once.
func TestLookupPages(t *testing.T) {
	var b strings.Builder
	for i := range 300 {
		fmt.Fprintf(&b, "class Handler%03d:\n    def run(self, request, response, context, options=None):\n        \"\"\"%s\"\"\"\n        return hub()\n\n", i, strings.Repeat("Handle a request ", 12))
	}
	b.WriteString("def hub():\n    pass\n")
	s := connect(t, map[string]string{"h.py": b.String()}, Options{})
	s.srv.workspace().wait(context.Background())
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"find_symbol", map[string]any{"query": "run", "limit": 100}},
		{"callers", map[string]any{"symbol": "hub", "limit": 200}},
	} {
		seen := 0
		total := -1
		for pages := 0; ; pages++ {
			res := s.call(tc.tool, tc.args)
			if res.IsError {
				t.Fatalf("%s: %s", tc.tool, text(res))
			}
			js, _ := json.Marshal(res.StructuredContent)
			if n := len(text(res)) + len(js); n > 8000 {
				t.Errorf("%s page %d: %d bytes, over the ~2,000-token budget", tc.tool, pages, n)
			}
			var out struct {
				Symbols, Calls []json.RawMessage
				Total          int
				NextCursor     string `json:"next_cursor"`
			}
			json.Unmarshal(js, &out)
			seen += len(out.Symbols) + len(out.Calls)
			total = out.Total
			if out.NextCursor == "" {
				break
			}
			tc.args["cursor"] = out.NextCursor
		}
		if seen != total || total < 300 {
			t.Errorf("%s: %d results over the pages, total %d", tc.tool, seen, total)
		}
	}
}
