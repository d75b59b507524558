package docsearch

import (
	"fmt"
	"strings"
	"testing"
)

// span writes s as a markdown code span, as artifacts write identifiers.
func span(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// TestNamesSurviveMarkdown renders signatures as an artifact does, one
// heading each in code spans, and checks that the outline shows each
// exactly and that fetching by the symbol's bare name finds its section.
func TestNamesSurviveMarkdown(t *testing.T) {
	names := []struct{ name, sig string }{
		{"__init__", "def __init__(self, *args, **kwargs)"},
		{"_private_helper", "def _private_helper(self, scale, *extra, **opts)"},
		{"__repr__", "def __repr__(self)"},
		{"snake_case_name", "def snake_case_name(a_b, _c)"},
		{"operator<", "bool operator<(const Key& a, const Key& b)"},
		{"pipe", "fn pipe(f: impl Fn(u8) -> u8) -> Box<dyn Fn(u8) | Send>"},
		{"größe", "func größe(m *Maß) int"},
		{"数据", "def 数据(x)"},
		{"tick", "def tick(s = \"`\")"},
		{"Map", "func Map[K comparable, V any](m map[K]V) []K"},
	}
	var b strings.Builder
	b.WriteString("# `pkg/mod.py`\n\n## Functions\n\n")
	for _, n := range names {
		fmt.Fprintf(&b, "### %s\n\n*Lines 1-2*\n\n**Purpose**: does %s.\n\n", span(n.sig), n.name)
	}
	ix := openTest(t, mapFS(map[string]string{"docs/mod.md": b.String()}), Options{})
	hs, err := ix.Outline("docs/mod.md")
	if err != nil {
		t.Fatal(err)
	}
	shown := map[string]bool{}
	for _, h := range hs {
		shown[h.Text] = true
	}
	for _, n := range names {
		if !shown[n.sig] {
			t.Errorf("outline lacks %q; it shows %+v", n.sig, hs)
		}
		for _, ask := range []string{n.name, n.sig} {
			d, err := ix.Fetch("docs/mod.md", ask)
			if err != nil {
				t.Errorf("Fetch(%q): %v", ask, err)
				continue
			}
			if !strings.Contains(d.Content, "does "+n.name+".") {
				t.Errorf("Fetch(%q) = %q; want the section of %s", ask, d.Content, n.sig)
			}
		}
	}
}

func TestPlainInline(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"`__init__`", "__init__"},
		{"**bold** and _em_ and snake_case_word", "bold and em and snake_case_word"},
		{"Why *args matter", "Why *args matter"},
		{"[the guide](https://x.y/guide) here", "the guide here"},
		{"![badge](https://img.shields.io/x.svg) Title", " Title"},
		{"<img src=x> caf&eacute; \\*not em\\*", " café *not em*"},
		{"`` a`b ``", "a`b"},
		{"<https://example.com> link", " link"},
		{"1986. A year", "1986. A year"},
		{"> quoted", "> quoted"},
	} {
		if got := plainInline(tc.in); got != tc.want {
			t.Errorf("plainInline(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzPlainInline(f *testing.F) {
	for _, s := range []string{"`__init__`", "**a** _b_", "[x](y)", "![i](s)", "<a>", "`` ` ``", "\\*", "&amp;"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := plainInline(in)
		if !strings.ContainsAny(in, "[]*_`<!\\&") && out != in {
			t.Fatalf("plainInline(%q) = %q; text without markup must not change", in, out)
		}
		if strings.Contains(out, "\n") {
			t.Fatalf("plainInline(%q) = %q: a line break", in, out)
		}
	})
}
