package docsearch

import (
	"math"
	"testing"
)

// jarCode is a class whose members share its name and file: a one-line
// getter, a dunder, and the method whose own text does what a question
// asks, which is longer.
func jarCode() []CodeFile {
	return []CodeFile{{Path: "http/cookiejar.py", Symbols: []CodeSymbol{
		{Name: "CookieJar.size", Kind: "method", Signature: "def size(self)", Body: "return len(self.cookies)", Line: 3, End: 4},
		{Name: "CookieJar.__len__", Kind: "method", Signature: "def __len__(self)", Body: "return self.size()", Line: 6, End: 7},
		{Name: "CookieJar.prune", Kind: "method", Signature: "def prune(self, now)",
			Body: "for cookie in list(self.cookies):\n    if cookie.expires < now:\n        self.cookies.remove(cookie)\n        self.log('dropped expired cookie', cookie)\nself.save()\nreturn len(self.cookies)",
			Line: 9, End: 16},
	}}}
}

// indexCands returns candidates by their symbol's local name.
func indexCands(cands []codeCand) map[string]*codeCand {
	by := map[string]*codeCand{}
	for i := range cands {
		by[localName(cands[i].d.title)] = &cands[i]
	}
	return by
}

// TestFieldFeatures: a member whose own text holds the question's words
// scores over its siblings that share only the class's name and file,
// by BM25 of its text and by how much of the query it covers.
func TestFieldFeatures(t *testing.T) {
	ix := openTest(t, mapFS(map[string]string{}), Options{})
	putCode(t, ix, jarCode())
	var cands []codeCand
	for id, d := range ix.docs {
		if d != nil && isCodeScope(d.scope) {
			cands = append(cands, codeCand{id: uint32(id), d: d, file: codeFileOf(d.path)})
		}
	}
	qw := ix.queryIDF("drop the expired cookies from the jar")
	fieldFeatures(newAnalyzer(), cands, qw)
	by := indexCands(cands)
	prune, size, dunder := by["prune"], by["size"], by["__len__"]
	if prune == nil || size == nil || dunder == nil {
		t.Fatalf("candidates %v", by)
	}
	if prune.f[featText] != 0.5 {
		t.Errorf("prune: text %.3f, want 0.5 (the best)", prune.f[featText])
	}
	for _, c := range []*codeCand{size, dunder} {
		if c.f[featText] >= prune.f[featText] || c.f[featCover] >= prune.f[featCover] {
			t.Errorf("%s: text %.3f cover %.3f, not under prune's %.3f and %.3f", c.d.title, c.f[featText], c.f[featCover], prune.f[featText], prune.f[featCover])
		}
	}
	// A query the texts do not hold: every text feature at its least.
	none := ix.queryIDF("zebra")
	fieldFeatures(newAnalyzer(), cands, none)
	for _, c := range cands {
		if c.f[featText] != -0.5 || c.f[featCover] != -0.5 {
			t.Errorf("%s: text %.3f cover %.3f for a word none holds, want -0.5", c.d.title, c.f[featText], c.f[featCover])
		}
	}
}

// TestFileBest: the sibling feature is a file's best other candidate
// against the best overall, not how many candidates it has.
func TestFileBest(t *testing.T) {
	fused := map[string]float64{"a1": 1, "a2": 0.5, "b1": 0.8, "b2": 0.1, "b3": 0.1, "b4": 0.1, "c1": 0.6}
	var cands []codeCand
	for _, n := range []string{"a1", "b1", "c1", "a2", "b2", "b3", "b4"} {
		cands = append(cands, codeCand{file: n[:1], d: &doc{title: n, prose: noProse}})
	}
	fileBest(cands, func(c codeCand) float64 { return fused[c.d.title] })
	want := map[string]float64{"a1": 0.5, "a2": 1, "b1": 0.1, "b2": 0.8, "c1": 0}
	for _, c := range cands {
		w, ok := want[c.d.title]
		if !ok {
			continue
		}
		if got := c.f[featSibling]; math.Abs(got-math.Log1p(w)) > 1e-9 {
			t.Errorf("%s: sibling %.3f, want log(1+%.2f)", c.d.title, got, w)
		}
	}
}

// BenchmarkCodeSearchFields is BenchmarkCodeSearch's queries with the
// features of a symbol's own text and its file's best other candidate
// weighed: their cost when the weights use them (the built-in ones do
// not, and skip them).
func BenchmarkCodeSearchFields(b *testing.B) {
	ix := openTest(b, mapFS(map[string]string{}), Options{})
	if err := ix.PutCode(ctx, syntheticCode(200), nil); err != nil {
		b.Fatal(err)
	}
	w := CodeWeights()
	w[featText], w[featCover], w[featSibling] = 0.1, 0.2, 0.1
	queries := []string{"parse the header of a request", "flush the session buffer to the stream", "readCookie3"}
	searchCodeLoop(b, ix, queries, w)
}
