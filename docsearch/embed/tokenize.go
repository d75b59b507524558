package embed

import (
	"unicode"
	"unicode/utf8"
)

// maxWord is the longest word, in bytes, that is looked up; longer runs of
// letters and digits (hashes, base64, minified code) are skipped whole.
const maxWord = 48

// splitWords calls emit with each word of text, lowercased, in order. A
// word is a run of letters and digits cut at identifier boundaries:
//
//	snake_case, kebab-case, dotted.name  → split at the punctuation
//	camelCase, PascalCase                → camel | case, pascal | case
//	HTTPServer, parseJSON                → http | server, parse | json
//	utf8Decode, base64                   → utf8 | decode, base64
//
// Letters and digits stay together in a word ("utf8", "base64", "x86");
// the lookup splits them when the whole is not in the vocabulary. The
// slice passed to emit is only valid during the call.
func splitWords(text string, buf []byte, emit func(word []byte)) {
	i := 0
	for i < len(text) {
		// Skip to the start of a run of letters and digits.
		c := text[i]
		if c < utf8.RuneSelf {
			if !isAlnumASCII(c) {
				i++
				continue
			}
		} else if r, n := utf8.DecodeRuneInString(text[i:]); !isAlnum(r) {
			i += n
			continue
		}
		// Find the run's end; note whether it has upper-case letters.
		j, upper := i, false
		for j < len(text) {
			c := text[j]
			if c < utf8.RuneSelf {
				if !isAlnumASCII(c) {
					break
				}
				upper = upper || 'A' <= c && c <= 'Z'
				j++
				continue
			}
			r, n := utf8.DecodeRuneInString(text[j:])
			if !isAlnum(r) {
				break
			}
			upper = upper || unicode.IsUpper(r)
			j += n
		}
		run := text[i:j]
		i = j
		if len(run) > 4*maxWord {
			continue
		}
		if !upper {
			if len(run) <= maxWord {
				emit(lowerInto(buf, run))
			}
			continue
		}
		splitCamel(run, buf, emit)
	}
}

// splitCamel cuts a run of letters and digits at case boundaries: before
// an upper-case letter that follows a lower-case letter or a digit, and
// before the last upper-case letter of an upper-case run that a lower-case
// letter follows.
func splitCamel(run string, buf []byte, emit func([]byte)) {
	start := 0
	var prev, cur rune = -1, -1
	prevAt, curAt := 0, 0
	flush := func(end int) {
		if end > start && end-start <= maxWord {
			emit(lowerInto(buf, run[start:end]))
		}
		start = end
	}
	for k, r := range run {
		switch {
		case unicode.IsUpper(r) && cur >= 0 && (unicode.IsLower(cur) || unicode.IsDigit(cur)):
			flush(k)
		case unicode.IsLower(r) && cur >= 0 && unicode.IsUpper(cur) && prev >= 0 && unicode.IsUpper(prev) && prevAt >= start:
			flush(curAt)
		}
		prev, prevAt = cur, curAt
		cur, curAt = r, k
	}
	flush(len(run))
}

// lowerInto writes s lowercased into buf[:0] and returns it.
func lowerInto(buf []byte, s string) []byte {
	buf = buf[:0]
	for k := 0; k < len(s); k++ {
		c := s[k]
		if c >= utf8.RuneSelf {
			for _, r := range s[k:] {
				buf = utf8.AppendRune(buf, unicode.ToLower(r))
			}
			return buf
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf = append(buf, c)
	}
	return buf
}

func isAlnumASCII(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func isAlnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// isDigit reports whether c is an ASCII digit.
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
