package docsearch

import (
	"strings"
	"testing"
)

// artifactDoc is an artifact as enrich renders it: signatures as headings.
const artifactDoc = "# src/flask/logging.py\n\n## Overview\n\nLogging.\n\n## Functions\n\n" +
	"### `def create_logger(app: App) -> logging.Logger`\n\nMakes the logger.\n\n" +
	"### `def has_level_handler(logger: logging.Logger) -> bool`\n\nChecks handlers.\n\n" +
	"## Classes\n\n### `class View`\n\nA view.\n\n#### Methods\n\n" +
	"##### `def as_view(cls, name: str) -> RouteCallable`\n\nMakes a view function.\n\n" +
	"###### `def view(**kwargs) -> ResponseReturnValue` (line 106)\n\nThe first view.\n\n" +
	"###### `def view(**kwargs) -> ResponseReturnValue` (line 115)\n\nThe second view.\n\n" +
	"### `type Ledger struct`\n\nBooks.\n\n#### Methods\n\n##### `func (l *Ledger) Post(account string)`\n\nPosts.\n"

func TestFetchSymbolHeading(t *testing.T) {
	ix := openTest(t, mapFS(map[string]string{".artifacts/logging.py.md": artifactDoc}), Options{})
	for _, tc := range []struct{ heading, want, not string }{
		{"create_logger", "Makes the logger.", "Checks handlers."},
		{"def create_logger(app: App) -> logging.Logger", "Makes the logger.", "Checks handlers."},
		{"logging.create_logger", "Makes the logger.", "Checks handlers."}, // the module, in the title
		{"Ledger.create_logger", "", ""},                                   // not a method of Ledger
		{"View", "A view.", "Books."},
		{"View.as_view", "Makes a view function.", "Books."},
		{"View.as_view.view@115", "The second view.", "The first view."},
		{"View.as_view.view@106", "The first view.", "The second view."},
		{"Ledger.Post", "Posts.", "A view."},
		{"Ledger", "Books.", "A view."},
		{"logger", "", ""}, // a parameter's name defines nothing
	} {
		d, err := ix.Fetch(".artifacts/logging.py.md", tc.heading)
		if tc.want == "" {
			if err == nil || !strings.Contains(err.Error(), "create_logger") {
				t.Errorf("%q: err %v, content %q: want a refusal listing the headings", tc.heading, err, d.Content)
			}
			continue
		}
		if err != nil || !strings.Contains(d.Content, tc.want) || strings.Contains(d.Content, tc.not) {
			t.Errorf("%q: err %v, content:\n%s", tc.heading, err, d.Content)
		}
	}
}

func FuzzSymbolSection(f *testing.F) {
	f.Add(artifactDoc, "View.as_view.view@106")
	f.Add("# `f(`\n", "f")
	f.Fuzz(func(t *testing.T, doc, name string) {
		secs := parse(doc, formatMarkdown, 1)
		if i := symbolSection(secs, name); i < -1 || i >= len(secs) {
			t.Fatalf("index %d of %d sections", i, len(secs))
		}
	})
}
