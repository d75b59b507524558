package docsearch

import (
	"strings"
)

// The lead of a chunk of code is the first sentence of its first doc
// comment: what the code says it does, in the words a question uses. It
// counts once more than the rest of the chunk, in its terms and in the
// text embedded (leadWeight), as a heading path does for a section.
//
// Measured on CoSQA-test, whose functions carry their docstrings, nDCG@10
// hybrid / bm25 / vector 0.467 / 0.443 / 0.389 -> 0.484 / 0.448 / 0.405.
// Counting the whole docstring again instead of its first sentence gave
// 0.478 / 0.445 / 0.390, and the signature line, 0.461 / 0.437 / 0.382:
// the first sentence is the summary, the rest mostly parameters. Taking
// any comment near the top, inline ones included, cost the known-item
// sets of code without doc comments 0.003-0.005; with only doc comments
// (leadSentence), 23 of their 2,880 functions have a lead and they move
// by -0.004 to +0.001 (Python 0.577 -> 0.573 hybrid, JavaScript 0.526 ->
// 0.527). The Go doc-comment sets are plain text too: one page of 1,921
// has a lead (a "# Heading"), and only vector search moves (0.811 ->
// 0.808).

// leadWeight is how many times more a lead counts: once more than the
// text it is part of. Twice more, in the terms, the vector or both, gave
// CoSQA-test hybrid nDCG@10 0.484-0.487, within noise of once.
const leadWeight = 1

// Bounds of the lead: the lines searched for a doc comment, the lines a
// comment is read to, and the lead's length in bytes.
const (
	leadLines   = 40
	leadComment = 20
	maxLead     = 240
)

// hasLead reports whether a chunk is code whose doc comments count: a
// chunk mostly of code blocks, or a chunk of a plain-text document, the
// way source files and benchmark corpora of functions come.
func hasLead(c chunk, f format) bool {
	return c.ctype == Code || f == formatText
}

// leadSentence returns the first sentence of the first doc comment in
// code. A doc comment is one that comes before any code (a /** */ or
// /* */ block, or a run of //, /// or # line comments, as documentation
// precedes what it documents), or a Python docstring right after the
// header it documents (the line ending in ":"). Comments among the code
// say how, not what, and are passed over, as are comments of fewer than
// two words and copyright or licence headers. "" when there is none.
func leadSentence(code string) string {
	rest := code
	atTop, header := true, false
	for n := 0; n < leadLines && rest != ""; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		t := strings.TrimSpace(line)
		if t == "" {
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			// A markdown fence is not code: the block it opens has a
			// top of its own, whatever prose came before.
			atTop, header = true, false
			continue
		}
		n++
		var body []string
		switch {
		case docstringQuote(t) != "" && (atTop || header):
			body, rest = docstring(t, rest)
		case strings.HasPrefix(t, "/*") && atTop:
			body, rest = blockComment(t, rest)
		case lineComment(t) != "" && atTop:
			body, rest = lineComments(t, rest)
		default:
			atTop, header = false, strings.HasSuffix(t, ":")
			continue
		}
		if s := firstSentence(body); len(strings.Fields(s)) >= 2 && !isLicence(s) {
			return s
		}
	}
	return ""
}

// docstringQuote returns the quotes that open a Python docstring at the
// start of t (after a one-letter r, u or b prefix), or "".
func docstringQuote(t string) string {
	if len(t) > 0 && strings.ContainsRune("rRuUbB", rune(t[0])) {
		t = t[1:]
	}
	for _, q := range []string{`"""`, `'''`} {
		if strings.HasPrefix(t, q) {
			return q
		}
	}
	return ""
}

// docstring reads the docstring that opens on line t, rest being the
// text after that line; it returns the docstring's lines and the text
// after it.
func docstring(t, rest string) ([]string, string) {
	q := docstringQuote(t)
	return untilClose(t[strings.Index(t, q)+len(q):], rest, q, func(s string) string { return s })
}

// blockComment reads the /* */ comment that opens on line t.
func blockComment(t, rest string) ([]string, string) {
	return untilClose(t[2:], rest, "*/", func(s string) string {
		return strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(s), "/*!"))
	})
}

// untilClose reads a comment whose text starts with first, the rest of
// its opening line, and runs over the lines of rest to the marker end,
// for at most leadComment lines. It returns the comment's lines, each
// passed through clean, and the text after it.
func untilClose(first, rest, end string, clean func(string) string) ([]string, string) {
	if text, _, ok := strings.Cut(first, end); ok {
		return []string{clean(text)}, rest
	}
	body := []string{clean(first)}
	for range leadComment {
		if rest == "" {
			break
		}
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		if text, _, ok := strings.Cut(line, end); ok {
			return append(body, clean(text)), rest
		}
		body = append(body, clean(line))
	}
	return body, rest
}

// lineComment returns the marker of a line comment at the start of t:
// //, /// and //!, or # followed by a space (not #include, #[derive] or
// #!/bin/sh); "" for none.
func lineComment(t string) string {
	switch {
	case strings.HasPrefix(t, "//"):
		return "//"
	case t == "#" || strings.HasPrefix(t, "# "):
		return "#"
	}
	return ""
}

// lineComments reads the run of line comments that starts on line t.
func lineComments(t, rest string) ([]string, string) {
	mark := lineComment(t)
	clean := func(s string) string {
		s = strings.TrimPrefix(s, mark)
		return strings.TrimSpace(strings.TrimLeft(s, "/!"))
	}
	body := []string{clean(t)}
	for range leadComment {
		line, after, _ := strings.Cut(rest, "\n")
		t := strings.TrimSpace(line)
		if rest == "" || lineComment(t) != mark {
			break
		}
		body, rest = append(body, clean(t)), after
	}
	return body, rest
}

// firstSentence returns the first sentence of a comment's lines: up to
// the first blank line, or the first full stop followed by a space, at
// most maxLead bytes.
func firstSentence(lines []string) string {
	var words []string
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) == 0 {
			if len(words) > 0 {
				break // the end of the first paragraph
			}
			continue
		}
		words = append(words, f...)
	}
	s := strings.Join(words, " ")
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	return truncate(s, maxLead)
}

// isLicence reports whether a comment is a copyright or licence header.
func isLicence(s string) bool {
	l := strings.ToLower(s)
	return strings.Contains(l, "copyright") || strings.Contains(l, "licence") || strings.Contains(l, "license") || strings.Contains(l, "spdx")
}
