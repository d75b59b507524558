package extract

import (
	"bytes"
	"slices"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// Statement and attribute macros in C.
//
// tree-sitter's C grammar knows no macros, so a loop macro used as a
// statement (`for_each_possible_cpu(i) sum += f(i);`, Linux's
// list_for_each_entry and kin) reads as something else: a declaration of
// a function `f` whose type is the macro (the call of f is lost), a
// function definition nested in the function (`for_each_cpu(c) { ... }`
// becomes a function named c), or a K&R definition that swallows the rest
// of the file (in Linux's kernel/sched/core.c, nr_context_switches spanned
// lines 5298-11343 and every later function was named under it). C
// functions never nest: these shapes inside a function body are the
// misreadings of a statement macro, which is an `if` to the grammar.
//
// Three more shapes break a whole function, and are found in the text of
// a file whose tree has errors (cTextRepairs): a loop macro in the place
// of a do statement's while (`do { ... } while_each_thread(g, t);`), which
// becomes "while"; an attribute macro with arguments among a
// declaration's specifiers or after its parameters (`static __printf(4, 0)
// struct task_struct *f(...)`, `void f(void) __acquires(x) {`), which is
// blanked out (Linux names them all with a leading "__"); and a
// conditional directive inside parentheses (`if (\n#ifdef CONFIG_KEYS\n
// a &&\n#endif\n b)`), blanked out too, so that the expression holds
// every branch.
//
// cRepair finds them; the extractor then parses the file again with each
// such macro's name overwritten by "if" and blanks (same length, so every
// byte offset, line and column holds), up to maxRepairRounds times, as a
// repaired region may reveal another behind it. The symbols and calls are
// read from the repaired tree with the original text, and each macro is a
// call of its name (see fileInfo.macroCalls).

// maxRepairRounds bounds the parses of one file.
const maxRepairRounds = 4

// macroSite is a place repair rewrites: a statement macro's name, which
// becomes the keyword word ("if", "while") padded with blanks and is a
// call of name; or, with word "", an attribute macro with its arguments
// (`__printf(4, 0)`), blanked out (newlines kept), which is no call.
type macroSite struct {
	start, end           uint32
	startPoint, endPoint sitter.Point
	name                 string
	word                 string
}

// cRepairQuery captures the shapes a statement macro takes: a function
// definition (nested ones are misreadings) and a declaration of a
// function whose type is a macro call. It joins C's query
// (Language.repairQuery): on Linux's kernel/ a walk of it alone took 76 %
// of the time of a walk of the whole query, and the two together no
// more than the whole query alone.
const cRepairQuery = `
(function_definition) @repair
(declaration
  type: (macro_type_specifier)
  declarator: (function_declarator)) @repair
(declaration
  type: (macro_type_specifier)
  declarator: (init_declarator declarator: (function_declarator))) @repair
`

// notStatementMacros are names that take parentheses before a type or a
// declarator without being a statement.
var notStatementMacros = map[string]bool{
	"typeof": true, "__typeof__": true, "__typeof": true, "_Atomic": true, "__auto_type": true,
	"__attribute__": true, "__attribute": true, "__declspec": true, "alignas": true, "_Alignas": true,
	"__extension__": true, "asm": true, "__asm__": true,
}

// cRepair returns the statement macros that tree-sitter misread in the
// function bodies of the C tree under root (see above), in source order;
// nodes are the captures of cRepairQuery, skip holds the sites rewritten
// before, found again.
func cRepair(f *fileInfo, root *sitter.Node, nodes []*sitter.Node, skip map[uint32]bool) []macroSite {
	var out []macroSite
	seen := map[uint32]bool{}
	for _, n := range nodes {
		if !inFunctionBody(n) {
			continue
		}
		s, ok := statementMacro(f.src, n)
		if !ok || seen[s.start] || skip[s.start] {
			continue
		}
		seen[s.start] = true
		out = append(out, s)
	}
	if root.HasError() {
		for _, s := range f.cTextRepairs() {
			if !seen[s.start] && !skip[s.start] {
				seen[s.start] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// inFunctionBody reports whether n lies in the body of a function: in a
// function definition or a block (a block outside any function is the
// body of one whose head a macro writes).
func inFunctionBody(n *sitter.Node) bool {
	for p, depth := n.Parent(), 0; p != nil && depth < 512; p, depth = p.Parent(), depth+1 {
		switch p.Type() {
		case "function_definition", "compound_statement":
			return true
		case "translation_unit":
			return false
		}
	}
	return false
}

// statementMacro reads the statement macro a misread node starts with:
// an identifier, not a keyword, followed by "(".
func statementMacro(src []byte, n *sitter.Node) (macroSite, bool) {
	start := n.StartByte()
	end := start
	for end < uint32(len(src)) && isIdentByte(src[end]) && src[end] < 0x80 {
		end++
	}
	if end-start < 2 || src[start] >= '0' && src[start] <= '9' {
		return macroSite{}, false // "if" needs two bytes
	}
	name := string(src[start:end])
	if cKeywords[name] || notStatementMacros[name] {
		return macroSite{}, false
	}
	i := end
	for i < uint32(len(src)) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	if i >= uint32(len(src)) || src[i] != '(' {
		return macroSite{}, false
	}
	sp := n.StartPoint()
	ep := sitter.Point{Row: sp.Row, Column: sp.Column + (end - start)}
	return macroSite{start: start, end: end, startPoint: sp, endPoint: ep, name: name, word: "if"}, true
}

// rewriteMacros overwrites each site in src with its word and blanks,
// keeping newlines.
func rewriteMacros(src []byte, sites []macroSite) {
	for _, s := range sites {
		copy(src[s.start:s.end], s.word)
		for i := s.start + uint32(len(s.word)); i < s.end; i++ {
			if src[i] != '\n' && src[i] != '\r' {
				src[i] = ' '
			}
		}
	}
}

// cToken is a token of C source outside comments, literals and
// preprocessor directives: an identifier or number (kind 'a'), a literal
// ('"') or a punctuation byte. depth and paren are the brace and
// parenthesis depths before it (paren restarts at every brace and ";").
//
// It is 28 bytes: a file has a token every 4-6 bytes of text, and the
// tokens of a 1 MB file are lexed at once.
type cToken struct {
	start, end   uint32
	point        sitter.Point
	depth, paren int32
	kind         byte
}

// bytesPerToken is what cTokens expects of a file, to size its buffer
// once: Linux's .c and .h files of over 1 KB have a token every 4-7
// bytes of text (6.8 on average over 1,700 of them).
const bytesPerToken = 6

// cTokens lexes src for cTextRepairs, appending to out[:0]; it also
// returns the conditional directives (#if, #ifdef, #ifndef, #elif, #else,
// #endif) met inside parentheses, as sites to blank.
//
// Comments and directives are skipped by searching for their end, and a
// point's column is its distance from the start of its line: on Linux's
// fs/, include/, kernel/, mm/ and drivers/net/ a lexer that moved the
// line and column past every byte took 2 % of the call graph's CPU time
// (docs/bigrepos.md), more than half of it in growing the token buffer
// of the few files bigger than the one a worker keeps (maxKeptTokens).
func cTokens(src []byte, out []cToken) ([]cToken, []macroSite) {
	out = out[:0]
	if want := len(src) / bytesPerToken; cap(out) < want {
		out = make([]cToken, 0, want)
	}
	var inParens []macroSite
	var row, lineStart uint32 // the line lexed and the offset it starts at
	var depth, paren int32
	lineHead := true
	n := uint32(len(src))
	// lines moves row and lineStart past the line breaks in src[from:to].
	lines := func(from, to uint32) {
		for {
			j := bytes.IndexByte(src[from:to], '\n')
			if j < 0 {
				return
			}
			from += uint32(j) + 1
			row, lineStart = row+1, from
		}
	}
	for i := uint32(0); i < n; {
		c := src[i]
		switch {
		case c == '\n':
			lineHead = true
			i++
			row, lineStart = row+1, i
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '\\':
			i++
			continue
		case c == '#' && lineHead:
			// A directive, with its continuation lines: it ends at the
			// first line break without a backslash before it.
			site := macroSite{start: i, startPoint: sitter.Point{Row: row, Column: i - lineStart}}
			end := i
			for {
				j := bytes.IndexByte(src[end:], '\n')
				if j < 0 {
					end = n
					break
				}
				end += uint32(j)
				if src[end-1] != '\\' {
					break
				}
				end++
			}
			lines(i, end)
			i = end
			if paren > 0 && isConditional(src[site.start+1:i]) {
				site.end, site.endPoint = i, sitter.Point{Row: row, Column: i - lineStart}
				inParens = append(inParens, site)
			}
			continue
		case c == '/' && i+1 < n && src[i+1] == '/':
			if j := bytes.IndexByte(src[i:], '\n'); j >= 0 {
				i += uint32(j)
			} else {
				i = n
			}
			continue
		case c == '/' && i+1 < n && src[i+1] == '*':
			end := n
			if j := bytes.Index(src[i+2:], []byte("*/")); j >= 0 {
				end = i + 2 + uint32(j) + 2
			}
			lines(i, end)
			i = end
			continue
		}
		lineHead = false
		t := cToken{start: i, point: sitter.Point{Row: row, Column: i - lineStart}, kind: c, depth: depth, paren: paren}
		switch {
		case c == '"' || c == '\'':
			t.kind = '"'
			i++
			for i < n && src[i] != c && src[i] != '\n' {
				if src[i] == '\\' && i+1 < n {
					i++
					if src[i] == '\n' {
						row, lineStart = row+1, i+1
					}
				}
				i++
			}
			if i < n && src[i] == c {
				i++
			}
		case isIdentByte(c) && c < 0x80:
			t.kind = 'a'
			for i < n && isIdentByte(src[i]) && src[i] < 0x80 {
				i++
			}
		default:
			i++
			switch c {
			case '{':
				depth, paren = depth+1, 0
			case '}':
				depth, paren = max(depth-1, 0), 0
			case ';':
				paren = 0
			case '(':
				paren++
			case ')':
				paren = max(paren-1, 0)
			}
		}
		t.end = i
		if len(out) == cap(out) {
			out = slices.Grow(out, len(out)) // doubles: append adds a quarter to a big slice
		}
		out = append(out, t)
	}
	return out, inParens
}

// declaratorFollows reports whether toks start with a type and a
// function's name: two names or more before the next "(", and no end of
// statement.
func declaratorFollows(toks []cToken) bool {
	names := 0
	for _, t := range toks {
		switch t.kind {
		case 'a':
			names++
		case '(':
			return names >= 2
		case '*':
		default:
			return false
		}
	}
	return false
}

// isConditional reports whether a directive's text (after "#") is #if,
// #ifdef, #ifndef, #elif, #else or #endif.
func isConditional(d []byte) bool {
	w := strings.TrimLeft(string(d[:min(len(d), 16)]), " \t")
	for _, k := range []string{"ifdef", "ifndef", "if", "elif", "else", "endif"} {
		if rest, ok := strings.CutPrefix(w, k); ok && (rest == "" || !isIdentByte(rest[0])) {
			return true
		}
	}
	return false
}

// maxKeptTokens bounds the token buffer a worker keeps between files
// (1.8 MB, the tokens of a file of some 300 KB): a bigger one, lexed for
// one of the few bigger files (205 of Linux's 55,418), is dropped.
const maxKeptTokens = 1 << 16

// cTextRepairs returns cTextRepairs of f's text. Every repair round
// asks for it, and the text it reads is the original, which no round
// rewrites: it is lexed once per file, into the worker's token buffer.
// On Linux's fs/, include/, mm/ and kernel/ the lexing of every round
// allocated 2.2 GB of tokens, 60 % of all allocation (docs/bigrepos.md).
func (f *fileInfo) cTextRepairs() []macroSite {
	if f.cTextDone {
		return f.cText
	}
	var buf []cToken
	if f.ctoks != nil {
		buf = *f.ctoks
	}
	f.cText, buf = cTextRepairsInto(f.src, buf)
	if f.ctoks != nil && cap(buf) <= maxKeptTokens {
		*f.ctoks = buf
	}
	f.cTextDone = true
	return f.cText
}

// cTextRepairs finds the do-while macros and the attribute macros of src
// (see the conventions above).
func cTextRepairs(src []byte) []macroSite {
	out, _ := cTextRepairsInto(src, nil)
	return out
}

// cTextRepairsInto is cTextRepairs lexing into buf, which it returns,
// grown, for the next file.
func cTextRepairsInto(src []byte, buf []cToken) (_ []macroSite, _ []cToken) {
	toks, out := cTokens(src, buf)
	text := func(t cToken) string { return string(src[t.start:t.end]) }
	var doBlocks []bool // per open brace: does it open a do statement's body?
	for i, t := range toks {
		switch t.kind {
		case '{':
			doBlocks = append(doBlocks, i > 0 && toks[i-1].kind == 'a' && text(toks[i-1]) == "do")
		case '}':
			if len(doBlocks) == 0 {
				continue
			}
			do := doBlocks[len(doBlocks)-1]
			doBlocks = doBlocks[:len(doBlocks)-1]
			if !do || i+2 >= len(toks) {
				continue
			}
			name, open := toks[i+1], toks[i+2]
			if name.kind == 'a' && open.kind == '(' && text(name) != "while" && name.end-name.start >= 5 && !cKeywords[text(name)] {
				out = append(out, macroSite{start: name.start, end: name.end, startPoint: name.point,
					endPoint: sitter.Point{Row: name.point.Row, Column: name.point.Column + name.end - name.start},
					name:     text(name), word: "while"})
			}
		case 'a':
			if s, ok := attributeMacro(src, toks, i); ok {
				out = append(out, s)
			}
		}
	}
	return out, toks
}

// attributeMacro reports the attribute macro that starts at toks[i]: a
// name with a leading "__" and arguments, outside parentheses, after a
// specifier or a parameter list and before a declaration's next
// specifier, its body or its end (a prototype's ";" after its
// parameters). The brace depth is not asked: braces in #if branches
// make it unreliable, and these shapes are no statement in a body.
func attributeMacro(src []byte, toks []cToken, i int) (macroSite, bool) {
	t := toks[i]
	if t.paren != 0 || t.end-t.start < 3 || src[t.start] != '_' || src[t.start+1] != '_' || i == 0 || i+1 >= len(toks) || toks[i+1].kind != '(' {
		return macroSite{}, false
	}
	name := string(src[t.start:t.end])
	if notStatementMacros[name] {
		return macroSite{}, false // __attribute__ and kin: the grammar reads them
	}
	open := 0
	j := i + 1
	for ; j < len(toks); j++ {
		switch toks[j].kind {
		case '(':
			open++
		case ')':
			open--
		case '{', '}', ';':
			return macroSite{}, false // unbalanced: not an attribute
		}
		if open == 0 {
			break
		}
	}
	if j+1 >= len(toks) {
		return macroSite{}, false
	}
	prev, next := toks[i-1], toks[j+1]
	switch {
	case prev.kind == ')' && (next.kind == '{' || next.kind == ';' || next.kind == 'a'):
		// After a parameter list.
	case prev.kind == 'a' && next.kind == 'a' && declaratorFollows(toks[j+1:]):
		// Among the specifiers: the type and the declarator follow,
		// which tells it from a declarator `void __f(int a) __releases(x)`.
	default:
		return macroSite{}, false
	}
	end := toks[j]
	return macroSite{start: t.start, end: end.end, startPoint: t.point,
		endPoint: sitter.Point{Row: end.point.Row, Column: end.point.Column + 1}, name: name}, true
}
