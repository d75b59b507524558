package docsearch

import "testing"

// sessionCode is a class whose name the query spells, with a dunder and
// a one-line property that match on density, and the method that does
// the task.
func sessionCode() []CodeFile {
	return []CodeFile{{Path: "pkg/session.py", Symbols: []CodeSymbol{
		{Name: "Session", Kind: "class", Signature: "class Session", Doc: "A session keeps cookies.", Body: "class Session:\n    cookies = {}", Line: 1, End: 60},
		{Name: "Session.__repr__", Kind: "method", Signature: "def __repr__(self)", Body: "return '<Session cookies %r>' % self.cookies", Line: 3, End: 4},
		{Name: "Session.jar", Kind: "method", Signature: "def jar(self)", Body: "return self.cookies", Line: 6, End: 7},
		{Name: "Session.clear_all", Kind: "method", Signature: "def clear_all(self)",
			Body: "for name in list(self.cookies):\n    self.expire(name)\nself.cookies = {}\nself.log('cleared')\nreturn None", Calls: []string{"expire", "log"}, Line: 10, End: 20},
	}}}
}

// TestSymbolPriorsRankTheCallable: a question in words about a class's
// state finds the method that does the task, not the class, a dunder or
// a one-line member whose name says little.
func TestSymbolPriorsRankTheCallable(t *testing.T) {
	ix := openTest(t, mapFS(map[string]string{}), Options{})
	putCode(t, ix, sessionCode())
	expectFirst(t, ix, "how do I remove every session cookie", []string{ScopeCode}, "Session.clear_all")
	expectFirst(t, ix, "remove every session cookie", []string{ScopeCode}, "Session.clear_all")
}

func TestAsksForTask(t *testing.T) {
	for q, want := range map[string]bool{
		"how do I attach a blueprint":         true,
		"parse the header":                    true,
		"Returns the first waiter":            true,
		"the central object WSGI application": false,
		"registerBlueprint":                   false,
	} {
		if got := asksForTask(q, classify(q)); got != want {
			t.Errorf("asksForTask(%q) = %v, want %v", q, got, want)
		}
	}
}

func TestSymbolPrior(t *testing.T) {
	for _, c := range []struct {
		text, name string
		lines      int
		documented bool
		words      bool
		task       bool
		query      string
		want       float64
	}{
		{"method A.run\n", "A.run", 10, false, true, true, "run it", 1},
		{"class A\n", "A", 10, false, true, true, "make an a", typeDemote},
		{"class A\n", "A", 10, false, true, false, "the a", 1},
		{"class A\n", "A", 10, false, false, false, "A", 1},
		{"method A.__repr__\n", "A.__repr__", 10, false, true, false, "show it", dunderDemote},
		{"method A.__repr__\n", "A.__repr__", 10, false, true, false, "what does repr print", 1},
		{"method A.__init__\n", "A.__init__", 10, false, true, true, "make an A", 1},
		{"method A.x\n", "A.x", 2, false, true, false, "x", shortDemote},
		{"method A.x\n", "A.x", 2, false, false, false, "A.x", 1},
		{"module m\n", "m", 1, false, true, false, "x", 1},
		{"function m.f\n", "m.f", 1, true, true, false, "x", 1},
	} {
		if got := symbolPrior(c.text, c.name, c.lines, c.documented, c.words, c.task, c.query); got != c.want {
			t.Errorf("symbolPrior(%q, %q, %d, %v, %v, %v, %q) = %v, want %v", c.text, c.name, c.lines, c.documented, c.words, c.task, c.query, got, c.want)
		}
	}
}

// TestCopiesRankLast: an exact copy of a function elsewhere in the
// repository ranks after the other results, not second.
func TestCopiesRankLast(t *testing.T) {
	body := "for name in list(self.cookies):\n    self.expire(name)\nself.cookies = {}\nself.log('cleared every cookie')\nreturn None"
	ix := openTest(t, mapFS(map[string]string{}), Options{})
	putCode(t, ix, []CodeFile{
		{Path: "pkg/session.py", Symbols: []CodeSymbol{{Name: "Session.clear_all", Kind: "method", Signature: "def clear_all(self)", Body: body, Line: 10, End: 20}}},
		{Path: "pkg/copy/session.py", Symbols: []CodeSymbol{{Name: "Session.clear_all", Kind: "method", Signature: "def clear_all(self)", Body: body, Line: 10, End: 20}}},
		{Path: "pkg/jar.py", Symbols: []CodeSymbol{{Name: "Jar.drop", Kind: "method", Signature: "def drop(self, name)", Body: "self.cookies.pop(name)\nself.log('dropped a cookie')\nreturn True", Line: 1, End: 5}}},
	})
	res, err := ix.Search(ctx, Query{Text: "clear every cookie", Scopes: []string{ScopeCode}, MinScore: zero()})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range res.Results {
		got = append(got, r.Path)
	}
	if len(got) != 3 || got[2] != "pkg/copy/session.py" && got[2] != "pkg/session.py" || got[1] != "pkg/jar.py" {
		t.Errorf("results %v, want a session.py, pkg/jar.py, the other session.py", got)
	}
}
