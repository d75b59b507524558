package docsearch

import (
	"fmt"
	"strings"
	"testing"
)

// TestEncloserFirst: a function nested in another that ranks before it
// gives its place to the encloser when it spans at least half of it, or
// is anonymous and the encloser is not long; a named function nested in
// a longer one, and a callback in a long function, keep their places. The features are weighed 0, so that the order is fusion's and
// the rules' alone.
func TestEncloserFirst(t *testing.T) {
	inner := "return routers.reduce((merged, router) => {\n  merged.procedures = mergeProcedures(merged, router)\n  return merged\n})"
	filler := strings.Repeat("validateConfig(options)\nlogger.debug(options)\n", 20)
	outer := CodeSymbol{Name: "core.buildApp", Kind: "function", Signature: "function buildApp(...routers)",
		Body: filler + inner + "\n" + filler, Line: 1, End: 90}
	other := CodeSymbol{Name: "core.procedureTable", Kind: "function", Signature: "function procedureTable(router)",
		Body: "return Object.keys(router.procedures).map(merge)", Line: 1, End: 5}
	for _, c := range []struct {
		name           string
		line, end, out int // the nested function's lines, its encloser's last line
		want           string
	}{
		{"core.buildApp.<callback of routers.reduce>", 40, 44, 90, "[buildApp procedureTable <callback of routers.reduce>]"},
		{"core.buildApp.<callback of routers.reduce>", 40, 44, 1 + maxEncloserLines, "[<callback of routers.reduce> procedureTable buildApp]"},
		{"core.buildApp.combine", 40, 44, 90, "[combine procedureTable buildApp]"},
		{"core.buildApp.combine", 20, 80, 90, "[buildApp procedureTable combine]"},
	} {
		outer := outer
		outer.End = c.out
		nested := CodeSymbol{Name: c.name, Kind: "function", Signature: "(merged, router) =>", Body: inner, Line: c.line, End: c.end}
		ix := openTest(t, mapFS(nil), Options{})
		putCode(t, ix, []CodeFile{{Path: "src/merge.ts", Symbols: []CodeSymbol{outer, nested}}, {Path: "src/table.ts", Symbols: []CodeSymbol{other}}})
		if got := codeOrder(t, ix, "merge the procedures of routers"); fmt.Sprint(got) != c.want {
			t.Errorf("%s at %d-%d: results %v, want %s", c.name, c.line, c.end, got, c.want)
		}
	}
}
