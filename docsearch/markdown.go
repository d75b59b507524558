package docsearch

import (
	"slices"
	"strings"
)

// A parsed document is a list of sections, each a heading and the blocks
// under it. Markdown is read with the few rules chunking needs: ATX
// headings ("## Title"), setext headings (a line underlined with === or
// ---), fenced code blocks (``` or ~~~, closed by a fence of the same
// character at least as long; an unclosed fence runs to the end), and
// paragraphs separated by blank lines. A "#" line inside a fence is code,
// not a heading. Plain text has no headings; reStructuredText is read as
// plain text except that a line underlined with a run of one punctuation
// character is a heading.

// block is a paragraph or a fenced code block.
type block struct {
	text      string // the lines of the block, each ending in "\n"
	line, end int    // first and last line, 1-based
	code      bool
}

// section is a heading and its blocks; the preamble before the first
// heading has level 0 and no heading.
type section struct {
	heading string
	level   int
	line    int
	path    []string // headings of the enclosing sections and this one
	blocks  []block
}

// Heading is one heading of a document's outline.
type Heading struct {
	Level int    `json:"level"`
	Text  string `json:"text"`
	Line  int    `json:"line"`
}

// format is how a document's text is read.
type format uint8

const (
	formatMarkdown format = iota
	formatText
	formatRST
)

// maxDocHeadings bounds the headings of a document: past them, heading
// lines are read as text. A document of 300,000 headings took 55 s to
// index, and its outline was what every tool that lists it returned.
const maxDocHeadings = 5000

// parse cuts text into sections. firstLine is the line number of text's
// first line (front matter before it is not part of text). Past
// maxDocHeadings headings, heading lines are read as text.
func parse(text string, f format, firstLine int) []section {
	secs, _ := parseCounting(text, f, firstLine)
	return secs
}

// parseCounting is parse, and counts the heading lines read as text.
func parseCounting(text string, f format, firstLine int) (secs []section, over int) {
	p := parser{f: f, line: firstLine - 1}
	p.secs = []section{{line: firstLine}}
	lines := splitLines(text)
	for i := 0; i < len(lines); i++ {
		p.line++
		ln := lines[i]
		if p.fence != "" {
			p.add(ln)
			if closesFence(ln, p.fence) {
				p.flush(true)
			}
			continue
		}
		trimmed := strings.TrimSpace(ln)
		if trimmed == "" {
			p.flush(false)
			continue
		}
		if f == formatMarkdown {
			if fence := openFence(ln); fence != "" {
				p.flush(false)
				p.fence = fence
				p.add(ln)
				continue
			}
			if lvl, h := atxHeading(ln); lvl > 0 {
				if p.full() {
					p.over++
				} else {
					p.flush(false)
					p.heading(lvl, h)
					continue
				}
			}
		}
		// A reStructuredText title between an overline and an underline
		// of one character is a heading, of a style of its own.
		if f == formatRST && len(p.para) == 2 && overlined(p.para[0], trimmed) && !p.full() {
			h := strings.TrimSpace(p.para[1])
			p.para = p.para[:0]
			p.line--
			p.heading(p.rstLevel("^"+trimmed[:1]), h)
			p.line++
			continue
		}
		// A setext or reStructuredText underline turns the paragraph's
		// single line into a heading.
		if f != formatText && len(p.para) == 1 && i > 0 {
			if lvl := underline(trimmed, f); lvl > 0 && len(strings.TrimSpace(p.para[0])) > 0 && !p.full() {
				h := strings.TrimSpace(p.para[0])
				if f == formatRST {
					lvl = p.rstLevel(trimmed[:1])
				}
				p.para = p.para[:0]
				p.line--
				p.heading(lvl, h)
				p.line++
				continue
			}
		}
		p.add(ln)
	}
	p.flush(p.fence != "")
	return p.secs, p.over
}

type parser struct {
	f     format
	line  int // current line, 1-based
	secs  []section
	open  []int    // sections whose headings enclose the next line, by increasing level
	para  []string // lines of the open block
	start int      // line of para[0]
	fence string   // the opening fence of an open code block
	over  int      // heading lines read as text, past maxDocHeadings
	rst   []string // reStructuredText heading styles in order of first use (rstLevel)
}

// rstLevel returns the level of a reStructuredText heading style (its
// underline character, after "^" when it has an overline too): styles
// take levels in the order a document first uses them, as docutils reads
// them, up to 6.
func (p *parser) rstLevel(style string) int {
	i := slices.Index(p.rst, style)
	if i < 0 {
		i = len(p.rst)
		p.rst = append(p.rst, style)
	}
	return min(i+1, 6)
}

// full reports whether the document has all the headings it may have.
func (p *parser) full() bool { return len(p.secs) > maxDocHeadings }

// flush closes the open block.
func (p *parser) flush(code bool) {
	if len(p.para) > 0 {
		s := &p.secs[len(p.secs)-1]
		s.blocks = append(s.blocks, block{
			text: strings.Join(p.para, ""),
			line: p.start,
			end:  p.start + len(p.para) - 1,
			code: code || p.fence != "",
		})
	}
	p.para = p.para[:0]
	p.fence = ""
}

// add appends ln, the current line, to the open block.
func (p *parser) add(ln string) {
	if len(p.para) == 0 {
		p.start = p.line
	}
	p.para = append(p.para, ln)
}

// heading opens a new section, under the last open one of a lower
// level.
func (p *parser) heading(level int, text string) {
	text = cleanHeading(text)
	for len(p.open) > 0 && p.secs[p.open[len(p.open)-1]].level >= level {
		p.open = p.open[:len(p.open)-1]
	}
	path := []string{text}
	if len(p.open) > 0 {
		parent := p.secs[p.open[len(p.open)-1]].path
		path = append(append(make([]string, 0, len(parent)+1), parent...), text)
	}
	p.open = append(p.open, len(p.secs))
	p.secs = append(p.secs, section{heading: text, level: level, line: p.line, path: path})
}

// splitLines splits text after each newline, keeping a last line without
// one (and giving it one).
func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	lines := strings.SplitAfter(text, "\n")
	if last := lines[len(lines)-1]; last == "" {
		lines = lines[:len(lines)-1]
	} else {
		lines[len(lines)-1] = last + "\n"
	}
	return lines
}

// openFence returns the fence that opens a code block on ln, or "".
func openFence(ln string) string {
	s := strings.TrimLeft(ln, " ")
	if len(ln)-len(s) > 3 || len(s) < 3 || (s[0] != '`' && s[0] != '~') {
		return ""
	}
	n := 0
	for n < len(s) && s[n] == s[0] {
		n++
	}
	if n < 3 || (s[0] == '`' && strings.Contains(s[n:], "`")) {
		return ""
	}
	return s[:n]
}

func closesFence(ln, fence string) bool {
	s := strings.TrimSpace(ln)
	return len(s) >= len(fence) && strings.Trim(s, fence[:1]) == ""
}

// atxHeading returns the level and text of an ATX heading line, or 0.
func atxHeading(ln string) (int, string) {
	s := strings.TrimLeft(ln, " ")
	if len(ln)-len(s) > 3 {
		return 0, ""
	}
	n := 0
	for n < len(s) && s[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(s) && s[n] != ' ' && s[n] != '\t' && s[n] != '\n' && s[n] != '\r') {
		return 0, ""
	}
	h := strings.TrimSpace(s[n:])
	// A closing run of #s goes when a space precedes it: "## C#" is C#.
	switch t := strings.TrimRight(h, "#"); {
	case t == "":
		h = ""
	case t != h && (strings.HasSuffix(t, " ") || strings.HasSuffix(t, "\t")):
		h = strings.TrimSpace(t)
	}
	return n, h
}

// underline returns the heading level a line of one repeated character
// gives the line above it: 1 for "=", 2 for "-" in markdown; in
// reStructuredText, levels follow punctuation in the order of first use.
func underline(s string, f format) int {
	if len(s) < 2 || strings.Trim(s, s[:1]) != "" {
		return 0
	}
	switch c := s[0]; {
	case f == formatMarkdown && c == '=':
		return 1
	case f == formatMarkdown && c == '-':
		return 2
	case f == formatRST && strings.IndexByte("=-~^\"'`#*+:._", c) >= 0 && len(s) >= 3:
		return 3 // the parser gives reStructuredText its levels (rstLevel)
	}
	return 0
}

// overlined reports whether over and under, trimmed lines around a
// reStructuredText title, are the same run of one punctuation character.
func overlined(over, under string) bool {
	over = strings.TrimSpace(over)
	return len(over) >= 3 && over == under && underline(under, formatRST) > 0
}

// cleanHeading strips inline markup from a heading: emphasis, code ticks,
// link targets, an explicit {#anchor}, and the permalink marks generated
// docs put before or after a heading (rustdoc's §, Sphinx's and MkDocs'
// ¶, a lone #), which were in the heading path of every section.
func cleanHeading(h string) string {
	if i := strings.LastIndex(h, "{#"); i > 0 && strings.HasSuffix(h, "}") {
		h = h[:i]
	}
	h = strings.TrimSpace(plainInline(stripRoleMarks(stripMDXLine(h))))
	for {
		t := strings.TrimPrefix(h, "§ ")
		for _, m := range []string{" ¶", " §", " #", " 🔗"} {
			t = strings.TrimSuffix(t, m)
		}
		if t = strings.TrimSpace(t); t == h || t == "" {
			return h
		}
		h = t
	}
}

// readSections cuts a document's text, read as format f, into sections:
// without its front matter or, in markdown, its HTML comments (see
// comment.go), and an HTML page converted to markdown first. It returns
// the front matter and an HTML page's title too; the sections of an HTML
// page are of markdown. over counts the heading lines read as text, past
// maxDocHeadings.
func readSections(text string, f format) (secs []section, fm, pageTitle string, over int) {
	body, fm, fmLines := stripFrontMatter(text)
	switch f {
	case formatHTML:
		body, pageTitle = htmlToMarkdown(body)
		f, fmLines = formatMarkdown, 0
	case formatMarkdown:
		body = stripMDX(hideComments(body, false))
	case formatRST:
		body = stripRoleMarks(body)
	}
	secs, over = parseCounting(body, f, fmLines+1)
	return secs, fm, pageTitle, over
}

// stripFrontMatter returns text without a YAML front matter block (a
// first line "---" up to the next line "---" or "..."), the block, and the
// number of lines removed.
func stripFrontMatter(text string) (body, fm string, lines int) {
	if !strings.HasPrefix(text, "---\n") && !strings.HasPrefix(text, "---\r\n") {
		return text, "", 0
	}
	i := strings.IndexByte(text, '\n') + 1
	n := 1
	for i < len(text) {
		j := strings.IndexByte(text[i:], '\n')
		ln := text[i:]
		if j >= 0 {
			ln = text[i : i+j+1]
		}
		n++
		if t := strings.TrimRight(ln, "\r\n"); t == "---" || t == "..." {
			return text[i+len(ln):], text[:i+len(ln)], n
		}
		if j < 0 {
			break
		}
		i += j + 1
	}
	return text, "", 0 // unclosed: not front matter
}

// frontMatterValue returns the value of a top-level "key: value" line of
// a front matter block, unquoted, or "".
func frontMatterValue(fm, key string) string {
	for _, ln := range strings.Split(fm, "\n") {
		v, ok := strings.CutPrefix(strings.TrimRight(ln, "\r"), key+":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			v = v[1 : len(v)-1]
		}
		return v
	}
	return ""
}
