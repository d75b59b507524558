package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/internal/ftspeer"
)

func TestScoreCode(t *testing.T) {
	want := []span{{"app.py", 10, 20}, {"util.py", 5, 8}}
	for _, tc := range []struct {
		name     string
		got      []span
		rank     int
		fileRank int
		fnNDCG   float64
		fileNDCG float64
		fnRecall float64
	}{
		{"both first", []span{{"app.py", 10, 20}, {"util.py", 5, 8}}, 1, 1, 1, 1, 1},
		{"a method of the range counts", []span{{"app.py", 12, 14}}, 1, 1, 1 / idcg(2), 1 / idcg(2), 0.5},
		{"the enclosing class does not", []span{{"app.py", 1, 100}}, 0, 1, 0, 1 / idcg(2), 0},
		{"found once", []span{{"app.py", 10, 20}, {"app.py", 11, 19}}, 1, 1, 1 / idcg(2), 1 / idcg(2), 0.5},
		{"second", []span{{"other.py", 1, 5}, {"util.py", 5, 8}}, 2, 2, (1 / math.Log2(3)) / idcg(2), (1 / math.Log2(3)) / idcg(2), 0.5},
		// Ranked deeper (--depth): the ranks are reported, the metrics stay @10;
		// a file is ranked among files, not results.
		{"twelfth", append(slices.Repeat([]span{{"other.py", 1, 5}}, 11), span{"app.py", 10, 20}), 12, 2, 0, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := scoreCode(codeQuery{ID: "q"}, tc.got, want)
			if o.FileRank != tc.fileRank {
				t.Errorf("file rank %d, want %d", o.FileRank, tc.fileRank)
			}
			if o.Rank != tc.rank || math.Abs(o.FuncNDCG-tc.fnNDCG) > 1e-9 || math.Abs(o.FileNDCG-tc.fileNDCG) > 1e-9 || o.FuncRecall != tc.fnRecall {
				t.Errorf("got rank %d fn nDCG %.3f file nDCG %.3f recall %.2f; want %d %.3f %.3f %.2f",
					o.Rank, o.FuncNDCG, o.FileNDCG, o.FuncRecall, tc.rank, tc.fnNDCG, tc.fileNDCG, tc.fnRecall)
			}
		})
	}
}

// TestScoreCodeFiles: the outcome lists the files file-level nDCG@10
// ranks, those of the first ten results in order of first appearance,
// for --per-query.
func TestScoreCodeFiles(t *testing.T) {
	got := append([]span{{"b.py", 1, 2}, {"a.py", 3, 4}, {"b.py", 5, 6}}, slices.Repeat([]span{{"c.py", 1, 5}}, 7)...)
	got = append(got, span{"d.py", 1, 2})
	o := scoreCode(codeQuery{ID: "q"}, got, []span{{"d.py", 1, 2}})
	if want := []string{"b.py", "a.py", "c.py"}; !slices.Equal(o.Files, want) {
		t.Errorf("files %v, want %v", o.Files, want)
	}
	if o.FileRank != 4 || o.FileNDCG != 0 {
		t.Errorf("file rank %d, file nDCG %.3f; want 4 (past the tenth result) and 0", o.FileRank, o.FileNDCG)
	}
}

// TestCodeDataSet checks the committed data set against what issue 34
// asks of it (checkCodeSet, and): at least 300 queries over at least 20
// repositories, Go, Python, JavaScript and TypeScript among them, each
// repository with a language, and a held-out split in every language.
func TestCodeDataSet(t *testing.T) {
	queries, repos := checkCodeSet(t, "../../docs/bench/code")
	asked := map[string]bool{}
	for _, q := range queries {
		asked[q.Repo] = true
		if repos[q.Repo].Lang == "" {
			t.Errorf("query %s: repository %q has no language in repos.tsv", q.ID, q.Repo)
		}
	}
	if len(queries) < 300 || len(asked) < 20 {
		t.Errorf("%d queries over %d repositories, want at least 300 over 20", len(queries), len(asked))
	}
	heldLangs := map[string]bool{}
	for _, r := range repos {
		if r.Split == "held" {
			heldLangs[r.Lang] = true
		}
	}
	for _, lang := range []string{"go", "python", "javascript", "typescript"} {
		if !heldLangs[lang] {
			t.Errorf("no held-out repository in %s", lang)
		}
	}
}

// TestCodeTestsDataSet checks the set over repositories that ship their
// tests (checkCodeSet, and): at least 20 queries and a held-out
// repository.
func TestCodeTestsDataSet(t *testing.T) {
	const dir = "../../docs/bench/codetests"
	queries, _ := checkCodeSet(t, dir)
	if len(queries) < 20 || len(heldRepos(dir)) == 0 {
		t.Errorf("%d queries, %d held-out repositories; want at least 20 and 1", len(queries), len(heldRepos(dir)))
	}
}

// TestCodeWholeSplitDataSets checks the sets that are one split whole
// (checkCodeSet, and): the second tuning set, at least 140 queries, every
// repository for tuning; the second and third held-out sets, at least 90
// each, every repository held out, so that no fit can read them
// (loadLearnSet takes the tuning split).
func TestCodeWholeSplitDataSets(t *testing.T) {
	for _, c := range []struct {
		dir   string
		least int
		split string
	}{
		{"../../docs/bench/codetune2", 140, "tune"},
		{"../../docs/bench/codeheld", 90, "held"},
		{"../../docs/bench/codeheld2", 90, "held"},
	} {
		queries, repos := checkCodeSet(t, c.dir)
		if len(queries) < c.least {
			t.Errorf("%s: %d queries, want at least %d", c.dir, len(queries), c.least)
		}
		for _, r := range repos {
			if r.Split != c.split {
				t.Errorf("%s: repository %s: split %q, want %s", c.dir, r.Name, r.Split, c.split)
			}
		}
	}
}

// fetchKinds are the kinds of repository docs/bench/fetch-repos.sh
// fetches.
var fetchKinds = []string{"gomod", "npm", "deb", "pystd"}

// checkCodeSet checks a written code-search data set in dir: every query
// is judged, in a repository of repos.tsv; every repository has a split
// (tune or held) and a kind fetch-repos.sh fetches; and fetch.sh hands
// fetch-repos.sh its repos.tsv, so that it fetches every repository
// listed at its version. It returns the queries and the repositories by
// name.
func checkCodeSet(t *testing.T, dir string) ([]codeQuery, map[string]genRepo) {
	t.Helper()
	queries, qrels, err := readCodeSet(dir)
	if err != nil {
		t.Fatal(err)
	}
	listed, err := readGenRepos(dir)
	if err != nil {
		t.Fatal(err)
	}
	fetch, err := os.ReadFile(filepath.Join(dir, "fetch.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(fetch), `exec sh "$here/../fetch-repos.sh" "$here/repos.tsv"`) {
		t.Errorf("%s/fetch.sh does not hand its repos.tsv to ../fetch-repos.sh", dir)
	}
	repos := map[string]genRepo{}
	for _, r := range listed {
		repos[r.Name] = r
		if r.Split != "tune" && r.Split != "held" {
			t.Errorf("repository %s: split %q, want tune or held", r.Name, r.Split)
		}
		if !slices.Contains(fetchKinds, r.Kind) {
			t.Errorf("repository %s: kind %q, which fetch-repos.sh does not fetch", r.Name, r.Kind)
		}
	}
	for _, q := range queries {
		if _, ok := repos[q.Repo]; !ok {
			t.Errorf("query %s: repository %q not in repos.tsv", q.ID, q.Repo)
		}
		if len(qrels[q.ID]) == 0 {
			t.Errorf("query %s has no relevant function", q.ID)
		}
	}
	return queries, repos
}

// TestSummarizeCodeDepth: a rank found past the tenth result (--depth)
// counts for nothing in MRR@10.
func TestSummarizeCodeDepth(t *testing.T) {
	m := summarizeCode([]codeOutcome{{Rank: 12}, {Rank: 2}}, nil, 0)
	if m.FuncMRR10 != 0.25 {
		t.Errorf("MRR@10 %.3f, want 0.25", m.FuncMRR10)
	}
}

// TestPeerCodeDocs: the FTS5 peer ranks the symbols of the library's own
// files and leaves out tests and examples, unless told to keep them; the
// chunks counted are every file's.
func TestPeerCodeDocs(t *testing.T) {
	sym := func(name string, line int) docsearch.CodeSymbol {
		return docsearch.CodeSymbol{Name: name, Kind: "function", Line: line, End: line + 2}
	}
	files := []docsearch.CodeFile{
		{Path: "lib/reply.js", Symbols: []docsearch.CodeSymbol{sym("send", 1), sym("redirect", 10)}},
		{Path: "test/reply.test.js", Symbols: []docsearch.CodeSymbol{sym("<callback of test('redirect')>", 1)}},
		{Path: "examples/hooks.js", Symbols: []docsearch.CodeSymbol{sym("<callback of fastify.addHook('onRequest')>", 3)}},
		{Path: "server_test.go", Symbols: []docsearch.CodeSymbol{sym("TestListen", 5)}},
	}
	paths := func(docs []ftspeer.Doc) (out []string) {
		for _, d := range docs {
			out = append(out, d.Path)
		}
		return out
	}
	docs, where, chunks := peerCodeDocs(files, false)
	if got := paths(docs); !slices.Equal(got, []string{"lib/reply.js", "lib/reply.js"}) || len(where) != 2 || chunks != 5 {
		t.Errorf("without tests: docs of %v, %d places, %d chunks; want lib/reply.js twice, 2, 5", got, len(where), chunks)
	}
	docs, where, chunks = peerCodeDocs(files, true)
	if len(docs) != 5 || len(where) != 5 || chunks != 5 {
		t.Errorf("with tests: %d docs, %d places, %d chunks; want 5 each", len(docs), len(where), chunks)
	}
}

// TestNameQueries: --names asks for each judged function by its own
// name, once per name and repository, leaving out places and short names.
func TestNameQueries(t *testing.T) {
	dir := t.TempDir()
	qrels := "query-id\trepo\tpath\tsymbol\tstart\tend\n" +
		"q1\texpress\tlib/response.js\tlib.response.res.cookie\t862\t895\n" +
		"q2\texpress\tlib/response.js\tlib.response.res.cookie\t862\t895\n" +
		"q2\texpress\tlib/router/index.js\tlib.router.index.<callback of stack.forEach>\t10\t12\n" +
		"q3\tflask\tflask/app.py\tflask.app.Flask.run\t1\t9\n" +
		"q4\tflask\tflask/app.py\tflask.app.Flask.url_for\t20\t40\n" +
		"q5\tcobra\tcommand.go\tgithub.com/spf13/cobra.Command.Execute\t5\t9\n"
	if err := os.WriteFile(filepath.Join(dir, "qrels.tsv"), []byte(qrels), 0o644); err != nil {
		t.Fatal(err)
	}
	queries, rels, err := nameQueries(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, q := range queries {
		got = append(got, fmt.Sprintf("%s %s %s %v", q.ID, q.Repo, q.Text, rels[q.ID]))
	}
	want := []string{
		"name-001 express cookie [{lib/response.js 862 895}]",
		"name-002 flask url_for [{flask/app.py 20 40}]",
		"name-003 cobra Execute [{command.go 5 9}]",
	}
	if !slices.Equal(got, want) {
		t.Errorf("queries\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestExactNDCG: a callback inside the relevant function matches it but
// is not it; the function's chunk from its decorator on is it.
func TestExactNDCG(t *testing.T) {
	want := []span{{"lib/router.js", 10, 60}}
	for _, c := range []struct {
		got       []span
		fn, exact float64
	}{
		{[]span{{"lib/router.js", 13, 17}}, 1, 0},
		{[]span{{"lib/router.js", 8, 60}}, 1, 1},
		{[]span{{"lib/router.js", 13, 17}, {"lib/router.js", 10, 60}}, 1, 1 / math.Log2(3)},
		{[]span{{"lib/route.js", 10, 60}}, 0, 0},
	} {
		o := scoreCode(codeQuery{ID: "q"}, c.got, want)
		if math.Abs(o.FuncNDCG-c.fn) > 1e-9 || math.Abs(o.FuncExact-c.exact) > 1e-9 {
			t.Errorf("%v: fn %.3f exact %.3f, want %.3f %.3f", c.got, o.FuncNDCG, o.FuncExact, c.fn, c.exact)
		}
	}
}
