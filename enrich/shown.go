package enrich

// Reading the markdown of an artifact from before records: its layout is
// at the top of recover.go.

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
)

type section int

const (
	secNone section = iota
	secOverview
	secFunctions
	secClasses
	secOther
)

type entryKind int

const (
	kindAny entryKind = iota // a symbol heading outside Functions and Classes
	kindFunction
	kindType
	kindMethod
)

// entry is one symbol's section of an artifact.
type entry struct {
	kind  entryKind
	level int
	typ   int    // of a method, the entry of its type, or -1
	title string // what the heading shows, out of its code span
	hint  string // the local name on the line under it, if any
	// While reading: the purpose's lines, a summary written on the
	// label's line, and the lines of each step listed under it.
	purposeLines []string
	implLine     string
	stepLines    [][]string
	// Once read (finish): the prose.
	purpose, impl string
}

func (e *entry) empty() bool { return blank(e.purpose) && blank(e.impl) }

// finish sets the prose of e from the lines read. A purpose that is the
// layout's "not documented yet" is none. The steps become an
// Implementation Summary that renders them as they were: numbered lines,
// or one step bare (stepsOf splits a numbered single line at numbers in
// it), numbered only if it starts like a step itself.
func (e *entry) finish() {
	if e.purpose = oneLine(strings.Join(e.purposeLines, " ")); placeholder(e.purpose) {
		e.purpose = ""
	}
	var steps []string
	if t := oneLine(e.implLine); t != "" && !placeholder(t) {
		steps = append(steps, t)
	}
	for _, ls := range e.stepLines {
		if t := oneLine(strings.Join(ls, " ")); t != "" {
			steps = append(steps, t)
		}
	}
	switch {
	case len(steps) == 1 && stepMarker.MatchString(steps[0]):
		e.impl = "1. " + steps[0]
	case len(steps) == 1:
		e.impl = steps[0]
	default:
		for i, s := range steps {
			steps[i] = strconv.Itoa(i+1) + ". " + s
		}
		e.impl = strings.Join(steps, "\n")
	}
	e.purposeLines, e.stepLines = nil, nil
}

// shown is what an artifact's markdown shows: the lines of its Overview
// section, and its symbols' sections.
type shown struct {
	ov      []string
	entries []entry
}

// readShown reads an artifact's markdown.
func readShown(md string) *shown {
	p := &shown{}
	sec, ovDone := secNone, false
	cur, typ := -1, -1        // the entry whose section is open, and the type's
	field := (*[]string)(nil) // where a wrapped purpose goes on
	inSteps, gap := false, false
	fence, comment := "", false
	for _, l := range strings.Split(md, "\n") {
		l = strings.TrimRight(l, " \t\r")
		t := strings.TrimSpace(l)
		switch {
		case comment:
			comment = !strings.Contains(l, "-->")
			continue
		case fence != "":
			if len(t) >= len(fence) && strings.Trim(t, fence[:1]) == "" {
				fence = ""
			}
			continue
		case indent(l) <= 3 && strings.HasPrefix(t, "<!--"):
			comment = !strings.Contains(t[2:], "-->")
			continue
		case indent(l) <= 3 && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")):
			fence = t[:len(t)-len(strings.TrimLeft(t, t[:1]))]
			field, inSteps = nil, false
			continue
		}
		if level, h := heading(l); level > 0 {
			field, inSteps, cur = nil, false, -1
			switch {
			case level == 1:
				sec = secNone
			case level == 2:
				sec, typ = sectionOf(h), -1
				ovDone = false
			case sec == secOverview:
				ovDone = true
			case strings.EqualFold(h, "Methods") || sec == secOther:
			default:
				e := entry{kind: kindAny, level: level, typ: -1, title: h}
				if s, ok := spanText(h); ok {
					e.title = s
				} else if sec == secNone {
					continue // a heading of its own, not a symbol's
				}
				switch {
				case sec == secFunctions:
					e.kind = kindFunction
				case sec == secClasses && typ >= 0 && level > p.entries[typ].level:
					e.kind, e.typ = kindMethod, typ
				case sec == secClasses:
					e.kind, typ = kindType, len(p.entries)
				}
				cur = len(p.entries)
				p.entries = append(p.entries, e)
			}
			continue
		}
		if sec == secOverview && !ovDone {
			if isRule(t) {
				ovDone = true
			} else {
				p.ov = append(p.ov, l)
			}
			continue
		}
		if cur < 0 {
			continue
		}
		e := &p.entries[cur]
		name, value, isLabel := label(t)
		item := stepMarker.FindString(t)
		switch {
		case t == "":
			field, gap = nil, true
		case isLabel:
			field, inSteps = nil, false
			switch name {
			case "purpose":
				if e.purposeLines == nil {
					e.purposeLines = []string{value}
					field = &e.purposeLines
				}
			case "implementation summary", "implementation":
				if e.implLine == "" && e.stepLines == nil {
					e.implLine, inSteps, gap = value, true, false
				}
			}
		case item != "":
			field = nil
			if inSteps {
				e.stepLines, gap = append(e.stepLines, []string{t[len(item):]}), false
			}
		case e.hint == "" && strings.HasPrefix(t, "*`"):
			e.hint, _ = leadingSpan(t[1:])
		case inSteps && !gap && len(e.stepLines) > 0:
			last := &e.stepLines[len(e.stepLines)-1]
			*last = append(*last, t)
		case field != nil:
			*field = append(*field, t)
		default:
			inSteps = false
		}
	}
	for i := range p.entries {
		p.entries[i].finish()
	}
	return p
}

// overview returns the overview, inputs and outputs the Overview section
// shows.
func (p *shown) overview() (overview, inputs, outputs string) {
	ls := p.ov
	// Connections come last, from the graph; prose may hold the label.
	for i := len(ls) - 1; i >= 0; i-- {
		if n, _, ok := label(strings.TrimSpace(ls[i])); ok && n == "connections" {
			ls = ls[:i]
			break
		}
	}
	// Outputs, and Inputs before it, are the last paragraphs: one line
	// each, as the renderer writes them, after the overview or the line
	// that stands for it. Prose may end with a paragraph like them; it
	// renders the same.
	last := func(prefix string) string {
		for len(ls) > 0 && blank(ls[len(ls)-1]) {
			ls = ls[:len(ls)-1]
		}
		n := len(ls)
		if n < 3 || !blank(ls[n-2]) || !slices.ContainsFunc(ls[:n-2], func(l string) bool { return !blank(l) }) {
			return ""
		}
		v, ok := strings.CutPrefix(ls[n-1], prefix)
		if !ok || v != strings.TrimSpace(v) || v == "" {
			return ""
		}
		ls = ls[:n-1]
		return v
	}
	outputs = last("**Outputs**: ")
	inputs = last("**Inputs**: ")
	for len(ls) > 0 && blank(ls[len(ls)-1]) {
		ls = ls[:len(ls)-1]
	}
	for len(ls) > 0 && blank(ls[0]) {
		ls = ls[1:]
	}
	lines := make([]string, len(ls))
	for i, l := range ls {
		lines[i] = unescape(l)
	}
	overview = strings.Join(lines, "\n")
	if t := strings.TrimSpace(overview); !strings.Contains(t, "\n") && strings.HasSuffix(t, "*") &&
		(strings.HasPrefix(t, "*Structure only:") || strings.HasPrefix(t, "*No overview yet")) {
		overview = ""
	}
	return overview, inputs, outputs
}

// sectionOf names the section under a level-2 heading.
func sectionOf(h string) section {
	switch strings.ToLower(strings.TrimSpace(h)) {
	case "overview":
		return secOverview
	case "functions":
		return secFunctions
	case "classes":
		return secClasses
	}
	return secOther
}

// heading returns the level and text of an ATX heading line, or 0.
func heading(l string) (int, string) {
	if indent(l) > 3 {
		return 0, ""
	}
	t := strings.TrimLeft(l, " ")
	n := len(t) - len(strings.TrimLeft(t, "#"))
	if n == 0 || n > 6 || n < len(t) && t[n] != ' ' && t[n] != '\t' {
		return 0, ""
	}
	h := strings.TrimSpace(t[n:])
	if c := strings.TrimRight(h, "#"); c != h && (c == "" || strings.HasSuffix(c, " ")) {
		h = strings.TrimSpace(c)
	}
	return n, h
}

// indent counts the spaces a line starts with.
func indent(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }

// label returns the lower-cased name and the value of a label line:
// "**Purpose**: text", "**Purpose:** text" or "Purpose: text", for the
// layout's labels only.
func label(t string) (name, value string, ok bool) {
	var n, rest string
	if b, found := strings.CutPrefix(t, "**"); found {
		end := strings.Index(b, "**")
		if end < 0 {
			return "", "", false
		}
		n, rest = strings.TrimSpace(b[:end]), b[end+2:]
		if c, found := strings.CutSuffix(n, ":"); found {
			n = c
		} else if rest, found = strings.CutPrefix(rest, ":"); !found {
			return "", "", false
		}
	} else if n, rest, ok = strings.Cut(t, ":"); !ok {
		return "", "", false
	}
	switch n = strings.ToLower(strings.TrimSpace(n)); n {
	case "purpose", "implementation summary", "implementation", "inputs", "outputs", "connections", "called by", "doc comment":
		return n, strings.TrimSpace(rest), true
	}
	return "", "", false
}

// placeholder reports whether prose is what the layout shows for none.
func placeholder(s string) bool { return strings.TrimSpace(s) == "*not documented yet.*" }

// spanText returns the text of the code span that is all of s.
func spanText(s string) (string, bool) {
	n := backticks(s)
	if n == 0 || len(s) <= 2*n || !strings.HasSuffix(s, s[:n]) || s[len(s)-n-1] == '`' {
		return "", false
	}
	return trimSpanSpace(s[n : len(s)-n]), true
}

// leadingSpan returns the text of the code span s starts with: a run of
// backticks up to the next run as long, less a space at each end when
// both have one.
func leadingSpan(s string) (string, bool) {
	n := backticks(s)
	if n == 0 {
		return "", false
	}
	for i := n; i < len(s); {
		j := strings.IndexByte(s[i:], '`')
		if j < 0 {
			break
		}
		i += j
		if m := backticks(s[i:]); m != n {
			i += m
			continue
		}
		return trimSpanSpace(s[n:i]), true
	}
	return "", false
}

// trimSpanSpace drops the space at each end of a code span's text when
// both ends have one and it is not all spaces, as codeSpan adds them.
func trimSpanSpace(text string) string {
	if len(text) >= 2 && text[0] == ' ' && text[len(text)-1] == ' ' && strings.Trim(text, " ") != "" {
		return text[1 : len(text)-1]
	}
	return text
}

// backticks counts the backticks s starts with.
func backticks(s string) int { return len(s) - len(strings.TrimLeft(s, "`")) }

// unescape undoes block's escape of a line.
func unescape(l string) string {
	t, ok := strings.CutPrefix(l, `\`)
	if ok && (strings.HasPrefix(t, "#") || strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") || isRule(t)) {
		return t
	}
	return l
}

// words returns the identifiers in a heading.
func words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '$'
	})
}
