package callgraph

// Reading the Rust oracle's MIR: the call terminators of a crate's MIR
// dump, their callee paths and the source spans they map to
// (oracle_rust_test.go has the oracle and what it judges).

import (
	"bufio"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var (
	rustMIRSpan   = regexp.MustCompile(`// scope \d+ at (.+?):(\d+):(\d+): (\d+):(\d+)$`)
	rustMIRCallRE = regexp.MustCompile(`^\s+(?:_\d+ = )?(.*) -> `)
)

// read parses the MIR of crate c from file mir.
func (o *rustOracle) read(t *testing.T, c *rustOracleCrate, mir string) {
	f, err := os.Open(mir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c.covered = map[string]map[int]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		m := rustMIRSpan.FindStringSubmatch(line)
		if m == nil || strings.HasPrefix(m[1], "/") {
			continue
		}
		file := c.dir + "/" + m[1]
		l1, _ := strconv.Atoi(m[2])
		c1, _ := strconv.Atoi(m[3])
		l2, _ := strconv.Atoi(m[4])
		c2, _ := strconv.Atoi(m[5])
		if c.covered[file] == nil {
			c.covered[file] = map[int]bool{}
		}
		for l := l1; l <= l2; l++ {
			c.covered[file][l] = true
		}
		cm := rustMIRCallRE.FindStringSubmatch(line)
		if cm == nil {
			continue
		}
		callee := rustCalleeText(cm[1])
		if callee == "" {
			continue
		}
		p := parseRustCallee(callee)
		if p.name == "" {
			continue
		}
		nameLine := o.nameLine(file, l1, c1, l2, c2, p.name)
		if nameLine == 0 {
			continue // no call syntax: an operator, ?, a loop, a derive
		}
		call := rustMIRCall{file: file, line: nameLine, callee: callee}
		call.targets, call.extra = o.targets(c, p)
		c.calls = append(c.calls, call)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

// rustCalleeText cuts the callee from a call terminator's right-hand side
// `path::<T>(move _2, copy _3)`: the text before the argument list's "(" at
// the outer level. It is "" for a call of a local (move _4(...)).
func rustCalleeText(s string) string {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<':
			depth++
		case '>':
			if i > 0 && s[i-1] == '-' {
				continue
			}
			depth--
		case '(', '[':
			if depth == 0 && s[i] == '(' {
				callee := s[:i]
				if strings.HasPrefix(callee, "move ") || strings.HasPrefix(callee, "copy ") || strings.HasPrefix(callee, "_") {
					return ""
				}
				return callee
			}
		}
	}
	return ""
}

// rustCallee is a MIR callee path taken apart.
type rustCallee struct {
	self  string   // the qualified self type of <T as Trait>::m or <T>::m
	trait string   // the trait of <T as Trait>::m, generics cut
	path  []string // the segments after the qualified self, generics dropped
	name  string   // the last segment
}

func parseRustCallee(s string) rustCallee {
	var p rustCallee
	segs := splitRustTop(s, "::")
	for i, seg := range segs {
		if strings.HasPrefix(seg, "<") {
			if i == 0 {
				inner := seg[1 : len(seg)-1]
				if parts := splitRustTop(inner, " as "); len(parts) == 2 {
					p.self, p.trait = parts[0], cutRustGenerics(parts[1])
				} else {
					p.self = inner
				}
			}
			continue // generic arguments, or an <impl ...> block
		}
		p.path = append(p.path, cutRustGenerics(seg))
	}
	if len(p.path) > 0 {
		p.name = p.path[len(p.path)-1]
	}
	return p
}

// splitRustTop splits s at sep outside brackets.
func splitRustTop(s, sep string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<', '(', '[', '{':
			depth++
		case '>':
			if i > 0 && s[i-1] == '-' {
				continue
			}
			depth--
		case ')', ']', '}':
			depth--
		}
		if depth == 0 && strings.HasPrefix(s[i:], sep) {
			out = append(out, s[start:i])
			i += len(sep) - 1
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// cutRustGenerics drops the generic arguments of a path: a::B<T> is a::B.
func cutRustGenerics(s string) string {
	if i := strings.IndexByte(s, '<'); i >= 0 {
		return s[:i]
	}
	return s
}

// nameLine returns the line of the last occurrence of name, followed by
// "(" or "::<", at the outer bracket level of the span, or 0.
func (o *rustOracle) nameLine(file string, l1, c1, l2, c2 int, name string) int {
	lines := o.lines[file]
	if l1 < 1 || l2 > len(lines) {
		return 0
	}
	depth, found := 0, 0
	for l := l1; l <= l2; l++ {
		text := lines[l-1]
		from, to := 0, len(text)
		if l == l1 {
			from = min(c1-1, len(text))
		}
		if l == l2 {
			to = min(c2-1, len(text))
		}
		for i := from; i < to; i++ {
			switch text[i] {
			case '(', '[', '{':
				depth++
				continue
			case ')', ']', '}':
				depth--
				continue
			}
			if depth != 0 || !strings.HasPrefix(text[i:], name) || i > 0 && isIdentByte(text[i-1]) {
				continue
			}
			rest := strings.TrimLeft(text[i+len(name):to], " \t")
			if strings.HasPrefix(rest, "(") || strings.HasPrefix(rest, "::<") || i+len(name) == to && l < l2 {
				found = l
			}
		}
	}
	return found
}

func isIdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}
