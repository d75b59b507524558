package docsearch

// A function whose body is mostly text in quotes (a command's help, a
// locale's month names and "3 hours ago", a table of error messages, a
// template) holds the words of many questions and does none of what
// they ask: semver's bin/semver.js help() came second for "sort a list
// of version strings", moment's Czech relativeTime first for "show how
// long ago a date was". quotedShare measures it, by the letters and
// digits of a code document's own text that are inside string literals.

// quotedFeature is featQuoted of a code document's text: how far past
// half of its own words are quoted, from 0 (half or less) to 1 (all).
// Below half it is no signal: a function that checks its input and
// throws names what it checks in its messages (express's req.get, whose
// error says "name argument is required"), and a JavaScript module's
// requires are strings; measured with the share itself, such functions
// lost as many questions as help texts and locale tables did.
func quotedFeature(text string) float64 {
	return max(quotedShare(codeBody(text))-0.5, 0) * 2
}

// quotedShare returns the share of the letters and digits of text (a
// code document's doc comment, body and calls: codeBody) that lie inside
// string literals, 0 for text without any. It reads any language's
// literals by their common marks: a single or double quote closes at the
// line's end, a backtick (JavaScript's templates, Go's raw strings) and
// Python's triple quotes may span lines, and a backslash escapes the next
// byte. A single or double quote right after a letter or digit is an
// apostrophe (don't, a user's), not a literal's start, so the prose of
// doc comments and comments is not read as strings; a backtick is never
// one (reStructuredText's double backticks close and open after
// letters). A quote still open at the line's end (a Rust lifetime) is
// undone, its letters counted as code.
func quotedShare(text string) float64 {
	var inside, all, pending int // pending: letters in a '…' or "…" not yet closed
	var quote byte               // the open literal's mark, 0 outside one
	triple := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case quote == 0:
			if c == '`' || (c == '\'' || c == '"') && (i == 0 || !wordByte(text[i-1])) {
				quote = c
				if c != '`' && i+2 < len(text) && text[i+1] == c && text[i+2] == c {
					triple = true
					i += 2
				}
				continue
			}
		case c == '\\':
			i++
			continue
		case c == '\n' && !triple && quote != '`':
			all += pending // an unclosed quote: the line was code
			pending, quote = 0, 0
			continue
		case c == quote:
			if !triple {
				inside += pending
				all += pending
				pending, quote = 0, 0
				continue
			}
			if i+2 < len(text) && text[i+1] == c && text[i+2] == c {
				inside += pending
				all += pending
				pending, quote, triple = 0, 0, false
				i += 2
				continue
			}
		}
		if !wordByte(c) {
			continue
		}
		switch {
		case quote == 0:
			all++
		case triple || quote == '`':
			inside++
			all++
		default:
			pending++
		}
	}
	all += pending
	if all == 0 {
		return 0
	}
	return float64(inside) / float64(all)
}

// wordByte reports whether c is an ASCII letter or digit, or a byte of a
// multi-byte UTF-8 character.
func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}
