package docsearch

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// bridgeRepo is a logger package: four documented functions whose docs
// say "on the standard logger" and whose code calls std, an
// undocumented Tracef that calls std too, an undocumented method that
// matches more of the query's words by its code, and 80 unrelated
// documented functions, so that std is rare in the index.
func bridgeRepo(t *testing.T, extra ...CodeSymbol) *Index {
	t.Helper()
	var exp []CodeSymbol
	for i, lvl := range []string{"Info", "Warn", "Error", "Debug"} {
		exp = append(exp, CodeSymbol{Name: "log." + lvl, Kind: "function", Signature: "func " + lvl + "(args ...interface{})",
			Doc:  lvl + " logs a message at level " + lvl + " on the standard logger.",
			Body: "func " + lvl + "(args ...interface{}) {\n\tstd." + lvl + "(args...)\n}\n", Line: 10 * i, End: 10*i + 3})
	}
	exp = append(exp, CodeSymbol{Name: "log.Tracef", Kind: "function", Signature: "func Tracef(format string, args ...interface{})",
		Body: "func Tracef(format string, args ...interface{}) {\n\tstd.Logf(TraceLevel, format, args...)\n}\n", Line: 50, End: 60}) // longer than its text: Emit, nested, spans less than half of it
	exp = append(exp, extra...)
	entry := CodeSymbol{Name: "log.Entry.Logf", Kind: "method", Signature: "func (e *Entry) Logf(level Level, format string, args ...interface{})",
		Body: "func (e *Entry) Logf(level Level, format string, args ...interface{}) {\n\t// trace the message when the logger's level allows\n\tif e.Logger.IsLevelEnabled(level) {\n\t\te.Log(level, fmt.Sprintf(format, args...))\n\t}\n}\n", Line: 1, End: 7}
	var other []CodeSymbol
	for i := range 80 {
		other = append(other, CodeSymbol{Name: fmt.Sprintf("log.Count%d", i), Kind: "function", Signature: fmt.Sprintf("func Count%d() int", i),
			Doc: fmt.Sprintf("Count%d returns the number of widgets in bucket %d.", i, i), Body: fmt.Sprintf("func Count%d() int {\n\treturn buckets[%d]\n}\n", i, i),
			Line: 4 * i, End: 4*i + 3})
	}
	ix := openTest(t, mapFS(nil), Options{})
	putCode(t, ix, []CodeFile{{Path: "log/exported.go", Symbols: exp}, {Path: "log/entry.go", Symbols: []CodeSymbol{entry}}, {Path: "log/count.go", Symbols: other}})
	return ix
}

// codeOrder returns the local names of the code results for q, the
// features weighed 0 so that the order is fusion's and the rules'.
func codeOrder(t *testing.T, ix *Index, q string) []string {
	t.Helper()
	res, err := ix.Search(ctx, Query{Text: q, Scopes: []string{ScopeCode}, MinScore: zero(), Limit: 20, CodeWeights: make([]float64, numCodeFeatures)})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range res.Results {
		got = append(got, localName(r.Symbol))
	}
	return got
}

// before reports whether a comes before b in names (both present).
func before(names []string, a, b string) bool {
	i, j := slices.Index(names, a), slices.Index(names, b)
	return i >= 0 && j >= 0 && i < j
}

// TestBridgeRaisesUndocumented: the documented functions pair "standard
// logger" with std in their code; the undocumented Tracef, which calls
// std, ranks above the undocumented method that matches more of the
// query's words by its own code but not std.
func TestBridgeRaisesUndocumented(t *testing.T) {
	ix := bridgeRepo(t)
	q := "logs a message at level trace on the standard logger"
	got := codeOrder(t, ix, q)
	if !before(got, "Tracef", "Logf") {
		t.Errorf("%q: results %v, want Tracef before Logf", q, got)
	}
	an := newAnalyzer()
	res := ix.lexicalOrder(q)
	terms := ix.vocabularyBridge(an, res, ix.queryIDF(q))
	if len(terms) == 0 || terms[0].term != "std" {
		t.Errorf("bridge terms %v, want std first", terms)
	}
}

// TestBridgeLeavesHelpers: an unexported function or a function nested
// in another candidate holds std as Tracef does, but is a helper, not a
// documented function whose doc is missing: it is not raised. Nor is a
// function whose code is longer than the bridge reads of a documented
// one (bridgeCode): it holds std among many other terms.
func TestBridgeLeavesHelpers(t *testing.T) {
	q := "logs a message at level trace on the standard logger"
	for name, s := range map[string]CodeSymbol{
		"unexported": {Name: "log.tracef", Kind: "function", Signature: "func tracef(format string, args ...interface{})",
			Body: "func tracef(format string, args ...interface{}) {\n\tstd.Logf(TraceLevel, format, args...)\n}\n", Line: 60, End: 63},
		"nested": {Name: "log.Tracef.Emit", Kind: "function", Signature: "func Emit(format string, args ...interface{})",
			Body: "func Emit(format string, args ...interface{}) {\n\tstd.Logf(TraceLevel, format, args...)\n}\n", Line: 51, End: 52},
		"long": {Name: "log.Replay", Kind: "function", Signature: "func Replay(format string, args ...interface{})",
			Body: "func Replay(format string, args ...interface{}) {\n" + strings.Repeat("\tbuffer = append(buffer, record{when: now(), what: format})\n", 20) +
				"\tstd.Logf(TraceLevel, format, args...)\n}\n", Line: 70, End: 93},
	} {
		ix := bridgeRepo(t, s)
		got := codeOrder(t, ix, q)
		helper := localName(s.Name)
		if !before(got, "Logf", helper) {
			t.Errorf("%s: results %v, want Logf before %s", name, got, helper)
		}
	}
}

// lexicalOrder is the fused order of a lexical search for q, for tests.
func (ix *Index) lexicalOrder(q string) []hit {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	lex, cov := ix.lexicalSearch(q, nil, nil)
	return ix.fuse(lex, cov, nil, PlanFor(classify(q)), true)
}
