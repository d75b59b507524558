package docsearch

import (
	"strings"
	"testing"
)

// chunkOf returns the chunk of the code document key.
func chunkOf(t *testing.T, ix *Index, key string) uint32 {
	t.Helper()
	for c := range uint32(ix.nchunks()) {
		if d := ix.doc(ix.chunkDoc(c)); d != nil && d.path == key {
			return c
		}
	}
	t.Fatalf("no chunk of %s", key)
	return 0
}

// TestCopyAnsweredBySource: a bundle's copy of a module's function, the
// module's not ranked, is answered by the module's, in its place; when
// the module's is ranked below it, the module's takes its score and the
// copy is lowered. A build's copy laid out alike is answered by the
// source's; a function copied between two modules is not.
func TestCopyAnsweredBySource(t *testing.T) {
	body := "var res, i;\nif (moments.length === 1 && isArray(moments[0])) {\n    moments = moments[0];\n}\n" +
		"res = moments[0];\nfor (i = 1; i < moments.length; ++i) {\n    if (moments[i][fn](res)) {\n        res = moments[i];\n    }\n}\nreturn res;"
	indent := func(s string) string { return "    " + strings.ReplaceAll(s, "\n", "\n    ") }
	sym := func(name, sig, body string, line int) CodeSymbol {
		return CodeSymbol{Name: name, Kind: "function", Signature: sig, Body: sig + " {\n" + body + "\n}", Line: line, End: line + 15}
	}
	ix := openTest(t, mapFS(nil), Options{})
	putCode(t, ix, []CodeFile{
		{Path: "src/lib/moment/min-max.js", Symbols: []CodeSymbol{sym("src.lib.moment.min-max.pickBy", "export function pickBy(fn, moments)", body, 34)}},
		{Path: "moment.js", Symbols: []CodeSymbol{sym("moment.<callback of (…)>.pickBy", "function pickBy(fn, moments)", indent(body), 3131)}},
		{Path: "dist/moment.js", Generated: true, Symbols: []CodeSymbol{sym("dist.moment.pickBy", "export function pickBy(fn, moments)", body, 3129)}},
	})
	src := chunkOf(t, ix, "src/lib/moment/min-max.js#src.lib.moment.min-max.pickBy")
	for _, copy := range []string{"moment.js#moment.<callback of (…)>.pickBy", "dist/moment.js#dist.moment.pickBy"} {
		ranked := []hit{{chunk: chunkOf(t, ix, copy), fused: 1}}
		if !ix.answerBySource(ranked, nil) || ranked[0].chunk != src || ranked[0].fused != 1 {
			t.Errorf("%s alone: ranked %+v, want the module's chunk %d in its place", copy, ranked, src)
		}
		ranked = []hit{{chunk: chunkOf(t, ix, copy), fused: 1}, {chunk: src, fused: 0.5}}
		if !ix.answerBySource(ranked, nil) || ranked[0].fused != copyDemote || ranked[1].chunk != src || ranked[1].fused != 1 {
			t.Errorf("%s over the module's: ranked %+v, want the module's at the copy's score, the copy lowered", copy, ranked)
		}
		// The features' verdict on the source that the copy's score
		// lacks goes with it (a translation's, a test's).
		var asked [2]string
		lower := func(c, s *doc) float64 { asked = [2]string{c.path, s.path}; return 0.25 }
		ranked = []hit{{chunk: chunkOf(t, ix, copy), fused: 1}}
		if !ix.answerBySource(ranked, lower) || ranked[0].chunk != src || ranked[0].fused != 0.25 || asked != [2]string{copy, "src/lib/moment/min-max.js#src.lib.moment.min-max.pickBy"} {
			t.Errorf("%s alone, lowered: ranked %+v, asked %v, want the module's at a quarter of the copy's score", copy, ranked, asked)
		}
		ranked = []hit{{chunk: chunkOf(t, ix, copy), fused: 1}, {chunk: src, fused: 0.5}}
		if !ix.answerBySource(ranked, lower) || ranked[1].fused != 0.5 {
			t.Errorf("%s over the module's, lowered: ranked %+v, want the module's at its own score, above a quarter of the copy's", copy, ranked)
		}
	}
	// A source in another scope (vendored) is not the search's to give.
	ix2 := openTest(t, mapFS(nil), Options{})
	putCode(t, ix2, []CodeFile{
		{Path: "vendor/moment/min-max.js", Vendor: true, Symbols: []CodeSymbol{sym("vendor.moment.min-max.pickBy", "export function pickBy(fn, moments)", body, 34)}},
		{Path: "app/bundle.js", Symbols: []CodeSymbol{sym("app.bundle.<callback of (…)>.pickBy", "function pickBy(fn, moments)", indent(body), 3131)}},
	})
	bundled := chunkOf(t, ix2, "app/bundle.js#app.bundle.<callback of (…)>.pickBy")
	if ranked := []hit{{chunk: bundled, fused: 1}}; ix2.answerBySource(ranked, nil) || ranked[0].chunk != bundled {
		t.Errorf("a vendored source: ranked %+v, want the copy kept", ranked)
	}

	// The module and the build removed, their postings kept by the
	// index: the copy stays.
	putCode(t, ix, nil, "src/lib/moment/min-max.js", "dist/moment.js")
	copied := chunkOf(t, ix, "moment.js#moment.<callback of (…)>.pickBy")
	if ranked := []hit{{chunk: copied, fused: 1}}; ix.answerBySource(ranked, nil) || ranked[0].chunk != copied {
		t.Errorf("the module removed: ranked %+v, want the copy kept", ranked)
	}

	// lib/a.js's copy of lib/b.js's is laid out alike in no build: kept.
	ix = openTest(t, mapFS(nil), Options{})
	putCode(t, ix, []CodeFile{
		{Path: "lib/a.js", Symbols: []CodeSymbol{sym("lib.a.pickBy", "function pickBy(fn, moments)", body, 40)}},
		{Path: "lib/b.js", Symbols: []CodeSymbol{sym("lib.b.pickBy", "function pickBy(fn, moments)", body, 10)}},
	})
	a := chunkOf(t, ix, "lib/a.js#lib.a.pickBy")
	ranked := []hit{{chunk: a, fused: 1}}
	if ix.answerBySource(ranked, nil) || ranked[0].chunk != a {
		t.Errorf("a module's copy of another's: ranked %+v, want it kept", ranked)
	}
}

func TestKeyName(t *testing.T) {
	for k, want := range map[string]string{
		"a.b.f": "a.b.f", "a.b.f@12": "a.b.f", "a.b.f@12.2": "a.b.f", "a.<callback of @x>.f": "a.<callback of @x>.f", "f@": "f@",
	} {
		if got := keyName(k); got != want {
			t.Errorf("keyName(%q) = %q, want %q", k, got, want)
		}
	}
}
