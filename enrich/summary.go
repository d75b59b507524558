package enrich

import (
	"fmt"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// maxSummaryNames caps the exports and symbols a summary lists.
const maxSummaryNames = 30

// SummaryText is what file_info answers for a file it does not make a
// prompt of: a minified file, which extraction passes over (s is what
// extract.Summarize read of it; f is nil), or a file some of whose lines
// declare more symbols than any part of a prompt can list (f is its
// extraction, whose top-level symbols and exports are listed). It says
// why, what the file is as far as its bytes tell (language, size, lines,
// the comment it opens with, its source map, its exports), and what to do
// instead; there is nothing to report for it.
func SummaryText(s extract.Summary, f *extract.File) string {
	var b strings.Builder
	p := func(format string, args ...any) {
		fmt.Fprintf(&b, format, args...)
		b.WriteByte('\n')
	}
	p("# %s (summarised)", s.Path)
	p("")
	p("%s is summarised here, not documented symbol by symbol: %s.", codeSpan(s.Path), oneLine(s.Reason))
	if f == nil {
		p("Its names are a minifier's, and a prompt listing its symbols fits no model's budget, so it is not extracted: it has no symbols, callers or callees in the call graph, and `find_symbol` does not find its names. What follows is what its bytes tell.")
	} else {
		p("What follows is what its bytes and its extraction tell.")
	}
	p("")
	lang := s.Language
	if lang == "" {
		lang = "unknown"
	}
	p("- Language: %s.", lang)
	lines := fmt.Sprintf("%d lines", s.Lines)
	if s.Lines == 1 {
		lines = "1 line"
	}
	p("- Size: %d bytes in %s, the longest %d bytes.", s.Bytes, lines, s.Longest)
	if h := oneLine(s.Header); h != "" {
		if s.HeaderCut {
			h += " …"
		}
		p("- Opening comment: %s", h)
	} else {
		p("- Opening comment: none.")
	}
	if s.SourceMap != "" {
		p("- Source map: %s (the sources it was built from may be in the workspace).", codeSpan(oneLine(s.SourceMap)))
	}
	switch {
	case f != nil && len(f.Exports) > 0:
		names := make([]string, 0, min(len(f.Exports), maxSummaryNames))
		for _, e := range f.Exports[:min(len(f.Exports), maxSummaryNames)] {
			name := codeSpan(oneLine(e.Name))
			if e.Local != "" && e.Local != e.Name {
				name += " (" + codeSpan(oneLine(e.Local)) + ")"
			}
			names = append(names, name)
		}
		p("- Exports: %s.", moreOf(names, len(f.Exports)))
	case len(s.Exports) > 0:
		names := make([]string, len(s.Exports))
		for i, e := range s.Exports {
			names[i] = codeSpan(oneLine(e))
		}
		p("- Exports, read from %s: %s.", s.ExportsFrom, moreOf(names, s.ExportsTotal))
	case f == nil && s.Language != "" && isJS(s.Language):
		p("- Exports: none found where bundlers write them (an export list at the end, a UMD wrapper's global).")
	}
	if f != nil {
		var top []string
		n := 0
		for _, sym := range f.Symbols {
			if sym.Parent != "" {
				continue
			}
			n++
			if len(top) < maxSummaryNames {
				top = append(top, codeSpan(oneLine(localName(f, sym.Qualified))))
			}
		}
		p("- Symbols: %d, %d of them at the top level: %s.", len(f.Symbols), n, moreOf(top, n))
	}
	p("")
	p("## What to do")
	p("")
	if f == nil {
		p("- There is nothing to report: `report_file_info` takes no report for %s, and it has no artifact.", codeSpan(s.Path))
		p("- If it is a build's output or a vendored library, document the sources it is built from, or read the library's own docs (`search_docs`, with `scopes: [\"deps\"]` for a dependency).")
	} else {
		p("- A larger `max_tokens` may fit its prompt; the parts of a file never cut a line.")
	}
	p("- `inspect_source` shows its lines whole: its longest line alone is %d bytes.", s.Longest)
	return b.String()
}

// isJS reports whether lang is JavaScript or a dialect.
func isJS(lang string) bool {
	switch lang {
	case "javascript", "typescript", "tsx":
		return true
	}
	return false
}
