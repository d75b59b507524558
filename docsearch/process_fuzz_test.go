package docsearch

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzProcess runs the document pipeline (front matter, the markdown,
// reStructuredText, text and HTML parsers, chunking, analysis) on any
// text and checks what a chunk promises: its lines lie in the document,
// in order, it is within the token limit unless it cannot be cut, its
// text is valid UTF-8 taken from the document, and every heading lies in
// the document.
func FuzzProcess(f *testing.F) {
	for _, text := range workspace {
		f.Add(text, uint8(0))
	}
	f.Add("---\ntitle: T\n---\n# A\n\n```go\nx := 1\n```\n\n## B\n\ntext\n", uint8(0))
	f.Add("Title\n=====\n\n.. code-block:: python\n\n   x = 1\n\nSub\n---\n\nmore\n", uint8(2))
	f.Add("<html><head><title>T</title></head><body><h2>H</h2><p>p <a href='x'>l</a></p><pre>code</pre></body></html>", uint8(3))
	f.Add(strings.Repeat("word ", 3000), uint8(1))
	f.Add("<nav>menu</nav><div role=\"main\"><main><h1>T §</h1><button>b</button><p>x</p></main></div>", uint8(3))
	f.Add("def f(a,\n      b):\n    r'''Doc line.\n\n    More.'''\n    return C++ and C#\n", uint8(1))
	const limit = 64
	w, err := newWorker(limit)
	if err != nil {
		f.Fatal(err)
	}
	w.keepText = true
	f.Fuzz(func(t *testing.T, text string, kind uint8) {
		if !utf8.ValidString(text) {
			return // decodeText lets only UTF-8 through
		}
		form := []format{formatMarkdown, formatText, formatRST, formatHTML}[int(kind)%4]
		p := w.process(&doc{path: "docs/x.md"}, text, form, "")
		lines := strings.Count(text, "\n") + 1
		if p.doc.title == "" {
			t.Error("no title")
		}
		for _, h := range p.doc.headings {
			if form != formatHTML && (h.Line < 1 || h.Line > lines) {
				t.Errorf("heading %q at line %d of %d", h.Text, h.Line, lines)
			}
		}
		last := 0
		for i, c := range p.chunks {
			if form != formatHTML && (c.line < 1 || c.end < c.line || c.end > lines) {
				t.Errorf("chunk %d: lines %d-%d of %d", i, c.line, c.end, lines)
			}
			if form != formatHTML && c.line < last {
				t.Errorf("chunk %d starts at line %d, before the last one's %d", i, c.line, last)
			}
			last = c.line
			if !utf8.ValidString(c.text) || !utf8.ValidString(c.title) {
				t.Errorf("chunk %d: invalid UTF-8", i)
			}
			if n := w.ch.tc.count(c.text); n > limit*codeLimitFactor && utf8.RuneCountInString(c.text) > 1 {
				t.Errorf("chunk %d: %d tokens, over %d", i, n, limit*codeLimitFactor)
			}
		}
	})
}
