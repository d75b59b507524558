package enrich

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/fileinfo/fileinfo/extract"
)

// DefaultMaxTokens is the default token budget of one prompt.
const DefaultMaxTokens = 24000

// DefaultMaxCallers is the default number of callers (and of callees)
// listed per symbol before "and N more".
const DefaultMaxCallers = 10

// minSourceTokens is the least room a part must leave for symbols and
// source once its fixed text is counted; a smaller budget is refused
// rather than producing parts of a line or two.
const minSourceTokens = 200

// Options configure a prompt. The zero value asks for part 1 with the
// defaults.
type Options struct {
	// MaxTokens is the budget of one prompt, in Encoding tokens. A file
	// whose prompt would be larger is split into parts. Default
	// DefaultMaxTokens (24,000).
	MaxTokens int
	// Part selects the part to build, from 1. Default 1.
	Part int
	// MaxCallers caps each symbol's list of callers and of callees.
	// Default DefaultMaxCallers (10).
	MaxCallers int
	// Purposes are what other symbols do, by qualified name, as their
	// reports said (see Purposes): a callee listed with one is shown with
	// it, so that documenting callees first informs their callers.
	Purposes map[string]string
	// Dependencies are the dependency API symbols the file calls, at the
	// versions the project locks: each is listed with its signature and
	// doc lead, so that the model knows what the external calls do.
	Dependencies []DepSymbol
}

func (o Options) withDefaults() Options {
	if o.MaxTokens == 0 {
		o.MaxTokens = DefaultMaxTokens
	}
	if o.Part == 0 {
		o.Part = 1
	}
	if o.MaxCallers == 0 {
		o.MaxCallers = DefaultMaxCallers
	}
	return o
}

// Prompt is one enrichment prompt: the text to hand the host's model and
// what it covers.
type Prompt struct {
	Path string
	// Text is the prompt, laid out as the design's template: role line,
	// Structural Info, Source Code (numbered lines), Task.
	Text string
	// Tokens is the size of Text in Encoding tokens, counted line by line
	// (see Builder.Count); it is at most Options.MaxTokens.
	Tokens int
	// Part is this prompt's part, from 1, of Parts.
	Part, Parts int
	// StartLine and EndLine are the source lines shown (0, 0 for an empty
	// file). The parts of a file tile its lines in order.
	StartLine, EndLine int
	// Symbols are the local names (qualified names without the module)
	// of the symbols this part asks to document, in line order. Each of a
	// file's symbols is in exactly one part.
	Symbols []string
}

// A Builder builds prompts. It keeps the token count of every line it has
// seen, so building another part, or the same file again, encodes only new
// lines; the encoding itself is loaded once per process. A Builder is safe
// for concurrent use.
type Builder struct {
	c *counter

	mu   sync.Mutex
	cuts map[cutKey]*cutLine // lines shown cut, which every part's plan needs
}

type cutKey struct {
	text       string
	line, room int
}

// maxCuts bounds the cut lines a Builder remembers; past it they are
// forgotten.
const maxCuts = 64

// NewBuilder returns a Builder with an empty cache.
func NewBuilder() *Builder { return &Builder{c: newCounter(), cuts: map[cutKey]*cutLine{}} }

// Count returns the number of Encoding tokens in text, encoding it line by
// line (each line with its newline), the way prompt budgets are counted.
func (b *Builder) Count(text string) (int, error) { return b.c.count(text) }

// Prompt builds part opt.Part of the enrichment prompt for f, whose source
// is src. g gives callers and callees; it may be nil. A file whose prompt
// would exceed opt.MaxTokens is split into parts by whole symbols, never
// cut: a symbol larger than the budget by itself gets parts of its own,
// split by line ranges, and each such part says so. The result depends
// only on the arguments.
func (b *Builder) Prompt(f *extract.File, g Graph, src []byte, opt Options) (*Prompt, error) {
	opt = opt.withDefaults()
	if opt.MaxTokens < 0 || opt.Part < 0 {
		return nil, fmt.Errorf("prompt %s: max_tokens and part must be positive", f.Path)
	}
	p, err := b.plan(f, g, src, opt)
	if err != nil {
		return nil, err
	}
	if opt.Part > len(p.parts) {
		return nil, fmt.Errorf("part %d out of range: %s has %d part(s) at max_tokens %d", opt.Part, f.Path, len(p.parts), opt.MaxTokens)
	}
	return p.render(opt.Part)
}

// plan is a file's prompt worked out: texts, their costs and the parts.
type plan struct {
	b    *Builder
	fs   *facts
	opt  Options
	path string

	lines    []string // display text of each source line, 0-based
	lineCost []int    // tokens of each numbered line, 0-based
	entries  [][]string
	entCost  []int

	in, out []link // the file's connections

	total int // tokens of the whole file as one prompt
	parts []part

	// order is the symbols in pre-order of the containment tree, and
	// entSum and lineSum the prefix sums of the costs of their entries
	// and of the lines; split sets them (see tree).
	order           []int
	entSum, lineSum []int
}

func (p *plan) conns() (in, out []link) { return p.in, p.out }

// part is a contiguous range of source lines and the symbols listed with
// it.
type part struct {
	lo, hi int   // 1-based inclusive source lines; lo > hi when empty
	listed []int // symbol indexes whose entries are shown
	owned  []int // symbol indexes this part asks to document
	chunk  *chunk
	cut    *cutLine
}

// chunk is a piece of a unit larger than the budget by itself.
type chunk struct {
	name        string // local name of the symbol split, "" for lines outside symbols
	lo, hi      int    // the whole unit's lines
	first, last int    // the parts holding the unit, 1-based
}

// cutLine is a source line longer than the whole budget, shown cut.
type cutLine struct {
	line int
	text string // display text, marked
	cost int
}

// tally batches texts so that all of a plan's counting is one call.
type tally struct {
	pieces []string
	n      []int
}

type span struct{ lo, hi int }

func (t *tally) add(lines ...string) span {
	lo := len(t.pieces)
	t.pieces = append(t.pieces, lines...)
	return span{lo, len(t.pieces)}
}

func (t *tally) sum(s span) int {
	total := 0
	for _, n := range t.n[s.lo:s.hi] {
		total += n
	}
	return total
}

func (b *Builder) plan(f *extract.File, g Graph, src []byte, opt Options) (*plan, error) {
	p := &plan{b: b, fs: newFacts(f, g), opt: opt, path: f.Path}
	p.lines = sourceLines(src)
	p.in, p.out = p.fs.connections()
	var t tally
	texts := make([]span, len(p.lines))
	for i, l := range p.lines {
		// "12\tcode\n" costs exactly numberTokens(12) plus "\tcode\n",
		// which is shared by every file with that line.
		texts[i] = t.add("\t" + l + "\n")
	}
	p.entries = make([][]string, len(p.fs.syms))
	ents := make([]span, len(p.fs.syms))
	for i := range p.fs.syms {
		p.entries[i] = p.entry(&p.fs.syms[i])
		ents[i] = t.add(p.entries[i]...)
	}
	// Multi-part frames are counted with placeholder numbers as costly
	// as any real one, so the reserve holds whatever part they frame.
	const big = 9999999
	single := t.add(p.frame(where{}).lines()...)
	first := t.add(p.frame(where{k: 1, n: big, lo: big, hi: big + 1, total: big, none: true}).lines()...)
	middle := t.add(p.frame(where{k: big, n: big + 1, lo: big, hi: big + 1, total: big, none: true}).lines()...)
	last := t.add(p.frame(where{k: big, n: big, lo: big, hi: big + 1, total: big, none: true}).lines()...)
	var err error
	if t.n, err = b.c.counts(t.pieces); err != nil {
		return nil, err
	}
	p.lineCost = make([]int, len(p.lines))
	for i := range p.lines {
		p.lineCost[i] = numberTokens(i+1) + t.sum(texts[i])
	}
	p.entCost = make([]int, len(p.fs.syms))
	for i := range p.fs.syms {
		p.entCost[i] = t.sum(ents[i])
	}

	all := part{lo: 1, hi: len(p.lines)}
	for i := range p.fs.syms {
		all.listed = append(all.listed, i)
	}
	all.owned = all.listed
	p.total = t.sum(single) + p.cost(all)
	if p.total <= opt.MaxTokens {
		p.parts = []part{all}
		return p, nil
	}
	reserve := max(t.sum(first), t.sum(middle), t.sum(last))
	avail := opt.MaxTokens - reserve
	if avail < minSourceTokens {
		return nil, fmt.Errorf("max_tokens %d is too small for %s: the prompt's fixed text alone takes %d tokens; allow at least %d", opt.MaxTokens, f.Path, reserve, reserve+minSourceTokens)
	}
	if err := p.split(avail); err != nil {
		return nil, err
	}
	return p, nil
}

// cost is the tokens of a part's entries and source lines.
func (p *plan) cost(pt part) int {
	n := 0
	for _, i := range pt.listed {
		n += p.entCost[i]
	}
	for l := pt.lo; l <= pt.hi; l++ {
		n += p.lineCost[l-1]
	}
	if pt.cut != nil {
		n += pt.cut.cost - p.lineCost[pt.cut.line-1]
	}
	return n
}

// sourceLines splits src into display lines: no newline, no trailing
// carriage return, valid UTF-8.
func sourceLines(src []byte) []string {
	if len(src) == 0 {
		return nil
	}
	s := strings.ToValidUTF8(string(src), "\uFFFD")
	s = strings.TrimSuffix(s, "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// oneLine makes s safe for a one-line markdown item.
func oneLine(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Join(strings.Fields(s), " ")
}

// lineRange renders "line 3" or "lines 3–9".
func lineRange(lo, hi int) string {
	if hi < lo {
		return "no source lines"
	}
	if lo == hi {
		return fmt.Sprintf("line %d", lo)
	}
	return fmt.Sprintf("lines %d–%d", lo, hi)
}

// entry renders a symbol's lines in Structural Info.
func (p *plan) entry(s *symbol) []string {
	head := fmt.Sprintf("- %s %s (%s)", s.Kind, codeSpan(s.local), lineRange(s.StartLine, max(s.StartLine, s.EndLine)))
	if sig := oneLine(s.Signature); sig != "" {
		head += ": " + codeSpan(sig)
	}
	out := []string{head + "\n"}
	if len(s.overloads) > 0 {
		lines := make([]string, len(s.overloads))
		for i, l := range s.overloads {
			lines[i] = strconv.Itoa(l)
		}
		out = append(out, "  - declared without a body too, at line(s) "+strings.Join(lines, ", ")+"\n")
	}
	if len(s.Bases) > 0 {
		bases := make([]string, len(s.Bases))
		for i, b := range s.Bases {
			bases[i] = codeSpan(oneLine(b))
		}
		out = append(out, "  - bases: "+strings.Join(bases, ", ")+"\n")
	}
	callers, callees := p.fs.callers(s), p.fs.callees(s)
	for i := range callees {
		callees[i].note = oneLine(p.opt.Purposes[callees[i].qualified])
	}
	callers, guessedCallers := splitGuesses(callers)
	callees, guessedCallees := splitGuesses(callees)
	if s.role == roleCallable || len(callers)+len(guessedCallers) > 0 {
		out = append(out, "  - called by: "+refList(callers, p.opt.MaxCallers, "(none found)")+"\n")
	}
	if len(guessedCallers) > 0 {
		out = append(out, "  - possible callers "+unverified+": "+refList(guessedCallers, maxGuesses, "")+"\n")
	}
	if refs, total := p.fs.references(s, p.opt.MaxCallers); total > 0 {
		items := make([]string, len(refs))
		for i, r := range refs {
			items[i] = r.String()
		}
		out = append(out, "  - used as a value, not called, in: "+moreOf(items, total)+"\n")
	}
	if s.role == roleCallable || len(callees)+len(guessedCallees) > 0 {
		out = append(out, "  - calls: "+refList(callees, p.opt.MaxCallers, "(none resolved)")+"\n")
	}
	if len(guessedCallees) > 0 {
		out = append(out, "  - possible callees "+unverified+": "+refList(guessedCallees, maxGuesses, "")+"\n")
	}
	if note := p.fs.ambiguousNote(s); note != "" {
		out = append(out, "  - "+note+"\n")
	}
	return out
}

func refList(rs []ref, limit int, none string) string {
	if len(rs) == 0 {
		return none
	}
	items := make([]string, len(rs))
	for i, r := range rs {
		items[i] = r.String()
	}
	return capList(items, limit)
}

// frame is the text of a prompt outside its symbol entries and source
// lines, as lines: head runs to the Symbols heading, the entries follow,
// then open, the source lines, close and tail (the Task).
type frame struct {
	head, open, close, tail []string
}

func (fr frame) lines() []string {
	return append(append(append(append([]string(nil), fr.head...), fr.open...), fr.close...), fr.tail...)
}

// where places a part within its file: part k of n (0, 0 for a file in one
// prompt) showing lines lo–hi, with the file's total tokens and the
// part's chunk.
type where struct {
	k, n, lo, hi, total int
	chunk               *chunk
	none                bool // the part lists no symbol
}

// frame renders the frame of a prompt.
func (p *plan) frame(w where) frame {
	var out []string
	add := func(format string, args ...any) {
		out = append(out, fmt.Sprintf(format, args...)+"\n")
	}
	f := p.fs.f
	add("You are a Code Documentation Assistant.")
	add("")
	add("I have extracted the following structure for file: %q", f.Path)
	if w.n > 0 {
		add("")
		next := "This is the last part."
		if w.k < w.n {
			next = fmt.Sprintf("When you have called `report_file_info` for this part, call `file_info` with `part: %d`.", w.k+1)
		}
		add("This file is too large for one prompt (%d tokens against a budget of %d), so it comes in %d parts. This is part %d of %d: %s, with the symbols listed below. Document only those symbols; the other parts hold the rest of the file (`inspect_source` reads any lines). %s",
			w.total, p.opt.MaxTokens, w.n, w.k, w.n, lineRange(w.lo, w.hi), next)
	}
	out = append(out, chunkNote(w.chunk, w.lo, w.hi)...)
	add("")
	add("## Structural Info:")
	add("")
	add("Language: %s. Lines: %d. Module: %s.", f.Language, len(p.lines), codeSpan(oneLine(f.Module)))
	if f.Generated != "" {
		add("Generated: a tool wrote this file; its opening lines mark it: %s. Say so in the summary: a change belongs in what it is generated from, not here.", codeSpan(oneLine(f.Generated)))
	}
	add("")
	add("### Imports")
	if len(f.Imports) == 0 {
		add("(none)")
	}
	for _, im := range f.Imports {
		add("%s", importLine(im))
	}
	out = append(out, dependencyLines(p.opt.Dependencies)...)
	add("")
	add("### Connections")
	in, outs := p.conns()
	if len(in) == 0 && len(outs) == 0 {
		add("(none found in the call graph)")
	}
	for _, l := range connectionLines(in, outs) {
		add("%s", l)
	}
	out = append(out, placeLines(f, w)...)
	add("")
	add("### Symbols")
	if len(p.fs.syms) == 0 || w.none {
		add("(none)")
	}
	return frame{
		head: out,
		// Source lines start with their number, so no line of the file
		// can close the fence early.
		open:  []string{"\n", "## Source Code:\n", "\n", "```" + strings.ToLower(f.Language) + "\n"},
		close: []string{"```\n"},
		tail:  append([]string{"\n"}, p.task(w.k, w.n)...),
	}
}

// maxPromptPlaces bounds the places a prompt lists.
const maxPromptPlaces = 30

// placeLines lists the file's places (extract.Place) in the part's
// lines, if any: the functions of a routes file, a module's callbacks
// and a router's handlers, which are no symbols but are where its code
// is.
func placeLines(f *extract.File, w where) []string {
	var out []string
	n := 0
	for _, pl := range f.Places {
		if w.n > 0 && (pl.EndLine < w.lo || pl.StartLine > w.hi) {
			continue
		}
		if n++; n <= maxPromptPlaces {
			out = append(out, fmt.Sprintf("- %s (%s)\n", codeSpan(oneLine(localName(f, pl.Qualified))), lineRange(pl.StartLine, pl.EndLine)))
		}
	}
	if n == 0 {
		return nil
	}
	if n > maxPromptPlaces {
		out = append(out, fmt.Sprintf("- … and %d more\n", n-maxPromptPlaces))
	}
	head := []string{"\n", "### Anonymous functions with a place of their own\n",
		"Not symbols (no entry below): mention the ones that matter in the summary.\n"}
	return append(head, out...)
}

// chunkNote explains a part holding a piece of an oversized unit, shown
// as lines lo–hi.
func chunkNote(c *chunk, lo, hi int) []string {
	if c == nil {
		return nil
	}
	what := codeSpan(c.name) + " (" + lineRange(c.lo, c.hi) + ") is"
	if c.name == "" {
		what = "The source's " + lineRange(c.lo, c.hi) + ", outside any symbol, are"
	}
	var s string
	switch {
	case c.first == c.last:
		s = what + " larger than the budget on its own, so its longest line is shown cut."
	case c.name != "":
		s = fmt.Sprintf("%s larger than the budget on its own, so its source is split by lines across parts %d–%d; this part shows %s of it. Document it once, in part %d.",
			what, c.first, c.last, lineRange(lo, hi), c.last)
	default:
		s = fmt.Sprintf("%s larger than the budget, so they are split across parts %d–%d; this part shows %s.",
			what, c.first, c.last, lineRange(lo, hi))
	}
	return []string{"\n", s + "\n"}
}

// task renders the Task section for part k of n (0, 0: the whole file).
func (p *plan) task(k, n int) []string {
	var out []string
	add := func(s string) { out = append(out, s+"\n") }
	add("## Task:")
	if k <= 1 {
		add("1. Write a brief **Overview** of this file (2-3 sentences):")
		add("   - What is its purpose?")
		add("   - What are its main inputs/outputs?")
		add("   - What files depend on it or does it depend on?")
	} else {
		add("1. The **Overview** of this file was asked for in part 1; send one here only to refine it (optional).")
	}
	add("")
	add("2. For EACH function/method listed:")
	add("   - Write a **Purpose** (1 sentence describing what it does)")
	add("   - Write an **Implementation Summary** (3-5 steps, enough detail that someone could reimplement it)")
	add("   For each class, struct, interface or other type listed, write a one-sentence **Purpose**.")
	add("")
	add("3. Call `report_file_info` with your enriched documentation:")
	add(fmt.Sprintf("   - path: %q", p.path))
	add("   - overview; inputs and outputs (one sentence each)")
	add("   - functions: [{name, purpose, implementation}]")
	add("   - classes: [{name, purpose, methods: [{name, purpose, implementation}]}], each method under its type (a method whose type is not listed goes in functions)")
	if n > 0 {
		add(fmt.Sprintf("   - part: %d", k))
	}
	add("   Use the names exactly as listed above; write each implementation as numbered steps, one per line.")
	return out
}

// render builds the text of part k.
func (p *plan) render(k int) (*Prompt, error) {
	pt := p.parts[k-1]
	w := where{k: k, n: len(p.parts), lo: pt.lo, hi: pt.hi, total: p.total, chunk: pt.chunk, none: len(pt.listed) == 0}
	if w.n == 1 {
		w.k, w.n = 0, 0
	}
	fr := p.frame(w)
	// Everything but the numbered source lines is counted as text; those
	// were counted when planning.
	var sb, counted strings.Builder
	write := func(lines ...string) {
		for _, l := range lines {
			sb.WriteString(l)
			counted.WriteString(l)
		}
	}
	write(fr.head...)
	for _, i := range pt.listed {
		write(p.entries[i]...)
	}
	write(fr.open...)
	sourceTokens := 0
	for l := pt.lo; l <= pt.hi; l++ {
		text, cost := p.lines[l-1], p.lineCost[l-1]
		if pt.cut != nil && pt.cut.line == l {
			text, cost = pt.cut.text, pt.cut.cost
		}
		sb.WriteString(strconv.Itoa(l))
		sb.WriteByte('\t')
		sb.WriteString(text)
		sb.WriteByte('\n')
		sourceTokens += cost
	}
	write(fr.close...)
	write(fr.tail...)
	tokens, err := p.b.c.count(counted.String())
	if err != nil {
		return nil, err
	}
	out := &Prompt{
		Path:   p.path,
		Text:   sb.String(),
		Tokens: tokens + sourceTokens,
		Part:   k,
		Parts:  len(p.parts),
	}
	if pt.lo <= pt.hi {
		out.StartLine, out.EndLine = pt.lo, pt.hi
	}
	for _, i := range pt.owned {
		out.Symbols = append(out.Symbols, p.fs.syms[i].local)
	}
	return out, nil
}
