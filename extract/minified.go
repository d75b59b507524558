package extract

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Minified files.
//
// A minified bundle (a library's dist/x.min.js, a build's output checked
// in) is a line or a few of code whose names a minifier chose: its
// thousands of symbols, named t and e, all on line 1, make no prompt a
// model can answer and no call graph a reader can use. Extraction passes
// such a file over with a reason that says so (a SkipError with
// Minified set), unless Options.KeepMinified; Summarize reads what can be
// said of it cheaply, which file_info answers with instead of a prompt.
// The work on such a file is linear either way: this is a second line of
// defence, not the first. docsearch.GeneratedReason judges the docs
// scope's JavaScript, CSS and HTML by the same rule (written down there
// again, as docsearch imports no extraction); TestMinifiedRulesAgree in
// internal/codeindex checks that the two agree.

const (
	// minifiedSize is the least size of a file judged minified by its
	// lines: a smaller one costs little to extract.
	minifiedSize = 16 << 10
	// minifiedLine is the average line length, in bytes other than
	// spaces and tabs, from which a file is judged minified: hand-written
	// code averages 20 to 50 such bytes a line, minified code thousands
	// (lodash.min.js, cut every 500 bytes or so, 500). Indentation does
	// not count, so that deeply nested code is not minified.
	minifiedLine = 500
)

// lineStats returns the lines of src (a last line without a newline
// counts) and the length of the longest, without its newline.
func lineStats(src []byte) (lines, longest int) {
	for rest := src; len(rest) > 0; lines++ {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			i = len(rest)
		}
		longest = max(longest, i)
		rest = rest[min(i+1, len(rest)):]
	}
	return lines, longest
}

// Minified returns why the file at slash path rel, holding src, looks
// minified, or "" when it does not: a name like x.min.js, or at least
// 16 KB averaging 500 bytes a line or more, not counting spaces and
// tabs. The reason says which, and the file's size and lines:
// "minified: 2048000 bytes in 1 line".
func Minified(rel string, src []byte) string {
	base := path.Base(rel)
	named := strings.HasSuffix(strings.TrimSuffix(base, path.Ext(base)), ".min")
	if !named && len(src) < minifiedSize {
		return ""
	}
	lines, longest := lineStats(src)
	code := len(src) - bytes.Count(src, []byte{' '}) - bytes.Count(src, []byte{'\t'})
	if !named && code < minifiedLine*lines {
		return ""
	}
	how := "minified"
	if named {
		how = "minified (a .min" + path.Ext(base) + " name)"
	}
	if lines == 1 {
		return fmt.Sprintf("%s: %d bytes in 1 line", how, len(src))
	}
	return fmt.Sprintf("%s: %d bytes in %d lines, %d bytes a line on average, the longest %d", how, len(src), lines, len(src)/max(lines, 1), longest)
}

// Summary is what can be said of a file without extracting it, read from
// its bytes in one pass: its size and lines, the comment it opens with (a
// bundle's banner names the library, its version and licence), its source
// map, and the names it exports where bundlers write them in a known
// place.
type Summary struct {
	Path     string
	Language string // "" for a language extraction does not know
	// Reason is why the file is summarised rather than extracted.
	Reason       string
	Bytes        int
	Lines        int
	Longest      int      // bytes of the longest line
	Header       string   // the opening comment, cleaned, at most maxHeader bytes
	HeaderCut    bool     // the comment is longer than Header
	SourceMap    string   // the URL of its sourceMappingURL comment
	Exports      []string // as written: "a as B", "c"
	ExportsFrom  string   // where Exports were read; "" when none were found
	ExportsTotal int      // how many there are; Exports holds at most maxExports
}

const (
	// maxHeader bounds a Summary's opening comment, in bytes.
	maxHeader = 1000
	// maxExports bounds a Summary's export names.
	maxExports = 100
	// scanHead and scanTail bound how much of a file Summarize searches
	// for a banner, a UMD wrapper, an export list or a source map.
	scanHead = 8 << 10
	scanTail = 64 << 10
)

// Summarize reads the Summary of src, the file at slash path rel, which
// is summarised because of reason. Its work is one pass over src for the
// lines, and bounded searches of its head and tail.
func Summarize(rel string, src []byte, reason string) Summary {
	s := Summary{Path: rel, Reason: reason, Bytes: len(src)}
	s.Lines, s.Longest = lineStats(src)
	lang := LanguageOf(rel, src[:min(len(src), detectHead)])
	if lang == nil {
		return s
	}
	s.Language = lang.Name
	head := src[:min(len(src), scanHead)]
	tail := src[max(0, len(src)-scanTail):]
	s.Header, s.HeaderCut = openingComment(head, lang)
	s.SourceMap = sourceMap(tail[max(0, len(tail)-1024):])
	if jsLike(lang) {
		s.Exports, s.ExportsFrom = jsBundleExports(head, tail)
	}
	s.ExportsTotal = len(s.Exports)
	if len(s.Exports) > maxExports {
		s.Exports = s.Exports[:maxExports]
	}
	return s
}

// jsLike reports whether l is JavaScript or one of its dialects.
func jsLike(l *Language) bool {
	switch l.Name {
	case "javascript", "typescript", "tsx":
		return true
	}
	return false
}

// openingComment returns the comment src opens with (after a byte order
// mark, a shebang line and blank space), cleaned: a block comment, or a
// run of line comments. cut says it was longer than maxHeader bytes, or
// than src.
func openingComment(src []byte, l *Language) (text string, cut bool) {
	s := string(bytes.TrimPrefix(src, []byte("\uFEFF")))
	if strings.HasPrefix(s, "#!") {
		s = s[strings.IndexByte(s+"\n", '\n'):]
	}
	s = strings.TrimLeft(s, " \t\r\n")
	var lines []string
	for _, b := range l.blockComments {
		if !strings.HasPrefix(s, b[0]) {
			continue
		}
		end := strings.Index(s[len(b[0]):], b[1])
		if end < 0 {
			cut = true
			end = len(s) - len(b[0])
		}
		block := s[:len(b[0])+end] + b[1]
		for _, line := range strings.Split(block, "\n") {
			lines = append(lines, strings.TrimSpace(line))
		}
		break
	}
	if lines == nil {
		for rest := s; ; {
			line, more, _ := strings.Cut(rest, "\n")
			line = strings.TrimSpace(line)
			if !hasAnyPrefix(line, l.lineComments) {
				break
			}
			lines = append(lines, line)
			rest = strings.TrimLeft(more, " \t\r")
			if rest == "" {
				break
			}
		}
	}
	if len(lines) == 0 {
		return "", false
	}
	text = validUTF8(cleanComment(lines, l))
	if n := maxHeader; len(text) > n {
		for n > 0 && !utf8.RuneStart(text[n]) {
			n-- // not inside a rune
		}
		text, cut = text[:n], true
	}
	return text, cut
}

var sourceMapURL = regexp.MustCompile(`[#@] ?sourceMappingURL=([^\s*]+)`)

// sourceMap returns the URL of the last sourceMappingURL comment in tail.
func sourceMap(tail []byte) string {
	ms := sourceMapURL.FindAllSubmatch(tail, -1)
	if len(ms) == 0 {
		return ""
	}
	return validUTF8(string(ms[len(ms)-1][1]))
}

var (
	// esExportList is an ES module's last statement exporting a list,
	// as rollup, esbuild and terser end a bundle: export{a as B,c};
	// then, maybe, line comments (the source map's).
	esExportList = regexp.MustCompile(`(?s)export\s*\{([^{}]*)\}\s*;?\s*(?://[^\n]*\s*|/\*[^*]*\*/\s*)*$`)
	exportItem   = regexp.MustCompile(`^[\p{L}\p{N}_$]+(?:\s+as\s+(?:[\p{L}\p{N}_$]+|"[^"]*"))?$`)
	// umdGlobal is the global a UMD wrapper's browser branch sets:
	// rollup's (e=...||self).Name={} and webpack's
	// "object"==typeof exports?exports.Name=t():e.Name=t().
	umdGlobal = []*regexp.Regexp{
		regexp.MustCompile(`\|\|\s*self\s*\)\s*\.\s*([\p{L}_$][\p{L}\p{N}_$]*)\s*=`),
		regexp.MustCompile(`typeof\s+exports\s*\?\s*exports\s*\.\s*([\p{L}_$][\p{L}\p{N}_$]*)\s*=`),
	}
)

// jsBundleExports reads what a JavaScript bundle exports where bundlers
// write it: an export list as its last statement, or the global its UMD
// wrapper sets. It reads nothing else: an export that a minified file
// writes anywhere else would take a parse to find.
func jsBundleExports(head, tail []byte) (names []string, from string) {
	if m := esExportList.FindSubmatch(tail); m != nil {
		for item := range strings.SplitSeq(string(m[1]), ",") {
			item = strings.Join(strings.Fields(item), " ")
			if item == "" {
				continue
			}
			if !exportItem.MatchString(item) {
				names = nil
				break // not an export list: a string or a regexp holding one
			}
			names = append(names, validUTF8(item))
		}
		if len(names) > 0 {
			return names, "the export list that ends it"
		}
	}
	for _, re := range umdGlobal {
		if m := re.FindSubmatch(head); m != nil {
			return []string{validUTF8(string(m[1]))}, "the global its UMD wrapper sets"
		}
	}
	return nil, ""
}
