package docsearch

import (
	"fmt"
	"strings"
	"testing"
)

// sessionCode is a class whose name the query spells, with a dunder and
// a one-line property that match on density, and the method that does
// the task.
func sessionCode() []CodeFile {
	return []CodeFile{{Path: "pkg/session.py", Symbols: []CodeSymbol{
		{Name: "Session", Kind: "class", Signature: "class Session", Doc: "A session keeps cookies.", Body: "class Session:\n    cookies = {}", Line: 1, End: 60},
		{Name: "Session.__repr__", Kind: "method", Signature: "def __repr__(self)", Body: "return '<Session cookies %r>' % self.cookies", Line: 3, End: 4},
		{Name: "Session.jar", Kind: "method", Signature: "def jar(self)", Body: "return self.cookies", Line: 6, End: 7},
		{Name: "Session.clear_all", Kind: "method", Signature: "def clear_all(self)",
			Body: "for name in list(self.cookies):\n    self.expire(name)\nself.cookies = {}\nself.log('cleared')\nreturn None", Calls: []string{"expire", "log"}, Line: 10, End: 20},
	}}}
}

// TestSymbolPriorsRankTheCallable: a question in words about a class's
// state finds the method that does the task, not the class, a dunder or
// a one-line member whose name says little.
func TestSymbolPriorsRankTheCallable(t *testing.T) {
	ix := openTest(t, mapFS(map[string]string{}), Options{})
	putCode(t, ix, sessionCode())
	expectFirst(t, ix, "how do I remove every session cookie", []string{ScopeCode}, "Session.clear_all")
	expectFirst(t, ix, "remove every session cookie", []string{ScopeCode}, "Session.clear_all")
}

// TestTaskVerbRanksTheMethod: a question that starts with a verb of a
// programming task asks for the method that does it, not the class whose
// name holds the question's words (the standard library's zipfile.ZipInfo
// ranked above ZipFile.extractall while "extract" was no task verb).
func TestTaskVerbRanksTheMethod(t *testing.T) {
	ix := openTest(t, mapFS(map[string]string{}), Options{})
	putCode(t, ix, []CodeFile{{Path: "pkg/archive.py", Symbols: []CodeSymbol{
		{Name: "ArchiveMember", Kind: "class", Signature: "class ArchiveMember", Doc: "A member file of an archive: its name, size and date.",
			Body: "class ArchiveMember:\n    name = ''\n    size = 0\n    date = None\n    compress_type = 0", Line: 1, End: 40},
		{Name: "Archive.extract_members", Kind: "method", Signature: "def extract_members(self, path=None)",
			Body: "for member in self.members():\n    self._write(member, path)\nreturn path", Calls: []string{"members", "_write"}, Line: 50, End: 60},
	}}})
	expectFirst(t, ix, "extract every member file of an archive", []string{ScopeCode}, "Archive.extract_members")
}

func TestAsksForTask(t *testing.T) {
	for q, want := range map[string]bool{
		"how do I attach a blueprint":          true,
		"parse the header":                     true,
		"Returns the first waiter":             true,
		"the central object WSGI application":  false,
		"registerBlueprint":                    false,
		"extract all files from a zip archive": true,
		"serve static files from a folder":     true,
		"retries the request":                  true,
		"progress widget in a notebook":        false,
	} {
		if got := asksForTask(q, classify(q)); got != want {
			t.Errorf("asksForTask(%q) = %v, want %v", q, got, want)
		}
	}
}

// TestAsksBehaviour: a question that starts with no task's verb still
// asks what code does when a task's verb, in any form, or a word that
// asks how code behaves is in it; a description of a thing does not.
func TestAsksBehaviour(t *testing.T) {
	for q, want := range map[string]bool{
		"what happens when i add an item to a full cache": true,
		"friends list should come out as names":           true,
		"where does the sandbox refuse attribute access":  true,
		"a template edited on disk is reloaded":           true,
		"jobs retried after a failure":                    true,
		"jobs retrying after a failure":                   true,
		"the rows stopped arriving":                       true,
		"central object wsgi application":                 false,
		"progress widget in a jupyter notebook":           false,
		"the red fox":                                     false,
		"seeded random numbers":                           false,
	} {
		if got := asksBehaviour(q); got != want {
			t.Errorf("asksBehaviour(%q) = %v, want %v", q, got, want)
		}
	}
}

// TestSymbolFeatures: the features of what a symbol is, for a query in
// words.
func TestSymbolFeatures(t *testing.T) {
	for _, c := range []struct {
		kind, name string
		lines      int
		documented bool
		task       bool
		query      string
		want       []int // the features set to 1
	}{
		{"method", "run", 10, false, true, "run it", []int{featExported, featCallable}},
		{"class", "A", 10, false, true, "make an a", []int{featType, featExported}},
		{"class", "A", 10, false, false, "the a", []int{featExported}},
		{"method", "__repr__", 10, false, false, "show it", []int{featDunder}},
		{"method", "__repr__", 10, false, false, "what does repr print", nil},
		{"method", "__init__", 10, false, true, "make an a", []int{featCallable}},
		{"method", "__call__", 10, false, true, "fix the client address", []int{featCallable}},
		{"method", "x", 2, false, false, "x", []int{featShort, featExported}},
		{"module", "m", 1, false, false, "x", []int{featExported}},
		{"function", "f", 1, true, false, "x", []int{featExported}},
		{"function", "_f", 10, false, true, "x", []int{featCallable}},
	} {
		var f [numCodeFeatures]float64
		symbolFeatures(&f, c.kind, c.name, "m.py", c.lines, c.documented, c.task, false, c.query)
		var got []int
		for _, k := range []int{featType, featDunder, featShort, featExported, featCallable} {
			if f[k] == 1 {
				got = append(got, k)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("symbolFeatures(%q, %q, %d lines, documented %v, task %v, %q) set %v, want %v", c.kind, c.name, c.lines, c.documented, c.task, c.query, got, c.want)
		}
	}
	for _, c := range []struct {
		kind            string
		task, behaviour bool
		want            []int
	}{
		{"class", false, true, []int{featTypeOther}},
		{"method", false, true, []int{featCallOther}},
		{"class", false, false, nil},
		{"method", true, false, []int{featCallable}},
		{"class", true, false, []int{featType}},
	} {
		var f [numCodeFeatures]float64
		symbolFeatures(&f, c.kind, "A", "m.py", 10, true, c.task, c.behaviour, "q")
		var got []int
		for _, k := range []int{featType, featCallable, featTypeOther, featCallOther} {
			if f[k] == 1 {
				got = append(got, k)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("a %s, task %v, behaviour %v: set %v, want %v", c.kind, c.task, c.behaviour, got, c.want)
		}
	}
	var f [numCodeFeatures]float64
	symbolFeatures(&f, "function", "main", "a.go", 10, false, false, false, "x")
	if f[featExported] != 0 || f[featLines] != 0 {
		t.Errorf("an unexported Go function of 10 lines: exported %v, lines %v; want 0, 0", f[featExported], f[featLines])
	}
}

// TestCopiesRankLast: an exact copy of a function elsewhere in the
// repository ranks after the other results, not second.
func TestCopiesRankLast(t *testing.T) {
	body := "for name in list(self.cookies):\n    self.expire(name)\nself.cookies = {}\nself.log('cleared every cookie')\nreturn None"
	ix := openTest(t, mapFS(map[string]string{}), Options{})
	putCode(t, ix, []CodeFile{
		{Path: "pkg/session.py", Symbols: []CodeSymbol{{Name: "Session.clear_all", Kind: "method", Signature: "def clear_all(self)", Body: body, Line: 10, End: 20}}},
		{Path: "pkg/copy/session.py", Symbols: []CodeSymbol{{Name: "Session.clear_all", Kind: "method", Signature: "def clear_all(self)", Body: body, Line: 10, End: 20}}},
		{Path: "pkg/jar.py", Symbols: []CodeSymbol{{Name: "Jar.drop", Kind: "method", Signature: "def drop(self, name)", Body: "self.cookies.pop(name)\nself.log('dropped a cookie')\nreturn True", Line: 1, End: 5}}},
	})
	got := codePaths(t, ix, "clear every cookie")
	if len(got) != 3 || got[2] != "pkg/copy/session.py" && got[2] != "pkg/session.py" || got[1] != "pkg/jar.py" {
		t.Errorf("results %v, want a session.py, pkg/jar.py, the other session.py", got)
	}
}

// TestBundleCopyRanksLast: a bundle's copy of a module's function,
// indented deeper, without the module's `export` and cut sooner for it,
// ranks after the module's own even where it ranks first by fusion; the
// copy kept is the one nearer the top of its file.
func TestBundleCopyRanksLast(t *testing.T) {
	var body strings.Builder
	body.WriteString("export function getSetMonth(value) {\n")
	for i := range 60 {
		fmt.Fprintf(&body, "    if (value === %d) {\n        setMonth(this, value, 'month %d');\n    }\n", i, i)
	}
	body.WriteString("    return get(this, 'Month');\n}")
	module := body.String()
	bundle := "    " + strings.ReplaceAll(strings.TrimPrefix(module, "export "), "\n", "\n    ")
	sym := func(name, body string, line int) CodeSymbol {
		return CodeSymbol{Name: name, Kind: "function", Signature: "function getSetMonth(value)", Body: body, Line: line, End: line + 182}
	}
	ix := openTest(t, mapFS(nil), Options{})
	putCode(t, ix, []CodeFile{
		// The bundle's path and name hold the query's words: it ranks
		// first by fusion.
		{Path: "moment.js", Symbols: []CodeSymbol{sym("moment.<callback of (…)>.getSetMonth", bundle, 1277)}},
		{Path: "src/lib/units/month.js", Symbols: []CodeSymbol{sym("src.lib.units.month.getSetMonth", module, 248)}},
	})
	bare := func(s string) int { return len(strings.Join(strings.Fields(s), "")) }
	if n := bare(CodeText("moment.js", sym("x", bundle, 1))); n >= bare(CodeText("m.js", sym("x", module, 1))) {
		t.Fatalf("the bundle's text, %d bytes bare, is not cut sooner than the module's", n)
	}
	got := codePaths(t, ix, "get or set the month of a moment")
	if want := "[src/lib/units/month.js moment.js]"; fmt.Sprint(got) != want {
		t.Errorf("results %v, want %s", got, want)
	}
}

// TestShortCopyRanksLast: a one-line function is a copy of another when
// its signature, name and all, is the same too and the two are laid out
// otherwise: a bundle's copy of a module's getter ranks under the
// module's. Two classes' same getters, byte for byte, are not copies.
func TestShortCopyRanksLast(t *testing.T) {
	sym := func(name, sig, body string, line int) CodeSymbol {
		return CodeSymbol{Name: name, Kind: "function", Signature: sig, Body: body, Line: line, End: line + 2}
	}
	const days = "{\n    return daysInMonth(this.year(), this.month());\n}"
	const name = "def name(self):\n    return self._name"
	ix := openTest(t, mapFS(nil), Options{})
	putCode(t, ix, []CodeFile{
		{Path: "moment.js", Symbols: []CodeSymbol{
			sym("moment.<callback of (…)>.getDaysInMonth", "function getDaysInMonth()", "    function getDaysInMonth() "+days, 1287)}},
		{Path: "src/lib/units/month.js", Symbols: []CodeSymbol{
			sym("src.lib.units.month.getDaysInMonth", "export function getDaysInMonth()", "export function getDaysInMonth() "+days, 258)}},
		{Path: "pkg/user.py", Symbols: []CodeSymbol{sym("pkg.user.User.name", "def name(self)", name, 10)}},
		{Path: "pkg/group.py", Symbols: []CodeSymbol{sym("pkg.group.Group.name", "def name(self)", name, 10)}},
	})
	// The bundle's path holds a word of the query: it ranks first by
	// fusion.
	if got := codePaths(t, ix, "get the days in the month of a moment"); len(got) < 2 || got[0] != "src/lib/units/month.js" {
		t.Errorf("getDaysInMonth: %v, want the module's first", got)
	}
	// Every code chunk, as fusion might rank them: only the bundle's
	// getter is lowered.
	var ranked []hit
	for c := range uint32(ix.nchunks()) {
		ranked = append(ranked, hit{chunk: c, fused: 1})
	}
	ix.demoteCopies(ranked)
	for _, h := range ranked {
		d := ix.doc(ix.chunkDoc(h.chunk))
		if lowered := h.fused < 1; lowered != (d.path == "moment.js#moment.<callback of (…)>.getDaysInMonth") {
			t.Errorf("%s: lowered %v", d.path, lowered)
		}
	}
}

// TestCopiedFunctionKeepsFirst: of two copies with the same text,
// whitespace and all, the first ranked is kept wherever it lies in its
// file; nearness to the top decides only between copies that differ in
// layout (a bundle's).
func TestCopiedFunctionKeepsFirst(t *testing.T) {
	body := strings.Repeat("x = normalize(x)\nif not x:\n    return None\n", 6)
	sym := func(name string, line int) CodeSymbol {
		return CodeSymbol{Name: name, Kind: "function", Signature: "def quote(x)", Body: body, Line: line, End: line + 18}
	}
	ix := openTest(t, mapFS(nil), Options{})
	putCode(t, ix, []CodeFile{
		{Path: "oauthlib/common.py", Symbols: []CodeSymbol{sym("oauthlib.common.quote", 300)}},
		{Path: "oauthlib/oauth1/utils.py", Symbols: []CodeSymbol{sym("oauthlib.oauth1.utils.quote", 20)}},
	})
	got := codePaths(t, ix, "quote a value for oauthlib common")
	if want := "[oauthlib/common.py oauthlib/oauth1/utils.py]"; fmt.Sprint(got) != want {
		t.Errorf("results %v, want %s", got, want)
	}
}

// TestIdentifierRanksItsDefinition: a query that is an identifier puts
// the symbol of that name first, over the shorter callers and prototype
// that repeat it; a qualified identifier matches its qualified name's end.
func TestIdentifierRanksItsDefinition(t *testing.T) {
	def := CodeSymbol{Name: "mm.slab_common.kmem_cache_create", Kind: "function",
		Signature: "struct kmem_cache *kmem_cache_create(const char *name, unsigned int size, unsigned int align, slab_flags_t flags, void (*ctor)(void *))",
		Doc: "Create a cache. Cannot be called within an interrupt, but can be interrupted. The ctor is run when new pages are " +
			"allocated by the cache. The flags are SLAB_POISON to poison the slab with a known test pattern, SLAB_RED_ZONE to " +
			"insert red zones around the allocated memory, SLAB_HWCACHE_ALIGN to align the objects to a hardware cacheline.",
		Body: "return kmem_cache_create_usercopy(name, size, align, flags, 0, 0, ctor);", Line: 387, End: 392}
	caller := func(name string, line int) CodeSymbol {
		return CodeSymbol{Name: name, Kind: "function", Signature: "#define " + localName(name) + "(s, f)",
			Body: "kmem_cache_create(\"kmem_cache_create\", sizeof(struct s), __alignof__(struct s), (f), NULL)", Calls: []string{"kmem_cache_create"}, Line: line, End: line + 2}
	}
	ix := openTest(t, mapFS(nil), Options{})
	putCode(t, ix, []CodeFile{
		{Path: "mm/slab_common.c", Symbols: []CodeSymbol{def}},
		{Path: "mm/ksm.c", Symbols: []CodeSymbol{caller("mm.ksm.ksm_slab_init", 299)}},
		{Path: "mm/shmem.c", Symbols: []CodeSymbol{caller("mm.shmem.shmem_init_inodecache", 3932)}},
	})
	for _, q := range []string{"kmem_cache_create", "slab_common.kmem_cache_create"} {
		if got := codePaths(t, ix, q); len(got) == 0 || got[0] != "mm/slab_common.c" {
			t.Errorf("%s: results %v, want mm/slab_common.c first", q, got)
		}
	}
	// A Go symbol's name ends with its import path: "packages.Load" is
	// the end of golang.org/x/tools/go/packages.Load after a slash.
	load := CodeSymbol{Name: "golang.org/x/tools/go/packages.Load", Kind: "function", Signature: "func Load(cfg *Config, patterns ...string) ([]*Package, error)",
		Doc: "Load loads and returns the Go packages named by the given patterns.", Body: "ld := newLoader(cfg)\nresponse, external, err := defaultDriver(&ld.Config, patterns...)\nreturn ld.refine(response)", Line: 267, End: 294}
	check := CodeSymbol{Name: "golang.org/x/tools/go/analysis/internal/checker.load", Kind: "function", Signature: "func load(patterns []string, allSyntax bool) ([]*packages.Package, error)",
		Body: "initial, err := packages.Load(conf, patterns...)\nreturn initial, err", Calls: []string{"packages.Load"}, Line: 271, End: 292}
	ix = openTest(t, mapFS(nil), Options{})
	putCode(t, ix, []CodeFile{{Path: "go/packages/packages.go", Symbols: []CodeSymbol{load}}, {Path: "go/analysis/internal/checker/checker.go", Symbols: []CodeSymbol{check}}})
	if got := codePaths(t, ix, "packages.Load"); len(got) == 0 || got[0] != "go/packages/packages.go" {
		t.Errorf("packages.Load: results %v, want go/packages/packages.go first", got)
	}
}

// TestSameCode: texts are copies when equal without whitespace, or when
// one is cut where the other goes on after enough in common; a shared
// doc comment over different bodies is no copy.
func TestSameCode(t *testing.T) {
	long := strings.Repeat("x", minCutCopyBytes)
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"return a + b;", "return a + b;", true},
		{long + "y", long + "yz", true},
		{long[:minCutCopyBytes-1], long, false},
		{long + "return 1", long + "return 2", false},
	} {
		if got := sameCode(c.a, c.b); got != c.want {
			t.Errorf("sameCode(%.20q…, %.20q…) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	if got := bareText("export default function f() {\n\treturn 1\n}\nexports.x = 1\n"); got != "functionf(){return1}exports.x=1" {
		t.Errorf("bareText: %q", got)
	}
	// A bundler's renamed copy (rollup's relativeTime$1) is the module's
	// function; a `$` that is no such suffix stays.
	for text, want := range map[string]string{
		"function relativeTime$1(d, th$2) {\n  return f$10(d)\n}": "functionrelativeTime(d,th){returnf(d)}",
		"s = '$1' + a$b + x$ + $2 + y$1z":                         "s='$1'+a$b+x$+$2+y$1z",
	} {
		if got := bareText(text); got != want {
			t.Errorf("bareText(%q) = %q, want %q", text, got, want)
		}
	}
	if got := withoutCalls("body\ncalls: a b\n"); got != "body\n" {
		t.Errorf("withoutCalls: %q", got)
	}
}

// TestNestedPlaceRanksUnder: an anonymous callback inside a function
// ranked before it repeats that function's words; another function that
// matches comes between them. A named nested function is lowered only
// when it spans at least half of the one before it.
func TestNestedPlaceRanksUnder(t *testing.T) {
	cb := "layer.handle_request(req, res, next)\nmatched = layer.match(path)\nif (!matched) return next(err)"
	handle := CodeSymbol{Name: "lib.router.proto.handle", Kind: "method", Signature: "proto.handle = function handle(req, res, out)",
		Doc:  "Handle a request with the layers of the stack that match.",
		Body: "var self = this\nvar stack = self.stack\nstack.forEach(function (layer) {\n" + cb + "\n})\nreturn out()", Line: 10, End: 60}
	inner := CodeSymbol{Name: "lib.router.proto.handle.<callback of stack.forEach>", Kind: "function", Signature: "function (layer)",
		Body: cb, Line: 13, End: 17}
	other := CodeSymbol{Name: "lib.route.Route.dispatch", Kind: "method", Signature: "Route.prototype.dispatch = function dispatch(req, res, done)",
		Body: "var stack = this.stack\nfor (var i = 0; i < stack.length; i++) {\n  if (stack[i].method !== req.method) continue\n  return stack[i].handle_request(req, res, done)\n}\ndone()", Line: 1, End: 30}
	for _, c := range []struct {
		named, long bool // named, and spanning most of handle
		want        string
	}{
		{false, false, "[handle dispatch <callback of stack.forEach>]"},
		{true, false, "[handle next dispatch]"},
		{true, true, "[handle dispatch next]"},
	} {
		in := inner
		if c.named {
			in.Name = "lib.router.proto.handle.next"
		}
		if c.long {
			in.Line, in.End = 12, 58
		}
		ix := openTest(t, mapFS(nil), Options{})
		putCode(t, ix, []CodeFile{{Path: "lib/router.js", Symbols: []CodeSymbol{handle, in}}, {Path: "lib/route.js", Symbols: []CodeSymbol{other}}})
		res, err := ix.Search(ctx, Query{Text: "handle the request with the matching layer of the stack", Scopes: []string{ScopeCode}, MinScore: zero()})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range res.Results {
			got = append(got, localName(r.Symbol))
		}
		if fmt.Sprint(got) != c.want {
			t.Errorf("named %v, long %v: results %v, want %s", c.named, c.long, got, c.want)
		}
	}
}

// codePaths returns the paths of the code results of query, in order.
func codePaths(t *testing.T, ix *Index, query string) []string {
	t.Helper()
	res, err := ix.Search(ctx, Query{Text: query, Scopes: []string{ScopeCode}, MinScore: zero()})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range res.Results {
		got = append(got, r.Path)
	}
	return got
}

// TestOneWordRanksItsSymbol: a query of one plain word that a symbol is
// named by ("Table", not written as code) puts that symbol first, over
// the shorter functions whose names hold the word; the name's case
// counts (the method table is not the class Table).
func TestOneWordRanksItsSymbol(t *testing.T) {
	class := CodeSymbol{Name: "sql.schema.Table", Kind: "class", Signature: "class Table(SchemaItem, TableClause)",
		Doc:  "Represent a relation in a database. Construct it with a name, a MetaData collection and its columns, constraints and dialect options.",
		Body: "members: __new__ __init__ key to_metadata\n" + strings.Repeat("self._init_items(*args)\nself._extra_dependencies = set()\n", 20), Line: 170, End: 1156}
	short := func(name, sig string, line int) CodeSymbol {
		return CodeSymbol{Name: name, Kind: "method", Signature: sig, Body: "return self.table", Line: line, End: line + 2}
	}
	ix := openTest(t, mapFS(nil), Options{})
	putCode(t, ix, []CodeFile{
		{Path: "sql/schema.py", Symbols: []CodeSymbol{class}},
		{Path: "sql/elements.py", Symbols: []CodeSymbol{short("sql.elements.AnnotatedColumnElement.table", "def table(self)", 5292)}},
		{Path: "dialects/mssql/base.py", Symbols: []CodeSymbol{short("dialects.mssql.base.MSDialect.has_table", "def has_table(self, connection, tablename)", 2989)}},
	})
	if got := codePaths(t, ix, "Table"); len(got) == 0 || got[0] != "sql/schema.py" {
		t.Errorf("Table: results %v, want sql/schema.py first", got)
	}
	if got := codePaths(t, ix, "table"); len(got) == 0 || got[0] != "sql/elements.py" {
		t.Errorf("table: results %v, want sql/elements.py first", got)
	}
}

// TestBuildCopyGivesWayToSource: of a function and its byte-for-byte copy
// in a build directory, the source's is kept, though the copy ranks
// first by fusion: copies are told apart in the order the features
// give, which lower the build's copy as auxiliary (moment's
// dist/locale/cs.js stood for src/locale/cs.js).
func TestBuildCopyGivesWayToSource(t *testing.T) {
	body := strings.Repeat("var result = number + ' ';\nif (withoutSuffix) {\n    result += plural(number);\n}\n", 5) + "return result;"
	sym := func(name string) CodeSymbol {
		return CodeSymbol{Name: name, Kind: "function", Signature: "function translate(number, withoutSuffix, key)", Body: body, Line: 40, End: 62}
	}
	ix := openTest(t, mapFS(nil), Options{})
	putCode(t, ix, []CodeFile{
		// The build's path holds words of the query: it ranks first by
		// fusion.
		{Path: "dist/relative/time/cs.js", Symbols: []CodeSymbol{sym("dist.relative.time.cs.translate")}},
		{Path: "src/locale/cs.js", Symbols: []CodeSymbol{sym("src.locale.cs.translate")}},
		{Path: "src/lib/units/month.js", Symbols: []CodeSymbol{{Name: "src.lib.units.month.daysInMonth", Kind: "function",
			Signature: "function daysInMonth(year, month)", Body: "return new Date(year, month + 1, 0).getDate();", Line: 1, End: 3}}},
	})
	got := codePaths(t, ix, "translate a relative time into words")
	if len(got) < 2 || got[0] != "src/locale/cs.js" || got[len(got)-1] != "dist/relative/time/cs.js" {
		t.Errorf("results %v, want src/locale/cs.js first and the build's copy last", got)
	}
}
