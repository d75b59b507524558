package server

import "bytes"

// maxLikelyLooks bounds the places of a name likelyDefines looks at in
// one file: a file that calls a name hundreds of times is looked at
// as far as its first hundred.
const maxLikelyLooks = 100

// defineWords are the words that, right before a name, say its line
// defines it, in the languages extract reads: Python's def and class,
// Go's func and type, JavaScript's function, Rust's fn, C's #define and
// struct, and their kin.
var defineWords = map[string]bool{
	"def": true, "class": true, "func": true, "function": true, "fn": true,
	"type": true, "struct": true, "union": true, "enum": true, "interface": true,
	"trait": true, "impl": true, "module": true, "object": true, "record": true,
	"define": true, "macro": true, "sub": true, "fun": true, "let": true,
	"const": true, "var": true, "val": true, "typedef": true,
}

// likelyDefines reports whether one of the places src holds one of pats
// looks like a definition: on a line that starts at its first column (a
// C or Go function, a top-level Python def or class; calls are in
// bodies, which are indented), or right after a word of defineWords (a
// method: "    def name", "func (r T) name"). It only orders a scan's
// extractions (see coldScan.find), so a guess either way costs time, not
// an answer.
func likelyDefines(src []byte, pats [][]byte, fold bool) bool {
	for _, p := range pats {
		if len(p) == 0 {
			continue
		}
		for at, looks := indexFrom(src, p, fold, 0), 0; at >= 0 && looks < maxLikelyLooks; at, looks = indexFrom(src, p, fold, at+1), looks+1 {
			if definesAt(src, at) {
				return true
			}
		}
	}
	return false
}

// definesAt reports whether the name at src[at:] looks defined there
// (see likelyDefines).
func definesAt(src []byte, at int) bool {
	line := src[bytes.LastIndexByte(src[:at], '\n')+1 : at]
	switch {
	case len(line) == 0:
		return true
	case line[0] == ' ' || line[0] == '\t':
		// Indented: by the word before the name.
	case bytes.HasPrefix(line, []byte("#define")):
		return true
	case line[0] == '#' || line[0] == '*' || bytes.HasPrefix(line, []byte("//")) || bytes.HasPrefix(line, []byte("/*")):
		return false // a comment, or another directive
	default:
		return true
	}
	// The word before the name, past blanks and a receiver's ")".
	i := len(line)
	for i > 0 && (line[i-1] == ' ' || line[i-1] == '\t') {
		i--
	}
	if i > 0 && line[i-1] == ')' { // Go's func (r T) name
		if open := bytes.LastIndexByte(line[:i], '('); open > 0 {
			i = open
			for i > 0 && (line[i-1] == ' ' || line[i-1] == '\t') {
				i--
			}
		}
	}
	j := i
	for j > 0 && isWordByte(line[j-1]) {
		j--
	}
	return j < i && defineWords[string(line[j:i])]
}

func isWordByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}
