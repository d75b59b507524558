package docsearch

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestStripMDX(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "# Title\n\nText a < b.\n", "# Title\n\nText a < b.\n"},
		{"imports", "import Tabs from '@theme/Tabs';\nimport './x.css'\nimport {A, B} from \"y\"\n\n# T\n", "\n\n\n\n# T\n"},
		{"exports", "export const meta = {title: 'x'}\nexport default Layout\n", "\n\n"},
		{"indented import is text", "  import os from the list\n", "  import os from the list\n"},
		{"prose import", "import the module first.\n", "import the module first.\n"},
		{"jsx lines", "<Tabs>\n<TabItem value=\"npm\" label=\"npm\">\n\nRun npm.\n\n</TabItem>\n</Tabs>\n", "\n\n\nRun npm.\n\n\n\n"},
		{"inline jsx", "Use <Kbd>Ctrl</Kbd> and <Badge text=\"new\" />.\n", "Use Ctrl and .\n"},
		{"attrs with braces", "<Note type={x > 1 ? 'a' : 'b'}>Hi</Note>\n", "Hi\n"},
		{"html tags stay", "<details><summary>More</summary>\n", "<details><summary>More</summary>\n"},
		{"generic type", "A List<T> holds items.\n", "A List<T> holds items.\n"},
		{"brace comment", "{/* rule-details */}\n## Rule details\n", "\n## Rule details\n"},
		{"heading id", "## Extra models {#extra-models}\n", "## Extra models\n"},
		{"brace not id", "Use {#if x} blocks.\n", "Use {#if x} blocks.\n"},
		{"code kept", "```jsx\nimport A from 'a'\n<Tabs>\n```\n<Tabs>\n", "```jsx\nimport A from 'a'\n<Tabs>\n```\n\n"},
		{"crlf", "<Tabs>\r\nText\r\n", "\r\nText\r\n"},
		{"unclosed tag", "<Tabs value=\"x\n", "<Tabs value=\"x\n"},
		{"tag over lines", "<Figure\n  hint=\"a > b\"\n  src={img}\n>\nText.\n</Figure>\n", "\n\n\n\nText.\n\n"},
		{"tag closing with text", "<Callout\n  type=\"info\">Use it.\n", "\nUse it.\n"},
		{"export object", "export const meta = {\n  title: 'Install',\n  tags: ['a', 'b'],\n}\n\n# Install\n", "\n\n\n\n\n# Install\n"},
		{"import over lines", "import {\n  Tabs,\n  TabItem,\n} from 'ui'\nText\n", "\n\n\n\nText\n"},
		{"heading id with spaces", "## Extra models { #extra-models }\n", "## Extra models\n"},
		{"open export is text", "export const x = {\n" + strings.Repeat("a\n", 120), "export const x = {\n" + strings.Repeat("a\n", 120)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := stripMDX(tc.in); got != tc.want {
				t.Errorf("stripMDX(%q) = %q; want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestStripRoleMarks(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{":mod:`pathlib` --- paths", "`pathlib` --- paths"},
		{"See :py:func:`open` and :class:`io.TextIOWrapper`.", "See `open` and `io.TextIOWrapper`."},
		{"a:b:`c`", "a:b:`c`"},
		{"time 10:30:`x`", "time 10:30:`x`"},
		{"no roles: `code`", "no roles: `code`"},
		{"::`x`", "::`x`"},
		{":a:b:c:`x`", ":a:b:c:`x`"},
		{"(:ref:`install`)", "(`install`)"},
	} {
		if got := stripRoleMarks(tc.in); got != tc.want {
			t.Errorf("stripRoleMarks(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

func TestCleanHeadingMarkup(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Extra models {#extra-models}", "Extra models"},
		{"{/*rule-details*/} Rule details", "Rule details"},
		{":mod:`pathlib` --- Object-oriented filesystem paths", "pathlib --- Object-oriented filesystem paths"},
		{"Install <Badge text=\"v2\" />", "Install"},
	} {
		if got := cleanHeading(tc.in); got != tc.want {
			t.Errorf("cleanHeading(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

func TestRSTOverlinedTitle(t *testing.T) {
	secs := parse("****************\n  What's New\n****************\n\nIntro.\n\nSummary\n=======\n\nText.\n", formatRST, 1)
	var got []string
	for _, s := range secs {
		if s.level > 0 {
			got = append(got, s.heading+"@"+strings.Join(s.path, ">"))
		}
	}
	want := []string{"What's New@What's New", "Summary@What's New>Summary"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("headings = %q; want %q", got, want)
	}
	if secs[1].line != 2 {
		t.Errorf("title line = %d; want 2", secs[1].line)
	}
}

// checkStripped checks what every stripper promises: lines stay in place
// and nothing is added.
func checkStripped(t *testing.T, name, in, out string) {
	t.Helper()
	if strings.Count(out, "\n") != strings.Count(in, "\n") {
		t.Errorf("%s(%q) = %q: line count changed", name, in, out)
	}
	if len(out) > len(in) {
		t.Errorf("%s(%q) = %q: longer", name, in, out)
	}
	if utf8.ValidString(in) && !utf8.ValidString(out) {
		t.Errorf("%s(%q) = %q: invalid UTF-8", name, in, out)
	}
}

func FuzzStripMDX(f *testing.F) {
	for _, s := range []string{"import A from 'a'\n<Tabs>\n{/* c */}\n## H {#h}\n", "<Note type={a>b}>x</Note>", "```\n<Tabs>\n```\n<A", "{#", "{/*", "<", "</A"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		checkStripped(t, "stripMDX", in, stripMDX(in))
		_ = cleanHeading(in)
	})
}

func FuzzStripRoleMarks(f *testing.F) {
	for _, s := range []string{":mod:`a`", ":py:func:`b`", "::`", ":`", "a:b:`c`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		checkStripped(t, "stripRoleMarks", in, stripRoleMarks(in))
	})
}

// TestStripMarkupLinear feeds the strippers the inputs that make a naive
// reading quadratic: openings that nothing closes, on one line.
func TestStripMarkupLinear(t *testing.T) {
	for name, text := range markupCases {
		expectLinear(t, name, func(n int) {
			in := text(n)
			_ = stripMDX(in)
			_ = stripRoleMarks(in)
		})
	}
}

// markupCases are TestStripMarkupLinear's inputs of n units.
var markupCases = map[string]func(n int) string{
	"comments": func(n int) string { return "a " + strings.Repeat("{/* ", n) + "\n" },
	"ids":      func(n int) string { return "a " + strings.Repeat("{# ", n) + "\n" },
	"tags":     func(n int) string { return "a " + strings.Repeat("<A b ", n) + "\n" },
	"quoted":   func(n int) string { return "a " + strings.Repeat(`<A b="`, n) + "\n" },
	"roles":    func(n int) string { return strings.Repeat(":a:b:c", n) + ":`" },
}

// BenchmarkStripMarkup times TestStripMarkupLinear's inputs at both of
// its sizes: linear reading shows the same MB/s at both.
func BenchmarkStripMarkup(b *testing.B) {
	for _, name := range slices.Sorted(maps.Keys(markupCases)) {
		for _, n := range []int{1 << 12, 1 << 16} {
			b.Run(fmt.Sprintf("%s/%d", name, n), func(b *testing.B) {
				in := markupCases[name](n)
				b.SetBytes(int64(len(in)))
				b.ReportAllocs()
				for b.Loop() {
					stripMDX(in)
					stripRoleMarks(in)
				}
			})
		}
	}
}
