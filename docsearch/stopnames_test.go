package docsearch

import (
	"fmt"
	"slices"
	"testing"
)

// TestQueryStops: a query keeps the stop words it writes as names, and
// only those.
func TestQueryStops(t *testing.T) {
	for q, want := range map[string][]string{
		"where":                           {"where"},
		"Select.where":                    {"where"},
		"add a where clause to a select":  {"where"},
		"the once helper of lodash":       {"once"},
		"what does then() return":         {"then"},
		"errors.Is":                       {"is"},
		"`off`":                           {"off"},
		"is it":                           {"is", "it"},
		"where are request hooks run":     nil,
		"open the same file twice":        nil,
		"find the most recent commit":     nil,
		"wait until a condition is true":  nil,
		"call a function before the exit": nil,
		"creates an from an object":       nil,
		"calls the then":                  {"then"},
	} {
		keep := queryStops(q)
		var got []string
		for w := range stopwords {
			if keep != nil && keep(w) {
				got = append(got, w)
			}
		}
		slices.Sort(got)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("queryStops(%q) keeps %v, want %v", q, got, want)
		}
	}
}

// TestStopWordNames: a method named by a stop word is found by its name,
// alone or qualified, and by a question that writes it as a name; the
// same word in prose is still no term.
func TestStopWordNames(t *testing.T) {
	where := CodeSymbol{Name: "sql.selectable.Select.where", Kind: "method", Signature: "def where(self, *whereclause)",
		Doc: "Return a new select with the given expression added to its WHERE clause.", Body: "self._where_criteria += whereclause\nreturn self", Line: 10, End: 14}
	columns := CodeSymbol{Name: "sql.selectable.Select.add_columns", Kind: "method", Signature: "def add_columns(self, *columns)",
		Doc: "Add columns to the select clause.", Body: "self._raw_columns += columns\nreturn self", Line: 20, End: 24}
	ix := openTest(t, mapFS(map[string]string{"docs/guide.md": "# Guide\n\nWhere the select goes, and where it ends.\n"}), Options{})
	putCode(t, ix, []CodeFile{{Path: "sql/selectable.py", Symbols: []CodeSymbol{where, columns}}})
	for _, q := range []string{"where", "Select.where", "add a where clause to a select"} {
		res, err := ix.Search(ctx, Query{Text: q, Scopes: []string{ScopeCode}, MinScore: zero()})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Results) == 0 || localName(res.Results[0].Symbol) != "where" {
			var got []string
			for _, r := range res.Results {
				got = append(got, r.Symbol)
			}
			t.Errorf("%q: results %v, want where first", q, got)
		}
	}
	res, err := ix.Search(ctx, Query{Text: "where", Scopes: []string{ScopeDocs}, MinScore: zero()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) != 0 {
		t.Errorf("docs for %q: %d results, want none (prose drops its stop words)", "where", len(res.Results))
	}
}
