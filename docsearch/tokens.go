package docsearch

import (
	"fmt"
	"math"
	"sync"
	"unicode"
	"unicode/utf8"

	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

// tokenRanksFile is the name under which tiktoken-go's loaders know the
// byte-pair ranks of cl100k_base, the encoding chunk sizes are counted in
// (the one package enrich counts prompt budgets in).
const tokenRanksFile = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"

// ranks returns cl100k_base's byte-pair ranks, loading them on first use
// from the copy tiktoken-go-loader embeds in the binary; nothing is
// downloaded.
var ranks = sync.OnceValues(func() (map[string]int, error) {
	r, err := tiktoken_loader.NewOfflineLoader().LoadTiktokenBpe(tokenRanksFile)
	if err != nil {
		return nil, fmt.Errorf("docsearch: load cl100k_base ranks: %w", err)
	}
	return r, nil
})

// tokenCounter counts cl100k_base tokens exactly as tiktoken does, but
// much faster on documentation text. tiktoken-go spends its time in the
// pre-tokenizing regular expression (2.6 MB/s on one core of the CI
// machine, so 40 s for 100 MB of docs); counting does the same
// pre-tokenizing by hand (splitPieces), and byte-pair merges only pieces
// it has not seen before (bpeCount). Pieces repeat heavily (words,
// indentation, punctuation), so most pieces are cache hits. The equality
// with tiktoken is checked by FuzzTokenCount and
// TestTokenCountMatchesTiktoken.
//
// A tokenCounter is not safe for concurrent use; each indexing worker has
// its own.
type tokenCounter struct {
	ranks map[string]int
	short map[uint64]int32 // pieces of 2 to 7 bytes, packed into the key
	cache map[string]int32 // longer pieces
	bytes int
	parts []bpePart // bpeCount's scratch
}

// maxPieceCache bounds the bytes of pieces a counter remembers; past it
// the cache starts over.
const maxPieceCache = 8 << 20

func newTokenCounter() (*tokenCounter, error) {
	r, err := ranks()
	if err != nil {
		return nil, err
	}
	return &tokenCounter{ranks: r, short: map[uint64]int32{}, cache: map[string]int32{}}, nil
}

// count returns the number of cl100k_base tokens of text. Invalid UTF-8 is
// counted as tiktoken-go counts it, as U+FFFD.
func (c *tokenCounter) count(text string) int {
	if !utf8.ValidString(text) {
		text = toValidRunes(text)
	}
	n := 0
	splitPieces(text, func(p string) {
		if len(p) == 1 { // every byte is a token of its own
			n++
			return
		}
		if len(p) <= 7 {
			key := uint64(len(p)) << 56
			for i := 0; i < len(p); i++ {
				key |= uint64(p[i]) << (8 * i)
			}
			k, ok := c.short[key]
			if !ok {
				k = int32(c.bpeCount(p))
				if len(c.short) >= 1<<20 {
					clear(c.short)
				}
				c.short[key] = k
			}
			n += int(k)
			return
		}
		if k, ok := c.cache[p]; ok {
			n += int(k)
			return
		}
		k := c.bpeCount(p)
		if c.bytes+len(p) > maxPieceCache {
			clear(c.cache)
			c.bytes = 0
		}
		c.cache[p] = int32(k)
		c.bytes += len(p)
		n += k
	})
	return n
}

// bpePart is a part of a piece being merged: where it starts, and the rank
// of it merged with the next part (noRank when that is not a token).
type bpePart struct {
	start, rank int
}

const noRank = math.MaxInt

// bpeCount returns the number of tokens byte-pair encoding makes of the
// piece p, as tiktoken encodes it: a piece that is a token is one; else,
// starting from its bytes, the adjacent two parts whose concatenation has
// the lowest rank (the leftmost of equals) are merged until no two
// adjacent parts make a token.
func (c *tokenCounter) bpeCount(p string) int {
	if _, ok := c.ranks[p]; ok {
		return 1
	}
	parts := c.parts[:0]
	for i := 0; i <= len(p); i++ {
		parts = append(parts, bpePart{start: i, rank: noRank})
	}
	// rank of parts i and i+1 merged, given the boundaries in parts.
	rankAt := func(i int) int {
		if i+2 < len(parts) {
			if r, ok := c.ranks[p[parts[i].start:parts[i+2].start]]; ok {
				return r
			}
		}
		return noRank
	}
	for i := 0; i+2 < len(parts); i++ {
		parts[i].rank = rankAt(i)
	}
	for {
		best, at := noRank, -1
		for i, pt := range parts[:len(parts)-1] {
			if pt.rank < best {
				best, at = pt.rank, i
			}
		}
		if at < 0 {
			break
		}
		parts = append(parts[:at+1], parts[at+2:]...)
		parts[at].rank = rankAt(at)
		if at > 0 {
			parts[at-1].rank = rankAt(at - 1)
		}
	}
	c.parts = parts
	return len(parts) - 1
}

// toValidRunes replaces each invalid byte by U+FFFD, as converting to
// []rune does.
func toValidRunes(s string) string {
	b := make([]byte, 0, len(s)+8)
	for _, r := range s {
		b = utf8.AppendRune(b, r)
	}
	return string(b)
}

// splitPieces calls f with each piece cl100k_base's pre-tokenizer cuts
// valid UTF-8 text into. The expression it implements, tried alternative
// by alternative at each position, is
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|
//	 ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// where \s is unicode.IsSpace, \p{L} unicode.IsLetter and \p{N}
// unicode.IsNumber, as in the regexp2 engine tiktoken-go uses.
func splitPieces(s string, f func(string)) {
	for i := 0; i < len(s); {
		n := pieceLen(s[i:])
		f(s[i : i+n])
		i += n
	}
}

// runeAt decodes the rune at s[i:], returning -1 and 0 at the end.
func runeAt(s string, i int) (rune, int) {
	if i >= len(s) {
		return -1, 0
	}
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

func isLetter(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r)
}

func isNumber(r rune) bool {
	if r < utf8.RuneSelf {
		return '0' <= r && r <= '9'
	}
	return unicode.IsNumber(r)
}

func isSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return r == ' ' || '\t' <= r && r <= '\r'
	}
	return unicode.IsSpace(r)
}

// pieceLen returns the length in bytes of the piece at the start of s,
// which is not empty.
func pieceLen(s string) int {
	r, n := runeAt(s, 0)
	// (?i:'s|'t|'re|'ve|'m|'ll|'d)
	if r == '\'' && len(s) >= 2 {
		switch s[1] | 0x20 {
		case 's', 't', 'm', 'd':
			return 2
		case 'r', 'v':
			if len(s) >= 3 && s[2]|0x20 == 'e' {
				return 3
			}
		case 'l':
			if len(s) >= 3 && s[2]|0x20 == 'l' {
				return 3
			}
		}
	}
	// [^\r\n\p{L}\p{N}]?\p{L}+
	start := 0
	if !isLetter(r) && !isNumber(r) && r != '\r' && r != '\n' {
		if r2, _ := runeAt(s, n); isLetter(r2) {
			start = n
		}
	}
	if r1, _ := runeAt(s, start); isLetter(r1) {
		i := start
		for {
			r, m := runeAt(s, i)
			if !isLetter(r) {
				return i
			}
			i += m
		}
	}
	// \p{N}{1,3}
	if isNumber(r) {
		i := n
		for k := 1; k < 3; k++ {
			r, m := runeAt(s, i)
			if !isNumber(r) {
				break
			}
			i += m
		}
		return i
	}
	//  ?[^\s\p{L}\p{N}]+[\r\n]*
	i := 0
	if r == ' ' {
		i = 1
	}
	if r1, _ := runeAt(s, i); r1 >= 0 && !isSpace(r1) && !isLetter(r1) && !isNumber(r1) {
		for {
			r, m := runeAt(s, i)
			if r < 0 || isSpace(r) || isLetter(r) || isNumber(r) {
				break
			}
			i += m
		}
		for i < len(s) && (s[i] == '\r' || s[i] == '\n') {
			i++
		}
		return i
	}
	// What is left starts with white space: the run of it, w.
	w, lastNL := 0, -1
	for {
		r, m := runeAt(s, w)
		if r < 0 || !isSpace(r) {
			break
		}
		if r == '\r' || r == '\n' {
			lastNL = w
		}
		w += m
	}
	// \s*[\r\n]+ ends at the last line break of the run.
	if lastNL >= 0 {
		return lastNL + 1
	}
	// \s+(?!\S) leaves the last white space for the next piece, unless
	// the run ends the text; \s+ takes a run of one.
	if w == len(s) {
		return w
	}
	_, lastLen := utf8.DecodeLastRuneInString(s[:w])
	if w-lastLen > 0 {
		return w - lastLen
	}
	return w
}
