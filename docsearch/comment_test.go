package docsearch

import (
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

// commented is a markdown document whose HTML comments hold words no
// other document has: walrus, narwhal, platypus, dugong and manatee are
// in comments; ocelot and quokka are code, which comments do not hide.
const commented = "# Guide <!-- walrus -->\n" +
	"\n" +
	"Charts are drawn<!-- narwhal --> from rows.\n" +
	"\n" +
	"<!--\n" +
	"# Platypus\n" +
	"platypus\n" +
	"\n" +
	"```\n" +
	"-->\n" +
	"\n" +
	"## Next\n" +
	"\n" +
	"Text with a note <!-- dugong\n" +
	"manatee --> that goes on.\n" +
	"\n" +
	"```html\n" +
	"<!-- ocelot -->\n" +
	"```\n" +
	"\n" +
	"Write `<!-- quokka -->` to start one. A <!-- is text when nothing closes it.\n" +
	"\n" +
	"<!-- fileinfo:report v1\n" +
	"{\"overview\": \"Charts are drawn from rows.\"}\n" +
	"-->\n"

func TestCommentsAreNotText(t *testing.T) {
	ix := openTest(t, mapFS(map[string]string{"docs/c.md": commented, "docs/other.md": "# Other\n\nSomething else.\n"}), Options{})
	for _, q := range []string{"walrus", "narwhal", "platypus", "dugong", "manatee", "fileinfo report overview"} {
		res, err := ix.Search(ctx, Query{Text: q, MinScore: zero()})
		if err != nil || len(res.Results) != 0 {
			t.Errorf("search %q = %+v, %v; want nothing", q, res.Results, err)
		}
	}
	expectTop(t, ix, "ocelot", "docs/c.md")
	expectTop(t, ix, "quokka", "docs/c.md")
	expectTop(t, ix, "goes on", "docs/c.md")

	// Lines keep their numbers.
	hs, err := ix.Outline("docs/c.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := []Heading{{1, "Guide", 1}, {2, "Next", 12}}; !slices.Equal(hs, want) {
		t.Errorf("outline = %+v, want %+v", hs, want)
	}

	d, err := ix.Fetch("docs/c.md", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, hidden := range []string{"walrus", "narwhal", "latypus", "dugong", "manatee", "fileinfo:report", "overview"} {
		if strings.Contains(d.Content, hidden) {
			t.Errorf("fetch shows %q:\n%s", hidden, d.Content)
		}
	}
	for _, shown := range []string{"# Guide", "Charts are drawn from rows.", "Text with a note \n that goes on.", "<!-- ocelot -->", "`<!-- quokka -->`", "A <!-- is text"} {
		if !strings.Contains(d.Content, shown) {
			t.Errorf("fetch lacks %q:\n%s", shown, d.Content)
		}
	}
	if strings.Contains(d.Content, "\n\n\n") || !strings.HasSuffix(d.Content, "nothing closes it.\n") {
		t.Errorf("fetch leaves the lines of comments blank:\n%q", d.Content)
	}
	d, err = ix.Fetch("docs/c.md", "next")
	if err != nil || !strings.HasPrefix(d.Content, "<!-- Source: docs/c.md -->\n## Next\n") || strings.Contains(d.Content, "dugong") {
		t.Errorf("fetch section = %q, %v", d.Content, err)
	}
}

func TestHideComments(t *testing.T) {
	for _, tc := range []struct{ in, keep, drop string }{
		{"a\n<!-- x -->\nb\n", "a\n\nb\n", "a\nb\n"},
		{"a\n\n<!--\nx\n\ny\n-->\n\nb\n", "a\n\n\n\n\n\n\n\nb\n", "a\n\nb\n"},
		{"a <!-- x --> b <!--y--> c\n", "a  b  c\n", "a  b  c\n"},
		{"<!-->a<!--->b<!---->c\n", "abc\n", "abc\n"},
		{"   <!-- unclosed\n\nall the rest\n", "   \n\n\n", ""},
		{"    <!-- indented: mid-line\n\nrest\n", "    <!-- indented: mid-line\n\nrest\n", "    <!-- indented: mid-line\n\nrest\n"},
		{"a <!-- b\n\nc --> d\n", "a <!-- b\n\nc --> d\n", "a <!-- b\n\nc --> d\n"},
		{"a <!-- b\nc --> d\n", "a \n d\n", "a \n d\n"},
		{"``<!-- `a` -->`` <!-- b -->\n", "``<!-- `a` -->`` \n", "``<!-- `a` -->`` \n"},
		{"` <!-- x --> \n", "`  \n", "`  \n"},
		{"~~~\n<!-- x -->\n~~~\n<!-- y -->\n", "~~~\n<!-- x -->\n~~~\n\n", "~~~\n<!-- x -->\n~~~\n"},
		{"<!--\n```\n-->\n<!-- z -->\n", "\n\n\n\n", ""},
		{"no comment\r\n", "no comment\r\n", "no comment\r\n"},
		{"a\r\n<!-- x -->\r\nb", "a\r\n\r\nb", "a\r\nb"},
	} {
		if got := hideComments(tc.in, false); got != tc.keep {
			t.Errorf("hideComments(%q, keep) = %q, want %q", tc.in, got, tc.keep)
		}
		if got := hideComments(tc.in, true); got != tc.drop {
			t.Errorf("hideComments(%q, drop) = %q, want %q", tc.in, got, tc.drop)
		}
	}
}

// TestArtifactProseOnce checks that an enriched artifact's prose is
// indexed once: the record of it at the end is a comment.
func TestArtifactProseOnce(t *testing.T) {
	art := "---\nsource: \"lib/a.go\"\nstatus: enriched\n---\n# lib/a.go\n\n## Overview\n\nComputes quantiles of a stream.\n\n" +
		"## Functions\n\n### `func Quantile(xs []float64) float64`\n\n*Lines 3–9*\n\n**Purpose**: Returns the median of xs.\n\n" +
		"<!-- fileinfo:report v1\n{\n  \"path\": \"lib/a.go\",\n  \"overview\": \"Computes quantiles of a stream.\",\n" +
		"  \"functions\": [\n    {\n      \"name\": \"Quantile\",\n      \"purpose\": \"Returns the median of xs.\",\n      \"implementation\": \"\"\n    }\n  ]\n}\n-->\n"
	w, err := newWorker(512)
	if err != nil {
		t.Fatal(err)
	}
	w.keepText = true
	p := w.process(&doc{path: ".artifacts/lib/a.go.md"}, art, formatMarkdown, "")
	var text strings.Builder
	for _, c := range p.chunks {
		text.WriteString(c.text)
	}
	for word, n := range map[string]int{"quantiles": 1, "median": 1, "\"name\"": 0, "fileinfo": 0} {
		if got := strings.Count(text.String(), word); got != n {
			t.Errorf("%q indexed %d times, want %d:\n%s", word, got, n, text.String())
		}
	}
	ix := openTest(t, mapFS(map[string]string{".artifacts/lib/a.go.md": art, "docs/x.md": "# X\n\nAbout streams.\n"}), Options{})
	expectTop(t, ix, "median quantiles", ".artifacts/lib/a.go.md")
}

// TestHideCommentsLinear feeds hideComments the inputs that make a naive
// reading quadratic: many unclosed openings in one paragraph and on one
// line, and backtick runs that close nothing.
func TestHideCommentsLinear(t *testing.T) {
	for name, text := range commentCases {
		expectLinear(t, name, func(n int) {
			if in := text(n); hideComments(in, false) != in {
				t.Errorf("%s: text changed", name)
			}
		})
	}
}

// commentCases are TestHideCommentsLinear's inputs of n units.
var commentCases = map[string]func(n int) string{
	"paragraph": func(n int) string { return strings.Repeat("a <!-- b\n", n) },
	"line":      func(n int) string { return "a " + strings.Repeat("<!-- ", n) + "\n" },
	"ticks": func(n int) string {
		var b strings.Builder
		for i := 1; b.Len() < 8*n; i++ {
			b.WriteString(strings.Repeat("`", i) + " <!-- ")
		}
		return b.String()
	},
}

// BenchmarkHideComments times TestHideCommentsLinear's inputs at both of
// its sizes: linear reading shows the same MB/s at both.
func BenchmarkHideComments(b *testing.B) {
	for _, name := range slices.Sorted(maps.Keys(commentCases)) {
		for _, n := range []int{1 << 12, 1 << 16} {
			b.Run(fmt.Sprintf("%s/%d", name, n), func(b *testing.B) {
				in := commentCases[name](n)
				b.SetBytes(int64(len(in)))
				b.ReportAllocs()
				for b.Loop() {
					hideComments(in, false)
				}
			})
		}
	}
}

// expectLinear fails if f(n) reads more than twice as many bytes per unit
// of n at 16 times the size (see work): a quadratic f reads sixteen times
// as many, one that is n^1.5 four times, a linear one as many. Bytes read
// are counted, not timed, so the load of the machine changes nothing;
// each size runs three times and the least counts, in case another
// goroutine reads markup meanwhile.
func expectLinear(t *testing.T, name string, f func(n int)) {
	t.Helper()
	perUnit := func(n int) float64 {
		least := int64(math.MaxInt64)
		for range 3 {
			least = min(least, countWork(func() { f(n) }))
		}
		return float64(least) / float64(n)
	}
	small, big := perUnit(1<<12), perUnit(1<<16)
	if small <= 0 {
		t.Fatalf("%s: no work counted", name)
	}
	t.Logf("%s: %.1f bytes read per unit at 4,096 units, %.1f at 65,536", name, small, big)
	if big > 2*small {
		t.Errorf("%s: %.1f bytes read per unit at 65,536 units, %.1f at 4,096: not linear", name, big, small)
	}
}

// countWork returns the bytes the markup readers read while f runs (see
// work).
func countWork(f func()) int64 {
	var c atomic.Int64
	work.Store(&c)
	defer work.Store(nil)
	f()
	return c.Load()
}

// FuzzHideComments checks that hiding comments never panics, keeps every
// line (with its number) and only removes text from a line, and that what
// Fetch shows is the indexed text without the lines comments emptied.
func FuzzHideComments(f *testing.F) {
	f.Add(commented)
	f.Add("a <!-- b\nc --> d\n\n```\n<!--\n```\n<!-->x<!--->`<!--`\n   <!--\n")
	f.Fuzz(func(t *testing.T, text string) {
		keep, drop := hideComments(text, false), hideComments(text, true)
		in, out := strings.Split(text, "\n"), strings.Split(keep, "\n")
		if len(in) != len(out) {
			t.Fatalf("%d lines, want %d:\n%q\n%q", len(out), len(in), text, keep)
		}
		for i := range in {
			if !subsequence(out[i], in[i]) {
				t.Fatalf("line %d: %q is not from %q", i+1, out[i], in[i])
			}
		}
		if a, b := nonBlank(keep), nonBlank(drop); !slices.Equal(a, b) {
			t.Fatalf("shown lines %q, indexed %q", b, a)
		}
	})
}

// subsequence reports whether s is t with some bytes removed.
func subsequence(s, t string) bool {
	for i := 0; i < len(t) && len(s) > 0; i++ {
		if t[i] == s[0] {
			s = s[1:]
		}
	}
	return s == ""
}

func nonBlank(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// BenchmarkProcessArtifact processes an enriched artifact, whose record
// of its prose is a comment, as indexing does.
func BenchmarkProcessArtifact(b *testing.B) {
	data, err := os.ReadFile("../enrich/testdata/golden/store.py.enriched.md")
	if err != nil {
		b.Fatal(err)
	}
	text := string(data)
	w, err := newWorker(512)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		w.process(&doc{path: ".artifacts/shop/store.py.md"}, text, formatMarkdown, "")
	}
}
