package extract

// The other readings of JavaScript and TypeScript files the grammars
// misread (Language.reparse): TypeScript marks in JavaScript, a line
// starting with < in TypeScript.

import (
	"bytes"
	"strings"
)

// tsLineBreakBeforeLess is TypeScript's reading of a line that starts
// with '<', for the grammar, which lacks it: TypeScript never reads type
// arguments after a line break, so in
//
//	interface Factory {
//	    <T>(fn: T): T
//	    <T>(name: string, fn: T): T
//	}
//
// the second call signature is a member of its own, where the grammar
// reads `T<T>(name…` as one type and recovers by giving up the whole
// file (mobx's api/action.ts lost every function, and `if` became a
// call). The other reading ends the line before such a line: the first
// blank that indents it becomes ';'. It returns nil when no line starts
// so.
func tsLineBreakBeforeLess(src []byte) []byte {
	var out []byte
	for i := 0; i < len(src); {
		j := i
		for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
			j++
		}
		if j > i && j < len(src) && src[j] == '<' {
			if out == nil {
				out = append([]byte(nil), src...)
			}
			out[i] = ';'
		}
		nl := bytes.IndexByte(src[j:], '\n')
		if nl < 0 {
			break
		}
		i = j + nl + 1
	}
	return out
}

// jsWithoutOptionalMarks is the JavaScript grammar's other reading of a
// file that carries TypeScript's optional parameter marks: in
//
//	function action(a, b?) { if (a) { run(b) } }
//
// the grammar gives up the function, its calls go to the module, and
// `if (a)` reads as a call. Each '?' right after a name and before ',',
// ')', '=' or ':' becomes a blank, and so does the type after such a
// "?:" up to the ',', ')' or '=' that ends it; line breaks stay. Such a
// '?' is no JavaScript outside strings, comments and regular
// expressions, whose structure a blank there does not change. It
// returns nil when there is no such mark.
func jsWithoutOptionalMarks(src []byte) []byte {
	var out []byte
	for i := 1; i < len(src); i++ {
		if src[i] != '?' || !isJSNameByte(src[i-1]) {
			continue
		}
		j := i + 1
		for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
			j++
		}
		if j == len(src) || !strings.ContainsRune(",)=:", rune(src[j])) || src[j] == '=' && j+1 < len(src) && src[j+1] == '=' {
			continue
		}
		if out == nil {
			out = append([]byte(nil), src...)
		}
		out[i] = ' '
		if src[j] != ':' {
			continue
		}
		// The type: to the ',', ')' or '=' outside brackets that ends it.
		depth, k := 0, j
	typ:
		for ; k < len(src); k++ {
			switch c := src[k]; c {
			case '(', '[', '{', '<':
				depth++
			case ']', '}':
				depth--
			case '>':
				if k > 0 && src[k-1] != '=' {
					depth--
				}
			case ')':
				if depth == 0 {
					break typ
				}
				depth--
			case ',', '=':
				if depth == 0 && !(c == '=' && k+1 < len(src) && src[k+1] == '>') {
					break typ
				}
			}
			if depth < 0 {
				break
			}
		}
		if depth != 0 {
			continue // not a type after all: keep the rest as it is
		}
		for m := j; m < k; m++ {
			if out[m] != '\n' && out[m] != '\r' {
				out[m] = ' '
			}
		}
		i = k
	}
	return out
}

func isJSNameByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}
