package callgraph

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestJSDocParams(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		want map[string]string
	}{
		{"@param {App} app the app", map[string]string{"app": "App"}},
		{"Start.\n@param {?Other=} [other]\n@param {*} x\n@param {Object} opts.x sub", map[string]string{"other": "Other", "x": "any"}},
		{"@param {{a: {b: C}}} o\n@param {Map<string, C>} [m=new Map()]", map[string]string{"o": "{a: {b: C}}", "m": "Map<string, C>"}},
		{"@param app no type\n@param {Unclosed app", map[string]string{}},
		{"@returns {void}", map[string]string{}},
	} {
		if got := jsDocParams(tc.doc); !maps.Equal(got, tc.want) {
			t.Errorf("jsDocParams(%q) = %v, want %v", tc.doc, got, tc.want)
		}
	}
}

func TestSplitTypeUnion(t *testing.T) {
	for _, tc := range []struct {
		typ  string
		want []string
	}{
		{"A", []string{"A"}},
		{"A | B", []string{"A ", " B"}},
		{"Map<A | B, C> | undefined", []string{"Map<A | B, C> ", " undefined"}},
		{"((x: A) => B | C) | D", []string{"((x: A) => B | C) ", " D"}},
		{"{ a: A | B }", []string{"{ a: A | B }"}},
		{"| A", []string{"", " A"}},
	} {
		if got := splitTypeUnion(tc.typ); !slices.Equal(got, tc.want) {
			t.Errorf("splitTypeUnion(%q) = %q, want %q", tc.typ, got, tc.want)
		}
	}
}

// FuzzJSDocParams feeds doc comments to the JSDoc reader and types to the
// union splitter: neither may panic, and the parts of a split type are
// the type, bars between them.
func FuzzJSDocParams(f *testing.F) {
	for _, s := range []string{"@param {App} app", "@param {{a: B}} [x=1]", "@param {", "@param {A|B} a @param {C} c", "A | B<C | D>", "(a) => b | c", "}}}|{{{"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, typ := range jsDocParams(s) {
			if name == "" || strings.ContainsAny(name, ".{}") || typ == "" {
				t.Fatalf("jsDocParams(%q): %q: %q", s, name, typ)
			}
		}
		if got := strings.Join(splitTypeUnion(s), "|"); got != s {
			t.Fatalf("splitTypeUnion(%q) rejoins to %q", s, got)
		}
	})
}
