package docsearch

import (
	"path"
	"slices"
	"strings"
)

// auxDemote multiplies the fused score of a code result in a test,
// vendored or generated file: such code ranks under the code it tests or
// copies, unless the query asks for tests.
const auxDemote = 0.5

// declDemote multiplies the fused score of a declaration without a body
// (CodeSymbol.Decl): the implementation is the answer, the declaration
// its echo.
const declDemote = 0.7

// moduleDemote multiplies the fused score of a file's top-level chunk
// (imports, package doc, globals): where a function of it matches about
// as well, the function is the answer to act on, the file the place it is
// in. On docs/bench/code, 0.85 took function-level nDCG@10 0.664 -> 0.684
// and file-level 0.909 -> 0.904; 0.7 and 0.5 did no better (0.679).
const moduleDemote = 0.85

// demoteAuxCode lowers test, vendored and generated code in ranked (see
// auxDemote), declarations (declDemote) and top-level chunks
// (moduleDemote), and sorts it again. A query with a word of testing in it
// ("test", "tests", "spec", "fixture", "mock") demotes no tests.
func (ix *Index) demoteAuxCode(ranked []hit, query string) []hit {
	tests := asksForTests(query)
	moved := false
	for i := range ranked {
		d := ix.docs[ix.chunks[ranked[i].chunk].doc]
		if d == nil || d.scope != ScopeCode {
			continue
		}
		file := codeFileOf(d.path)
		if auxiliaryCode(file) || !tests && testCode(file) {
			ranked[i].fused *= auxDemote
			moved = true
		}
		if strings.HasPrefix(d.text, "module ") {
			ranked[i].fused *= moduleDemote
			moved = true
		}
		if isDecl(d.text) {
			ranked[i].fused *= declDemote
			moved = true
		}
	}
	if moved {
		slices.SortStableFunc(ranked, func(a, b hit) int {
			switch {
			case a.fused > b.fused:
				return -1
			case a.fused < b.fused:
				return 1
			}
			return int(a.chunk) - int(b.chunk)
		})
	}
	return ranked
}

// asksForTests reports whether a query is about tests.
func asksForTests(q string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return !isLetter(r) }) {
		switch w {
		case "test", "tests", "testing", "unittest", "spec", "specs", "fixture", "fixtures", "mock", "mocks", "benchmark", "benchmarks":
			return true
		}
	}
	return false
}

// testCode reports whether file is test code by its name or directory, in
// the conventions of the languages fileinfo reads.
func testCode(file string) bool {
	base := strings.ToLower(path.Base(file))
	stem := strings.TrimSuffix(base, path.Ext(base))
	switch {
	case strings.HasSuffix(stem, "_test"), strings.HasPrefix(stem, "test_"), stem == "tests", stem == "test",
		stem == "conftest", strings.HasSuffix(stem, ".test"), strings.HasSuffix(stem, ".spec"),
		strings.HasSuffix(stem, "test") && len(stem) > 4 && stem[len(stem)-5] != '_' && strings.HasSuffix(base, ".java"),
		strings.HasSuffix(stem, "_spec"):
		return true
	}
	for _, dir := range strings.Split(strings.ToLower(path.Dir(file)), "/") {
		switch dir {
		case "test", "tests", "testing", "__tests__", "spec", "testdata", "fixtures", "e2e":
			return true
		}
	}
	return false
}

// auxiliaryCode reports whether file is vendored or generated code.
func auxiliaryCode(file string) bool {
	base := strings.ToLower(path.Base(file))
	switch {
	case strings.HasSuffix(base, ".pb.go"), strings.HasSuffix(base, ".d.ts"), strings.HasPrefix(base, "zz_generated"), strings.Contains(base, "_generated."),
		strings.Contains(base, ".generated."), strings.HasSuffix(base, ".min.js"), strings.HasSuffix(base, "_string.go"):
		return true
	}
	for _, dir := range strings.Split(strings.ToLower(path.Dir(file)), "/") {
		switch dir {
		case "vendor", "third_party", "third-party", "node_modules", "_vendor", "vendored", "dist", "build":
			return true
		}
	}
	return false
}

// descendingScores makes the scores of results, which are in rank order,
// never rise down the list: a result shows at most the score of the one
// before it. Relevance is computed per retriever and rank is their fusion,
// so a lower-ranked result could otherwise show the higher score (a 0.929
// before a 0.945), and a reader of one list of code and prose could not
// tell which to trust.
func descendingScores(rs []Result) {
	for i := 1; i < len(rs); i++ {
		rs[i].Score = min(rs[i].Score, rs[i-1].Score)
	}
}
