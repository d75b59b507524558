package server

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/docsearch"
)

// codeHit returns the first code result of query, or nil.
func codeHit(s *session, query string) *docsearch.Result {
	var out searchDocsOut
	s.ok("search_docs", map[string]any{"query": query, "scopes": []string{"code"}, "min_score": 0}, &out)
	for _, r := range out.ResultsByScope["code"] {
		return &r
	}
	return nil
}

func TestCodeSearchFollowsSavesAndReports(t *testing.T) {
	s := watched(t, shop)
	waitFor(t, "the first code index", func() bool {
		r := codeHit(s, "NewStore")
		return r != nil && r.Symbol == "example.com/shop/lib.NewStore"
	})
	r := codeHit(s, "NewStore")
	if r.Path != "lib/store.go" || r.Lines != [2]int{7, 7} || r.Kind != "function" || r.Summary != "NewStore returns an empty Store." {
		t.Errorf("result %+v", *r)
	}

	// A saved file's new symbol becomes searchable, with no tool call (how
	// soon is BenchmarkSaveToFileInfo's to measure).
	writeTree(t, s.root, map[string]string{"lib/store.go": shop["lib/store.go"] + "\n// Discount lowers every price by a percentage.\nfunc Discount(s *Store, pct int) {}\n"})
	waitFor(t, "a saved symbol searchable", func() bool {
		r := codeHit(s, "discount percentage")
		return r != nil && strings.HasSuffix(r.Symbol, ".Discount")
	})

	// A report's prose joins its symbols.
	var rep reportOut
	s.ok("report_file_info", storeReport(), &rep)
	waitFor(t, "reported prose searchable", func() bool {
		r := codeHit(s, "assign value map key")
		return r != nil && strings.HasSuffix(r.Symbol, "Store.Put") && r.Summary == "Sets a key's value."
	})
}

func TestSearchDocsShowsCode(t *testing.T) {
	s := connect(t, shop, Options{NoWatch: true})
	var out searchDocsOut
	var res string
	waitFor(t, "the first code index", func() bool {
		res = text(s.ok("search_docs", map[string]any{"query": "NewStore", "min_score": 0}, &out))
		return len(out.Results) > 0 && out.Results[0].DocPath != "" // from the code index, not by name alone
	})
	if !strings.Contains(res, "lib/store.go:7-7 function example.com/shop/lib.NewStore (code") || !strings.Contains(res, "func NewStore() *Store") {
		t.Errorf("search_docs text:\n%s", res)
	}
	var doc docsearch.Doc
	s.ok("fetch_doc", map[string]any{"path": out.Results[0].DocPath}, &doc)
	if !strings.Contains(doc.Content, "func NewStore()") {
		t.Errorf("fetch_doc of %s: %q", out.Results[0].DocPath, doc.Content)
	}
}

// TestCodeIndexSkipsUnchanged: a second start indexes the code of no
// file, the saved index holding every file as of its source and
// artifact; a file edited, or an artifact written, between starts is
// indexed again, alone.
func TestCodeIndexSkipsUnchanged(t *testing.T) {
	logs := &logBuffer{}
	s := connect(t, shop, Options{NoWatch: true, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	indexed := func(want string) {
		t.Helper()
		waitFor(t, "the code index", func() bool { return strings.Contains(logs.String(), `msg="code indexed"`) })
		if !strings.Contains(logs.String(), `msg="code indexed" `+want) {
			t.Errorf("want code indexed %s:\n%s", want, logs.String())
		}
	}
	indexed(fmt.Sprintf("files=%d", len(shop)-1)) // all but go.mod
	s.srv.Close()
	restart := func() {
		logs = &logBuffer{}
		s = reconnect(t, s, Options{NoWatch: true, Logger: slog.New(slog.NewTextHandler(logs, nil))})
		if _, err := s.srv.ready(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
	}
	restart()
	indexed("files=0")
	s.srv.Close()
	writeTree(t, s.root, map[string]string{"lib/store.go": shop["lib/store.go"] + "\nfunc Extra() {}\n"})
	restart()
	indexed("files=1")
	var info map[string]any
	s.ok("file_info", map[string]any{"path": "main.go"}, &info) // writes main.go's basic artifact
	s.srv.Close()
	restart()
	indexed("files=1")
}
