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
var ranks = sync.OnceValues(func() (*rankTable, error) {
	r, err := tiktoken_loader.NewOfflineLoader().LoadTiktokenBpe(tokenRanksFile)
	if err != nil {
		return nil, fmt.Errorf("docsearch: load cl100k_base ranks: %w", err)
	}
	t := &rankTable{short: map[uint64]int32{}, long: map[string]int32{}}
	for i := range t.pairs {
		t.pairs[i] = noRank
	}
	for tok, rank := range r {
		t.maxLen = max(t.maxLen, len(tok))
		switch {
		case len(tok) == 2:
			t.pairs[pairKey(tok)] = int32(rank)
		case len(tok) > 2 && len(tok) <= maxPacked:
			t.short[packKey(tok)] = int32(rank)
		case len(tok) > maxPacked:
			t.long[tok] = int32(rank)
		}
	}
	return t, nil
})

// rankTable holds the ranks of cl100k_base's tokens of two bytes or more
// (every single byte is a token) for bpeCount, which looks up each pair of
// adjacent bytes of a piece it has not seen, then each pair of parts a
// merge makes. Those are nearly all short: a pair is an array index, and
// up to maxPacked bytes are a key packed into an integer, which costs
// less than hashing a string and comparing it with key bytes elsewhere in
// memory. That cut BenchmarkTokenCountCold from 870 to 680 µs (medians
// of 8 runs).
type rankTable struct {
	pairs [1 << 16]int32   // by pairKey; noRank when not a token
	short map[uint64]int32 // 3 to maxPacked bytes, by packKey
	long  map[string]int32
	// maxLen is the longest token's length in bytes: a piece of n bytes
	// is at least n/maxLen tokens.
	maxLen int
}

// rank returns the rank of the token tok of two bytes or more, or noRank
// when tok is not a token.
func (t *rankTable) rank(tok string) int32 {
	switch {
	case len(tok) == 2:
		return t.pairs[pairKey(tok)]
	case len(tok) <= maxPacked:
		if r, ok := t.short[packKey(tok)]; ok {
			return r
		}
	default:
		if r, ok := t.long[tok]; ok {
			return r
		}
	}
	return noRank
}

// maxPacked is the length of the longest string packKey packs.
const maxPacked = 7

// packKey packs a string of at most maxPacked bytes, and its length, into
// an integer.
func packKey(s string) uint64 {
	key := uint64(len(s)) << 56
	for i := 0; i < len(s); i++ {
		key |= uint64(s[i]) << (8 * i)
	}
	return key
}

// pairKey packs a string of two bytes into an index of rankTable.pairs.
func pairKey(s string) uint16 {
	return uint16(s[0])<<8 | uint16(s[1])
}

// tokenCounter counts cl100k_base tokens exactly as tiktoken does, but
// much faster on documentation text. tiktoken-go spends its time in the
// pre-tokenizing regular expression (2.6 MB/s on one core of the CI
// machine, so 40 s for 100 MB of docs); counting does the same
// pre-tokenizing by hand (pieceLen), and byte-pair merges only pieces it
// has not seen before (bpeCount). Pieces repeat heavily (words,
// indentation, punctuation), so most pieces are cache hits. The equality
// with tiktoken, of the pieces and of the counts, is checked by
// FuzzTokenCount and TestTokenCountMatchesTiktoken.
//
// A tokenCounter is not safe for concurrent use; each indexing worker has
// its own.
type tokenCounter struct {
	ranks *rankTable
	short map[uint64]int32 // pieces of 2 to maxPacked bytes, by packKey
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
	return c.countUpTo(text, math.MaxInt)
}

// countUpTo returns count(text) when that is at most limit, and else some
// number over limit: it stops at the first piece that takes the count
// past limit, so that text far over the limit costs what its first limit
// tokens do. Pieces are counted one by one, so the running count only
// grows and never passes limit unless the whole count does.
func (c *tokenCounter) countUpTo(text string, limit int) int {
	if !utf8.ValidString(text) {
		text = toValidRunes(text)
	}
	n := 0
	for i := 0; i < len(text) && n <= limit; {
		k := pieceLen(text[i:])
		if minTokens := (k + c.ranks.maxLen - 1) / c.ranks.maxLen; minTokens > limit-n {
			// Over the limit whatever its merges: a long run of letters
			// (text with no spaces) need not be merged to know it.
			return limit + 1
		}
		n += c.pieceCount(text[i : i+k])
		i += k
	}
	return n
}

// pieceCount returns the number of tokens of the piece p, from the cache
// when p has been seen before.
func (c *tokenCounter) pieceCount(p string) int {
	if len(p) == 1 { // every byte is a token of its own
		return 1
	}
	if len(p) <= maxPacked {
		key := packKey(p)
		k, ok := c.short[key]
		if !ok {
			k = int32(c.bpeCount(p))
			if len(c.short) >= 1<<20 {
				clear(c.short)
			}
			c.short[key] = k
		}
		return int(k)
	}
	if k, ok := c.cache[p]; ok {
		return int(k)
	}
	k := c.bpeCount(p)
	if c.bytes+len(p) > maxPieceCache {
		clear(c.cache)
		c.bytes = 0
	}
	c.cache[p] = int32(k)
	c.bytes += len(p)
	return k
}

// bpePart is a part of a piece being merged: where it starts, and the rank
// of it merged with the next part (noRank when that is not a token).
type bpePart struct {
	start int
	rank  int32
}

const noRank = math.MaxInt32

// bpeCount returns the number of tokens byte-pair encoding makes of the
// piece p, of two bytes or more, as tiktoken encodes it: a piece that is a
// token is one; else, starting from its bytes, the adjacent two parts
// whose concatenation has the lowest rank (the leftmost of equals) are
// merged until no two adjacent parts make a token.
func (c *tokenCounter) bpeCount(p string) int {
	if c.ranks.rank(p) != noRank {
		return 1
	}
	if len(p) >= bpeHeapMin {
		return c.bpeCountLong(p)
	}
	return c.bpeCountScan(p)
}

// bpeCountScan is bpeCount by scanning the parts for the best pair before
// each merge, which is fastest for short pieces.
func (c *tokenCounter) bpeCountScan(p string) int {
	parts := c.parts[:0]
	for i := 0; i+1 < len(p); i++ {
		parts = append(parts, bpePart{start: i, rank: c.ranks.pairs[pairKey(p[i:])]})
	}
	parts = append(parts, bpePart{start: len(p) - 1, rank: noRank}, bpePart{start: len(p), rank: noRank})
	// rank of parts i and i+1 merged, given the boundaries in parts.
	rankAt := func(i int) int32 {
		if i+2 < len(parts) {
			return c.ranks.rank(p[parts[i].start:parts[i+2].start])
		}
		return noRank
	}
	for {
		best, at := int32(noRank), -1
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

// runeClass is what cl100k_base's pre-tokenizer sees of a rune: the four
// classes \p{L}, \p{N}, \s but line breaks, [\r\n], and everything else,
// which are disjoint.
type runeClass uint8

const (
	classOther runeClass = iota // [^\s\p{L}\p{N}]: punctuation, symbols
	classLetter
	classNumber
	classSpace   // \s but \r and \n
	classNewline // \r and \n
	classEnd     // past the end of the text
)

// asciiClass is the class of each ASCII byte. Documentation is nearly all
// ASCII, and looking a byte up here instead of decoding a rune and
// calling isLetter, isNumber and isSpace on it cut BenchmarkPieceLen from
// 220 to 70 µs; runes past ASCII are decoded and classed by unicodeClass.
var asciiClass = func() (t [utf8.RuneSelf]runeClass) {
	for b := range t {
		t[b] = unicodeClass(rune(b))
	}
	return t
}()

// unicodeClass returns the class of r.
func unicodeClass(r rune) runeClass {
	switch {
	case r == '\r' || r == '\n':
		return classNewline
	case isLetter(r):
		return classLetter
	case isNumber(r):
		return classNumber
	case isSpace(r):
		return classSpace
	}
	return classOther
}

// classAt returns the class of the rune at s[i:] and its length in bytes;
// classEnd and 0 at the end of s.
func classAt(s string, i int) (runeClass, int) {
	if i >= len(s) {
		return classEnd, 0
	}
	if b := s[i]; b < utf8.RuneSelf {
		return asciiClass[b], 1
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	return unicodeClass(r), n
}

// runEnd returns where the run of runes of class c that starts at s[i:]
// ends.
func runEnd(s string, i int, c runeClass) int {
	for i < len(s) {
		if b := s[i]; b < utf8.RuneSelf {
			if asciiClass[b] != c {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if unicodeClass(r) != c {
			return i
		}
		i += n
	}
	return i
}

// pieceLen returns the length in bytes of the piece at the start of s,
// which is valid UTF-8 and not empty: the first match of cl100k_base's
// pre-tokenizing expression, whose alternatives are tried in order,
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|
//	 ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// where \s is unicode.IsSpace, \p{L} unicode.IsLetter and \p{N}
// unicode.IsNumber, as in the regexp2 engine tiktoken-go uses.
func pieceLen(s string) int {
	c0, n := classAt(s, 0)
	// (?i:'s|'t|'re|'ve|'m|'ll|'d)
	if s[0] == '\'' && len(s) >= 2 {
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
	if c0 == classLetter {
		return runEnd(s, n, classLetter)
	}
	if c0 == classOther || c0 == classSpace {
		if c1, m := classAt(s, n); c1 == classLetter {
			return runEnd(s, n+m, classLetter)
		}
	}
	// \p{N}{1,3}
	if c0 == classNumber {
		i := n
		for k := 1; k < 3; k++ {
			c, m := classAt(s, i)
			if c != classNumber {
				break
			}
			i += m
		}
		return i
	}
	//  ?[^\s\p{L}\p{N}]+[\r\n]*
	i := 0
	if s[0] == ' ' {
		i = 1
	}
	if c, _ := classAt(s, i); c == classOther {
		i = runEnd(s, i, classOther)
		for i < len(s) && (s[i] == '\r' || s[i] == '\n') {
			i++
		}
		return i
	}
	// What is left starts with white space: the run of it, w, whose last
	// rune is last bytes long.
	w, last, lastNL := 0, 0, -1
	for {
		c, m := classAt(s, w)
		if c == classNewline {
			lastNL = w
		} else if c != classSpace {
			break
		}
		w, last = w+m, m
	}
	// \s*[\r\n]+ ends at the last line break of the run.
	if lastNL >= 0 {
		return lastNL + 1
	}
	// \s+(?!\S) leaves the last white space for the next piece, unless
	// the run ends the text; \s+ takes a run of one.
	if w == len(s) || w == last {
		return w
	}
	return w - last
}
