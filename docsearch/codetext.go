package docsearch

// This file renders a code symbol as the text its document holds.

import (
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// declMark ends the first line of a declaration's text, and testMark,
// after it, that of test-only code.
const (
	declMark = " (declaration)"
	testMark = " (test)"
)

// CodeText is the text a symbol of the file at path is indexed by (see
// the format at the top of code.go): what a peer ranking the same chunks
// should see.
func CodeText(path string, s CodeSymbol) string {
	// The text is built in one buffer of its exact size, the parts
	// counted first: a code document keeps its text for as long as the
	// index holds it, and a growing builder's spare capacity was kept
	// with it. fmt and the builder's growth also made garbage: per
	// symbol 920 bytes in 16 allocations, now 288 in 2
	// (BenchmarkCodeText, 2026-12-05).
	decl, test, stale := "", "", ""
	if s.Decl {
		decl = declMark
	}
	if s.Test {
		test = testMark
	}
	if s.Stale {
		stale = "(stale) "
	}
	var nums [2 * 20]byte
	lines := strconv.AppendInt(nums[:0], int64(s.Line), 10)
	lines = append(lines, '-')
	lines = strconv.AppendInt(lines, int64(max(s.End, s.Line)), 10)
	var calls []string
	if len(s.Calls) > 0 {
		calls = slices.Clone(s.Calls)
		slices.Sort(calls)
		calls = slices.Compact(calls)
		if len(calls) > maxCodeCalls {
			calls = calls[:maxCodeCalls]
		}
	}
	// The parts in order; an empty part is written as nothing.
	parts := [...]string{
		oneLine(s.Kind), " ", oneLine(s.Name), decl, test, "\n", oneLine(s.Signature), "\n", path, ":", string(lines), "\n",
		"", "", "", "", // Purpose
		"", "", "", "", // Implementation
		"", "", // doc comment
		"", "", // body
		"", "", "", // calls
	}
	if p := strings.TrimSpace(s.Purpose); p != "" {
		parts[12], parts[13], parts[14], parts[15] = "Purpose: ", stale, p, "\n"
	}
	if im := strings.TrimSpace(s.Implementation); im != "" {
		parts[16], parts[17], parts[18], parts[19] = "Implementation: ", stale, im, "\n"
	}
	if d := strings.TrimSpace(s.Doc); d != "" {
		parts[20], parts[21] = cutAt(d, maxCodeDoc), "\n"
	}
	if body := strings.TrimSpace(s.Body); body != "" {
		parts[22], parts[23] = cutAt(body, maxCodeBody), "\n"
	}
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	if len(calls) > 0 {
		parts[24], parts[26] = "calls: ", "\n"
		n += len(parts[24]) + len(parts[26]) + len(calls) - 1
		for _, c := range calls {
			n += len(c)
		}
	}
	var b strings.Builder
	b.Grow(n)
	for _, p := range parts[:24] {
		b.WriteString(p)
	}
	if len(calls) > 0 {
		b.WriteString(parts[24])
		for i, c := range calls {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(c)
		}
		b.WriteString(parts[26])
	}
	return b.String()
}

// cutAt cuts s to at most n bytes at a line end, or a rune boundary.
func cutAt(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if i := strings.LastIndexByte(s[:n], '\n'); i > n/2 {
		return s[:i]
	}
	return truncate(s, n)
}

// oneLine collapses s's whitespace runs to single spaces.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\n\r\t") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// codeLead is what a symbol's result says it does: the first sentence of
// its enriched Purpose, else of its doc comment, without markup lines
// (reST directives, field lists, doctest prompts).
func codeLead(s CodeSymbol) string {
	if p := symbolSentence(s.Purpose); p != "" {
		return p
	}
	return stripRoles(symbolSentence(s.Doc))
}

// stripRoles turns reST roles into their text: ":class:`~flask.Blueprint`"
// is "Blueprint", ":meth:`Flask.run`" is "Flask.run", as a reader sees them.
func stripRoles(s string) string {
	if !strings.Contains(s, ":`") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, ":`")
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i+2:], '`')
		start := strings.LastIndexByte(s[:i], ':')
		if j < 0 || start < 0 || strings.ContainsAny(s[start+1:i], " \t") {
			b.WriteString(s[:i+2])
			s = s[i+2:]
			continue
		}
		b.WriteString(s[:start])
		target := s[i+2 : i+2+j]
		if k := strings.IndexByte(target, '<'); k > 0 && strings.HasSuffix(target, ">") {
			target = strings.TrimSpace(target[:k]) // :ref:`text <label>`
		} else if strings.HasPrefix(target, "~") {
			target = target[strings.LastIndexByte(target, '.')+1:]
		}
		b.WriteString(target)
		s = s[i+3+j:]
	}
	b.WriteString(s)
	return b.String()
}

// symbolSentence returns the first sentence of the first paragraph of
// prose in doc.
func symbolSentence(doc string) string {
	var para []string
	for line := range strings.SplitSeq(doc, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case t == "":
			if len(para) > 0 {
				return sentence(strings.Join(para, " "))
			}
			continue
		case markupLine(t), listItem(t):
			if len(para) > 0 {
				return sentence(strings.Join(para, " "))
			}
			continue
		}
		para = append(para, t)
	}
	return sentence(strings.Join(para, " "))
}

// markupLine reports whether a doc line is markup rather than prose.
func markupLine(t string) bool {
	return strings.HasPrefix(t, "..") || strings.HasPrefix(t, ">>>") || strings.HasPrefix(t, "@") ||
		strings.HasPrefix(t, ":") || strings.HasPrefix(t, "```") || strings.HasPrefix(t, "#") ||
		strings.Trim(t, "=-~*^") == ""
}

// listItem reports whether a doc line starts a list item: a list ends
// the paragraph before it.
func listItem(t string) bool {
	return strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "+ ")
}

// sentence cuts p after its first full stop followed by a space.
func sentence(p string) string {
	for i := 0; i+1 < len(p); i++ {
		if p[i] == '.' && p[i+1] == ' ' && i > 0 && p[i-1] != '.' && !(i >= 2 && p[i-2] == ' ' || i >= 2 && p[i-2] == '.') {
			// "e.g. " and "i.e. " are not ends.
			if i >= 3 && (p[i-3:i] == "e.g" || p[i-3:i] == "i.e") {
				continue
			}
			return truncate(p[:i+1], maxSummary)
		}
	}
	return truncate(p, maxSummary)
}

// isDecl reports whether a code document's text is a declaration's.
func isDecl(text string) bool {
	first, _, _ := strings.Cut(text, "\n")
	return strings.HasSuffix(strings.TrimSuffix(first, testMark), declMark)
}

// isTestSymbol reports whether a code document's text is test-only
// code's (CodeSymbol.Test).
func isTestSymbol(text string) bool {
	first, _, _ := strings.Cut(text, "\n")
	return strings.HasSuffix(first, testMark)
}

// codeMeta reads a code document's kind and signature back from its text.
func codeMeta(text string) (kind, signature string) {
	first, rest, _ := strings.Cut(text, "\n")
	kind, _, _ = strings.Cut(first, " ")
	signature, _, _ = strings.Cut(rest, "\n")
	return kind, signature
}

// textsMade is called by tests' hook with a file's path as codeTexts
// starts on its symbols, on the goroutine that renders them.
var textsMade func(path string)

// codeTexts returns the CodeText of each symbol of each file, by file,
// rendered by up to workers goroutines (one a core by default; one
// renders on the caller's goroutine, the serial path for profiling).
// putCode rendered them on its own goroutine, before its workers
// started, while the other core idled (docs/bigrepos.md, eleventh
// session: 0.3 of 44 CPU-s of a cold index of a fifth of Linux).
func codeTexts(files []CodeFile, workers int) [][]string {
	out := make([][]string, len(files))
	render := func(i int) {
		f := &files[i]
		if textsMade != nil {
			textsMade(f.Path)
		}
		ts := make([]string, len(f.Symbols))
		for j, s := range f.Symbols {
			ts[j] = CodeText(f.Path, s)
		}
		out[i] = ts
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, len(files))
	if workers <= 1 {
		for i := range files {
			render(i)
		}
		return out
	}
	var next atomic.Int64 // files differ in size: take one at a time
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(files); i = int(next.Add(1) - 1) {
				render(i)
			}
		}()
	}
	wg.Wait()
	return out
}
