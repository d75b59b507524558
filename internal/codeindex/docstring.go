package codeindex

import (
	"slices"
	"strings"
)

// docstringLines returns the 1-based line range [from, to] of the
// docstring of the Python def or class on lines [start, end], and false
// when there is none: the first line that is not blank after the header
// (the def or class line through the one that ends with a colon), when it
// opens a string literal whose first words are those of doc, the
// docstring the extractor read, through the line that closes it.
//
// The extractor gives a symbol its docstring as Doc, and its body is the
// source from the def line on, so a Python symbol's text held its
// docstring twice, and a long one filled the head of the body that is
// indexed (maxCodeBody), leaving the code out; Go's and JavaScript's doc
// comments stand above the declaration and were held once.
func docstringLines(lines [][]byte, start, end int, doc string) (from, to int, ok bool) {
	words := strings.Fields(strings.TrimSpace(doc))
	if len(words) == 0 || start < 1 {
		return 0, 0, false
	}
	end = min(end, len(lines))
	line := func(i int) string { return strings.TrimSpace(string(lines[i-1])) }
	// The header: decorators may come first.
	i := start
	for ; i <= end && !isHeader(line(i)); i++ {
	}
	for ; i <= end && !strings.HasSuffix(withoutComment(line(i)), ":"); i++ {
	}
	i++
	for ; i <= end && line(i) == ""; i++ {
	}
	if i > end {
		return 0, 0, false
	}
	q, rest, isString := openQuote(line(i))
	if !isString {
		return 0, 0, false
	}
	// The docstring's first words are on its opening line or, after a bare
	// opening quote, on the next line that is not blank.
	text, at := rest, i
	for strings.TrimSpace(text) == "" && at < end {
		at++
		text = line(at)
	}
	if k := strings.Index(text, q); k >= 0 {
		text = text[:k] // a docstring of one line
	}
	got := strings.Fields(text)
	n := min(len(words), 3)
	if len(got) < n || !slices.Equal(got[:n], words[:n]) {
		return 0, 0, false
	}
	if len(q) == 1 || strings.Contains(rest, q) {
		return i, i, true
	}
	for j := i + 1; j <= end; j++ {
		if strings.Contains(line(j), q) {
			return i, j, true
		}
	}
	return 0, 0, false
}

// isHeader reports whether a trimmed line starts a def or class.
func isHeader(t string) bool {
	return strings.HasPrefix(t, "def ") || strings.HasPrefix(t, "async def ") || strings.HasPrefix(t, "class ")
}

// withoutComment cuts a trimmed line's trailing "#" comment, roughly: at
// the last " #", which a header's string defaults rarely hold.
func withoutComment(t string) string {
	if i := strings.LastIndex(t, " #"); i >= 0 {
		return strings.TrimSpace(t[:i])
	}
	return t
}

// openQuote reports whether the trimmed line t opens a string literal:
// its quote (three double or single quotes, or one) and the text after
// it.
func openQuote(t string) (quote, rest string, ok bool) {
	s := strings.TrimLeft(t, "rRuUbBfF")
	if len(t)-len(s) > 2 {
		return "", "", false
	}
	for _, q := range []string{`"""`, `'''`, `"`, `'`} {
		if strings.HasPrefix(s, q) {
			return q, s[len(q):], true
		}
	}
	return "", "", false
}
