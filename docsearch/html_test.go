package docsearch

import (
	"strings"
	"testing"
)

func TestHTMLToMarkdown(t *testing.T) {
	for _, tc := range []struct {
		name, page  string
		want, never []string
	}{
		{"main only",
			`<html><head><title>T</title></head><body><a href="#m">Skip to main content</a><div class="help"><h2>Keys</h2><p>Press S to search</p></div>` +
				`<nav><ul><li>Menu item</li></ul></nav><main id="m"><h1>Title</h1><p>Body text.</p><pre>code()</pre></main><footer>Footer text</footer></body></html>`,
			[]string{"# Title", "Body text.", "```\ncode()"}, []string{"Skip", "Press", "Menu", "Footer"}},
		{"role main, nested",
			`<div>Header</div><div role="main"><div><p>Inner</p></div><p>After inner</p></div><p>Outside</p>`,
			[]string{"Inner", "After inner"}, []string{"Header", "Outside"}},
		{"empty main falls back",
			`<main></main><p>Real content</p>`,
			[]string{"Real content"}, nil},
		{"nav without main",
			`<nav><a>Home</a></nav><h1>Page <button>Copy item path</button></h1><p>Text</p>`,
			[]string{"# Page\n", "Text"}, []string{"Home", "Copy"}},
		{"a tag that only starts like main",
			`<mainframe>Kept</mainframe><p>Also kept</p>`,
			[]string{"Kept", "Also kept"}, nil},
	} {
		md, _ := htmlToMarkdown(tc.page)
		for _, w := range tc.want {
			if !strings.Contains(md, w) {
				t.Errorf("%s: markdown %q lacks %q", tc.name, md, w)
			}
		}
		for _, n := range tc.never {
			if strings.Contains(md, n) {
				t.Errorf("%s: markdown %q has %q", tc.name, md, n)
			}
		}
	}
}

// TestSummaryAfterTitle checks that an HTML page's summary is taken after
// its level-1 heading, past the chrome before it, and that markdown's is
// taken from its start.
func TestSummaryAfterTitle(t *testing.T) {
	w := newTestWorker(t)
	for _, tc := range []struct {
		text string
		f    format
		want string
	}{
		{"<body><p>Press the arrow keys to navigate between chapters.</p><h1>Title</h1><p>The real summary paragraph is here.</p></body>", formatHTML, "The real summary paragraph is here."},
		{"<h1>pkg</h1>\n\nA fast parser for the command line.\n\n# Install\n\nRun the installer first.\n", formatMarkdown, "A fast parser for the command line."},
		{"No heading here, and this paragraph is the summary.\n\n## Section\n\nMore.\n", formatMarkdown, "No heading here, and this paragraph is the summary."},
	} {
		if p := w.process(&doc{path: "p"}, tc.text, tc.f, ""); p.doc.summary != tc.want {
			t.Errorf("summary of %q = %q, want %q", tc.text, p.doc.summary, tc.want)
		}
	}
}

// TestPermalinkMarks checks that the marks generated docs put beside a
// heading are not part of it, that a heading ending in # keeps it, and
// that a closing run of #s goes.
func TestPermalinkMarks(t *testing.T) {
	secs := parse("## § Examples\n\na\n\n### Trait Implementations §\n\nb\n\n# Title ¶\n\nc\n\n## C#\n\nd\n\n## §\n\ne\n\n## Closed ##\n\nf\n", formatMarkdown, 1)
	var got []string
	for _, s := range secs {
		if s.level > 0 {
			got = append(got, s.heading)
		}
	}
	want := []string{"Examples", "Trait Implementations", "Title", "C#", "§", "Closed"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("headings %q, want %q", got, want)
	}
}
