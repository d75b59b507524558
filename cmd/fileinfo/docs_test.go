package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestIndexAndSearchCommands(t *testing.T) {
	root := t.TempDir()
	extra := t.TempDir()
	writeFiles(t, root, map[string]string{
		"README.md":          "# Tool\n\nThe tool renders sparkline charts.\n",
		"docs/api/ref.md":    "# Reference\n\n## frobnicate(x)\n\nFrobnicates x.\n",
		".artifacts/a.go.md": "# a.go\n\nParses quaternion settings.\n",
	})
	writeFiles(t, extra, map[string]string{"guide.md": "# Guide\n\nDeploy the widget to the cluster.\n"})

	code, stdout, stderr := runCLI(t, "index", "--root", root, "--docs", "api="+filepath.Join(root, "docs/api"), "--docs", "ext="+extra)
	if code != 0 {
		t.Fatalf("index: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "indexed 4 docs") {
		t.Errorf("index output = %q", stdout)
	}
	if _, err := os.Stat(filepath.Join(root, ".artifacts/.index/docsearch.idx")); err != nil {
		t.Errorf("no saved index: %v", err)
	}
	code, stdout, stderr = runCLI(t, "search", "quaternion", "--root", root, "--json")
	if code != 0 {
		t.Fatalf("search: exit %d: %s", code, stderr)
	}
	var res struct {
		Results []struct{ Path, Scope string }
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || len(res.Results) == 0 || res.Results[0].Path != ".artifacts/a.go.md" || res.Results[0].Scope != "artifacts" {
		t.Errorf("search json = %s (%v)", stdout, err)
	}
	code, stdout, stderr = runCLI(t, "search", "--root", root, "--docs", "api="+filepath.Join(root, "docs/api"), "--docs", "ext="+extra, "--scope", "ext", "deploy widget")
	if code != 0 || !strings.Contains(stdout, "ext:guide.md") {
		t.Errorf("scoped search: exit %d, %q %s", code, stdout, stderr)
	}
	code, _, stderr = runCLI(t, "search", "--root", root, "--scope", "nope", "x")
	if code != 1 || !strings.Contains(stderr, "valid scopes: artifacts, code, docs") {
		t.Errorf("unknown scope: exit %d, %q", code, stderr)
	}
}

func TestBenchSearchCommand(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"corpus.jsonl":   `{"_id": "d1", "title": "read_file", "text": "def read_file(path):\n    # open it\n    return open(path).read()"}` + "\n" + `{"_id": "d2", "title": "sort_list", "text": "def sort_list(xs):\n    return sorted(xs)"}` + "\n",
		"queries.jsonl":  `{"_id": "q1", "text": "python read a file"}` + "\n" + `{"_id": "q2", "text": "sort a list"}` + "\n",
		"qrels/test.tsv": "query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t1\n",
	})
	code, stdout, stderr := runCLI(t, "bench", "search", dir, "--mode", "bm25", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var m map[string]float64
	if err := json.Unmarshal([]byte(stdout), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"ndcg@10", "mrr@10", "recall@10", "recall@100", "p50_ms", "p95_ms", "build_s", "docs", "queries"} {
		if _, ok := m[k]; !ok {
			t.Errorf("key %s missing from %s", k, stdout)
		}
	}
	if len(m) != 9 || m["ndcg@10"] != 1 || m["docs"] != 2 || m["queries"] != 2 {
		t.Errorf("metrics = %v", m)
	}

	// --per-query writes a line per query; the aggregate is unchanged.
	out := filepath.Join(t.TempDir(), "each.jsonl")
	code, stdout, stderr = runCLI(t, "bench", "search", dir, "--mode", "bm25", "--json", "--per-query", out)
	var m2 map[string]float64
	if code != 0 || json.Unmarshal([]byte(stdout), &m2) != nil || len(m2) != 9 || m2["ndcg@10"] != 1 {
		t.Fatalf("exit %d, stdout %q: %s", code, stdout, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"q1","query":"python read a file","rank":1,"ndcg@10":1,"top":"d1"}` + "\n" +
		`{"id":"q2","query":"sort a list","rank":1,"ndcg@10":1,"top":"d2"}` + "\n"
	if string(data) != want {
		t.Errorf("per-query file:\n%s\nwant:\n%s", data, want)
	}
}

// TestIndexFileUnusable makes the saved index a directory: index and
// search rebuild the index in memory and work, saying why it is not
// saved; an empty directory is replaced by the index.
func TestIndexFileUnusable(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"README.md":                            "# Tool\n\nThe tool renders sparkline charts.\n",
		"node_modules/x/README.md":             "# x\n",
		".artifacts/.index/docsearch.idx/keep": "mine",
	})
	code, stdout, stderr := runCLI(t, "index", "--root", root)
	if code != 0 || !strings.Contains(stdout, "indexed 1 docs") || !strings.Contains(stdout, "not saved:") || !strings.Contains(stdout, "docsearch.idx is a directory that is not empty") {
		t.Errorf("index: exit %d, %q %s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "skipped node_modules/: dependencies") {
		t.Errorf("index does not list the directory it skipped: %q", stdout)
	}
	code, stdout, stderr = runCLI(t, "search", "--root", root, "sparkline")
	if code != 0 || !strings.Contains(stdout, "README.md") {
		t.Errorf("search: exit %d, %q %s", code, stdout, stderr)
	}
	os.Remove(filepath.Join(root, ".artifacts/.index/docsearch.idx/keep"))
	code, stdout, stderr = runCLI(t, "index", "--root", root)
	if code != 0 || strings.Contains(stdout, "not saved") {
		t.Errorf("index over an empty directory: exit %d, %q %s", code, stdout, stderr)
	}
	if info, err := os.Stat(filepath.Join(root, ".artifacts/.index/docsearch.idx")); err != nil || !info.Mode().IsRegular() {
		t.Errorf("the index was not saved over the empty directory: %v", err)
	}
}
