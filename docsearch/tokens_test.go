package docsearch

import (
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dlclark/regexp2"
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
	// ASCII next to non-ASCII of every class, where pieceLen leaves its
	// byte table for decoding runes: letters, a combining mark (not a
	// letter), digits, spaces and symbols.
	"caf\u00e9s na\u00efve \u00e9t\u00e9 abc\u0301def x\u0301 \u0301y",
	"12\u0663\u0664\u0665\u0666 \u00bd1 \u2167x \u00b2\u00b3",
	"a\u00a0b\u00a0\u00a0c \u3000 \u3000d\u2003\n\u2003e \u2028\n",
	"x\u2014y \u2014z!\u00bf\u00a1w \u20ac5 \u2192 \U0001F600a\U0001F600 \n",
	" \t\v\f\r\n \x00\x01\x7f a\x1fb",
	"'S'T'Re'VE'M'LL'D 'x '",
}

// tiktokenEncoding is tiktoken-go's own cl100k_base encoder, which counts
// are checked against.
var tiktokenEncoding = sync.OnceValues(func() (*tiktoken.Tiktoken, error) {
	tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
	return tiktoken.GetEncoding(tiktoken.MODEL_CL100K_BASE)
})

// tiktokenPattern is the pre-tokenizing expression of cl100k_base, as
// tiktoken-go compiles it.
var tiktokenPattern = regexp2.MustCompile(`(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`, regexp2.None)

// tiktokenPieces returns the pieces tiktoken-go's expression cuts valid
// UTF-8 text into.
func tiktokenPieces(t *testing.T, text string) []string {
	t.Helper()
	runes := []rune(text)
	var pieces []string
	m, err := tiktokenPattern.FindStringMatch(text)
	for ; m != nil && err == nil; m, err = tiktokenPattern.FindNextMatch(m) {
		pieces = append(pieces, string(runes[m.Index:m.Index+m.Length]))
	}
	if err != nil {
		t.Fatal(err)
	}
	return pieces
}

// splitPieces returns the pieces pieceLen cuts valid UTF-8 text into.
func splitPieces(s string) []string {
	var pieces []string
	for i := 0; i < len(s); {
		n := pieceLen(s[i:])
		pieces = append(pieces, s[i:i+n])
		i += n
	}
	return pieces
}

// expectSameCount checks that text has the pieces and the count tiktoken
// gives it.
func expectSameCount(t *testing.T, c *tokenCounter, text string) {
	t.Helper()
	enc, err := tiktokenEncoding()
	if err != nil {
		t.Fatal(err)
	}
	valid := toValidRunes(text)
	pieces := splitPieces(valid)
	if want := tiktokenPieces(t, valid); !slices.Equal(pieces, want) {
		t.Errorf("pieces of %q:\n%q\ntiktoken's:\n%q", text, pieces, want)
	}
	want := len(enc.EncodeOrdinary(text))
	if got := c.count(text); got != want {
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

// BenchmarkPieceLen cuts the repository's README into pieces.
func BenchmarkPieceLen(b *testing.B) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		b.Fatal(err)
	}
	text := string(readme)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		for i := 0; i < len(text); {
			i += pieceLen(text[i:])
		}
	}
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

// TestBPECountLong checks the heap merge against the scanning one on
// pieces of every kind that can be long, at lengths around bpeHeapMin and
// far over it, and the whole count against tiktoken on long runs.
func TestBPECountLong(t *testing.T) {
	c, err := newTokenCounter()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	alphabets := [][]rune{
		[]rune("abcdefghijklmnopqrstuvwxyz"),
		[]rune("aab"), // few letters: long merges of repeats
		[]rune("的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进此"),
		[]rune("😀😁😂🤣😃😄😅😆🎉👍🏽"),
		[]rune("éèêëàâäôöûüçÉÀ"),
		[]rune("абвгдежзийклмнопрстуфхцчшщъыьэюя"),
	}
	for _, alpha := range alphabets {
		for _, n := range []int{2, 3, 7, 40, bpeHeapMin/4 - 1, bpeHeapMin / 4, bpeHeapMin, 1000, 5000} {
			runes := make([]rune, n)
			for i := range runes {
				runes[i] = alpha[r.IntN(len(alpha))]
			}
			p := string(runes)
			if len(p) < 2 {
				continue
			}
			if got, want := c.bpeCountLong(p), c.bpeCountScan(p); got != want {
				t.Errorf("%d runes of %q: heap merge %d tokens, scanning %d", n, string(alpha[:min(3, len(alpha))]), got, want)
			}
			if n == 1000 {
				expectSameCount(t, c, p)
			}
		}
	}
}

// TestCountUpToLongPiece checks that a piece too long to fit the limit is
// not merged: 4 MB of emoji, one piece, would take hours to merge by
// scanning and a second by heap; the limit knows it is over at once.
func TestCountUpToLongPiece(t *testing.T) {
	c, err := newTokenCounter()
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat("😀", 1<<20)
	if got := c.countUpTo(text, 512); got <= 512 {
		t.Errorf("countUpTo(4 MB of emoji, 512) = %d; want over 512", got)
	}
	if len(c.cache) != 0 {
		t.Errorf("the piece was merged: %d pieces cached", len(c.cache))
	}
	// Just within reach of the limit, the count is exact.
	short := strings.Repeat("😀", 100)
	if got, want := c.countUpTo(short, 512), c.count(short); got != want {
		t.Errorf("countUpTo(100 emoji, 512) = %d, count %d", got, want)
	}
}
