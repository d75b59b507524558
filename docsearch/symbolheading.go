package docsearch

import (
	"strconv"
	"strings"
)

// defKeywords precede a defined name in the signatures artifacts use as
// headings: "type Ledger struct", "class Store:", "def f(...)".
var defKeywords = map[string]bool{
	"class": true, "type": true, "struct": true, "interface": true, "enum": true, "trait": true, "object": true,
	"def": true, "func": true, "fn": true, "function": true, "module": true, "record": true, "union": true,
}

// symbolSection returns the index of the section of secs whose heading is
// the signature of the symbol name, or -1. name is a symbol's name or its
// qualified name as fileinfo reports it ("create_logger", "Ledger.Post",
// "View.as_view.view@106"): its last part must be the name the heading
// defines, the word before "(" or after a keyword such as def or class;
// the other parts must appear as words in the headings enclosing it (the
// title, a path, counts for a module), and a trailing "@LINE" must appear in the heading, for same-named
// nested functions. The first section that matches best wins.
func symbolSection(secs []section, name string) int {
	name = strings.Trim(strings.TrimSpace(name), "`")
	line := ""
	if at := strings.LastIndexByte(name, '@'); at > 0 {
		if _, err := strconv.Atoi(name[at+1:]); err == nil {
			name, line = name[:at], name[at+1:]
		}
	}
	parts := strings.FieldsFunc(name, func(r rune) bool { return r == '.' || r == ':' || r == '#' || r == '/' || r == '\\' })
	if len(parts) == 0 {
		return -1
	}
	tail, quals := parts[len(parts)-1], parts[:len(parts)-1]
	best, bestScore := -1, 0
	for i, s := range secs {
		if s.level == 0 {
			continue
		}
		score := definesName(s.heading, tail)
		if score == 0 || line != "" && !hasWord(s.heading, line) {
			continue
		}
		context := strings.Join(s.path[:max(len(s.path)-1, 0)], " ")
		for _, q := range quals {
			if !hasWord(context, q) {
				score = 0
				break
			}
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best
}

// definesName scores how surely heading, a signature, defines name: 2 when
// name is followed by "(", "[" or "<" (a function, a generic type), 1
// when a keyword such as class or def precedes it, else 0.
func definesName(heading, name string) int {
	h := strings.ReplaceAll(heading, "`", "")
	score := 0
	for from := 0; ; {
		i := strings.Index(h[from:], name)
		if i < 0 {
			return score
		}
		i += from
		from = i + len(name)
		if i > 0 && isWordByte(h[i-1]) || from < len(h) && isWordByte(h[from]) {
			continue
		}
		if rest := strings.TrimLeft(h[from:], " "); rest != "" && strings.ContainsRune("([<", rune(rest[0])) {
			return 2
		}
		if words := strings.Fields(h[:i]); len(words) > 0 && defKeywords[words[len(words)-1]] {
			score = 1
		}
	}
}

// hasWord reports whether w occurs in s as a whole word.
func hasWord(s, w string) bool {
	for from := 0; ; {
		i := strings.Index(s[from:], w)
		if i < 0 {
			return false
		}
		i += from
		from = i + len(w)
		if (i == 0 || !isWordByte(s[i-1])) && (from == len(s) || !isWordByte(s[from])) {
			return true
		}
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
