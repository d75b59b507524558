package docsearch

import (
	"slices"
	"strings"
)

// Markup that is not text. MDX pages (React, Vite, Tailwind and most
// docs sites built with Docusaurus or Next.js) carry ES module lines
// ("import Tabs from '@theme/Tabs'"), JSX components around the text
// (<Tabs>, <TabItem value="npm">, <Note>) and comments in braces
// ({/* rule-details */}); headings carry explicit IDs ("## Extra models
// {#extra-models}"). reStructuredText marks every reference with a role
// (":mod:`pathlib`", ":py:func:`open`"). Indexed, all of it made words
// of every page ("import", "tabs", "mod", "func") and headings that
// showed the markup. stripMDX and stripRoleMarks remove it before parsing,
// keeping every line in its place, so line numbers stay those of the
// file; code blocks are left as they are.

// stripMDX removes MDX markup from markdown outside fenced code blocks:
// ES import and export statements and lines of JSX tags alone become
// blank, also when they run over several lines (a tag's attributes, an
// exported object); JSX tags of capitalised components and {/* comments
// */} within a line go, as do heading IDs. Text without "<", "{" or an
// import or export line comes back as it is.
func stripMDX(text string) string {
	if !strings.ContainsAny(text, "<{") && !strings.Contains(text, "import ") && !strings.Contains(text, "export ") {
		return text
	}
	lines := strings.SplitAfter(text, "\n")
	orig := slices.Clone(lines)
	fence := ""
	changed := false
	depth := 0       // brackets a module statement left open
	var tag *tagScan // a tag whose attributes run on
	from := 0        // the line such a statement or tag started on
	for i, ln := range lines {
		worked(len(ln))
		body, eol := cutEOL(ln)
		if (depth > 0 || tag != nil) && i-from > maxMarkupLines {
			// Never closed: not markup after all. Its lines are text.
			copy(lines[from:i], orig[from:i])
			depth, tag = 0, nil
		}
		switch {
		case fence != "":
			if closesFence(ln, fence) {
				fence = ""
			}
			continue
		case depth > 0:
			depth += bracketDepth(body)
			lines[i], changed = eol, true
			continue
		case tag != nil:
			n := tag.feed(body)
			if n == tagBroken {
				copy(lines[from:i], orig[from:i]) // not a tag: its lines are text
				tag = nil
				break
			}
			if n >= 0 {
				tag = nil
				body = body[n:]
				out := stripMDXLine(body)
				lines[i], changed = out+eol, true
			} else {
				lines[i], changed = eol, true
			}
			continue
		}
		if f := openFence(ln); f != "" {
			fence = f
			continue
		}
		t := strings.TrimSpace(body)
		if body == t && isESMLine(t) {
			depth, from = max(bracketDepth(t), 0), i
			lines[i], changed = eol, true
			continue
		}
		if strings.HasPrefix(t, "<") && !strings.Contains(t[1:], "<") {
			if ts, n, ok := openTag(t); ok && n < 0 {
				tag, from = &ts, i // "<Figure" with its attributes on the next lines
				lines[i], changed = eol, true
				continue
			}
		}
		out := stripMDXLine(body)
		if out != body {
			lines[i] = out + eol
			changed = true
		}
	}
	if depth > 0 || tag != nil {
		copy(lines[from:], orig[from:])
	}
	if !changed {
		return text
	}
	return strings.Join(lines, "")
}

// maxMarkupLines bounds a module statement or tag over several lines:
// one left open longer is read as text.
const maxMarkupLines = 100

// bracketDepth returns how many more brackets s opens than it closes,
// outside quotes.
func bracketDepth(s string) int {
	d := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '{' || c == '[' || c == '(':
			d++
		case c == '}' || c == ']' || c == ')':
			d--
		}
	}
	return d
}

// stripMDXLine strips one line of markdown (without its line ending).
func stripMDXLine(ln string) string {
	t := strings.TrimSpace(ln)
	if t == "" {
		return ln
	}
	if ln == t && isESMLine(t) && bracketDepth(t) <= 0 {
		return "" // top-level module lines only: indented ones are text
	}
	if !strings.ContainsAny(t, "<{") {
		return ln
	}
	var b strings.Builder
	b.Grow(len(ln))
	// Once a closing "*/}" or "}" is not found after a position, it is
	// not after any later one: the line is read once.
	noComment, noBrace := false, false
	for i := 0; i < len(ln); {
		switch {
		case !noComment && strings.HasPrefix(ln[i:], "{/*"):
			if j := index(ln[i+3:], "*/}"); j >= 0 {
				i += 3 + j + 3
				continue
			}
			noComment = true
		case !noBrace && ln[i] == '{':
			n := headingID(ln[i:])
			if n > 0 {
				i += n
				continue
			}
			noBrace = n < 0
		case ln[i] == '<' && (i == 0 || !isASCIIAlnum(ln[i-1]) || strings.HasPrefix(ln[i:], "</")): // not List<T>
			if n := jsxTag(ln[i:]); n > 0 {
				i += n
				continue
			}
		}
		b.WriteByte(ln[i])
		i++
	}
	out := b.String()
	if strings.TrimSpace(out) == "" {
		return ""
	}
	if strings.TrimSpace(out) != t && strings.HasSuffix(out, " ") {
		out = strings.TrimRight(out, " \t")
	}
	return out
}

// headingID returns the length of a heading ID at the start of s,
// "{#extra-models}" or FastAPI's "{ #extra-models }", 0 when there is
// none, or -1 when none can follow for want of a "}".
func headingID(s string) int {
	i := 1
	for i < len(s) && s[i] == ' ' {
		i++
	}
	if i >= len(s) || s[i] != '#' {
		return 0
	}
	j := indexByte(s[i:], '}')
	if j < 0 {
		return -1
	}
	if !isAnchor(strings.TrimRight(s[i+1:i+j], " ")) {
		return 0
	}
	return i + j + 1
}

// isESMLine reports whether a trimmed line starts an ES module statement
// of MDX: "import X from 'y'", "import 'y'", "import {", "export const
// …", "export default …", "export function …".
func isESMLine(t string) bool {
	switch {
	case strings.HasPrefix(t, "import "):
		rest := t[len("import "):]
		return strings.Contains(rest, " from '") || strings.Contains(rest, ` from "`) ||
			strings.HasPrefix(rest, "'") || strings.HasPrefix(rest, `"`) ||
			strings.HasPrefix(rest, "{") && (strings.Contains(rest, "} from ") || !strings.Contains(rest, "}"))
	case strings.HasPrefix(t, "export "):
		rest := t[len("export "):]
		for _, k := range []string{"const ", "let ", "default ", "function ", "async function ", "{"} {
			if strings.HasPrefix(rest, k) {
				return true
			}
		}
	}
	return false
}

// isAnchor reports whether s can be a heading ID: letters, digits, "-",
// "_", ":" and ".", not empty.
func isAnchor(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !isLetter(r) && !(r >= '0' && r <= '9') && !strings.ContainsRune("-_:.", r) {
			return false
		}
	}
	return true
}

// jsxTag returns the length of a JSX tag of a capitalised component at
// the start of s ("<Tabs>", "</TabItem>", `<Note type="info">`,
// "<Badge />"), or 0: lower-case HTML tags are left to the markdown
// reader, and "<" in text ("a < b") is not followed by a capital.
func jsxTag(s string) int {
	if _, n, ok := openTag(s); ok && n > 0 {
		return n
	}
	return 0
}

// tagBroken is what feed returns for text that is not a tag after all.
const tagBroken = -2

// tagScan is the state of reading a tag's attributes: a quote or braces
// left open.
type tagScan struct {
	quote byte
	depth int
}

// openTag reads the start of a JSX tag of a capitalised component at the
// start of s. ok is false when s starts none; else it returns the scan
// and the length of the tag, or -1 when its attributes run past s.
func openTag(s string) (ts tagScan, n int, ok bool) {
	i := 1
	if i < len(s) && s[i] == '/' {
		i++
	}
	if i >= len(s) || s[i] < 'A' || s[i] > 'Z' {
		return ts, 0, false
	}
	for i < len(s) && (isASCIIAlnum(s[i]) || s[i] == '.' || s[i] == '_') {
		i++
	}
	worked(i)
	if i >= len(s) {
		return ts, -1, true
	}
	switch s[i] {
	case '>':
		return ts, i + 1, true
	case ' ', '\t', '/':
	default:
		return ts, 0, false
	}
	switch n := ts.feed(s[i:]); n {
	case tagBroken:
		return ts, 0, false
	case -1:
		return ts, -1, true
	default:
		return ts, i + n, true
	}
}

// feed reads attributes from s up to the tag's end, outside quotes and
// braces: it returns the length read, -1 when the tag goes on, or
// tagBroken at a "<", which no attribute of a tag taken for markup holds:
// stopping there keeps reading a line linear.
func (ts *tagScan) feed(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '<':
			worked(i + 1)
			return tagBroken
		case ts.quote != 0:
			if c == ts.quote {
				ts.quote = 0
			}
		case c == '"' || c == '\'':
			ts.quote = c
		case c == '{':
			ts.depth++
		case c == '}':
			ts.depth--
		case c == '>' && ts.depth <= 0:
			worked(i + 1)
			return i + 1
		}
	}
	worked(len(s))
	return -1
}

func isASCIIAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// stripRoleMarks removes reStructuredText role markers before interpreted
// text: ":mod:`pathlib`" reads "`pathlib`", ":py:func:`open`" "`open`".
// A role is one or two names between colons, each of letters, digits,
// "-", "_", "+" and "."; it starts after anything but such a character.
// Text without ":`" comes back as it is.
func stripRoleMarks(text string) string {
	if !strings.Contains(text, ":`") {
		return text
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(text); {
		j := index(text[i:], ":`")
		if j < 0 {
			break
		}
		end := i + j // the role's closing colon
		start := end
		for start > last && end-start < maxRoleLen && (isNameByte(text[start-1]) || text[start-1] == ':') {
			start--
		}
		worked(end - start)
		if role := text[start:end]; start < end && isRole(role) {
			if b.Len() == 0 {
				b.Grow(len(text))
			}
			b.WriteString(text[last:start])
			last = end + 1 // keep the backtick
		}
		i = end + 2
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// maxRoleLen bounds a role, ":py:func" and the like; a longer run of
// name characters before ":`" is no role, and is not read back further.
const maxRoleLen = 40

// isRole reports whether s, what precedes a role's closing colon, is
// ":name" or ":domain:name".
func isRole(s string) bool {
	if len(s) < 2 || s[0] != ':' || strings.Count(s, ":") > 2 {
		return false
	}
	parts := strings.Split(s[1:], ":")
	if len(parts) > 2 {
		return false
	}
	for _, p := range parts {
		if p == "" || !isASCIIAlnum(p[0]) {
			return false
		}
	}
	return true
}

// isNameByte reports whether c can be in a role's name.
func isNameByte(c byte) bool {
	return isASCIIAlnum(c) || c == '-' || c == '_' || c == '+' || c == '.'
}
