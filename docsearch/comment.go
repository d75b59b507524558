package docsearch

import "strings"

// HTML comments in markdown are not text: viewers hide them. Indexed, an
// enriched artifact's record of its prose (a JSON report in a comment)
// counted every word of the prose twice and its JSON keys as words, and
// Fetch showed it. Markdown's comments are read as CommonMark reads them,
// within the few rules of markdown.go:
//
//   - A line that starts with "<!--" (after at most three spaces) opens a
//     comment that runs to the first "-->" after it, across any lines,
//     blank lines and fences included, or to the end of the document.
//   - Elsewhere on a line, "<!--" opens a comment only if a "-->" closes
//     it before its paragraph ends (at a blank line, a fence or a
//     heading); otherwise it is text.
//   - "<!-->" and "<!--->" are whole comments.
//   - Fenced code blocks, and code spans within one line, are text: a
//     comment in them is code to show.
//
// The text around a comment on its lines stays.

// hideComments returns markdown text without its HTML comments. With drop
// false, the line breaks inside comments stay, so every line keeps its
// number: the index reports lines of the document on disk. With drop true
// (what Fetch shows), a line that held nothing but comments goes, and the
// blank lines around a run of such lines become one. Text without "<!--"
// is returned as it is. The work is linear in the length of text.
func hideComments(text string, drop bool) string {
	if !strings.Contains(text, "<!--") {
		return text
	}
	h := hider{lines: strings.SplitAfter(text, "\n"), drop: drop}
	h.out.Grow(len(text))
	fence := ""
	open := false // a comment opened on an earlier line runs on
	for i, ln := range h.lines {
		worked(len(ln))
		body, eol := cutEOL(ln)
		if fence != "" {
			h.emit(body, eol, false)
			if closesFence(ln, fence) {
				fence = ""
			}
			continue
		}
		rest, had := body, false
		if open {
			k := index(rest, "-->")
			if k < 0 {
				h.emit("", eol, true)
				continue
			}
			rest, had, open = rest[k+3:], true, false
		} else if fence = openFence(ln); fence != "" {
			h.emit(body, eol, false)
			continue
		}
		var vis string
		var cut bool
		vis, cut, open = h.scan(rest, i, !had)
		h.emit(vis, eol, had || cut)
	}
	if h.drop && !h.dropped {
		for _, b := range h.blank {
			h.out.WriteString(b)
		}
	}
	return h.out.String()
}

// hider is the state of hideComments.
type hider struct {
	lines []string
	drop  bool
	out   strings.Builder
	// noClose is the first line at or after which a lookahead (closes)
	// ended without finding "-->": a blank line, a fence, a heading or
	// the end. Lines before it, after the lookahead's start, hold none.
	noClose int
	// With drop: the blank lines not written yet, and whether a line of
	// comments went since the last line written.
	blank   []string
	dropped bool
}

// cutEOL splits a line from its line ending.
func cutEOL(ln string) (body, eol string) {
	switch {
	case strings.HasSuffix(ln, "\r\n"):
		return ln[:len(ln)-2], "\r\n"
	case strings.HasSuffix(ln, "\n"):
		return ln[:len(ln)-1], "\n"
	}
	return ln, ""
}

// scan returns s, the part of line i outside any comment opened before,
// without its comments; cut says whether it had any, and open whether one
// opens on it and runs on to a later line. whole says s is the whole line,
// where a comment opens as a block.
func (h *hider) scan(s string, i int, whole bool) (vis string, cut, open bool) {
	if !strings.Contains(s, "<!--") {
		return s, false, false
	}
	var b strings.Builder
	spans := codeSpans(s)
	pos := 0
	for {
		j := index(s[pos:], "<!--")
		if j < 0 {
			b.WriteString(s[pos:])
			return b.String(), cut, false
		}
		c := pos + j
		for len(spans) > 0 && spans[0][1] <= c {
			spans = spans[1:]
		}
		if len(spans) > 0 && spans[0][0] < c {
			// In a code span: text up to its end.
			b.WriteString(s[pos:spans[0][1]])
			pos = spans[0][1]
			continue
		}
		b.WriteString(s[pos:c])
		if k := index(s[c+2:], "-->"); k >= 0 {
			pos, cut = c+2+k+3, true
			continue
		}
		// Not closed on this line, so no "<!--" after it is either.
		if whole && c <= 3 && strings.TrimLeft(s[:c], " ") == "" || h.closes(i) {
			return b.String(), true, true
		}
		b.WriteString(s[c:])
		return b.String(), cut, false
	}
}

// closes reports whether "-->" is on a line after line i, before its
// paragraph ends.
func (h *hider) closes(i int) bool {
	if i < h.noClose {
		return false
	}
	for j := i + 1; j < len(h.lines); j++ {
		ln := h.lines[j]
		worked(len(ln))
		if strings.TrimSpace(ln) == "" || openFence(ln) != "" {
			h.noClose = j
			return false
		}
		if lvl, _ := atxHeading(ln); lvl > 0 {
			h.noClose = j
			return false
		}
		if strings.Contains(ln, "-->") {
			return true
		}
	}
	h.noClose = len(h.lines)
	return false
}

// emit writes one line: vis, what of it is not comment, and its ending.
// had says it had comments.
func (h *hider) emit(vis, eol string, had bool) {
	if !h.drop {
		h.out.WriteString(vis)
		h.out.WriteString(eol)
		return
	}
	switch {
	case strings.TrimSpace(vis) == "" && had:
		h.dropped = true
		return
	case strings.TrimSpace(vis) == "":
		h.blank = append(h.blank, vis+eol)
		return
	}
	switch {
	case !h.dropped:
		for _, b := range h.blank {
			h.out.WriteString(b)
		}
	case len(h.blank) > 0 && h.out.Len() > 0:
		h.out.WriteString(h.blank[0])
	}
	h.blank, h.dropped = h.blank[:0], false
	h.out.WriteString(vis)
	h.out.WriteString(eol)
}

// codeSpans returns the code spans of a line, in order, as [start, end)
// byte offsets: a run of n backticks opens one, and the next run of
// exactly n closes it; a run that nothing closes is text.
func codeSpans(s string) [][2]int {
	if strings.IndexByte(s, '`') < 0 {
		return nil
	}
	type run struct{ at, n int }
	var runs []run
	for i := 0; i < len(s); {
		j := indexByte(s[i:], '`')
		if j < 0 {
			break
		}
		i += j
		k := i
		for k < len(s) && s[k] == '`' {
			k++
		}
		worked(k - i)
		runs = append(runs, run{i, k - i})
		i = k
	}
	next := make([]int, len(runs)) // the next run of the same length, or -1
	last := map[int]int{}
	worked(len(runs))
	for k := len(runs) - 1; k >= 0; k-- {
		next[k] = -1
		if q, ok := last[runs[k].n]; ok {
			next[k] = q
		}
		last[runs[k].n] = k
	}
	var spans [][2]int
	for k := 0; k < len(runs); {
		q := next[k]
		if q < 0 {
			k++
			continue
		}
		spans = append(spans, [2]int{runs[k].at, runs[q].at + runs[q].n})
		k = q + 1
	}
	return spans
}
