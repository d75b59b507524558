package main

import (
	"bytes"
	"strings"
)

// The truth of `fileinfo bench ccallers`: a C file's call sites, read by a
// lexer of its own that shares nothing with tree-sitter, cscope or GNU
// GLOBAL, so that it can judge all three.
//
// A call site is an identifier followed by "(" (comments and blanks may
// stand between) inside a function body, not after "." or "->" (a field
// holding a function pointer), not a keyword (if, sizeof, typeof, ...),
// and not in a statement that starts with `extern` (a declaration).
// Comments, string and character literals and preprocessor directives
// (with their continuation lines: macro bodies) hold no call sites, nor
// does code in `#if 0` (never compiled). Every other preprocessor branch
// counts, since which one a configuration compiles is not known.
//
// A function body is a "{" outside any other, right after a ")": the end
// of a function's parameter list, or of a macro that writes the head
// (SYSCALL_DEFINE3(read, ...) {). The function is named by the
// identifier before the "(" of that last parenthesised group. Braces are
// counted as ctags does: in #if/#elif/#else chains, the first live branch
// decides the depth after #endif, so that a head or an opening brace
// written once per branch does not unbalance the file.
//
// Prototypes (for choosing the functions to check) are the names before
// a "(" in a statement outside any brace that ends with ";" and has no
// "=": over-inclusive (attribute macros such as __printf count too),
// which only widens the candidates.

// cTruthFile is what the lexer found in one file.
type cTruthFile struct {
	calls  []cTruthCall
	funcs  []cTruthFunc
	protos []string
}

// cTruthCall is one call site: the called name, its line, and the index
// of the enclosing function in funcs.
type cTruthCall struct {
	name string
	line int
	fn   int
}

// cTruthFunc is one function definition: its name, the lines of its name
// and of its closing brace, and whether a `static` came before it.
type cTruthFunc struct {
	name      string
	line, end int
	static    bool
}

// cNotCalls are the keywords and builtins that take parentheses.
var cNotCalls = map[string]bool{
	"if": true, "while": true, "for": true, "switch": true, "return": true, "sizeof": true,
	"typeof": true, "__typeof__": true, "__typeof": true, "_Alignof": true, "alignof": true,
	"__alignof__": true, "_Generic": true, "__attribute__": true, "__attribute": true,
	"asm": true, "__asm__": true, "__asm": true, "volatile": true, "__volatile__": true,
	"defined": true, "case": true, "do": true, "else": true, "goto": true, "_Static_assert": true,
	"static_assert": true, "__builtin_offsetof": true,
}

// cCond is one #if chain the lexer is in.
type cCond struct {
	start     int  // brace depth at #if
	liveEnd   int  // depth at the end of the first live branch, -1 before
	dead      bool // the current branch is not compiled (#if 0)
	elseDead  bool // an #else here is not compiled (#if 1)
	outerDead bool // the chain is inside a dead branch
}

// scanCTruth lexes one C file (see above).
func scanCTruth(src []byte) *cTruthFile {
	out := &cTruthFile{}
	var (
		line    = 1
		depth   = 0
		conds   []cCond
		dead    = false // inside a dead branch
		lastTok byte    // last significant punctuation ('a' for an identifier or number)
		prevTok byte    // the one before it
		lastID  string  // last identifier, when lastTok is 'a'
		pending string  // identifier that may be called, awaiting "("
		pendAt  int
		pendOK  bool
		extern  bool // the current statement starts with extern
		stmtNew = true
		fn      = -1 // function whose body holds the lexer
		// at depth 0: the identifier before each open "(", and before
		// the last group closed
		parens     []string
		lastGroup  string
		stmtStatic bool
		stmtParens = false // the top-level statement has a parenthesised group
		stmtAssign = false // ... an "="
		stmtNames  []string
		atLineHead = true
	)
	flushPending := func(isCall bool) {
		if pending != "" && isCall && pendOK && fn >= 0 && depth > 0 && !dead {
			out.calls = append(out.calls, cTruthCall{name: pending, line: pendAt, fn: fn})
		}
		pending = ""
	}
	endStatement := func() {
		stmtNew, extern, stmtStatic, stmtParens, stmtAssign = true, false, false, false, false
		stmtNames = stmtNames[:0]
	}
	n := len(src)
	for i := 0; i < n; {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
			atLineHead = true
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '\\' && i+1 < n && src[i+1] == '\n':
			i += 2
			line++
			continue
		case c == '#' && atLineHead:
			var dir string
			i, line, dir = cDirective(src, i, line)
			atLineHead = true
			kw, rest := directiveWord(dir)
			switch kw {
			case "if", "ifdef", "ifndef":
				cc := cCond{start: depth, liveEnd: -1, outerDead: dead}
				if kw == "if" {
					switch strings.Trim(rest, " \t()") {
					case "0":
						cc.dead = true
					case "1":
						cc.elseDead = true
					}
				}
				conds = append(conds, cc)
			case "elif", "else":
				if len(conds) == 0 {
					break
				}
				cc := &conds[len(conds)-1]
				if !cc.dead && cc.liveEnd < 0 {
					cc.liveEnd = depth
				}
				depth = cc.start
				if kw == "else" {
					cc.dead = cc.elseDead
				} else {
					cc.dead = strings.Trim(rest, " \t()") == "0"
				}
			case "endif":
				if len(conds) == 0 {
					break
				}
				cc := conds[len(conds)-1]
				conds = conds[:len(conds)-1]
				if cc.liveEnd >= 0 {
					depth = cc.liveEnd
				}
			}
			dead = false
			for _, cc := range conds {
				if cc.dead || cc.outerDead {
					dead = true
				}
			}
			if fn >= 0 && depth == 0 {
				out.funcs[fn].end = line - 1
				fn = -1
			}
			continue
		}
		atLineHead = false
		if c == '/' && i+1 < n && src[i+1] == '/' {
			for i < n && src[i] != '\n' {
				i++
			}
			continue
		}
		if c == '/' && i+1 < n && src[i+1] == '*' {
			i += 2
			for i < n && !(src[i] == '*' && i+1 < n && src[i+1] == '/') {
				if src[i] == '\n' {
					line++
				}
				i++
			}
			i += 2
			continue
		}
		if dead {
			// Skip a token of a dead branch, keeping literals whole.
			if c == '"' || c == '\'' {
				i, line = skipLiteral(src, i, line)
			} else {
				i++
			}
			continue
		}
		if c == '"' || c == '\'' {
			flushPending(false)
			i, line = skipLiteral(src, i, line)
			prevTok, lastTok = lastTok, '"'
			stmtNew = false
			continue
		}
		if isCIdentStart(c) {
			j := i + 1
			for j < n && isCIdentByte(src[j]) {
				j++
			}
			id := string(src[i:j])
			flushPending(false)
			if stmtNew && id == "extern" {
				extern = true
			}
			if id == "static" {
				stmtStatic = true
			}
			stmtNew = false
			if !cNotCalls[id] && !extern && lastTok != '.' && !(lastTok == '>' && prevTok == '-') {
				pending, pendAt, pendOK = id, line, true
			}
			prevTok, lastTok, lastID = lastTok, 'a', id
			i = j
			continue
		}
		if c >= '0' && c <= '9' {
			flushPending(false)
			j := i + 1
			for j < n && (isCIdentByte(src[j]) || src[j] == '.' || (src[j] == '+' || src[j] == '-') && strings.ContainsRune("eEpP", rune(src[j-1]))) {
				j++
			}
			prevTok, lastTok = lastTok, 'a'
			lastID = ""
			stmtNew = false
			i = j
			continue
		}
		// Punctuation.
		flushPending(c == '(')
		i++
		switch c {
		case '(':
			if depth == 0 {
				name := ""
				if lastTok == 'a' {
					name = lastID
				}
				parens = append(parens, name)
				stmtParens = true
				if name != "" && len(parens) == 1 {
					stmtNames = append(stmtNames, name)
				}
			}
		case ')':
			if depth == 0 && len(parens) > 0 {
				lastGroup = parens[len(parens)-1]
				parens = parens[:len(parens)-1]
			}
		case '=':
			if depth == 0 && len(parens) == 0 {
				stmtAssign = true
			}
		case '{':
			if depth == 0 && lastTok == ')' && lastGroup != "" && fn < 0 {
				out.funcs = append(out.funcs, cTruthFunc{name: lastGroup, line: line, static: stmtStatic})
				fn = len(out.funcs) - 1
			}
			depth++
			endStatement()
		case '}':
			if depth > 0 {
				depth--
			}
			if depth == 0 {
				if fn >= 0 {
					out.funcs[fn].end = line
					fn = -1
				}
				parens = parens[:0]
			}
			endStatement()
		case ';':
			if depth == 0 {
				if stmtParens && !stmtAssign {
					out.protos = append(out.protos, stmtNames...)
				}
				parens = parens[:0]
			}
			endStatement()
		}
		if c != '}' && c != ';' && c != '{' {
			stmtNew = false
		}
		prevTok, lastTok = lastTok, c
	}
	if fn >= 0 {
		out.funcs[fn].end = line
	}
	return out
}

// cDirective skips the preprocessor directive at src[i] ('#'), with its
// continuation lines and the comments in it, and returns where it ends
// (at its newline), the line there, and its text without comments.
func cDirective(src []byte, i, line int) (int, int, string) {
	var b bytes.Buffer
	n := len(src)
	i++ // '#'
	for i < n && src[i] != '\n' {
		switch {
		case src[i] == '\\' && i+1 < n && src[i+1] == '\n':
			i += 2
			line++
			b.WriteByte(' ')
		case src[i] == '\\' && i+2 < n && src[i+1] == '\r' && src[i+2] == '\n':
			i += 3
			line++
			b.WriteByte(' ')
		case src[i] == '/' && i+1 < n && src[i+1] == '*':
			i += 2
			for i < n && !(src[i] == '*' && i+1 < n && src[i+1] == '/') {
				if src[i] == '\n' {
					line++
				}
				i++
			}
			i += 2
			b.WriteByte(' ')
		case src[i] == '/' && i+1 < n && src[i+1] == '/':
			for i < n && src[i] != '\n' {
				i++
			}
		case src[i] == '"' || src[i] == '\'':
			j, l := skipLiteral(src, i, line)
			b.Write(src[i:min(j, n)])
			i, line = j, l
		default:
			b.WriteByte(src[i])
			i++
		}
	}
	return min(i, n), line, b.String()
}

// directiveWord splits a directive's text into its keyword and the rest.
func directiveWord(d string) (string, string) {
	d = strings.TrimLeft(d, " \t")
	j := 0
	for j < len(d) && isCIdentByte(d[j]) {
		j++
	}
	return d[:j], d[j:]
}

// skipLiteral skips the string or character literal at src[i] and
// returns where it ends and the line there. A literal ends at its quote
// or, unterminated, at the end of its line.
func skipLiteral(src []byte, i, line int) (int, int) {
	q := src[i]
	i++
	for i < len(src) {
		switch src[i] {
		case '\\':
			if i+1 < len(src) && src[i+1] == '\n' {
				line++
			}
			i += 2
			continue
		case '\n':
			return i, line
		case q:
			return i + 1, line
		}
		i++
	}
	return len(src), line
}

func isCIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isCIdentByte(c byte) bool { return isCIdentStart(c) || c >= '0' && c <= '9' }
