package enrich

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// Incremental builds the prompt that documents only what changed in f
// since its artifact's prose, prev, was written: the symbols named in ask
// (local names, as Changes lists them) with their entries and numbered
// source, and one line for each other symbol with the purpose prev gives
// it, for context. Nested symbols that did not change are left out of the
// source shown, with a line saying which lines they are. fileLevel asks
// for the overview again: the lines outside every symbol changed.
//
// It returns nil when such a prompt is no better than the full one: when
// it would take as many tokens as the full prompt, or more than
// opt.MaxTokens (the full prompt then comes in parts). Reports merge, so
// the other symbols keep their prose.
func (b *Builder) Incremental(f *extract.File, g Graph, src []byte, prev *Report, ask []string, fileLevel bool, opt Options) (*Prompt, error) {
	opt = opt.withDefaults()
	opt.Part = 1
	if len(ask) == 0 && !fileLevel {
		return nil, nil
	}
	p, err := b.plan(f, g, src, opt)
	if err != nil {
		return nil, err
	}
	asked := map[string]bool{}
	for _, n := range ask {
		asked[n] = true
	}
	var docs map[string]doc
	if prev != nil {
		docs, _ = resolve(prev, newFacts(f, nil))
	}
	var show []bool // show[l-1]: line l is shown
	show = make([]bool, len(p.lines))
	var askedIdx, context []int
	for i := range p.fs.syms {
		s := &p.fs.syms[i]
		if s.role == roleContainer {
			continue
		}
		if asked[s.local] {
			askedIdx = append(askedIdx, i)
			for l := max(s.StartLine, 1); l <= min(max(s.EndLine, s.StartLine), len(p.lines)); l++ {
				show[l-1] = true
			}
		} else {
			context = append(context, i)
		}
	}
	// Unchanged symbols nested in a changed one (a type's other methods)
	// are not shown again.
	for _, i := range context {
		s := &p.fs.syms[i]
		lo, hi := max(s.StartLine, 1), min(max(s.EndLine, s.StartLine), len(p.lines))
		if lo > hi || !show[lo-1] {
			continue
		}
		inner := false
		for _, j := range askedIdx {
			if t := &p.fs.syms[j]; t.StartLine >= lo && t.EndLine <= hi && j != i {
				inner = true // it holds a changed symbol: keep it
				break
			}
		}
		if inner {
			continue
		}
		for l := lo; l <= hi; l++ {
			show[l-1] = false
		}
	}

	var sb strings.Builder
	add := func(format string, args ...any) {
		fmt.Fprintf(&sb, format, args...)
		sb.WriteByte('\n')
	}
	add("You are a Code Documentation Assistant.")
	add("")
	switch {
	case len(askedIdx) > 0:
		add("The file %q was documented before. Since then %d of its %d symbols changed or are new: document only those. The others keep their documentation; they are listed for context.",
			f.Path, len(askedIdx), len(askedIdx)+len(context))
	default:
		add("The file %q was documented before. Since then only its code outside its symbols (imports, top-level statements) changed: check the overview.", f.Path)
	}
	add("")
	add("## Structural Info:")
	add("")
	add("Language: %s. Lines: %d. Module: %s.", f.Language, len(p.lines), codeSpan(oneLine(f.Module)))
	if fileLevel {
		add("")
		add("### Imports")
		if len(f.Imports) == 0 {
			add("(none)")
		}
		for _, im := range f.Imports {
			add("%s", importLine(im))
		}
	}
	if len(context) > 0 {
		add("")
		add("### Unchanged symbols (documented; context only)")
		for _, i := range context {
			s := &p.fs.syms[i]
			line := fmt.Sprintf("- %s %s (%s)", s.Kind, codeSpan(s.local), lineRange(s.StartLine, max(s.StartLine, s.EndLine)))
			if pur := oneLine(docs[s.Qualified].purpose); pur != "" {
				line += ": " + truncateWords(pur, 120)
			}
			add("%s", line)
		}
	}
	if len(askedIdx) > 0 {
		add("")
		add("### Changed or new symbols")
		for _, i := range askedIdx {
			for _, l := range p.entries[i] {
				sb.WriteString(l)
			}
		}
	}
	var symbols []string
	for _, i := range askedIdx {
		symbols = append(symbols, p.fs.syms[i].local)
	}
	counted := sb.String()
	sourceTokens, first, last := 0, 0, 0
	var code, frameText strings.Builder
	if len(askedIdx) > 0 {
		head := "\n## Source Code (changed symbols only; `inspect_source` reads any other lines):\n\n```" + strings.ToLower(f.Language) + "\n"
		code.WriteString(head)
		frameText.WriteString(head)
		for l := 1; l <= len(p.lines); l++ {
			if !show[l-1] {
				continue
			}
			if last > 0 && l > last+1 {
				gap := fmt.Sprintf("…\t(%s not shown)\n", lineRange(last+1, l-1))
				code.WriteString(gap)
				frameText.WriteString(gap)
			}
			if first == 0 {
				first = l
			}
			last = l
			code.WriteString(strconv.Itoa(l))
			code.WriteByte('\t')
			code.WriteString(p.lines[l-1])
			code.WriteByte('\n')
			sourceTokens += p.lineCost[l-1]
		}
		code.WriteString("```\n")
		frameText.WriteString("```\n")
	}
	var task strings.Builder
	tadd := func(s string) { task.WriteString(s + "\n") }
	tadd("")
	tadd("## Task:")
	if fileLevel {
		tadd("1. The code outside the symbols changed: write the file's **Overview** again (2-3 sentences) if the one it has no longer holds; otherwise leave it out.")
	} else {
		tadd("1. Leave the **Overview** out unless these changes alter what the file does.")
	}
	if len(askedIdx) > 0 {
		tadd("2. For EACH changed or new function/method listed: a **Purpose** (1 sentence) and an **Implementation Summary** (3-5 numbered steps); for each changed type, a one-sentence **Purpose**.")
	}
	tadd("3. Call `report_file_info` with:")
	tadd(fmt.Sprintf("   - path: %q", f.Path))
	if len(askedIdx) > 0 {
		tadd("   - functions: [{name, purpose, implementation}] and classes: [{name, purpose, methods: [...]}] for the changed symbols only, named exactly as listed; what you leave out keeps its documentation")
	}
	tokens, err := b.c.count(counted + frameText.String() + task.String())
	if err != nil {
		return nil, err
	}
	total := tokens + sourceTokens
	if total > opt.MaxTokens || total >= p.total {
		return nil, nil
	}
	return &Prompt{Path: f.Path, Text: counted + code.String() + task.String(), Tokens: total,
		Part: 1, Parts: 1, StartLine: first, EndLine: last, Symbols: symbols}, nil
}

// truncateWords cuts s to at most n bytes at a space, adding "…".
func truncateWords(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	if cut < n/2 {
		cut = n
	}
	return strings.TrimRight(s[:cut], " ,;:") + "…"
}
