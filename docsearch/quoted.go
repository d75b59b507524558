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
	var inside, all int
	n := len(text)
	for i := 0; i < n; {
		c := text[i]
		k := quoteClass[c]
		if k != quoteMark || c != '`' && i > 0 && quoteClass[text[i-1]] == quoteWord {
			all += int(k & quoteWord)
			i++
			continue
		}
		quote, triple := c, false
		i++
		if quote != '`' && i+1 < n && text[i] == quote && text[i+1] == quote {
			triple = true
			i += 2
		}
		spans := triple || quote == '`' // may span lines
		letters, closed := 0, false
	literal:
		for i < n {
			c := text[i]
			switch {
			case quoteClass[c] == quoteWord:
				letters++
			case c == '\\':
				i++
			case c == '\n' && !spans:
				break literal // left open: the line was code
			case c == quote && !triple:
				closed = true
				i++
				break literal
			case c == quote && i+2 < n && text[i+1] == quote && text[i+2] == quote:
				closed = true
				i += 3
				break literal
			}
			i++
		}
		all += letters
		if closed || spans {
			inside += letters
		}
	}
	if all == 0 {
		return 0
	}
	return float64(inside) / float64(all)
}

// The classes of bytes quotedShare reads by: ASCII letters and digits and
// the bytes of multi-byte UTF-8 characters are words; the three quotes.
const (
	quoteOther = iota
	quoteWord
	quoteMark
)

var quoteClass = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c >= 0x80:
			t[c] = quoteWord
		case c == '\'', c == '"', c == '`':
			t[c] = quoteMark
		}
	}
	return t
}()
