package docsearch

import (
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

// tokenSamples are texts whose pieces exercise every alternative of the
// pre-tokenizer: contractions, letters after punctuation, long numbers,
// runs of white space before words, numbers and line breaks, non-ASCII
// letters, digits and spaces.
var tokenSamples = []string{
	"",
	"Hello, world! It's a test; they'RE here, we'll see. I'd've",
	"x := 1234567 + 89\n\n\n    return  x\t\t\n",
	"   leading spaces\n  \n\t  trailing   ",
	"## Heading\n\n```go\nfunc mapBy(xs []int) map[int]bool {\n\treturn nil\n}\n```\n",
	"Ünïcödé wörds, 日本語のテキスト, ٣٤٥ numbers, \u00a0nbsp\u2003em\u3000space",
	" 1 2  3   ... !!! \r\n\r\n ''' '\n'",
	"a\u0085b \u2028 c",
	"invalid \xff\xfe bytes",
}

// tiktokenEncoding is tiktoken-go's own cl100k_base encoder, which counts
// are checked against.
var tiktokenEncoding = sync.OnceValues(func() (*tiktoken.Tiktoken, error) {
	tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
	return tiktoken.GetEncoding(tiktoken.MODEL_CL100K_BASE)
})

func expectSameCount(t *testing.T, c *tokenCounter, text string) {
	t.Helper()
	enc, err := tiktokenEncoding()
	if err != nil {
		t.Fatal(err)
	}
	want := len(enc.EncodeOrdinary(text))
	if got := c.count(text); got != want {
		var pieces []string
		splitPieces(toValidRunes(text), func(p string) { pieces = append(pieces, p) })
		t.Errorf("count(%q) = %d, tiktoken %d; pieces %q", text, got, want, pieces)
	}
}

func TestTokenCountMatchesTiktoken(t *testing.T) {
	c, err := newTokenCounter()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range tokenSamples {
		expectSameCount(t, c, s)
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range strings.SplitAfter(string(readme), "\n\n") {
		expectSameCount(t, c, part)
	}
}

func FuzzTokenCount(f *testing.F) {
	for _, s := range tokenSamples {
		f.Add(s)
	}
	c, err := newTokenCounter()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		expectSameCount(t, c, s)
	})
}

// benchmarkCount counts the repository's README with the counter fresh
// returns for each round.
func benchmarkCount(b *testing.B, fresh func() *tokenCounter) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		b.Fatal(err)
	}
	text := string(readme)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		fresh().count(text)
	}
}

func newTestCounter(b *testing.B) *tokenCounter {
	c, err := newTokenCounter()
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkTokenCount counts with one counter, so that after the first
// round every piece is a cache hit.
func BenchmarkTokenCount(b *testing.B) {
	c := newTestCounter(b)
	benchmarkCount(b, func() *tokenCounter { return c })
}

// BenchmarkTokenCountCold counts with a new counter each time, so that
// every piece is a miss once: the cost of text whose pieces do not repeat
// (URLs, hashes, identifiers).
func BenchmarkTokenCountCold(b *testing.B) {
	benchmarkCount(b, func() *tokenCounter { return newTestCounter(b) })
}
