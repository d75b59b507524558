package callgraph

import (
	"go/scanner"
	"go/token"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Reading Go source outside the repository cheaply: files reduced to
// their declarations with the scanner, and the module cache's naming.

// typeDecls returns a Go file reduced to its package clause, import
// declarations, top-level type declarations and function signatures
// (bodies emptied), found with the scanner:
// parsing function bodies is most of the cost of parsing a file and
// tells nothing about method sets.
func typeDecls(src []byte) []byte {
	var sc scanner.Scanner
	file := token.NewFileSet().AddFile("", -1, len(src))
	sc.Init(file, src, nil, 0)
	out := []byte("package p\n")
	depth, last := 0, token.SEMICOLON
	for {
		pos, tok, _ := sc.Scan()
		prevTok := last
		last = tok
		switch tok {
		case token.EOF:
			return out
		case token.LBRACE, token.LPAREN, token.LBRACK:
			depth++
		case token.RBRACE, token.RPAREN, token.RBRACK:
			depth--
		case token.FUNC:
			if depth != 0 || prevTok != token.SEMICOLON { // a func literal in a var declaration
				continue
			}
			// The signature, up to the body's '{' (a struct or interface
			// literal's '{' follows its keyword).
			start := file.Offset(pos)
			end, d, prev, body := len(src), 0, token.FUNC, false
		sig:
			for {
				p, t, _ := sc.Scan()
				switch t {
				case token.EOF:
					break sig
				case token.LBRACE:
					if d == 0 && prev != token.STRUCT && prev != token.INTERFACE {
						end, body = file.Offset(p), true
						break sig
					}
					d++
				case token.LPAREN, token.LBRACK:
					d++
				case token.RBRACE, token.RPAREN, token.RBRACK:
					d--
				case token.SEMICOLON:
					if d == 0 {
						end = file.Offset(p)
						break sig
					}
				}
				prev = t
			}
			last = token.SEMICOLON
			out = append(out, src[start:end]...)
			if body {
				out = append(out, "{}"...)
				depth++ // the body's braces are skipped by the outer loop
			}
			out = append(out, '\n')
		case token.IMPORT, token.TYPE:
			if depth != 0 {
				continue
			}
			start := file.Offset(pos)
			end, d := len(src), 0
		decl:
			for {
				p, t, _ := sc.Scan()
				switch t {
				case token.EOF:
					break decl
				case token.LBRACE, token.LPAREN, token.LBRACK:
					d++
				case token.RBRACE, token.RPAREN, token.RBRACK:
					d--
					if d == 0 && t == token.RPAREN && tok == token.IMPORT {
						end = file.Offset(p) + 1
						break decl
					}
				case token.SEMICOLON:
					if d == 0 {
						end = file.Offset(p)
						break decl
					}
				}
			}
			last = token.SEMICOLON
			out = append(out, src[start:end]...)
			out = append(out, '\n')
		}
	}
}

// escapeModulePath is the module cache's case encoding: an upper-case
// letter becomes '!' and its lower case.
func escapeModulePath(p string) (string, bool) {
	var b strings.Builder
	for _, r := range p {
		switch {
		case r == '!' || r >= utf8.RuneSelf:
			return "", false
		case unicode.IsUpper(r):
			b.WriteByte('!')
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteRune(r)
		}
	}
	return b.String(), true
}

// semverLess orders module versions "v1.2.3[-pre][+meta]": numerically
// by major, minor and patch; a pre-release before its release.
func semverLess(a, b string) bool {
	pa, prea := semverParts(a)
	pb, preb := semverParts(b)
	for i := range pa {
		if pa[i] != pb[i] {
			return pa[i] < pb[i]
		}
	}
	switch {
	case prea == preb:
		return a < b
	case prea == "":
		return false
	case preb == "":
		return true
	}
	return prea < preb
}

func semverParts(v string) (nums [3]int, pre string) {
	v = strings.TrimPrefix(v, "v")
	if i := strings.IndexByte(v, '+'); i >= 0 {
		v = v[:i]
	}
	core, pre, _ := strings.Cut(v, "-")
	for i, p := range strings.SplitN(core, ".", 3) {
		nums[i], _ = strconv.Atoi(p)
	}
	return nums, pre
}
