package view

import (
	"regexp"
	"strings"
	"testing"
)

func TestHighlight(t *testing.T) {
	for _, tc := range []struct {
		path, lang, text string
		want             []string
	}{
		{"a.go", "go", "package a\n\nfunc F() {}\n", []string{`<span class="kd">func</span>`, `id="L3"`}},
		{"a.py", "python", "def f():\n    pass\n", []string{`<span class="k">def</span>`}},
		// A name chroma does not know falls back to the language.
		{"BUILD.star", "python", "def f():\n    pass\n", []string{`<span class="k">def</span>`}},
		{"x.unknownext", "", "<b>bold</b>\n", []string{"&lt;b&gt;"}},
		// Too large to highlight: plain text, still escaped and numbered.
		{"big.go", "go", strings.Repeat("func f() {} // <x>\n", maxHighlight/18), []string{"&lt;x&gt;", `id="L1"`}},
	} {
		t.Run(tc.path, func(t *testing.T) {
			got, err := highlight(tc.path, tc.lang, tc.text)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("lacks %s:\n%.600s", w, got)
				}
			}
			if tc.path == "big.go" && strings.Contains(got, `class="kd"`) {
				t.Error("a file over maxHighlight was highlighted")
			}
		})
	}
}

func TestHighlightCache(t *testing.T) {
	a, err := highlightCached("c.go", "go", "package c\n")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := highlightCached("c.go", "go", "package c\n")
	c, _ := highlightCached("c.go", "go", "package c // changed\n")
	if a != b || a == c || !strings.Contains(c, "changed") {
		t.Errorf("cache: %q %q %q", a, b, c)
	}
	for i := range maxCached * 2 {
		highlightCached("c.go", "go", strings.Repeat("\n", i))
	}
	if n := len(highlightCache.m); n > maxCached {
		t.Errorf("%d files cached; the bound is %d", n, maxCached)
	}
}

// FuzzMarkdown checks that no markdown, whatever an artifact holds, gets
// a script or a javascript: link onto the page.
func FuzzMarkdown(f *testing.F) {
	for _, s := range []string{
		"# T\n\n<script>alert(1)</script>",
		"[x](javascript:alert(1))",
		"<img src=x onerror=alert(1)>",
		"![x](javascript:alert(1))",
		"<a href=\"javascript:x\">y</a>",
		"`<script>`\n\n```html\n<script>\n```",
		"<div\nonclick=alert(1)>",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		out, err := renderMarkdown(md)
		if err != nil {
			t.Fatal(err)
		}
		// Text "<" is escaped, so each "<name" is a tag goldmark wrote.
		for _, m := range tagRE.FindAllStringSubmatch(out, -1) {
			if !safeTags[strings.ToLower(m[1])] {
				t.Fatalf("rendered %q holds tag <%s>:\n%s", md, m[1], out)
			}
			if badAttrRE.MatchString(m[2]) {
				t.Fatalf("rendered %q holds attributes %q:\n%s", md, m[2], out)
			}
		}
	})
}

var (
	tagRE     = regexp.MustCompile(`<([a-zA-Z][a-zA-Z0-9]*)([^>]*)>`)
	badAttrRE = regexp.MustCompile(`(?i)\son[a-z]+\s*=|(href|src)\s*=\s*"\s*(javascript|vbscript|data):`)
	safeTags  = map[string]bool{}
)

func init() {
	for _, t := range strings.Fields("p h1 h2 h3 h4 h5 h6 a em strong code pre ul ol li table thead tbody tr th td img del input br hr blockquote") {
		safeTags[t] = true
	}
}

// BenchmarkHighlight measures highlighting a 3,000-line Go file, about
// the largest a file view shows highlighted.
func BenchmarkHighlight(b *testing.B) {
	src := strings.Repeat("// F adds.\nfunc F(a, b int) int {\n\treturn a + b // sum\n}\n\n", 600)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := highlight("a.go", "go", src); err != nil {
			b.Fatal(err)
		}
	}
}
