package docsearch

import (
	"fmt"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

// tokenEncoding is the tiktoken encoding chunk sizes are counted in, the
// one package enrich counts prompt budgets in.
const tokenEncoding = tiktoken.MODEL_CL100K_BASE

var (
	encOnce sync.Once
	enc     *tiktoken.Tiktoken
	encErr  error
)

// encoding returns the shared encoder, loading it on first use from the
// ranks tiktoken-go-loader embeds in the binary. The offline loader is
// installed before tiktoken's default loader, which downloads, can run.
func encoding() (*tiktoken.Tiktoken, error) {
	encOnce.Do(func() {
		tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
		enc, encErr = tiktoken.GetEncoding(tokenEncoding)
		if encErr != nil {
			encErr = fmt.Errorf("docsearch: load %s: %w", tokenEncoding, encErr)
		}
	})
	return enc, encErr
}

// tokenCounter counts cl100k_base tokens exactly as tiktoken does, but
// about twenty times faster on documentation text. tiktoken-go spends its
// time in the pre-tokenizing regular expression (2.6 MB/s on one core of
// the CI machine, so 40 s for 100 MB of docs); counting does the same
// pre-tokenizing by hand (splitPieces) and asks tiktoken only for pieces
// it has not seen before. Pieces repeat heavily (words, indentation,
// punctuation), so nearly every piece is a cache hit. The equality with
// tiktoken is checked by FuzzTokenCount and TestTokenCountMatchesTiktoken.
//
// A tokenCounter is not safe for concurrent use; each indexing worker has
// its own.
type tokenCounter struct {
	enc   *tiktoken.Tiktoken
	short map[uint64]int32 // pieces of 2 to 7 bytes, packed into the key
	cache map[string]int32 // longer pieces
	bytes int
}

// maxPieceCache bounds the bytes of pieces a counter remembers; past it
// the cache starts over.
const maxPieceCache = 8 << 20

func newTokenCounter() (*tokenCounter, error) {
	e, err := encoding()
	if err != nil {
		return nil, err
	}
	return &tokenCounter{enc: e, short: map[uint64]int32{}, cache: map[string]int32{}}, nil
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
				k = int32(len(c.enc.EncodeOrdinary(p)))
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
		k := len(c.enc.EncodeOrdinary(p))
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
