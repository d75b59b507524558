package embed

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func words(text string) []string {
	var ws []string
	splitWords(text, make([]byte, 0, 4*maxWord), func(w []byte) { ws = append(ws, string(w)) })
	return ws
}

func TestSplitWords(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // words joined by spaces
	}{
		{"", ""},
		{"  \t\n", ""},
		{"hello world", "hello world"},
		{"Hello, World!", "hello world"},
		{"writeBoolean", "write boolean"},
		{"WriteBoolean", "write boolean"},
		{"snake_case_name", "snake case name"},
		{"kebab-case-name", "kebab case name"},
		{"os.path.exists", "os path exists"},
		{"HTTPServer", "http server"},
		{"parseJSON", "parse json"},
		{"getHTTPResponseCode", "get http response code"},
		{"utf8Decode", "utf8 decode"},
		{"base64", "base64"},
		{"x86_64", "x86 64"},
		{"ABC", "abc"},
		{"aB", "a b"},
		{"ABc", "a bc"},
		{"IOError", "io error"},
		{"__init__", "init"},
		{"sys.stdout.isatty()", "sys stdout isatty"},
		{"version 2.0.1", "version 2 0 1"},
		{"Terminal256Formatter", "terminal256 formatter"},
		{"ÉcoleNormale", "école normale"},
		{"naïve café", "naïve café"},
		{"日本語テキスト", "日本語テキスト"},
		{"a\u00a0b", "a b"}, // no-break space separates
		{"emoji 🙂 here", "emoji here"},
		{strings.Repeat("x", maxWord+1) + " ok", "ok"},
		{strings.Repeat("ab", 200) + " ok", "ok"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got := strings.Join(words(tc.in), " ")
			if got != tc.want {
				t.Errorf("splitWords(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func FuzzSplitWords(f *testing.F) {
	for _, s := range []string{"", "writeBoolean", "HTTPServer2Go", "ÉcoleNormale", "a\xffb", "İstanbul", "ǅ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ws := words(s)
		for _, w := range ws {
			if w == "" || len(w) > 4*maxWord {
				t.Fatalf("word %q of %q: empty or too long", w, s)
			}
			if !utf8.ValidString(w) {
				t.Fatalf("word %q of %q: not UTF-8", w, s)
			}
		}
		// Splitting is a function of the text: same input, same words.
		if again := words(s); !slices.Equal(ws, again) {
			t.Fatalf("splitWords(%q) not deterministic: %q then %q", s, ws, again)
		}
	})
}
