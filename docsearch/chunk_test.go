package docsearch

import (
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// exactChunks chunks secs as c does, but with every count in full: the
// reference the capped counts are checked against.
func exactChunks(c *chunker, secs []section, docTitle string) []chunk {
	full := *c
	full.uncapped = true
	return full.chunks(secs, docTitle)
}

// expectExactChunks checks that chunking secs with counts capped at the
// limit makes the chunks full counts make.
func expectExactChunks(t *testing.T, c *chunker, secs []section) {
	t.Helper()
	got, want := c.chunks(secs, "doc"), exactChunks(c, secs, "doc")
	if len(got) != len(want) {
		t.Fatalf("limit %d: %d chunks, want %d", c.limit, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("limit %d: chunk %d is\n%+v\nwant\n%+v", c.limit, i, got[i], want[i])
		}
	}
}

// randomSections returns sections of blocks cut from texts at random
// lengths, from a few bytes to many times the limit, so that counts fall
// on both sides of the limit, the code limit and the room left.
func randomSections(r *rand.Rand, texts []string, limit int) []section {
	var secs []section
	line := 1
	for s := range 4 {
		sec := section{path: []string{"S" + string(rune('A'+s))}}
		for range 1 + r.IntN(12) {
			text := texts[r.IntN(len(texts))]
			var n int
			switch r.IntN(3) {
			case 0:
				n = r.IntN(4 * limit)
			case 1:
				n = r.IntN(4 * codeLimitFactor * limit)
			default: // up to a huge block
				n = r.IntN(min(len(text), 200*limit) + 1)
			}
			start := r.IntN(len(text) - min(n, len(text)) + 1)
			piece := text[start:min(start+n, len(text))]
			piece = strings.ToValidUTF8(piece, "") // cut mid-rune
			if piece == "" {
				continue
			}
			if !strings.HasSuffix(piece, "\n") {
				piece += "\n"
			}
			lines := strings.Count(piece, "\n")
			sec.blocks = append(sec.blocks, block{text: piece, line: line, end: line + lines - 1, code: r.IntN(3) == 0})
			line += lines + 1
		}
		secs = append(secs, sec)
	}
	return secs
}

// chunkTexts returns texts to cut blocks from: the token samples, prose,
// code, long single lines with and without spaces, non-ASCII text, a huge
// paragraph, and long runs of white space and of symbols, each one piece.
func chunkTexts(t *testing.T) []string {
	t.Helper()
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("tokens.go")
	if err != nil {
		t.Fatal(err)
	}
	words := strings.Fields(string(readme))
	return append(slices.Clone(tokenSamples),
		string(readme),
		string(src),
		strings.Join(words, " "),                // a long single line
		strings.Repeat("QmFzZTY0IGJsb2I", 2000), // and one with no spaces
		strings.Repeat("日本語のテキストを分割する。Ünïcödé wörds, ٣٤٥ numbers\u00a0and\u3000spaces.\n", 300),
		strings.Repeat("word ", 20000),
		strings.Repeat("\t  \n", 300),
		strings.Repeat("😀🎉", 300),
	)
}

// TestChunksCappedCountsMatchExact checks that chunks, which counts only
// up to the limit, cuts as it did counting in full.
func TestChunksCappedCountsMatchExact(t *testing.T) {
	tc, err := newTokenCounter()
	if err != nil {
		t.Fatal(err)
	}
	texts := chunkTexts(t)
	r := rand.New(rand.NewPCG(7, 8))
	for _, limit := range []int{1, 4, 16, 64, 512} {
		c := chunker{limit: limit, tc: tc}
		for range 40 {
			expectExactChunks(t, &c, randomSections(r, texts, limit))
		}
	}
	c := chunker{limit: 512, tc: tc}
	for _, d := range repoDocs(t) {
		expectExactChunks(t, &c, d.secs)
	}
}

// FuzzChunks checks that capped counts make the chunks full counts make
// on any markdown.
func FuzzChunks(f *testing.F) {
	for _, s := range tokenSamples {
		f.Add(s, uint8(8))
	}
	f.Add("# A\n\n```go\n"+strings.Repeat("x := f(1, 2)\n", 200)+"```\n\n"+strings.Repeat("word ", 900)+"\n", uint8(20))
	tc, err := newTokenCounter()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string, limit uint8) {
		if !utf8.ValidString(text) {
			return
		}
		c := chunker{limit: 1 + int(limit), tc: tc}
		expectExactChunks(t, &c, parse(text, formatMarkdown, 1))
	})
}

// TestCountUpTo checks that countUpTo is exact up to the limit and stops
// soon after it.
func TestCountUpTo(t *testing.T) {
	tc, err := newTokenCounter()
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat("Counting stops past the limit. ", 1000)
	full := tc.count(text)
	for _, limit := range []int{0, 1, 5, 100, full - 1, full, full + 1} {
		got := tc.countUpTo(text, limit)
		switch {
		case full <= limit && got != full:
			t.Errorf("countUpTo(text, %d) = %d, want %d", limit, got, full)
		case full > limit && got <= limit:
			t.Errorf("countUpTo(text, %d) = %d, want over %d", limit, got, limit)
		case full > limit+10 && got > limit+10: // a piece here is a token or two
			t.Errorf("countUpTo(text, %d) = %d: counted on past the limit (full %d)", limit, got, full)
		}
	}
}
