package extract

import (
	"strings"
)

// commentAbove returns the cleaned comment block that ends on the line just
// above the declaration (or above its outermost wrapper: decorators,
// export, template). A blank line ends the block.
//
// The block depends only on the line the declaration (or its wrapper)
// starts on, so it is looked for once per line: a minified file declares
// thousands of symbols on one line, which would otherwise each read the
// lines above again (quadratic in the line's length).
func commentAbove(d *decl, f *fileInfo) string {
	l := f.lang
	if len(l.lineComments) == 0 && len(l.blockComments) == 0 {
		return ""
	}
	startByte := d.start
	if len(l.wrappers) > 0 {
		for n := d.node.Parent(); n != nil && l.wrappers[n.Type()]; n = n.Parent() {
			startByte = n.StartByte()
		}
	}
	// Code before the declaration on its own line (`x; /** doc */ int f()`)
	// is not a doc comment position; attributes and decorators are skipped.
	row := f.lines().row(startByte)
	if doc, ok := f.docAbove[row]; ok {
		return doc
	}
	doc := commentAboveRow(row, f)
	if f.docAbove == nil {
		f.docAbove = map[int]string{}
	}
	f.docAbove[row] = doc
	return doc
}

// commentAboveRow returns the comment block that ends on the line above
// the 0-based line row. A blank line ends the block, except that a
// language's docAcrossBlank may take one block comment above blank lines
// when nothing stands directly above the declaration (JSDoc).
func commentAboveRow(row int, f *fileInfo) string {
	l, ls := f.lang, f.lines()
	var lines []string
	for r := row - 1; r >= 0; r-- {
		line := strings.TrimSpace(string(ls.text(f.src, r)))
		switch {
		case line == "":
			if len(lines) == 0 && l.docAcrossBlank != nil {
				lines = blockAcrossBlank(r, f)
			}
			r = -1
		case hasAnyPrefix(line, l.lineComments):
			lines = append(lines, line)
		case hasAnyPrefix(line, l.attributes):
			// Attributes between the comment and the declaration.
		case isBlockEnd(line, l.blockComments):
			block, top := blockEndingAt(r, line, f)
			if block == nil {
				r = -1
				continue
			}
			lines = append(lines, block...)
			r = top
		default:
			r = -1
		}
	}
	if len(lines) == 0 {
		return ""
	}
	// lines were gathered bottom-up.
	for a, b := 0, len(lines)-1; a < b; a, b = a+1, b-1 {
		lines[a], lines[b] = lines[b], lines[a]
	}
	return cleanComment(lines, l)
}

// blockEndingAt returns the lines, bottom-up and trimmed, of the block
// comment whose last line is row r (text line), and the row it opens on;
// nil when line is code with a trailing comment (`x = 1 /* note */`) or
// no line above opens the block at its start.
func blockEndingAt(r int, line string, f *fileInfo) (block []string, top int) {
	l, ls := f.lang, f.lines()
	if opensInside(line, l.blockComments) {
		return nil, r
	}
	block = []string{line}
	j := r
	opened := isBlockStart(line, l.blockComments)
	for !opened && j > 0 {
		t := strings.TrimSpace(string(ls.text(f.src, j-1)))
		// A line of the block's body (" * text/*;q=.5") may hold the
		// opening marker as text; another line holding it opens the
		// block after code.
		if isBlockEnd(t, l.blockComments) || opensInside(t, l.blockComments) && !strings.HasPrefix(t, "*") {
			return nil, r // another comment, or code: not one block
		}
		block = append(block, t)
		j--
		opened = isBlockStart(t, l.blockComments)
	}
	if !opened {
		return nil, r
	}
	return block, j
}

// blockAcrossBlank returns, bottom-up, the block comment that ends on the
// first non-blank line above the blank row r, when the language's
// docAcrossBlank accepts it; else nil.
func blockAcrossBlank(r int, f *fileInfo) []string {
	l, ls := f.lang, f.lines()
	for ; r >= 0; r-- {
		line := strings.TrimSpace(string(ls.text(f.src, r)))
		if line == "" {
			continue
		}
		if !isBlockEnd(line, l.blockComments) {
			return nil
		}
		block, _ := blockEndingAt(r, line, f)
		if block == nil {
			return nil
		}
		topDown := make([]string, len(block))
		for i, b := range block {
			topDown[len(block)-1-i] = b
		}
		if !l.docAcrossBlank(topDown) {
			return nil
		}
		return block
	}
	return nil
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func isBlockEnd(line string, blocks [][2]string) bool {
	for _, b := range blocks {
		if strings.HasSuffix(line, b[1]) {
			return true
		}
	}
	return false
}

// opensInside reports whether line opens a block comment after other text.
func opensInside(line string, blocks [][2]string) bool {
	for _, b := range blocks {
		if strings.Index(line, b[0]) > 0 {
			return true
		}
	}
	return false
}

func isBlockStart(line string, blocks [][2]string) bool {
	for _, b := range blocks {
		if strings.HasPrefix(line, b[0]) {
			return true
		}
	}
	return false
}

// cleanComment strips comment markers and leading decoration from lines
// (top-down) and returns the text, trimmed, lines joined by "\n".
func cleanComment(lines []string, l *Language) string {
	out := make([]string, 0, len(lines))
	for _, line := range lines {
		for _, b := range l.blockComments {
			if strings.HasPrefix(line, b[0]) {
				line = strings.TrimLeft(line[len(b[0]):], "*!")
			}
			line = strings.TrimSuffix(line, b[1])
		}
		for _, p := range l.lineComments {
			if strings.HasPrefix(line, p) {
				line = strings.TrimLeft(line[len(p):], p[len(p)-1:]+"!")
				break
			}
		}
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "*") && !strings.HasPrefix(line, "*/") {
			line = strings.TrimSpace(line[1:])
		}
		out = append(out, line)
	}
	return trimBlankLines(out)
}

// trimBlankLines drops leading and trailing empty lines and joins the rest.
func trimBlankLines(lines []string) string {
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}
