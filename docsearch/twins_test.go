package docsearch

import (
	"fmt"
	"strings"
	"testing"
)

// TestTwinCopy: a script in a directory named for a module format is a
// copy when a sibling named as more of a source holds the same path, or
// when a sibling named as the source (src/) holds scripts (a bundle of
// them), but for lib/, which a repository may write by hand beside src/;
// platforms' directories, unrelated names and files without a
// twin by either are not, nor is the source itself.
func TestTwinCopy(t *testing.T) {
	ix := openTest(t, mapFS(nil), Options{})
	var files []CodeFile
	want := map[string]bool{
		"underscore/modules/debounce.js": false, "underscore/amd/debounce.js": true, "underscore/cjs/debounce.js": true,
		"underscore/amd/only-here.js": true, // a build beside modules/
		"ejs/lib/esm/ejs.js":          false, "ejs/lib/cjs/ejs.js": true,
		"babel/src/index.ts": false, "babel/lib/index.js": true, "babel/es/index.js": true,
		"redux/src/combineReducers.js": false, "redux/es/redux.js": true, "redux/lib/redux.js": true, // twin of es/redux.js
		"app/src/main.js": false, "app/lib/helpers.js": false,
		"axios/lib/platform/node/index.js": false, "axios/lib/platform/browser/index.js": false,
		"kernel/drivers/amd/x.js": false, "kernel/drivers/ati/x.js": false,
		"express/lib/router.js": false,
	}
	for p := range want {
		files = append(files, CodeFile{Path: p, Symbols: []CodeSymbol{{Name: strings.TrimSuffix(p, ".js") + ".f", Kind: "function", Line: 1, End: 3}}})
	}
	putCode(t, ix, files)
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	for file, want := range want {
		if got := ix.twinCopy(file); got != want {
			t.Errorf("twinCopy(%s) = %v, want %v", file, got, want)
		}
	}
}

// TestSameDirTwinCopy: of scripts of one name in one directory, each is a
// copy of the one whose extension says more of a source (TypeScript, an
// ES module's .mjs, a .js beside a .cjs), when that one holds at least
// half as many code documents; a wrapper that imports the code and
// exports it again is no source of it, a .jsx no copy, and a script with
// no other of its name stands alone.
func TestSameDirTwinCopy(t *testing.T) {
	ix := openTest(t, mapFS(nil), Options{})
	file := func(p string, n int) CodeFile {
		f := CodeFile{Path: p}
		for i := range n {
			f.Symbols = append(f.Symbols, CodeSymbol{Name: fmt.Sprintf("f%d", i), Kind: "function", Line: 1 + 4*i, End: 3 + 4*i})
		}
		return f
	}
	want := map[string]struct {
		funcs int
		src   string // "" for no copy
	}{
		"datefns/addDays.mjs": {2, ""}, "datefns/addDays.js": {2, "datefns/addDays.mjs"},
		"pkg/index.js": {9, ""}, "pkg/index.cjs": {10, "pkg/index.js"},
		"inplace/parser.ts": {5, ""}, "inplace/parser.mjs": {5, "inplace/parser.ts"}, "inplace/parser.js": {5, "inplace/parser.ts"},
		"wrapper/index.mjs": {1, ""}, "wrapper/index.js": {12, ""},
		"react/Button.jsx": {3, ""}, "react/Button.js": {3, ""},
		"alone/util.cjs":   {4, ""},
		"other/addDays.js": {2, ""}, // another directory's
	}
	var files []CodeFile
	for p, w := range want {
		files = append(files, file(p, w.funcs))
	}
	putCode(t, ix, files)
	ix.mu.RLock()
	for p, w := range want {
		stem, _ := scriptStem(p)
		if got := ix.twinSource(p, stem); got != w.src {
			t.Errorf("twinSource(%s) = %q, want %q", p, got, w.src)
		}
		if got := ix.twinCopy(p); got != (w.src != "") {
			t.Errorf("twinCopy(%s) = %v, want %v", p, got, w.src != "")
		}
	}
	ix.mu.RUnlock()
	copies := map[string]string{}
	for _, c := range ix.BuiltCopies() {
		copies[c.Path] = c.Reason
	}
	if r := copies["datefns/addDays.js"]; r != "a module format's copy of datefns/addDays.mjs beside it: ranked under it in search" {
		t.Errorf("BuiltCopies' reason for addDays.js: %q", r)
	}
	if len(copies) != 4 {
		t.Errorf("BuiltCopies: %v, want the four copies", copies)
	}
}

// TestTwinAnsweredBySource: of a source and its module formats' copies,
// which start at lines near its own (one nearer the top), the search
// answers with the source, whichever ranked first.
func TestTwinAnsweredBySource(t *testing.T) {
	body := "var timeout, previous, args, result, context;\nvar later = function() {\n  var passed = now() - previous;\n" +
		"  if (wait > passed) {\n    timeout = setTimeout(later, wait - passed);\n  } else {\n    timeout = null;\n  }\n};"
	sym := func(name, sig string, line int, indent string) CodeSymbol {
		b := indent + sig + " {\n" + indent + strings.ReplaceAll(body, "\n", "\n"+indent) + "\n" + indent + "}"
		return CodeSymbol{Name: name, Kind: "function", Signature: sig, Body: b, Line: line, End: line + 30}
	}
	ix := openTest(t, mapFS(nil), Options{})
	putCode(t, ix, []CodeFile{
		{Path: "modules/debounce.js", Symbols: []CodeSymbol{sym("modules.debounce.debounce", "export default function debounce(func, wait, immediate)", 8, "")}},
		{Path: "amd/debounce.js", Symbols: []CodeSymbol{sym("amd.debounce.<callback of define>.debounce", "function debounce(func, wait, immediate)", 7, "  ")}},
		{Path: "cjs/debounce.js", Symbols: []CodeSymbol{sym("cjs.debounce.debounce", "function debounce(func, wait, immediate)", 8, "")}},
	})
	src := chunkOf(t, ix, "modules/debounce.js#modules.debounce.debounce")
	amd := chunkOf(t, ix, "amd/debounce.js#amd.debounce.<callback of define>.debounce")
	cjs := chunkOf(t, ix, "cjs/debounce.js#cjs.debounce.debounce")
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	for _, copy := range []uint32{amd, cjs} {
		ranked := []hit{{chunk: copy, fused: 1}}
		if !ix.answerBySource(ranked, nil) || ranked[0].chunk != src {
			t.Errorf("copy %d alone: ranked %+v, want the source's chunk %d in its place", copy, ranked, src)
		}
	}
	ranked := []hit{{chunk: src, fused: 1}}
	if ix.answerBySource(ranked, nil) || ranked[0].chunk != src {
		t.Errorf("the source alone: ranked %+v, want it kept, not answered by a copy nearer the top", ranked)
	}
	ranked = []hit{{chunk: amd, fused: 1}, {chunk: cjs, fused: 0.9}, {chunk: src, fused: 0.8}}
	if !ix.demoteCopies(ranked) || ranked[0].fused >= 0.1 || ranked[1].fused >= 0.1 || ranked[2].fused != 0.8 {
		t.Errorf("the copies ranked over the source: %s, want both copies lowered", fmt.Sprint(ranked))
	}
}

// TestBuiltCopiesFollowChanges: BuiltCopies lists a twin's copy while its
// source is indexed, a format's build while src/ is beside it, and
// neither once the sources are removed.
func TestBuiltCopiesFollowChanges(t *testing.T) {
	ix := openTest(t, mapFS(nil), Options{})
	file := func(p string) CodeFile {
		return CodeFile{Path: p, Symbols: []CodeSymbol{{Name: strings.TrimSuffix(p, ".js") + ".f", Kind: "function", Line: 1, End: 3}}}
	}
	putCode(t, ix, []CodeFile{file("esm/a.js"), file("cjs/a.js"), file("cjs/b.js")})
	if got := ix.BuiltCopies(); len(got) != 1 || got[0].Path != "cjs/a.js" || !strings.Contains(got[0].Reason, "copy of esm/a.js") {
		t.Errorf("with its source: %+v", got)
	}
	putCode(t, ix, []CodeFile{file("src/c.js")})
	if got := ix.BuiltCopies(); len(got) != 3 || got[1].Path != "cjs/b.js" || !strings.Contains(got[1].Reason, "beside the sources in src/") {
		t.Errorf("with src/ beside: %+v", got)
	}
	if err := ix.PutCode(t.Context(), nil, []string{"esm/a.js", "src/c.js"}); err != nil {
		t.Fatal(err)
	}
	if got := ix.BuiltCopies(); len(got) != 0 {
		t.Errorf("the source removed: %+v, want none", got)
	}
}

// TestSameDirTwinAnsweredBySource: a CommonJS twin beside its ES module,
// whose text the compiler rewrote, is answered by the module's function
// of the same name, and lowered when that function is ranked too.
func TestSameDirTwinAnsweredBySource(t *testing.T) {
	esm := "export function addDays(date, amount) {\n  const _date = toDate(date);\n  if (isNaN(amount)) return constructFrom(date, NaN);\n" +
		"  if (!amount) return _date;\n  _date.setDate(_date.getDate() + amount);\n  return _date;\n}"
	cjs := "function addDays(date, amount) {\n  const _date = (0, _index.toDate)(date);\n  if (isNaN(amount)) return (0, _index2.constructFrom)(date, NaN);\n" +
		"  if (!amount) return _date;\n  _date.setDate(_date.getDate() + amount);\n  return _date;\n}"
	ix := openTest(t, mapFS(nil), Options{})
	putCode(t, ix, []CodeFile{
		{Path: "addDays.mjs", Symbols: []CodeSymbol{{Name: "addDays.addDays", Kind: "function", Signature: "export function addDays(date, amount)", Body: esm, Line: 24, End: 33}}},
		{Path: "addDays.js", Symbols: []CodeSymbol{{Name: "addDays.addDays", Kind: "function", Signature: "function addDays(date, amount)", Body: cjs, Line: 26, End: 35}}},
	})
	src := chunkOf(t, ix, "addDays.mjs#addDays.addDays")
	cp := chunkOf(t, ix, "addDays.js#addDays.addDays")
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	ranked := []hit{{chunk: cp, fused: 1}}
	if !ix.answerBySource(ranked, nil) || ranked[0].chunk != src {
		t.Errorf("the copy alone: ranked %+v, want the module's chunk %d in its place", ranked, src)
	}
	ranked = []hit{{chunk: cp, fused: 1}, {chunk: src, fused: 0.8}}
	if !ix.answerBySource(ranked, nil) || ranked[0].fused >= 0.1 || ranked[1].fused != 1 {
		t.Errorf("both ranked, the copy first: %+v, want the copy lowered and the module raised to its score", ranked)
	}
	ranked = []hit{{chunk: src, fused: 1}}
	if ix.answerBySource(ranked, nil) {
		t.Errorf("the module alone: answered by %+v", ranked)
	}
}

// TestTwinCopyOfTestIsTest: a module format's copy of a test fixture
// ranks as the test code it is (the test feature, which lowers more than
// a copy's), not only as a copy.
func TestTwinCopyOfTestIsTest(t *testing.T) {
	ix := openTest(t, mapFS(nil), Options{})
	body := "async function run (opts) {\n  const stream = fs.createWriteStream(opts.destination)\n  await once(stream, 'open')\n  return stream\n}"
	putCode(t, ix, []CodeFile{
		{Path: "test/fixtures/to-file.mjs", Symbols: []CodeSymbol{{Name: "test.fixtures.to-file.run", Kind: "function", Signature: "export default async function run (opts)", Body: "export default " + body, Line: 4, End: 8}}},
		{Path: "test/fixtures/to-file.js", Symbols: []CodeSymbol{{Name: "test.fixtures.to-file.run", Kind: "function", Signature: "async function run (opts)", Body: body, Line: 6, End: 11}}},
		{Path: "lib/file.js", Symbols: []CodeSymbol{{Name: "lib.file.destination", Kind: "function", Signature: "function destination (opts)", Body: "return buildSafeSonicBoom({ dest: opts.destination })", Line: 1, End: 3}}},
	})
	zero := 0.0
	features := map[string][]float64{}
	if _, err := ix.Search(t.Context(), Query{Text: "write the logs to a file stream", Scopes: []string{ScopeCode}, MinScore: &zero, Limit: 10,
		CodeCandidates: func(cands []CodeCandidate) {
			for _, c := range cands {
				features[c.Result.Path] = c.Features
			}
		}}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"test/fixtures/to-file.mjs", "test/fixtures/to-file.js"} {
		if f := features[p]; f == nil || f[featTest] != 1 || f[featAux] != 0 {
			t.Errorf("%s: features %v, want test 1 and aux 0", p, f)
		}
	}
}

// TestTwinModuleAnsweredBySource: an AMD copy's module, whose text wraps
// the source's in a define callback, is answered by the source module's
// document of the same kind, not left standing for it.
func TestTwinModuleAnsweredBySource(t *testing.T) {
	body := "function createEscaper(map) {\n  var escaper = function(match) { return map[match]; };\n" +
		"  var source = '(?:' + keys(map).join('|') + ')';\n  var testRegexp = RegExp(source);\n  return function(string) {\n" +
		"    string = string == null ? '' : '' + string;\n    return testRegexp.test(string) ? string.replace(replaceRegexp, escaper) : string;\n  };\n}"
	ix := openTest(t, mapFS(nil), Options{})
	putCode(t, ix, []CodeFile{
		{Path: "modules/_createEscaper.js", Symbols: []CodeSymbol{
			{Name: "modules._createEscaper", Kind: "module", Body: "import keys from './keys.js';\n\nexport default " + body, Line: 1, End: 17},
			{Name: "modules._createEscaper.createEscaper", Kind: "function", Signature: "export default function createEscaper(map)", Body: body, Line: 5, End: 17}}},
		{Path: "amd/_createEscaper.js", Symbols: []CodeSymbol{
			{Name: "amd._createEscaper", Kind: "module", Body: "define(['./keys'], function (keys) {\n\n  " + strings.ReplaceAll(body, "\n", "\n  ") + "\n\n  return createEscaper;\n\n});", Line: 1, End: 21}}},
	})
	src := chunkOf(t, ix, "modules/_createEscaper.js#modules._createEscaper")
	cp := chunkOf(t, ix, "amd/_createEscaper.js#amd._createEscaper")
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	ranked := []hit{{chunk: cp, fused: 1}}
	if !ix.answerBySource(ranked, nil) || ranked[0].chunk != src {
		t.Errorf("the AMD module alone: ranked %+v, want the source module's chunk %d in its place", ranked, src)
	}
}

// TestMirrorCopy: a directory whose scripts nearly all lie at the same
// paths in its parent (typeorm's browser/, an ES build of the CommonJS at
// the package's root) is a copy of the parent's, whatever its name, and
// its symbols, places too, are answered by the parent's; a directory
// that shares a few names with its parent (axios's platform/browser/),
// or half of its files, is not, nor src/, nor TypeScript beside the
// JavaScript compiled from it.
func TestMirrorCopy(t *testing.T) {
	ix := openTest(t, mapFS(nil), Options{})
	fn := func(p, name string) CodeFile {
		mod := strings.ReplaceAll(strings.TrimSuffix(p, ".js"), "/", ".")
		return CodeFile{Path: p, Symbols: []CodeSymbol{
			{Name: mod + "." + name, Kind: "method", Signature: name + "(entity)", Body: "return this.manager." + name + "(entity)", Line: 3, End: 5},
			{Name: mod + "." + name + ".<callback of this.joins.find>", Kind: "function", Signature: "(join) =>", Body: "join.alias === alias", Line: 4, End: 4},
			// Another method of the name, which sorts first: a copy is
			// answered by its own, past the module.
			{Name: mod + ".Other." + name, Kind: "method", Signature: name + "(x)", Body: "return x", Line: 7, End: 9}}}
	}
	var files []CodeFile
	for i := range 12 {
		p := fmt.Sprintf("repository/Repo%d.js", i)
		files = append(files, fn(p, "save"), fn("browser/"+p, "save"))
	}
	for i := range 10 { // half of them mirrored
		files = append(files, fn(fmt.Sprintf("half/m%d.js", i), "get"))
		if i < 5 {
			files = append(files, fn(fmt.Sprintf("m%d.js", i), "get"))
		}
	}
	files = append(files, fn("lib/platform/browser/index.js", "get"), fn("lib/platform/index.js", "get"))
	for i := range 10 { // sources beside their build: src/ named so, and TypeScript beside JavaScript
		files = append(files, fn(fmt.Sprintf("pkg/src/s%d.js", i), "run"), fn(fmt.Sprintf("pkg/s%d.js", i), "run"))
		files = append(files, fn(fmt.Sprintf("tsp/lib/t%d.ts", i), "run"), fn(fmt.Sprintf("tsp/t%d.js", i), "run"))
	}
	putCode(t, ix, files)
	ix.mu.RLock()
	for file, want := range map[string]string{
		"browser/repository/Repo3.js": "repository/Repo3.js", "repository/Repo3.js": "",
		"half/m1.js": "", "lib/platform/browser/index.js": "", "pkg/src/s1.js": "", "tsp/lib/t1.ts": "",
	} {
		if got := ix.twinSourceOf(file); got != want {
			t.Errorf("twinSourceOf(%s) = %q, want %q", file, got, want)
		}
	}
	for _, name := range []string{"save", "save.<callback of this.joins.find>", "Other.save"} {
		cp := chunkOf(t, ix, "browser/repository/Repo3.js#browser.repository.Repo3."+name)
		src := chunkOf(t, ix, "repository/Repo3.js#repository.Repo3."+name)
		ranked := []hit{{chunk: cp, fused: 1}}
		if !ix.answerBySource(ranked, nil) || ranked[0].chunk != src {
			t.Errorf("%s: the mirror's copy alone: ranked %+v, want the parent's chunk %d in its place", name, ranked, src)
		}
	}
	ix.mu.RUnlock()
}
