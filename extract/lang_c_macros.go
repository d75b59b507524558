package extract

import (
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
)

// Statement macros in C.
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
// cRepair finds them; the extractor then parses the file again with each
// such macro's name overwritten by "if" and blanks (same length, so every
// byte offset, line and column holds), up to maxRepairRounds times, as a
// repaired region may reveal another behind it. The symbols and calls are
// read from the repaired tree with the original text, and each macro is a
// call of its name (see fileInfo.macroCalls).

// maxRepairRounds bounds the parses of one file.
const maxRepairRounds = 4

// macroSite is a statement macro's name in the source.
type macroSite struct {
	start, end           uint32
	startPoint, endPoint sitter.Point
	name                 string
}

// cRepairQuery captures the shapes a statement macro takes: @nested a
// function definition (nested ones are misreadings), @stmt a declaration
// of a function whose type is a macro call.
const cRepairQuery = `
(function_definition) @nested
(declaration
  type: (macro_type_specifier)
  declarator: (function_declarator)) @stmt
(declaration
  type: (macro_type_specifier)
  declarator: (init_declarator declarator: (function_declarator))) @stmt
`

var (
	cRepairOnce sync.Once
	cRepairQ    *sitter.Query
)

// notStatementMacros are names that take parentheses before a type or a
// declarator without being a statement.
var notStatementMacros = map[string]bool{
	"typeof": true, "__typeof__": true, "__typeof": true, "_Atomic": true, "__auto_type": true,
	"__attribute__": true, "__attribute": true, "__declspec": true, "alignas": true, "_Alignas": true,
	"__extension__": true, "asm": true, "__asm__": true,
}

// cRepair returns the statement macros that tree-sitter misread in the
// function bodies of the C tree under root (see above), in source order;
// skip holds the sites rewritten before, found again.
func cRepair(f *fileInfo, root *sitter.Node, qc *sitter.QueryCursor, skip map[uint32]bool) []macroSite {
	cRepairOnce.Do(func() {
		cRepairQ, _ = sitter.NewQuery([]byte(cRepairQuery), f.lang.grammarOf())
	})
	if cRepairQ == nil {
		return nil
	}
	var out []macroSite
	seen := map[uint32]bool{}
	qc.Exec(cRepairQ, root)
	for {
		m, ok := qc.NextMatch()
		if !ok {
			break
		}
		for _, c := range m.Captures {
			n := c.Node
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
	}
	return out
}

// inFunctionBody reports whether n lies in the body of a function
// definition.
func inFunctionBody(n *sitter.Node) bool {
	for p, depth := n.Parent(), 0; p != nil && depth < 512; p, depth = p.Parent(), depth+1 {
		switch p.Type() {
		case "function_definition":
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
	return macroSite{start: start, end: end, startPoint: sp, endPoint: ep, name: name}, true
}

// rewriteMacros overwrites each site's name in src with "if" and blanks.
func rewriteMacros(src []byte, sites []macroSite) {
	for _, s := range sites {
		src[s.start], src[s.start+1] = 'i', 'f'
		for i := s.start + 2; i < s.end; i++ {
			src[i] = ' '
		}
	}
}
