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
		"wait until a condition is true":  {"until"},
		"call a function before the exit": {"before"},
		"check if a date falls between two other dates": {"between"},
		"fail when a plugin is not registered":          nil,
		"read the request from the body":                nil,
		"creates an from an object":                     nil,
		"calls the then":                                {"then"},
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

// TestOrderWordsFindNames: a question's "between" or "any" is a term
// wherever it stands, so the function it names comes before one that
// only shares the question's other words.
func TestOrderWordsFindNames(t *testing.T) {
	between := CodeSymbol{Name: "src.lib.moment.compare.isBetween", Kind: "function", Signature: "function isBetween(from, to, units, inclusivity)",
		Body: "var localFrom = createLocal(from), localTo = createLocal(to);\nreturn this.isAfter(localFrom, units) && this.isBefore(localTo, units);", Line: 31, End: 46}
	overflow := CodeSymbol{Name: "src.lib.create.check-overflow.checkOverflow", Kind: "function", Signature: "function checkOverflow(m)",
		Doc:  "Check that each field of a parsed date is in range, and mark the date invalid otherwise.",
		Body: "var overflow = a[MONTH] < 0 || a[MONTH] > 11 ? MONTH : a[DATE] < 1 ? DATE : -1;\nif (overflow) { checkDate(m); }", Line: 15, End: 57}
	onAny := CodeSymbol{Name: "lib.socket.Socket.onAny", Kind: "method", Signature: "onAny(listener)",
		Body: "this._anyListeners = this._anyListeners || [];\nthis._anyListeners.push(listener);\nreturn this;", Line: 60, End: 64}
	on := CodeSymbol{Name: "lib.socket.Socket.on", Kind: "method", Signature: "on(event, listener)",
		Doc: "Register a listener for an event.", Body: "this.listeners(event).push(listener);\nreturn this;", Line: 70, End: 74}
	// Words of the question that many functions share ("check", "date",
	// "event") weigh less than the one that names the function.
	var dates []CodeSymbol
	for i, name := range []string{"isValid", "isDate", "createDate", "daysInMonth", "checkWeekday", "emit"} {
		dates = append(dates, CodeSymbol{Name: "src.lib.dates." + name, Kind: "function", Signature: "function " + name + "(date, event)",
			Doc: "Check the date of an event.", Body: "return checkDate(date) && event;", Line: 10 * (i + 1), End: 10*(i+1) + 5})
	}
	ix := openTest(t, mapFS(map[string]string{}), Options{})
	putCode(t, ix, []CodeFile{
		{Path: "src/lib/dates.js", Symbols: dates},
		{Path: "src/lib/moment/compare.js", Symbols: []CodeSymbol{between}},
		{Path: "src/lib/create/check-overflow.js", Symbols: []CodeSymbol{overflow}},
		{Path: "lib/socket.js", Symbols: []CodeSymbol{onAny, on}},
	})
	for q, want := range map[string]string{
		"check if a date falls between two other dates":    "isBetween",
		"listen for any incoming event no matter its name": "onAny",
	} {
		res, err := ix.Search(ctx, Query{Text: q, Scopes: []string{ScopeCode}, MinScore: zero()})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range res.Results {
			got = append(got, localName(r.Symbol))
		}
		if len(got) == 0 || got[0] != want {
			t.Errorf("%q: results %v, want %s first", q, got, want)
		}
	}
}
