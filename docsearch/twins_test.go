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
