package docsearch

import (
	"math"
	"os"
	"testing"
	"unicode/utf8"
)

func TestQuotedShare(t *testing.T) {
	for _, c := range []struct {
		text string
		want float64
	}{
		{"", 0},
		{"return a + b", 0},
		{`return "abc"`, 1.0 / 3},
		{`log("don't stop")`, 8.0 / 11},             // an apostrophe inside a literal
		{"// it's the user's\nx", 0},                // apostrophes after letters open nothing
		{"fn f(x: &'a str) {", 0},                   // a lone quote (a lifetime) is undone at the line's end
		{"msg = `one\ntwo`", 6.0 / 9},               // a template spans lines
		{"s = \"\"\"one\ntwo\"\"\"", 6.0 / 7},       // so does Python's triple quote
		{`x = "a\"b" + y`, 2.0 / 4},                 // an escaped quote does not close
		{"Use ``cfg`` and :func:`load`.", 4.0 / 17}, // reST: backticks pair after letters too
		{`e = "naïve"`, float64(len("naïve")) / float64(len("naïve")+1)}, // UTF-8 bytes count as letters
	} {
		if got := quotedShare(c.text); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("quotedShare(%q) = %.3f, want %.3f", c.text, got, c.want)
		}
	}
}

// A command's help text holds the words of the question; the function
// that does what it asks ranks over it.
func TestQuotedRanksUnder(t *testing.T) {
	ix := openTest(t, mapFS(nil), Options{})
	help := "const help = () => console.log(`Usage: semver [options] <version>\n" +
		"Prints valid versions sorted by SemVer precedence, in ascending order.\n" +
		"-r --range <range>  Print versions that match the specified range.\n" +
		"Versions are printed in ascending order, so supplying multiple versions sorts them.`)"
	putCode(t, ix, []CodeFile{
		{Path: "bin/semver.js", Symbols: []CodeSymbol{{Name: "bin.semver.help", Kind: "function", Signature: "const help = () =>", Body: help, Line: 136, End: 186}}},
		{Path: "functions/sort.js", Symbols: []CodeSymbol{{Name: "functions.sort.sort", Kind: "function", Signature: "const sort = (list, loose) =>",
			Body: "const sort = (list, loose) => list.sort((a, b) => compareBuild(a, b, loose))", Calls: []string{"compareBuild"}, Line: 2, End: 2}}},
	})
	expectFirst(t, ix, "sort a list of versions in ascending order", []string{ScopeCode}, "functions.sort.sort")
}

func FuzzQuotedShare(f *testing.F) {
	for _, s := range []string{"", `a "b" c`, "x = `\n`", `"""doc"""`, `'\`, "it's", "``a``"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := quotedShare(s)
		if q < 0 || q > 1 || math.IsNaN(q) {
			t.Fatalf("quotedShare(%q) = %v, want a share", s, q)
		}
		if r := quotedShareRef(s); r != q {
			t.Fatalf("quotedShare(%q) = %v, the reference %v", s, q, r)
		}
		if utf8.ValidString(s) && q > 0 && quotedShare(s+"\n"+s) == 0 {
			t.Fatalf("quotedShare(%q) > 0 but 0 for it twice", s)
		}
	})
}

// BenchmarkQuotedFeature: the feature of one candidate, as a search
// computes it for each of its first codeWindow code candidates; the
// text is this file's quotedShare as a code document would hold it.
func BenchmarkQuotedFeature(b *testing.B) {
	src, err := os.ReadFile("quoted.go")
	if err != nil {
		b.Fatal(err)
	}
	body := string(src)
	text := CodeText("docsearch/quoted.go", CodeSymbol{Name: "docsearch.quotedShare", Kind: "function", Signature: "func quotedShare(text string) float64",
		Doc: body[:min(len(body), maxCodeDoc)], Body: body[min(len(body), 2000):], Line: 1, End: 80})
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		quotedFeature(text)
	}
}

// quotedShareRef is quotedShare as first written, byte by byte: the
// reference FuzzQuotedShare holds the table-driven one to.
func quotedShareRef(text string) float64 {
	var inside, all, pending int // pending: letters in a '…' or "…" not yet closed
	var quote byte               // the open literal's mark, 0 outside one
	triple := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case quote == 0:
			if c == '`' || (c == '\'' || c == '"') && (i == 0 || !refWordByte(text[i-1])) {
				quote = c
				if c != '`' && i+2 < len(text) && text[i+1] == c && text[i+2] == c {
					triple = true
					i += 2
				}
				continue
			}
		case c == '\\':
			i++
			continue
		case c == '\n' && !triple && quote != '`':
			all += pending // an unclosed quote: the line was code
			pending, quote = 0, 0
			continue
		case c == quote:
			if !triple {
				inside += pending
				all += pending
				pending, quote = 0, 0
				continue
			}
			if i+2 < len(text) && text[i+1] == c && text[i+2] == c {
				inside += pending
				all += pending
				pending, quote, triple = 0, 0, false
				i += 2
				continue
			}
		}
		if !refWordByte(c) {
			continue
		}
		switch {
		case quote == 0:
			all++
		case triple || quote == '`':
			inside++
			all++
		default:
			pending++
		}
	}
	all += pending
	if all == 0 {
		return 0
	}
	return float64(inside) / float64(all)
}

// wordByte reports whether c is an ASCII letter or digit, or a byte of a
// multi-byte UTF-8 character.
func refWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}
