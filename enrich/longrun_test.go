package enrich

import (
	"strings"
	"testing"
)

// TestEncodeLongRuns checks that encode is tiktoken's encoding where no
// run of one character class is long, and where one is, still decodes to
// the text with a count close to tiktoken's.
func TestEncodeLongRuns(t *testing.T) {
	e, err := encoding()
	if err != nil {
		t.Fatal(err)
	}
	plain := []string{
		"\tfunc F(x int) string { return strconv.Itoa(x) }\n",
		"\t// " + strings.Repeat("word ", 60) + "\n",
		"\tvar s = \"" + strings.Repeat("😀", 30) + "\"\n", // 120 bytes: under runSegment
		"",
	}
	for _, s := range plain {
		if got, want := encode(e, s), e.EncodeOrdinary(s); !equalInts(got, want) {
			t.Errorf("encode(%.40q) = %d tokens, differs from tiktoken's %d", s, len(got), len(want))
		}
	}
	long := map[string]string{
		"emoji":   strings.Repeat("😀🎉", 500),
		"chinese": strings.Repeat("的一是不了人我在有他这中大来上国个到说们", 100),
		"equals":  strings.Repeat("=", 4000),
		"spaces":  "\t" + strings.Repeat(" ", 4000) + "x\n",
		"letters": strings.Repeat("ab", 2000),
		"mixed":   "\tvar s = \"" + strings.Repeat("😀", 1000) + "\" // done\n",
	}
	for name, s := range long {
		got := encode(e, s)
		if d := e.Decode(got); d != s {
			t.Errorf("%s: encode does not decode to the text", name)
		}
		want := len(e.EncodeOrdinary(s))
		cuts := len(longRunCuts(s))
		if cuts == 0 {
			t.Errorf("%s: no cut in a run of %d bytes", name, len(s))
		}
		if n := len(got); n < want-cuts || n > want+2*cuts {
			t.Errorf("%s: %d tokens, tiktoken %d, %d cuts", name, n, want, cuts)
		}
	}
}

// TestPromptLongLine builds the prompt of a Go file whose string literal
// is a line of 1 MB of emoji, one piece to tiktoken: merged whole, it
// would take tiktoken-go over 20 minutes (100 KB took 13 s); in segments it
// takes a fraction of a second, and the line is cut to the budget.
func TestPromptLongLine(t *testing.T) {
	src := "package a\n\n// S is long.\nvar S = \"" + strings.Repeat("😀", 250_000) + "\"\n\n// F returns S.\nfunc F() string { return S }\n"
	f, g := extractOne(t, "a.go", src)
	var all strings.Builder
	for part := 1; ; part++ {
		p, err := sharedBuilder().Prompt(f, g, []byte(src), Options{MaxTokens: 8000, Part: part})
		if err != nil {
			t.Fatal(err)
		}
		all.WriteString(p.Text)
		if part == p.Parts {
			break
		}
	}
	if text := all.String(); !strings.Contains(text, "line cut") || !strings.Contains(text, "func F() string") {
		t.Errorf("the parts do not cut the long line, or lose the rest:\n%.2000s", text)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
