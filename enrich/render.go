package enrich

import (
	"bytes"
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// maxCalledBy caps the Called by list of a function in an artifact.
const maxCalledBy = 10

// RenderBasic renders the basic artifact of f: the enriched layout with
// the structure only — signatures, lines, doc comments from the source,
// callers and connections from g (which may be nil) — and no prose from a
// model. It has no front matter.
func RenderBasic(f *extract.File, g Graph) []byte {
	return render(newFacts(f, g), nil, nil).Bytes()
}

// RenderEnriched renders the enriched artifact of f with the prose of r.
// Connections and callers still come from g, not from r. It fails, writing
// nothing, if r names a symbol f does not have; symbols r leaves out are
// marked as not documented yet; a nil r gives the basic artifact. It has no
// front matter. The artifact ends with the record of r's prose and of d,
// the digests of what it was written from (see Stamp; empty for none),
// which Recorded reads back for Update.
func RenderEnriched(f *extract.File, g Graph, r *Report, d Digests) ([]byte, error) {
	if r == nil {
		return RenderBasic(f, g), nil
	}
	fs := newFacts(f, g)
	docs, problems := resolve(r, fs)
	if len(problems) > 0 {
		return nil, fmt.Errorf("render %s: %w", f.Path, problems[0])
	}
	b := render(fs, r, docs)
	appendRecord(b, canonical(fs, r, docs), d)
	return b.Bytes(), nil
}

// render lays out an artifact; r == nil renders the basic one.
func render(fs *facts, r *Report, docs map[string]doc) *bytes.Buffer {
	var b bytes.Buffer
	p := func(format string, args ...any) {
		fmt.Fprintf(&b, format, args...)
		b.WriteByte('\n')
	}
	p("# %s", fs.f.Path)
	p("")
	if fs.f.Generated != "" {
		p("*Generated: its opening lines mark it: %s. Changes belong in what it is generated from.*", codeSpan(oneLine(fs.f.Generated)))
		p("")
	}
	p("## Overview")
	p("")
	switch {
	case r == nil:
		p("*Structure only: not documented yet. `file_info` on this file gives the prompt that documents it.*")
	case strings.TrimSpace(r.Overview) == "":
		p("*No overview yet: it comes with part 1 of the prompt.*")
	default:
		p("%s", block(r.Overview))
	}
	p("")
	if r != nil && strings.TrimSpace(r.Inputs) != "" {
		p("**Inputs**: %s", inline(r.Inputs))
		p("")
	}
	if r != nil && strings.TrimSpace(r.Outputs) != "" {
		p("**Outputs**: %s", inline(r.Outputs))
		p("")
	}
	in, out := fs.connections()
	if len(in) == 0 && len(out) == 0 {
		p("**Connections**: none found in the call graph.")
	} else {
		p("**Connections**:")
		for _, l := range connectionLines(in, out) {
			p("%s", l)
		}
	}

	var funcs, types []int
	for i, s := range fs.syms {
		switch {
		case s.role == roleCallable && s.owner < 0:
			funcs = append(funcs, i)
		case s.role == roleType:
			types = append(types, i)
		}
	}
	if len(funcs) > 0 {
		p("")
		p("---")
		p("")
		p("## Functions")
		for _, i := range funcs {
			p("")
			renderSymbol(&b, fs, &fs.syms[i], "###", r, docs)
		}
	}
	if len(types) > 0 {
		methods := map[int][]int{} // by owner, in line order; methods point at the first type of their name
		for i := range fs.syms {
			if o := fs.syms[i].owner; o >= 0 {
				methods[o] = append(methods[o], i)
			}
		}
		p("")
		p("---")
		p("")
		p("## Classes")
		for _, t := range types {
			p("")
			renderSymbol(&b, fs, &fs.syms[t], "###", r, docs)
			for j, i := range methods[t] {
				if j == 0 {
					p("")
					p("#### Methods")
				}
				p("")
				renderSymbol(&b, fs, &fs.syms[i], "#####", r, docs)
			}
		}
	}
	return &b
}

// renderSymbol renders one function, method or type under a heading of
// the given level.
func renderSymbol(b *bytes.Buffer, fs *facts, s *symbol, level string, r *Report, docs map[string]doc) {
	p := func(format string, args ...any) {
		fmt.Fprintf(b, format, args...)
		b.WriteByte('\n')
	}
	title := oneLine(s.Signature)
	if title == "" {
		title = s.local
	}
	if s.graphName != s.Qualified {
		// Another callable has its name (see symbol.graphName): the line
		// tells the headings apart.
		p("%s %s (line %d)", level, codeSpan(title), s.StartLine)
	} else {
		p("%s %s", level, codeSpan(title))
	}
	p("")
	where := lineRange(s.StartLine, max(s.StartLine, s.EndLine))
	if s.local != s.Name {
		where = codeSpan(s.local) + ", " + where
	}
	p("*%s%s*", strings.ToUpper(where[:1]), where[1:])
	if r == nil {
		if d := firstParagraph(s.Doc); d != "" {
			p("")
			p("**Doc comment**: %s", d)
		}
	} else {
		d := docs[s.Qualified]
		p("")
		if strings.TrimSpace(d.purpose) == "" {
			p("**Purpose**: *not documented yet.*")
		} else {
			p("**Purpose**: %s", inline(d.purpose))
		}
		switch steps := stepsOf(d.implementation); {
		case s.role != roleCallable:
		case len(steps) == 0:
			p("")
			p("**Implementation Summary**: *not documented yet.*")
		default:
			p("")
			p("**Implementation Summary**:")
			for i, st := range steps {
				p("%d. %s", i+1, st)
			}
		}
	}
	if s.role != roleCallable {
		return
	}
	if note := fs.ambiguousNote(s); note != "" {
		p("")
		p("**Unresolved calls:** %s.", note)
	}
	p("")
	callers, guesses := splitGuesses(calledBy(fs, s))
	defer renderReferences(b, fs, s)
	defer renderGuesses(b, guesses)
	if len(callers) == 0 {
		p("**Called by:** none found in the call graph.")
		return
	}
	p("**Called by:**")
	for i, c := range callers {
		if i == maxCalledBy {
			p("- and %d more", len(callers)-i)
			break
		}
		p("- %s in %s", codeSpan(c.name), codeSpan(c.file))
	}
}

// renderGuesses writes the callers of a function that the graph resolved
// by name only, apart from Called by: one labelled line, capped.
func renderGuesses(b *bytes.Buffer, guesses []ref) {
	if len(guesses) == 0 {
		return
	}
	items := make([]string, len(guesses))
	for i, c := range guesses {
		items[i] = codeSpan(c.name) + " in " + codeSpan(c.file)
	}
	fmt.Fprintf(b, "\n**Possible callers** %s: %s.\n", unverified, capList(items, maxGuesses))
}

// calledBy lists s's callers as (name, file) pairs, distinct, sorted by
// file and name.
func calledBy(fs *facts, s *symbol) []ref {
	var out []ref
	seen := map[ref]bool{}
	for _, c := range fs.callers(s) {
		c.line = 0
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b ref) int { return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.name, b.name)) })
	return out
}

// firstParagraph is a doc comment's first paragraph, on one line.
func firstParagraph(d string) string {
	d = strings.TrimSpace(d)
	if i := strings.Index(d, "\n\n"); i >= 0 {
		d = d[:i]
	}
	return inline(d)
}

// inline makes prose one markdown line.
func inline(s string) string {
	return oneLine(s)
}

// block keeps prose's paragraphs but stops a line from starting a heading,
// a rule or a fence that would break the artifact's layout.
func block(s string) string {
	s = strings.ToValidUTF8(strings.TrimSpace(s), "\uFFFD")
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	for i, l := range lines {
		l = strings.TrimRight(l, " \t\r")
		t := strings.TrimLeft(l, " ")
		if strings.HasPrefix(t, "#") || strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") || isRule(t) {
			l = `\` + t
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n")
}

// isRule reports whether a line would render as a thematic break or a
// setext underline.
func isRule(t string) bool {
	t = strings.ReplaceAll(t, " ", "")
	if len(t) < 2 {
		return false
	}
	for _, c := range []string{"-", "=", "*", "_"} {
		if strings.Trim(t, c) == "" {
			return true
		}
	}
	return false
}

var (
	stepMarker   = regexp.MustCompile(`^(?:\d+[.)]|[-*•+])\s+`)
	inlineNumber = regexp.MustCompile(`(?:^|\s)(\d+)[.)]\s`)
)

// stepsOf splits an Implementation Summary into steps: one per line, with
// numbers or bullets dropped; a single line numbered inline ("1. a 2. b")
// is split at its numbers when they count up from 1.
func stepsOf(impl string) []string {
	var steps []string
	for _, l := range strings.Split(impl, "\n") {
		l = strings.TrimSpace(l)
		l = strings.TrimSpace(stepMarker.ReplaceAllString(l, ""))
		if l != "" {
			steps = append(steps, inline(l))
		}
	}
	if len(steps) == 1 {
		steps = splitInline(strings.TrimSpace(impl))
	}
	return steps
}

// splitInline splits "1. a 2. b 3. c" into its steps; anything else is one
// step.
func splitInline(s string) []string {
	locs := inlineNumber.FindAllStringSubmatchIndex(s, -1)
	var cuts [][2]int // start of marker, start of text
	want := 1
	for _, m := range locs {
		if n, _ := strconv.Atoi(s[m[2]:m[3]]); n == want {
			cuts = append(cuts, [2]int{m[2], m[1]})
			want++
		}
	}
	if len(cuts) < 2 || strings.TrimSpace(s[:cuts[0][0]]) != "" {
		return []string{inline(stepMarker.ReplaceAllString(s, ""))}
	}
	var out []string
	for i, c := range cuts {
		end := len(s)
		if i+1 < len(cuts) {
			end = cuts[i+1][0]
		}
		if t := inline(s[c[1]:end]); t != "" {
			out = append(out, t)
		}
	}
	return out
}
