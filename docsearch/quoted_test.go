package docsearch

import (
	"math"
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
		if utf8.ValidString(s) && q > 0 && quotedShare(s+"\n"+s) == 0 {
			t.Fatalf("quotedShare(%q) > 0 but 0 for it twice", s)
		}
	})
}
