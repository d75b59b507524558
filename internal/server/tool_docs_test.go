package server

import (
	"context"
	"maps"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// docsRepo is shop with a README and a docs page.
func docsRepo() map[string]string {
	files := maps.Clone(shop)
	files["README.md"] = "# Shop\n\nA tiny shop that keeps prices in a Store.\n\n## Install\n\nRun `go install ./...` to build the command.\n\nSee [the guide](docs/guide.md).\n"
	files["docs/guide.md"] = "# Guide\n\n## Pricing\n\nPrices are integers in cents. Use `Store.Put` to set one.\n\n```go\ns := lib.NewStore()\ns.Put(\"apple\", 120)\n```\n\n## Troubleshooting\n\nError `negative price` means a price below zero was given.\n"
	return files
}

func TestDocsTools(t *testing.T) {
	s := connect(t, docsRepo(), Options{})
	var out searchDocsOut
	s.ok("search_docs", map[string]any{"query": "how do I install the command"}, &out)
	if len(out.Results) == 0 || out.Results[0].Path != "README.md" {
		t.Errorf("search_docs(install) = %+v", out)
	}
	s.ok("search_docs", map[string]any{"query": "negative price error", "scopes": []string{"docs"}}, &out)
	if len(out.Results) == 0 || out.Results[0].Path != "docs/guide.md" || len(out.ResultsByScope["docs"]) == 0 {
		t.Errorf("search_docs(error, scopes docs) = %+v", out)
	}
	s.ok("search_docs", map[string]any{"query": "zyxwvut qqqq"}, &out)
	if len(out.Results) != 0 || !strings.Contains(out.Message, "No matching documents found") {
		t.Errorf("search_docs(nonsense) = %+v", out)
	}
	s.fails("search_docs", map[string]any{"query": "x", "scopes": []string{"nope"}}, "nope", "docs")
	s.fails("search_docs", map[string]any{"query": "   "}, "empty")
	s.fails("search_docs", map[string]any{"query": strings.Repeat("word ", 2000)}, "too long")
	s.fails("search_docs", map[string]any{"query": "x", "min_score": 2}, "min_score")
	s.fails("search_docs", map[string]any{"query": "x", "content_type": "poetry"}, "content_type")

	var doc struct{ Content, Path string }
	s.ok("fetch_doc", map[string]any{"path": "docs/guide.md", "heading": "Pricing"}, &doc)
	if !strings.HasPrefix(doc.Content, "<!-- Source: docs/guide.md") || !strings.Contains(doc.Content, "s.Put(\"apple\", 120)") || strings.Contains(doc.Content, "Troubleshooting") {
		t.Errorf("fetch_doc(guide, Pricing):\n%s", doc.Content)
	}
	s.fails("fetch_doc", map[string]any{"path": "docs/guid.md"}, "docs/guide.md")
	s.fails("fetch_doc", map[string]any{"path": "../../etc/passwd"}, "no document")

	var list listDocsOut
	s.ok("list_docs", map[string]any{"scope": "docs"}, &list)
	if len(list.Docs) != 2 {
		t.Errorf("list_docs(docs) = %+v", list)
	}
	var outline docOutlineOut
	s.ok("doc_outline", map[string]any{"path": "docs/guide.md"}, &outline)
	if len(outline.Headings) != 3 || outline.Headings[1].Text != "Pricing" || outline.Headings[1].Level != 2 || outline.Headings[1].Line != 3 {
		t.Errorf("doc_outline = %+v", outline)
	}
	res, err := s.cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "docs://list"})
	if err != nil || !strings.Contains(res.Contents[0].Text, "docs/guide.md") {
		t.Errorf("docs://list: %v %v", res, err)
	}
	if d := s.cs.InitializeResult().ServerInfo.Description; !strings.Contains(d, "Indexed") {
		t.Errorf("server info description %q", d)
	}
}

// TestReportIsSearchable: an artifact written by report_file_info is found
// by search_docs moments later, and an edited README after the watcher
// sees it.
func TestReportIsSearchable(t *testing.T) {
	s := watched(t, docsRepo())
	var fi fileInfoOut
	var rep reportOut
	s.ok("file_info", map[string]any{"path": "lib/store.go"}, &fi)
	r := storeReport()
	r["overview"] = "Defines Store, the quartermaster ledger of integers by key."
	s.ok("report_file_info", r, &rep)
	waitFor(t, "the report to be searchable", func() bool {
		var out searchDocsOut
		s.ok("search_docs", map[string]any{"query": "quartermaster ledger", "scopes": []string{"artifacts"}}, &out)
		return len(out.Results) > 0 && out.Results[0].Path == ".artifacts/lib/store.go.md"
	})
	writeTree(t, s.root, map[string]string{"README.md": "# Shop\n\nNow with a zeppelin hangar.\n"})
	waitFor(t, "the edited README to be searchable", func() bool {
		var out searchDocsOut
		s.ok("search_docs", map[string]any{"query": "zeppelin hangar"}, &out)
		return len(out.Results) > 0 && out.Results[0].Path == "README.md"
	})
	var st indexStatusOut
	s.ok("index_status", map[string]any{}, &st)
	if st.Docs < 3 || st.Chunks < 3 {
		t.Errorf("index_status docs %d chunks %d", st.Docs, st.Chunks)
	}
}

// TestCloseWaitsForDocUpdates: a report's doc index update may be saving
// the index under .artifacts when the server closes; Close waits for it,
// and no update starts afterwards.
func TestCloseWaitsForDocUpdates(t *testing.T) {
	s := connect(t, docsRepo(), Options{})
	var fi fileInfoOut
	var rep reportOut
	s.ok("file_info", map[string]any{"path": "lib/store.go"}, &fi)
	s.ok("report_file_info", storeReport(), &rep)
	ws := s.srv.workspace()
	s.srv.Close()
	ws.docsChanged([]string{"README.md"})
	ws.docsMu.Lock()
	busy := ws.docsBusy
	ws.docsMu.Unlock()
	if busy {
		t.Error("a doc index update still runs after Close")
	}
}
