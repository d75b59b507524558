package docsearch

import "strings"

// abstractBody reports whether a code document's text (CodeText) is a
// function or method whose one statement raises "not implemented":
// Python's `raise NotImplementedError`, or a JavaScript or TypeScript
// `throw` whose message says "implement". Such a method declares the
// interface a subclass implements: it repeats the implementation's name
// and often its doc comment, and the implementation is the answer. It
// ranks as a declaration (featDecl), as a Go interface's method does.
// Measured (docs/code-search.md, 2026-12-05, eighth session): on the
// tuning split of docs/bench/codegen function-level nDCG@10 0.246 ->
// 0.247 (Python 0.286 -> 0.289; asyncio's AbstractEventLoop methods
// ranked over BaseEventLoop's), on the written questions
// (docs/bench/code) 0.719 -> 0.725 (requests' "send a request with a
// timeout" finds HTTPAdapter.send, not BaseAdapter.send, first). Only
// the statements after the declaration's line count: comments, blank
// lines, closing braces and the calls line are skipped; a docstring is
// not in a Python symbol's body (internal/codeindex keeps it in Doc).
func abstractBody(title, text string) bool {
	kind, sig := codeMeta(text)
	if kind != "function" && kind != "method" {
		return false
	}
	rest := codeBody(text)
	start := bodyStart(rest, strings.TrimSpace(sig), localName(title))
	if start == 0 && !strings.HasPrefix(strings.TrimSpace(rest), strings.TrimSpace(sig)) || sig == "" {
		return false
	}
	rest = rest[start:]
	// The declaration runs to the line that opens the body: a def's
	// parameters may take several lines.
	opened := false
	var stmt string
	for n := 0; rest != ""; n++ {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		t := strings.TrimSpace(line)
		if !opened {
			if strings.HasSuffix(t, ":") || strings.HasSuffix(t, "{") {
				opened = true
			} else if n >= maxDeclLines {
				return false
			}
			continue
		}
		switch {
		case t == "", t == "}", t == "};", t == "},", strings.HasPrefix(t, "#"), strings.HasPrefix(t, "//"), strings.HasPrefix(t, "calls: "):
			continue
		case stmt != "":
			return false // a second statement
		}
		stmt = t
	}
	switch {
	case strings.HasPrefix(stmt, "raise NotImplementedError"):
		return true
	case strings.HasPrefix(stmt, "throw "):
		return strings.Contains(strings.ToLower(stmt), "implement")
	}
	return false
}

// maxDeclLines bounds the lines of a declaration abstractBody reads
// before its body opens.
const maxDeclLines = 12
