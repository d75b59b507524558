package docsearch

import "testing"

// TestTitleAndSummary: a document is titled by its first real heading and
// summarised by its first paragraph of prose, past badges, HTML and lines
// of links.
func TestTitleAndSummary(t *testing.T) {
	for _, tc := range []struct {
		name, text, title, summary string
	}{
		{"koa", "<img src=\"/docs/logo.png\" alt=\"Koa middleware framework for nodejs\"/>\n\n" +
			"  [![gitter][gitter-image]][gitter-url]\n  [![NPM version][npm-image]][npm-url]\n  [![PR's Welcome][pr-image]][pr-url]\n\n" +
			"  Expressive HTTP middleware framework for node.js to make web applications enjoyable to write.\n\n" +
			"## Installation\n\nKoa requires node v7.6.0 or higher.\n\n## Sponsors\n\n<a href=\"https://x\"><img src=\"https://y\"></a>\n\n" +
			"# License\n\n  [MIT](https://github.com/koajs/koa/blob/master/LICENSE)\n\n[npm-image]: https://img.shields.io/npm/v/koa.svg\n",
			"Installation", "Expressive HTTP middleware framework for node.js to make web applications enjoyable to write."},
		{"badge heading", "# [![CI](https://ci/badge.svg)](https://ci)\n\n# Widget\n\n[![a](b)](c) [![d](e)](f)\n\nWidget draws widgets on any canvas you give it.\n",
			"Widget", "Widget draws widgets on any canvas you give it."},
		{"html h1", "<h1 align=\"center\">\n  <img src=\"logo.svg\" width=\"200\"><br>\n  Gizmo\n</h1>\n\n<p align=\"center\">\n<a href=\"x\"><img src=\"y\"></a>\n</p>\n\nGizmo turns YAML into typed config objects.\n\n## Usage\n\nCall it.\n",
			"Gizmo", "Gizmo turns YAML into typed config objects."},
		{"prose with a link", "# Tool\n\nSee [the guide](https://x/guide) for how Tool formats code in place.\n",
			"Tool", "See the guide for how Tool formats code in place."},
		{"plain", "# Title\n\n## Part\n\nText of the part, long enough to summarise.\n", "Title", "Text of the part, long enough to summarise."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ix := openTest(t, mapFS(map[string]string{"README.md": tc.text}), Options{})
			docs, err := ix.List("")
			if err != nil || len(docs) != 1 {
				t.Fatalf("List = %v, %v", docs, err)
			}
			if docs[0].Title != tc.title || docs[0].Summary != tc.summary {
				t.Errorf("title %q, summary %q; want %q, %q", docs[0].Title, docs[0].Summary, tc.title, tc.summary)
			}
		})
	}
}

func FuzzProseOf(f *testing.F) {
	for _, s := range []string{"[![a](b)](c)\nText here.\n", "<p>\n", "[x][y] z", "![", "http://a b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := proseOf(in)
		if len(out) > len(in) {
			t.Fatalf("proseOf(%q) = %q: longer", in, out)
		}
		_ = htmlH1(in)
	})
}
