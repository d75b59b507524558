package docsearch

import (
	"slices"
	"testing"
)

func TestPathWords(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"library/pathlib.rst", "library pathlib "},
		{"library/pathlib.rst.txt", "library pathlib "},
		{"whatsnew/3.11.rst", "whatsnew 3.11 "},
		{"docs/getting-started/index.md", "docs getting started "},
		{"README.md", ""},
		{"api:content/_index.md", "content "},
		{"guide/dark_mode.mdx", "guide dark mode "},
	} {
		if got := pathWords(tc.in); got != tc.want {
			t.Errorf("pathWords(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

func TestReadsAsChanges(t *testing.T) {
	hs := func(texts ...string) []Heading {
		var out []Heading
		for _, s := range texts {
			out = append(out, Heading{Level: 2, Text: s})
		}
		return out
	}
	for _, tc := range []struct {
		name string
		d    doc
		want bool
	}{
		{"changelog", doc{path: "CHANGES.md", title: "Changes", prose: &prose{headings: hs("Changes", "Version 2.2.0", "Version 2.1.0", "Version 2.0.0")}}, true},
		{"dated releases", doc{path: "HISTORY.rst", title: "History", prose: &prose{headings: hs("History", "2024-05-01", "2023-11-20", "2023-02-03", "Older")}}, true},
		{"whats new", doc{path: "whatsnew/3.11.rst", title: "What's New In Python 3.11", prose: &prose{headings: hs("Summary", "New Features", "Deprecated", "Removed", "Porting")}}, true},
		{"blog post", doc{path: "blog/2024-03-01-launch.md", title: "We launched", prose: &prose{headings: hs("Why")}}, true},
		{"dated title", doc{path: "posts/launch.md", title: "March 3, 2024: we launched", prose: noProse}, true},
		{"version in a reference title", doc{path: "library/sqlite3.rst", title: "sqlite3 --- DB-API 2.0 interface", prose: &prose{headings: hs("Tutorial", "Reference", "How-to guides", "Explanation")}}, false},
		{"a few versions in a long page", doc{path: "guide.md", title: "Guide", prose: &prose{headings: hs("A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "Since 1.2", "Since 1.3", "Since 1.4")}}, false},
		{"reference", doc{path: "library/pathlib.rst", title: "pathlib", prose: &prose{headings: hs("Basic use", "Pure paths", "Concrete paths")}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := readsAsChanges(newAnalyzer(), &tc.d); got != tc.want {
				t.Errorf("readsAsChanges = %v; want %v", got, tc.want)
			}
		})
	}
}

func TestAsksAboutChanges(t *testing.T) {
	an := newAnalyzer()
	for q, want := range map[string]bool{
		"what changed in Python 3.11":       true,
		"what's new in asyncio":             true,
		"deprecated functions in os":        true,
		"read a text file with pathlib":     false,
		"how do I install the package":      false,
		"release notes of the last version": true,
	} {
		if got := asksAboutChanges(an, q); got != want {
			t.Errorf("asksAboutChanges(%q) = %v; want %v", q, got, want)
		}
	}
}

func TestPageOfTerms(t *testing.T) {
	d := &doc{path: "library/pathlib.rst", title: "pathlib --- Object-oriented filesystem paths", prose: &prose{headings: []Heading{{Level: 1, Text: "pathlib --- Object-oriented filesystem paths"}}}}
	p := pageOf(newAnalyzer(), d)
	for _, w := range []string{"pathlib", "filesystem", "path", "librari"} {
		if _, ok := slices.BinarySearch(p.terms, termHash(w)); !ok {
			t.Errorf("page terms of %q lack %q", d.title, w)
		}
	}
	if p.changes {
		t.Error("a reference page reads as changes")
	}
	if p := pageOf(newAnalyzer(), &doc{path: "c1", title: "writeBoolean", prose: noProse}); len(p.terms) != 0 {
		t.Errorf("a document without headings has page terms %v", p.terms)
	}
}

func TestScopeNames(t *testing.T) {
	ix := openTest(t, mapFS(map[string]string{
		"README.md":         "# Welcome to Acme\n\nAcme is a framework for building services.\n",
		"docs/a.md":         "# A\n\nAcme does a.\n",
		"docs/b.md":         "# B\n\nAcme does b.\n",
		"docs/c.md":         "# C\n\nThe c part of Acme.\n",
		"docs/d.md":         "# D\n\nThe d part, welcome.\n",
		"docs/sub/index.md": "# Sub\n\nNot a Front page of the scope.\n",
	}), Options{})
	var got []string
	for n := range ix.names {
		got = append(got, n)
	}
	slices.Sort(got)
	if !slices.Equal(got, []string{"acm"}) && !slices.Equal(got, []string{"acme"}) {
		t.Errorf("scope names = %q; want acme's stem alone", got)
	}
}

func TestSphinxSourcesFormat(t *testing.T) {
	for name, want := range map[string]format{
		"_sources/library/pathlib.rst.txt": formatRST,
		"_sources/guide.md.txt":            formatMarkdown,
		"notes.txt":                        formatText,
	} {
		if got, ok := docFormat(name); !ok || got != want {
			t.Errorf("docFormat(%q) = %v, %v; want %v", name, got, ok, want)
		}
	}
	ix := openTest(t, mapFS(map[string]string{
		"_sources/library/pathlib.rst.txt": ":mod:`pathlib` --- Object-oriented filesystem paths\n====================================================\n\nClasses for paths.\n\nReading files\n-------------\n\nread_text returns the text.\n",
	}), Options{})
	res, err := ix.Search(ctx, Query{Text: "read text", MinScore: zero()})
	if err != nil || len(res.Results) != 1 {
		t.Fatalf("results %+v, %v", res.Results, err)
	}
	if r := res.Results[0]; r.Title != "pathlib --- Object-oriented filesystem paths" || r.Heading != r.Title+" > Reading files" {
		t.Errorf("title %q, heading %q: want the page's RST title and heading path", r.Title, r.Heading)
	}
}

func TestScopeNamesBelowTheTop(t *testing.T) {
	ix := openTest(t, mapFS(map[string]string{
		"docs/index.md":       "# Zorp\n\nZorp is a Tool for builds.\n",
		"docs/guide/index.md": "# Guide\n\nThe Guide to zorp.\n",
		"docs/a.md":           "# A\n\nZorp does a with a tool.\n",
		"docs/b.md":           "# B\n\nZorp does b.\n",
	}), Options{})
	var got []string
	for n := range ix.names {
		got = append(got, n)
	}
	slices.Sort(got)
	if !slices.Equal(got, []string{"zorp"}) {
		t.Errorf("scope names = %q; want zorp alone, from docs/index.md", got)
	}
}
