package enrich

import (
	"unicode"
	"unicode/utf8"

	"github.com/pkoukk/tiktoken-go"
)

// runSegment is the length, in bytes, of the segments a long run is
// encoded in (see encode).
const runSegment = 128

// encode returns the tokens of text as tiktoken encodes it, unless text
// has a run of one character class (letters, digits, white space or
// other symbols) longer than runSegment bytes: then each such run is
// encoded in segments of about runSegment bytes, cut at rune boundaries.
//
// Such a run is one piece to tiktoken's pre-tokenizer, and tiktoken-go
// merges a piece in time quadratic in its length: a 100 KB line of emoji
// in a Go string took 13 s to build a prompt from, and the 2 MB a source
// file may be would take hours. Source text rarely has such runs (a
// string of Chinese, a line of "=", a blob); for them the count may
// differ from tiktoken's by about a token a segment, cut where no token
// boundary was, so mostly upward. The tokens still decode to text.
func encode(e *tiktoken.Tiktoken, text string) []int {
	cuts := longRunCuts(text)
	if cuts == nil {
		return e.EncodeOrdinary(text)
	}
	var out []int
	start := 0
	for _, c := range append(cuts, len(text)) {
		out = append(out, e.EncodeOrdinary(text[start:c])...)
		start = c
	}
	return out
}

// longRunCuts returns where encode cuts text: every runSegment bytes or
// so inside each run of one character class longer than runSegment
// bytes, at rune boundaries; nil when there is no such run.
func longRunCuts(text string) []int {
	var cuts []int
	runStart, runClass := 0, -1
	for i, r := range text {
		c := charClass(r)
		if c != runClass {
			runStart, runClass = i, c
			continue
		}
		last := runStart
		if n := len(cuts); n > 0 && cuts[n-1] > runStart {
			last = cuts[n-1]
		}
		if i-last >= runSegment {
			cuts = append(cuts, i)
		}
	}
	return cuts
}

// charClass is the class of r as tiktoken's pre-tokenizer tells runs
// apart: letters, digits, white space, or anything else.
func charClass(r rune) int {
	switch {
	case r < utf8.RuneSelf && ('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'):
		return 0
	case r < utf8.RuneSelf && '0' <= r && r <= '9':
		return 1
	case r == ' ' || r == '\t' || r == '\n' || r == '\r':
		return 2
	case r < utf8.RuneSelf:
		return 3
	case unicode.IsLetter(r):
		return 0
	case unicode.IsNumber(r):
		return 1
	case unicode.IsSpace(r):
		return 2
	}
	return 3
}
