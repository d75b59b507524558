package docsearch

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// flaskCode is a small slice of flask's app.py and its tests, as an
// extractor would hand it in.
func flaskCode() []CodeFile {
	return []CodeFile{
		{Path: "src/flask/app.py", Symbols: []CodeSymbol{
			{Name: "Flask", Kind: "class", Signature: "class Flask(App)", Doc: ".. currentmodule:: flask\n\nThe flask object implements a WSGI application and acts as the central object.", Line: 10, End: 400},
			{Name: "Flask.preprocess_request", Kind: "method", Signature: "def preprocess_request(self) -> ft.ResponseReturnValue | None",
				Doc:   "Called before the request is dispatched. Calls url_value_preprocessors registered with the app and the current blueprint (if any). Then calls before_request_funcs.",
				Body:  "names = (None, *reversed(request.blueprints))\nfor name in names:\n    for func in self.before_request_funcs[name]:\n        rv = self.ensure_sync(func)()",
				Calls: []string{"ensure_sync", "reversed"}, Line: 120, End: 140},
			{Name: "Flask.url_for", Kind: "method", Signature: "def url_for(self, endpoint: str, **values) -> str",
				Doc: "Generate a URL to the given endpoint with the given values.", Line: 150, End: 200},
			{Name: "Flask.register_blueprint", Kind: "method", Signature: "def register_blueprint(self, blueprint, **options) -> None",
				Doc: "Register a Blueprint on the application.", Body: "blueprint.register(self, options)", Calls: []string{"register"}, Line: 210, End: 230},
		}},
		{Path: "tests/test_blueprints.py", Symbols: []CodeSymbol{
			{Name: "test_register_blueprint", Kind: "function", Signature: "def test_register_blueprint(app)",
				Body: "app.register_blueprint(bp)\nassert register_blueprint", Calls: []string{"register_blueprint"}, Line: 5, End: 9},
		}},
	}
}

func putCode(t *testing.T, ix *Index, files []CodeFile, removed ...string) {
	t.Helper()
	if err := ix.PutCode(context.Background(), files, removed); err != nil {
		t.Fatal(err)
	}
}

// expectFirst checks the first result of query.
func expectFirst(t *testing.T, ix *Index, query string, scopes []string, want string) Result {
	t.Helper()
	zero := 0.0
	res, err := ix.Search(context.Background(), Query{Text: query, Scopes: scopes, MinScore: &zero, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) == 0 {
		t.Fatalf("%q: no results, want %s", query, want)
	}
	if got := res.Results[0].Symbol; got != want {
		var names []string
		for _, r := range res.Results {
			names = append(names, r.Path+"#"+r.Symbol)
		}
		t.Fatalf("%q: first is %q, want %q; all: %s", query, got, want, strings.Join(names, ", "))
	}
	return res.Results[0]
}

func TestCodeSearch(t *testing.T) {
	ix := openTest(t, mapFS(map[string]string{"README.md": "# Flask\n\nA web framework. Register blueprints with the app.\n"}), Options{})
	putCode(t, ix, flaskCode())
	for _, tc := range []struct{ query, want string }{
		{"register_blueprint", "Flask.register_blueprint"},
		{"register blueprint", "Flask.register_blueprint"},
		{"url for", "Flask.url_for"},
		{"preprocessRequest", "Flask.preprocess_request"},
		{"where are before request functions run", "Flask.preprocess_request"},
		{"test register blueprint", "test_register_blueprint"},
	} {
		t.Run(tc.query, func(t *testing.T) { expectFirst(t, ix, tc.query, []string{ScopeCode}, tc.want) })
	}
	r := expectFirst(t, ix, "preprocess_request", nil, "Flask.preprocess_request")
	if r.Path != "src/flask/app.py" || r.Lines != [2]int{120, 140} || r.Kind != "method" ||
		!strings.HasPrefix(r.Signature, "def preprocess_request(self)") || r.Scope != ScopeCode {
		t.Errorf("result %+v", r)
	}
	if r.Summary != "Called before the request is dispatched." {
		t.Errorf("summary %q", r.Summary)
	}
	doc, err := ix.Fetch(r.DocPath, "")
	if err != nil || !strings.Contains(doc.Content, "before_request_funcs") {
		t.Errorf("fetch %s: %v %q", r.DocPath, err, doc.Content)
	}
	// A class whose docstring opens with a directive is summarised by its prose.
	if r := expectFirst(t, ix, "central object WSGI application", []string{ScopeCode}, "Flask"); strings.HasPrefix(r.Summary, "..") {
		t.Errorf("summary is a directive: %q", r.Summary)
	}
}

func TestCodeScoresDescend(t *testing.T) {
	ix := openTest(t, mapFS(map[string]string{
		"docs/blueprints.md": "# Blueprints\n\nRegister a blueprint on the app with register_blueprint; url_for builds URLs.\n",
		"CHANGES.md":         "# Changes\n\n## 2.0\n\nregister_blueprint takes a name. Blueprint url_for changed.\n",
	}), Options{})
	putCode(t, ix, flaskCode())
	zero := 0.0
	res, err := ix.Search(context.Background(), Query{Text: "register blueprint url for", MinScore: &zero, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	scopes := map[string]bool{}
	for i, r := range res.Results {
		scopes[r.Scope] = true
		if i > 0 && r.Score > res.Results[i-1].Score {
			t.Errorf("result %d scores %.3f after %.3f", i, r.Score, res.Results[i-1].Score)
		}
	}
	if !scopes[ScopeCode] || !scopes[ScopeDocs] {
		t.Errorf("want code and docs mixed, got scopes %v", scopes)
	}
	res, err = ix.Search(context.Background(), Query{Text: "register blueprint", Scopes: []string{ScopeCode, ScopeDocs}, MinScore: &zero})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.ByScope[ScopeCode]) == 0 || len(res.ByScope[ScopeDocs]) == 0 {
		t.Errorf("by scope: %v", res.ByScope)
	}
}

func TestCodeTestsRankUnder(t *testing.T) {
	ix := openTest(t, mapFS(nil), Options{})
	files := flaskCode()
	// The test mentions register_blueprint more often than the method.
	files[1].Symbols[0].Body = strings.Repeat("app.register_blueprint(bp)\n", 5)
	putCode(t, ix, files)
	expectFirst(t, ix, "register blueprint", []string{ScopeCode}, "Flask.register_blueprint")
	expectFirst(t, ix, "register blueprint tests", []string{ScopeCode}, "test_register_blueprint")
}

func TestCodeUpdateAndReload(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".artifacts", ".index")
	ix := openTest(t, os.DirFS(root), Options{Dir: dir})
	putCode(t, ix, flaskCode())
	if all, _ := ix.List(""); len(all) != 0 {
		t.Errorf("List(\"\") lists %d symbols; want documents only", len(all))
	}
	if code, _ := ix.List(ScopeCode); len(code) != 5 {
		t.Errorf("List(code) = %d symbols, want 5", len(code))
	}
	n := ix.Stats().Docs
	if n != 5 {
		t.Fatalf("%d docs, want 5", n)
	}
	// Enriched prose joins the symbol; stale prose is marked, not dropped.
	files := flaskCode()[:1]
	files[0].Symbols[2].Purpose = "Builds the address of a view from its endpoint name."
	files[0].Symbols[2].Stale = true
	putCode(t, ix, files)
	r := expectFirst(t, ix, "address of a view endpoint", []string{ScopeCode}, "Flask.url_for")
	if r.Summary != "Builds the address of a view from its endpoint name." {
		t.Errorf("summary %q", r.Summary)
	}
	doc, _ := ix.Fetch(r.DocPath, "")
	if !strings.Contains(doc.Content, "Purpose: (stale) Builds") {
		t.Errorf("stale prose not marked: %q", doc.Content)
	}
	// A symbol gone from its file leaves; a removed file's symbols leave.
	files[0].Symbols = files[0].Symbols[:3]
	putCode(t, ix, files, "tests/test_blueprints.py")
	if got := ix.Stats().Docs; got != 3 {
		t.Errorf("%d docs after removals, want 3", got)
	}
	// Reopened, the saved index has the code, and its results their kind.
	again := openTest(t, os.DirFS(root), Options{Dir: dir})
	if got := again.Stats().Docs; got != 3 {
		t.Errorf("reloaded %d docs, want 3", got)
	}
	r = expectFirst(t, again, "url_for", []string{ScopeCode}, "Flask.url_for")
	if r.Kind != "method" || r.Signature == "" {
		t.Errorf("reloaded result %+v", r)
	}
}

func TestSymbolSentence(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{"Register a Blueprint. More.", "Register a Blueprint."},
		{".. currentmodule:: flask\n\nThe flask object. It is.", "The flask object."},
		{":param x: the x\n", ""},
		{"Uses e.g. this. Then.", "Uses e.g. this."},
		{"Line one\nline two.\n\nNext para.", "Line one line two."},
		{"legacyArgs validation has the following behaviour:\n  - root commands take any\n  - subcommands check", "legacyArgs validation has the following behaviour:"},
	} {
		if got := symbolSentence(tc.doc); got != tc.want {
			t.Errorf("symbolSentence(%q) = %q, want %q", tc.doc, got, tc.want)
		}
	}
}

func TestStripRoles(t *testing.T) {
	for in, want := range map[string]string{
		"Register a :class:`~flask.Blueprint` on the app.":     "Register a Blueprint on the app.",
		"Called by :meth:`Flask.register_blueprint` to do it.": "Called by Flask.register_blueprint to do it.",
		"See :ref:`the guide <guide>`.":                        "See the guide.",
		"No roles: a `code` span.":                             "No roles: a `code` span.",
		"Odd :`x` and a: `y`.":                                 "Odd :`x` and a: `y`.",
	} {
		if got := stripRoles(in); got != want {
			t.Errorf("stripRoles(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTestCode(t *testing.T) {
	for p, want := range map[string]bool{
		"callgraph/build_test.go": true, "tests/test_app.py": true, "src/flask/app.py": false,
		"lib/router.spec.js": true, "test/app.router.js": true, "src/testing.py": false, "pkg/testutil/x.go": false,
		"go/analysis/analysistest/analysistest.go": false, "internal/testenv/testenv.go": false,
		"benches/chrono.rs": true, "benchmarks/bench_format.py": true, "examples/benchmark/app.js": true, "src/benchmarking.rs": false,
		"lib/find_bit_benchmark.c": true, "lib/find_bit.c": false, "src/parse.bench.ts": true,
	} {
		if got := testCode(p); got != want {
			t.Errorf("testCode(%s) = %v, want %v", p, got, want)
		}
	}
}

func TestCodeDeclarationsRankUnder(t *testing.T) {
	ix := openTest(t, mapFS(nil), Options{})
	sym := CodeSymbol{Name: "Router.Mount", Kind: "method", Signature: "Mount(pattern string, h http.Handler)",
		Doc: "Mount attaches another handler along a pattern.", Line: 3, End: 3}
	impl := sym
	impl.Name, impl.Line, impl.End = "Mux.Mount", 10, 40
	decl := sym
	decl.Decl = true
	putCode(t, ix, []CodeFile{
		{Path: "chi.go", Symbols: []CodeSymbol{decl}},
		{Path: "mux.go", Symbols: []CodeSymbol{impl}},
		{Path: "types/index.d.ts", Symbols: []CodeSymbol{sym}},
	})
	expectFirst(t, ix, "mount a handler along a pattern", []string{ScopeCode}, "Mux.Mount")
}

// TestCodeTestMarks: the marks of a declaration and of test-only code
// are read back from the text, alone or together.
func TestCodeTestMarks(t *testing.T) {
	for _, tc := range []struct{ decl, test bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
		text := CodeText("src/lib.rs", CodeSymbol{Name: "tests.f", Kind: "function", Line: 1, Decl: tc.decl, Test: tc.test})
		if isDecl(text) != tc.decl || isTestSymbol(text) != tc.test {
			t.Errorf("decl %v, test %v: read back as %v, %v from %q", tc.decl, tc.test, isDecl(text), isTestSymbol(text), text)
		}
	}
}

// TestCodeTestSymbolsRankUnder: a function compiled only for tests in a
// file of production code (a Rust #[cfg(test)] module) ranks as a test
// file's would, under the function it exercises, unless the query asks
// for tests.
func TestCodeTestSymbolsRankUnder(t *testing.T) {
	ix := openTest(t, mapFS(nil), Options{})
	putCode(t, ix, []CodeFile{{Path: "src/format/parse.rs", Symbols: []CodeSymbol{
		{Name: "parse.parse_rfc3339", Kind: "function", Signature: "fn parse_rfc3339(s: &str) -> ParseResult<DateTime>",
			Doc: "Parses an RFC 3339 date and time string.", Body: "let mut parsed = Parsed::new();\nparse_internal(&mut parsed, s)", Line: 10, End: 40},
		{Name: "parse.tests.rfc3339_to_datetime", Kind: "function", Signature: "fn rfc3339_to_datetime(date: &str) -> ParseResult<DateTime>",
			Body: "let mut parsed = Parsed::new();\nparse_rfc3339(date)?;\nparsed.to_datetime()", Line: 90, End: 94, Test: true},
	}}})
	expectFirst(t, ix, "parse an rfc3339 string to a datetime", []string{ScopeCode}, "parse.parse_rfc3339")
	for query, want := range map[string]float64{"parse an rfc3339 string to a datetime": 1, "tests of parsing an rfc3339 string": 0} {
		zero := 0.0
		var test []float64
		_, err := ix.Search(context.Background(), Query{Text: query, Scopes: []string{ScopeCode}, MinScore: &zero, Limit: 10,
			CodeCandidates: func(cands []CodeCandidate) {
				for _, c := range cands {
					if c.Result.Symbol == "parse.tests.rfc3339_to_datetime" {
						test = c.Features
					}
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
		if test == nil || test[featTest] != want {
			t.Errorf("%q: the test function's features %v, want test %v", query, test, want)
		}
	}
}

func TestCodeKeys(t *testing.T) {
	f := CodeFile{Path: "a.js", Symbols: []CodeSymbol{{Name: "i", Line: 6}, {Name: "i", Line: 6}, {Name: "i", Line: 6}, {Name: "j", Line: 6}}}
	got := strings.Join(CodeKeys(f), " ")
	if want := "a.js#i a.js#i@6 a.js#i@6.2 a.js#j"; got != want {
		t.Errorf("keys %s, want %s", got, want)
	}
}

func TestCodeFunctionsBeforeTheirFile(t *testing.T) {
	ix := openTest(t, mapFS(nil), Options{})
	putCode(t, ix, []CodeFile{{Path: "middleware/strip.go", Symbols: []CodeSymbol{
		{Name: "middleware", Kind: "module", Signature: "middleware/strip.go", Body: "package middleware\n// Strip slashes from paths: strip the slashes of paths.\nimport \"net/http\"", Line: 1, End: 70},
		{Name: "middleware.Clean", Kind: "function", Signature: "func Clean(next http.Handler) http.Handler",
			Doc: "Clean strips the slashes of paths.", Line: 10, End: 30},
	}}})
	expectFirst(t, ix, "strip slashes from paths", []string{ScopeCode}, "middleware.Clean")
}

// TestCodeStamps: a file's stamp is kept with its documents across a
// reload; a new stamp with the same text replaces it; a file put
// without one has 0.
func TestCodeStamps(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".artifacts", ".index")
	ix := openTest(t, os.DirFS(root), Options{Dir: dir})
	files := flaskCode()
	files[0].Stamp = 7
	putCode(t, ix, files)
	want := map[string]uint64{"src/flask/app.py": 7, "tests/test_blueprints.py": 0}
	if got := ix.CodeStamps(); !maps.Equal(got, want) {
		t.Fatalf("CodeStamps = %v, want %v", got, want)
	}
	files[0].Stamp = 9 // same symbols, made from other source
	putCode(t, ix, files[:1])
	want["src/flask/app.py"] = 9
	if got := ix.CodeStamps(); !maps.Equal(got, want) {
		t.Fatalf("after a new stamp: CodeStamps = %v, want %v", got, want)
	}
	again := openTest(t, os.DirFS(root), Options{Dir: dir})
	if got := again.CodeStamps(); !maps.Equal(got, want) {
		t.Fatalf("reloaded: CodeStamps = %v, want %v", got, want)
	}
}

// TestPutCodeBatches: code put in batches is indexed as if put at once,
// and saved once, at the end.
func TestPutCodeBatches(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".artifacts", ".index")
	ix := openTest(t, os.DirFS(root), Options{Dir: dir})
	files := flaskCode()
	calls := 0
	batches := func(yield func([]CodeFile) bool) {
		for _, f := range files {
			calls++
			if _, err := os.Stat(filepath.Join(dir, storeFile)); err == nil {
				t.Errorf("saved before batch %d", calls)
			}
			if !yield([]CodeFile{f}) {
				return
			}
		}
	}
	if err := ix.PutCodeBatches(context.Background(), batches, nil); err != nil {
		t.Fatal(err)
	}
	if calls != len(files) || ix.Stats().Docs != 5 {
		t.Fatalf("%d batches, %d docs; want %d, 5", calls, ix.Stats().Docs, len(files))
	}
	again := openTest(t, os.DirFS(root), Options{Dir: dir})
	expectFirst(t, again, "url_for", []string{ScopeCode}, "Flask.url_for")
	expectFirst(t, again, "test register blueprint", []string{ScopeCode}, "test_register_blueprint")
}

// TestCodeStubsRankUnder: a Python stub (.pyi) repeats the names and
// signatures of the module beside it with no code; the implementation
// ranks first, and the stub is still found.
func TestCodeStubsRankUnder(t *testing.T) {
	ix := openTest(t, mapFS(nil), Options{})
	sig := "def setlist(self, key: K, new_list: Iterable[V]) -> None"
	putCode(t, ix, []CodeFile{
		{Path: "werkzeug/datastructures.pyi", Symbols: []CodeSymbol{{Name: "werkzeug.datastructures.MultiDict.setlist", Kind: "method", Signature: sig,
			Body: "@overload\n" + sig + ": ...", Line: 60, End: 62}}},
		{Path: "werkzeug/datastructures.py", Symbols: []CodeSymbol{{Name: "werkzeug.datastructures.MultiDict.setlist", Kind: "method", Signature: sig,
			Body: "def setlist(self, key, new_list):\n    if not isinstance(new_list, (tuple, frozenset)):\n        new_list = tuple(new_list)\n" +
				"    self._check_frozen()\n    self._invalidate_cached_items()\n    dict.__setitem__(self, key, [*new_list])", Line: 421, End: 437}}},
	})
	got := codePaths(t, ix, "set the list of values of a key")
	if len(got) != 2 || got[0] != "werkzeug/datastructures.py" {
		t.Errorf("results %v, want werkzeug/datastructures.py, then the stub", got)
	}
}

// TestPutCodeBatchesThen: put is called once every batch is searchable
// and before the index is saved; the index saved after it holds the
// same code.
func TestPutCodeBatchesThen(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".artifacts", ".index")
	ix := openTest(t, os.DirFS(root), Options{Dir: dir})
	files := flaskCode()
	puts := 0
	put := func() {
		puts++
		if _, err := os.Stat(filepath.Join(dir, storeFile)); err == nil {
			t.Error("saved before put")
		}
		expectFirst(t, ix, "url_for", []string{ScopeCode}, "Flask.url_for")
		expectFirst(t, ix, "test register blueprint", []string{ScopeCode}, "test_register_blueprint")
	}
	if err := ix.PutCodeBatchesThen(context.Background(), slices.Values([][]CodeFile{files[:2], files[2:]}), nil, put); err != nil {
		t.Fatal(err)
	}
	if puts != 1 {
		t.Fatalf("put called %d times; want once", puts)
	}
	again := openTest(t, os.DirFS(root), Options{Dir: dir})
	expectFirst(t, again, "url_for", []string{ScopeCode}, "Flask.url_for")

	// A batch that fails (the context is done) is not followed by put.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	puts = 0
	changed := []CodeFile{{Path: "flask/extra.py", Symbols: []CodeSymbol{{Name: "flask.extra.helper", Kind: "function", Body: "def helper(): pass", Line: 1, End: 1}}}}
	if err := ix.PutCodeBatchesThen(ctx, slices.Values([][]CodeFile{changed}), nil, put); err == nil || puts != 0 {
		t.Fatalf("cancelled: err %v, put called %d times; want an error and no put", err, puts)
	}
}

// TestExampleCodeRanksUnder checks that a program of a project's
// examples ranks under the API it uses, unless the query asks for an
// example.
func TestExampleCodeRanksUnder(t *testing.T) {
	ix := openTest(t, mapFS(nil), Options{})
	sym := CodeSymbol{Kind: "function", Signature: "func mountRouter(r Router, prefix string)",
		Doc: "mountRouter mounts a router under a path prefix.", Body: "r.Mount(prefix, sub())", Line: 10, End: 20}
	example, lib := sym, sym
	example.Name, lib.Name = "main.mountRouter", "router.mountRouter"
	example.Doc = "Mount a router under a path prefix: mount the router at the prefix." // the better match, but for its path
	putCode(t, ix, []CodeFile{
		{Path: "_examples/rest/main.go", Symbols: []CodeSymbol{example}},
		{Path: "router/mount.go", Symbols: []CodeSymbol{lib}},
	})
	// The same code ranks first in the project, in its examples once the
	// query asks for one.
	expectFirst(t, ix, "mount a router under a path prefix", []string{ScopeCode}, "router.mountRouter")
	expectFirst(t, ix, "example: mount a router under a path prefix", []string{ScopeCode}, "main.mountRouter")
	for p, want := range map[string]bool{"_examples/rest/main.go": true, "example/basic.go": true, "lib/exampleutil.go": false, "samples/a.js": true, "src/Button.stories.tsx": true, "src/stories.ts": false} {
		if got := exampleCode(p); got != want {
			t.Errorf("exampleCode(%s) = %v, want %v", p, got, want)
		}
	}
}
