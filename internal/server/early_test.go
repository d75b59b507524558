package server

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/internal/graphstore"
)

// savedShop writes the shop with its files dated an hour back (a file
// modified within a clock tick of a save is never trusted) and saves its
// state as an earlier run would have: graph.bin and symbols.idx.
func savedShop(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	writeTree(t, root, shop)
	ageTree(t, root)
	if _, err := graphstore.Sync(context.Background(), graphstore.Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".artifacts", ".index", graphstore.SymbolsFile)); err != nil {
		t.Fatal(err)
	}
	return root
}

func ageTree(t *testing.T, root string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			os.Chtimes(p, old, old)
		}
		return nil
	})
}

// TestLookupFromSavedIndexWhileLoading: with the state of an earlier run
// saved, find_symbol, callers and a code search answer while the first
// load is held before it syncs (decodes) the saved state, from the
// symbols index read in place, and say so; once loaded, callers still
// read the saved index (no index of the graph is built) until an edit,
// after which they see the edit.
func TestLookupFromSavedIndexWhileLoading(t *testing.T) {
	root := savedShop(t)
	release := make(chan struct{})
	var synced, built atomic.Int32
	hooks := &testHooks{
		sync:        func() { <-release; synced.Add(1) },
		lookupBuilt: func() { built.Add(1) },
	}
	s := connect(t, nil, Options{Root: root, NoWatch: true, loadWait: time.Millisecond, hooks: hooks})

	var tree treeOut
	res := s.ok("callers", map[string]any{"symbol": "NewStore"}, &tree)
	if synced.Load() != 0 {
		t.Fatal("the saved state was synced before the answer")
	}
	if len(tree.Calls) != 1 || tree.Calls[0].Symbol != "example.com/shop.main" || !strings.HasPrefix(tree.Coverage, earlyPrefix) {
		t.Errorf("callers while loading: %+v\n%s", tree, text(res))
	}
	if !strings.Contains(text(res), "Answered while the workspace loads") {
		t.Errorf("the answer does not say it comes before the load:\n%s", text(res))
	}
	var found findSymbolOut
	s.ok("find_symbol", map[string]any{"query": "Store.Put"}, &found)
	if len(found.Symbols) != 1 || found.Symbols[0].Path != "lib/store.go" || found.Symbols[0].Signature == "" {
		t.Errorf("find_symbol while loading: %+v", found)
	}
	var out searchDocsOut
	res = s.ok("search_docs", map[string]any{"query": "new store"}, &out)
	if !slices.ContainsFunc(out.Results, func(r docsearch.Result) bool { return strings.HasSuffix(r.Symbol, ".NewStore") }) {
		t.Errorf("no code result by name while loading: %+v\n%s", out.Results, text(res))
	}
	if !strings.HasPrefix(out.Coverage["code"], "by symbol name only, complete as of the symbols index") ||
		out.Coverage["docs"] != "loading: not searched yet" {
		t.Errorf("coverage while loading: %v", out.Coverage)
	}
	// Words of names, once the saved index's words are indexed.
	waitFor(t, "the saved names' words", func() bool {
		e := s.srv.workspace().early.Load()
		return e != nil && e.savedWords() != nil
	})
	res = s.ok("search_docs", map[string]any{"query": "store"}, &out)
	if !slices.ContainsFunc(out.Results, func(r docsearch.Result) bool { return strings.HasSuffix(r.Symbol, ".NewStore") }) ||
		strings.Contains(out.Coverage["code"], "whole names only") {
		t.Errorf("a word of a name while loading: %+v %v\n%s", out.Results, out.Coverage, text(res))
	}
	res = s.ok("search_docs", map[string]any{"query": "zzqx nothing"}, &out)
	if !strings.Contains(text(res), "Not complete yet") || strings.Contains(out.Message, "Try broader") {
		t.Errorf("an empty answer while loading does not say what it covers: %q\n%s", out.Message, text(res))
	}
	if synced.Load() != 0 {
		t.Fatal("the saved state was synced before the answers")
	}

	close(release)
	waitFor(t, "the load", func() bool { return s.srv.workspace().wait(context.Background()) == nil })
	res = s.ok("callers", map[string]any{"symbol": "NewStore"}, &tree)
	if len(tree.Calls) != 1 || tree.Coverage != "complete" {
		t.Errorf("callers once loaded: %+v\n%s", tree, text(res))
	}
	if n := built.Load(); n != 0 {
		t.Errorf("a lookup index of the graph was built %d times; the saved index describes it", n)
	}
	writeTree(t, root, map[string]string{"main.go": strings.Replace(shop["main.go"], "func main() {", "func other() { lib.NewStore() }\n\nfunc main() {", 1)})
	s.call("file_info", map[string]any{"path": "main.go"})
	s.ok("callers", map[string]any{"symbol": "NewStore"}, &tree)
	if len(tree.Calls) != 2 || built.Load() != 1 {
		t.Errorf("callers after an edit: %+v (graph indexed %d times)", tree.Calls, built.Load())
	}
}

// TestStreamedNamesWhileExtracting: with no saved state, find_symbol and
// a code search answer from the files extracted so far while extraction
// runs, saying how far it has got; never a bare "No matching documents".
func TestStreamedNamesWhileExtracting(t *testing.T) {
	files := map[string]string{
		"go.mod":  "module example.com/x\n",
		"a/a.go":  "package a\n\n// Alpha starts it.\nfunc Alpha() {}\n",
		"b/b.go":  "package b\n\nfunc Beta() {}\n",
		"c/c.go":  "package c\n\nfunc Gamma() {}\n",
		"doc.txt": "not code\n",
	}
	first := make(chan string, 1)
	release := make(chan struct{})
	var once sync.Once
	hooks := &testHooks{streamed: func(p string) {
		once.Do(func() { first <- p; <-release })
	}}
	s := connect(t, files, Options{NoWatch: true, loadWait: time.Millisecond, hooks: hooks})
	defer close(release)
	p := <-first
	name := map[string]string{"a/a.go": "Alpha", "b/b.go": "Beta", "c/c.go": "Gamma"}[p]
	if name == "" {
		t.Fatalf("first streamed file %q", p)
	}
	var found findSymbolOut
	res := s.ok("find_symbol", map[string]any{"query": name}, &found)
	if len(found.Symbols) != 1 || found.Symbols[0].Path != p || !strings.Contains(found.Coverage, "files extracted so far") {
		t.Errorf("find_symbol %s while extracting: %+v\n%s", name, found, text(res))
	}
	var out searchDocsOut
	res = s.ok("search_docs", map[string]any{"query": strings.ToLower(name)}, &out)
	if len(out.Results) == 0 || out.Results[0].Path != p || !strings.Contains(out.Coverage["code"], "files extracted so far") {
		t.Errorf("search while extracting: %+v\n%s", out, text(res))
	}
	res = s.ok("search_docs", map[string]any{"query": "zzqx"}, &out)
	if txt := text(res); !strings.Contains(txt, "files extracted so far") || strings.Contains(out.Message, "Try broader") {
		t.Errorf("an empty answer while extracting:\n%s", txt)
	}
	if s.srv.workspace().early.Load() == nil {
		t.Error("the load ended while a file was held")
	}
}

// TestSavedIndexOverlaidWithChangedFiles: a file changed since the state
// was saved is answered from its new extraction, not from the index,
// and the answer names it as changed.
func TestSavedIndexOverlaidWithChangedFiles(t *testing.T) {
	root := savedShop(t)
	writeTree(t, root, map[string]string{"lib/store.go": strings.Replace(shop["lib/store.go"], "func NewStore()", "func MakeStore()", 1)})
	release := make(chan struct{})
	s := connect(t, nil, Options{Root: root, NoWatch: true, loadWait: time.Millisecond,
		hooks: &testHooks{load: func(string) { <-release }}})
	defer close(release)
	// The load re-extracts the changed file, then holds before its graph.
	waitFor(t, "the changed file's extraction", func() bool {
		e := s.srv.workspace().early.Load()
		if e == nil {
			return false
		}
		e.stream.mu.RLock()
		defer e.stream.mu.RUnlock()
		return e.stream.has("lib/store.go")
	})
	var found findSymbolOut
	res := s.ok("find_symbol", map[string]any{"query": "MakeStore"}, &found)
	if len(found.Symbols) != 1 || found.Symbols[0].Path != "lib/store.go" ||
		!strings.Contains(found.Coverage, "1 files changed since (lib/store.go), 1 of them extracted again") {
		t.Errorf("find_symbol of a changed file's symbol: %+v\n%s", found, text(res))
	}
	res = s.call("find_symbol", map[string]any{"query": "NewStore"})
	if strings.Contains(text(res), "lib/store.go:") && !strings.Contains(text(res), "MakeStore") {
		t.Errorf("the changed file's old symbol is answered:\n%s", text(res))
	}
	var tree treeOut
	res = s.ok("callers", map[string]any{"symbol": "Store.Put"}, &tree)
	if !strings.Contains(tree.Coverage, "lib/store.go changed since and is described as it was") {
		t.Errorf("callers of a changed file's symbol: %+v\n%s", tree, text(res))
	}
}

// TestDamagedSavedIndexIsNotAnswered: a symbols index whose data fails
// its checksum is never an answer: lookups come from the load.
func TestDamagedSavedIndexIsNotAnswered(t *testing.T) {
	root := savedShop(t)
	file := filepath.Join(root, ".artifacts", ".index", graphstore.SymbolsFile)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s, err := graphstore.ReadSymbols(file)
	if err != nil {
		t.Fatal(err)
	}
	n := s.Len()
	s.Close()
	// Flip every byte of the strings section's first names: past the
	// header, before the nodes.
	for i := 400; i < min(len(data)/2, 400+64); i++ {
		data[i] ^= 0xff
	}
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ageTree(t, root)
	if n == 0 {
		t.Fatal("empty index")
	}
	// The damage is past the header: the index fails at open (reading
	// its stamps, in the same checksum block on a file this small) or at
	// a read.
	if d, _, err := graphstore.OpenSymbolsChanged(context.Background(), graphstore.Options{Root: root}); err == nil {
		if err := d.Verify(); err == nil {
			t.Fatal("the damage is not detected")
		}
		d.Close()
	}
	sess := connect(t, nil, Options{Root: root, NoWatch: true, loadWait: time.Millisecond})
	for range 2 { // while loading, and loaded
		var found findSymbolOut
		res := sess.ok("find_symbol", map[string]any{"query": "NewStore"}, &found)
		if len(found.Symbols) != 1 || found.Symbols[0].Qualified != "example.com/shop/lib.NewStore" {
			t.Errorf("find_symbol over a damaged index: %+v\n%s", found, text(res))
		}
		var tree treeOut
		sess.ok("callers", map[string]any{"symbol": "NewStore"}, &tree)
		if len(tree.Calls) != 1 {
			t.Errorf("callers over a damaged index: %+v", tree)
		}
		sess.srv.workspace().wait(context.Background())
	}
}
