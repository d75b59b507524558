package extract

// This file implements gitignore matching as git 2.x does it (gitignore(5),
// git's dir.c and wildmatch.c), so that Walk sees the files `git ls-files
// --others --exclude-standard` would list.
//
// Ignore file format, one pattern per line:
//
//	- blank lines and lines starting with '#' match nothing;
//	- a trailing "\r" is dropped, then trailing spaces unless escaped ("a\ ");
//	- '!' negates (re-includes); "\!" and "\#" start a literal '!' or '#';
//	- a trailing '/' makes the pattern match directories only;
//	- a pattern with no other '/' matches the base name at any depth, otherwise
//	  it is anchored to the ignore file's directory (a leading '/' is dropped);
//	- '*', '?' and '[...]' (with '!' or '^' negation, ranges and [:class:])
//	  never match '/'; "**/" matches zero or more leading directories, "/**/"
//	  zero or more directories between, and a trailing "/**" everything inside;
//	- a malformed pattern (trailing '\', unterminated '[') matches nothing.
//
// Within one file the last matching pattern decides; deeper ignore files take
// precedence over shallower ones, and all of them over .git/info/exclude.
// Matching is case-sensitive, as git's is with core.ignoreCase unset.

import (
	"bytes"
	"math/bits"
	"strings"
)

// ignoreRules holds the patterns of one ignore file, in file order.
type ignoreRules struct {
	dir      string // slash path of the directory governed, relative to the walk root; "" for the root
	patterns []ignorePattern
}

// ignoreStack is the ignore files that apply to a directory, outermost first.
type ignoreStack []*ignoreRules

// ignorePattern is one compiled line of an ignore file.
type ignorePattern struct {
	negate   bool   // leading '!': re-include
	dirOnly  bool   // trailing '/': match directories only
	basename bool   // no '/': match the base name at any depth
	never    bool   // malformed: match nothing
	ends     bool   // the pattern is prefix + "*" + suffix
	prefix   string // literal bytes the name must start with
	suffix   string
	glob     []globToken // the rest of the pattern after prefix, unless ends
}

// globOp is the kind of a globToken.
type globOp uint8

const (
	opByte globOp = iota // one byte equal to b
	opSet                // one byte in set
	opStar               // any run of bytes other than '/'
	opAny                // any run of bytes
	opDirs               // consumes nothing; skips the opAny and '/' that follow it, or not
)

// globToken is one step of a compiled glob.
type globToken struct {
	op  globOp
	b   byte
	set *byteSet
}

// byteSet is a set of bytes, one bit each.
type byteSet [4]uint64

func (s *byteSet) add(c byte)      { s[c>>6] |= 1 << (c & 63) }
func (s *byteSet) has(c byte) bool { return s[c>>6]&(1<<(c&63)) != 0 }
func (s *byteSet) remove(c byte)   { s[c>>6] &^= 1 << (c & 63) }
func (s *byteSet) addRange(lo, hi byte) {
	for c := int(lo); c <= int(hi); c++ {
		s.add(byte(c))
	}
}

// parseIgnore compiles the content of an ignore file governing dir. It never
// fails: like git, it keeps malformed patterns as patterns that match nothing.
func parseIgnore(dir string, data []byte) *ignoreRules {
	r := &ignoreRules{dir: dir}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // UTF-8 byte order mark
	for len(data) > 0 {
		line, rest, _ := bytes.Cut(data, []byte{'\n'})
		data = rest
		if p, ok := compileIgnoreLine(string(line)); ok {
			r.patterns = append(r.patterns, p)
		}
	}
	return r
}

// compileIgnoreLine compiles one line of an ignore file. It reports false for
// lines that hold no pattern.
func compileIgnoreLine(line string) (ignorePattern, bool) {
	var p ignorePattern
	if line == "" || line[0] == '#' {
		return p, false
	}
	line = strings.TrimSuffix(line, "\r")
	if i := strings.IndexByte(line, 0); i >= 0 {
		line = line[:i] // git handles patterns as C strings
	}
	line = trimTrailingSpaces(line)
	if strings.HasPrefix(line, "!") {
		p.negate = true
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		p.dirOnly = true
		line = line[:len(line)-1]
	}
	if line == "" {
		return p, false
	}
	p.basename = !strings.Contains(line, "/")
	if !p.basename && line[0] == '/' {
		line = line[1:]
	}
	// Like git, compare the literal prefix first and glob-match only the rest;
	// this is why git treats "a**/b" as "a" followed by a leading "**/b".
	n := strings.IndexAny(line, `*?[\`)
	if n < 0 {
		p.prefix = line
		return p, true
	}
	p.prefix, line = line[:n], line[n:]
	if p.basename && line[0] == '*' && !strings.ContainsAny(line[1:], `*?[\`) {
		p.ends, p.suffix = true, line[1:]
		return p, true
	}
	p.glob, p.never = compileGlob(line, !p.basename)
	return p, true
}

// trimTrailingSpaces drops the trailing spaces of s that no backslash escapes.
func trimTrailingSpaces(s string) string {
	start := -1 // start of the trailing run of spaces
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if start < 0 {
				start = i
			}
		case '\\':
			i++
			if i == len(s) {
				return s
			}
			start = -1
		default:
			start = -1
		}
	}
	if start >= 0 {
		return s[:start]
	}
	return s
}

// compileGlob compiles a wildmatch pattern. With pathname set, the text is a
// slash path and only "**" may match '/'; otherwise the text is a base name.
// It reports never for patterns that cannot match anything.
func compileGlob(s string, pathname bool) (toks []globToken, never bool) {
	for i := 0; i < len(s); {
		switch c := s[i]; c {
		case '\\':
			if i+1 == len(s) {
				return nil, true
			}
			toks = append(toks, globToken{op: opByte, b: s[i+1]})
			i += 2
		case '?', '[':
			set := new(byteSet)
			if c == '?' {
				set.addRange(0, 255)
				i++
			} else {
				n, ok := parseClass(s[i:], set)
				if !ok {
					return nil, true
				}
				i += n
			}
			if pathname {
				set.remove('/')
			}
			toks = append(toks, globToken{op: opSet, set: set})
		case '*':
			j := i
			for j < len(s) && s[j] == '*' {
				j++
			}
			op := opAny
			if pathname {
				op = opStar
				if j-i >= 2 && (i == 0 || s[i-1] == '/') {
					switch {
					case j == len(s), strings.HasPrefix(s[j:], `\/`):
						op = opAny
					case s[j] == '/':
						toks = append(toks, globToken{op: opDirs}, globToken{op: opAny}, globToken{op: opByte, b: '/'})
						i = j + 1
						continue
					}
				}
			}
			toks = append(toks, globToken{op: op})
			i = j
		default:
			toks = append(toks, globToken{op: opByte, b: c})
			i++
		}
	}
	return toks, false
}

// parseClass parses the bracket expression at the start of s into set and
// returns its length. It reports false if the expression is unterminated or
// names an unknown character class.
func parseClass(s string, set *byteSet) (int, bool) {
	i := 1
	negate := i < len(s) && (s[i] == '!' || s[i] == '^')
	if negate {
		i++
	}
	prev := -1 // previous member, a possible range start
	for first := true; ; first = false {
		if i >= len(s) {
			return 0, false
		}
		c := s[i]
		switch {
		case c == ']' && !first:
			if negate {
				for k := range set {
					set[k] = ^set[k]
				}
			}
			return i + 1, true
		case c == '\\':
			if i+1 >= len(s) {
				return 0, false
			}
			set.add(s[i+1])
			prev = int(s[i+1])
			i += 2
		case c == '-' && prev >= 0 && i+1 < len(s) && s[i+1] != ']':
			hi := s[i+1]
			i += 2
			if hi == '\\' {
				if i >= len(s) {
					return 0, false
				}
				hi = s[i]
				i++
			}
			set.addRange(byte(prev), hi)
			prev = -1
		case c == '[' && strings.HasPrefix(s[i:], "[:"):
			end := strings.IndexByte(s[i+2:], ']')
			if end < 0 {
				return 0, false
			}
			if end == 0 || s[i+2+end-1] != ':' { // not "[:name:]": a literal '['
				set.add('[')
				prev = '['
				i++
				break
			}
			if !addNamedClass(set, s[i+2:i+2+end-1]) {
				return 0, false
			}
			prev = -1
			i += 2 + end + 1
		default:
			set.add(c)
			prev = int(c)
			i++
		}
	}
}

// posixClasses maps the names of [:name:] classes to their members as
// inclusive byte ranges, in the C locale as git defines it.
var posixClasses = map[string]string{
	"alnum": "09AZaz", "alpha": "AZaz", "blank": "  \t\t", "cntrl": "\x00\x1f\x7f\x7f",
	"digit": "09", "graph": "!~", "lower": "az", "print": " ~", "punct": "!/:@[`{~",
	"space": "\t\n\r\r  ", "upper": "AZ", "xdigit": "09AFaf",
}

// addNamedClass adds the members of the class name to set. It reports false
// for an unknown name.
func addNamedClass(set *byteSet, name string) bool {
	ranges, ok := posixClasses[name]
	for i := 0; i+1 < len(ranges); i += 2 {
		set.addRange(ranges[i], ranges[i+1])
	}
	return ok
}

// match reports whether name, a base name or a slash path relative to the
// ignore file's directory as p.basename says, matches p's glob.
func (p *ignorePattern) match(name string) bool {
	if p.never || !strings.HasPrefix(name, p.prefix) {
		return false
	}
	rest := name[len(p.prefix):]
	switch {
	case p.ends:
		return strings.HasSuffix(rest, p.suffix)
	case p.glob != nil:
		return matchGlob(p.glob, rest)
	}
	return rest == ""
}

// match reports whether a pattern of r matches the slash path rel (relative
// to the walk root, under r.dir) and, if so, whether the last matching
// pattern ignores it.
func (r *ignoreRules) match(rel string, isDir bool) (matched, ignored bool) {
	name := rel
	if r.dir != "" {
		if len(rel) <= len(r.dir) || rel[len(r.dir)] != '/' || rel[:len(r.dir)] != r.dir {
			return false, false
		}
		name = rel[len(r.dir)+1:]
	}
	base := name[strings.LastIndexByte(name, '/')+1:]
	for i := len(r.patterns) - 1; i >= 0; i-- {
		p := &r.patterns[i]
		if p.dirOnly && !isDir {
			continue
		}
		target := name
		if p.basename {
			target = base
		}
		if p.match(target) {
			return true, !p.negate
		}
	}
	return false, false
}

// ignored reports whether the entry rel is ignored by the deepest ignore file
// with a matching pattern. It does not consider rel's parent directories:
// Walk never descends into an ignored directory.
func (s ignoreStack) ignored(rel string, isDir bool) bool {
	for i := len(s) - 1; i >= 0; i-- {
		if matched, ignored := s[i].match(rel, isDir); matched {
			return ignored
		}
	}
	return false
}

// matchGlob reports whether toks matches all of text. It simulates the
// pattern as an NFA, one state per token, so it takes O(len(toks)·len(text))
// time whatever the pattern.
func matchGlob(toks []globToken, text string) bool {
	n := len(toks)
	words := (n + 1 + 63) / 64
	var bufA, bufB [4]uint64 // room for 255 tokens without allocating
	cur, next := bufA[:], bufB[:]
	if words > len(bufA) {
		cur, next = make([]uint64, words), make([]uint64, words)
	}
	cur, next = cur[:words], next[:words]
	addState(toks, cur, 0)
	for i := 0; i < len(text); i++ {
		c := text[i]
		clear(next)
		live := false
		for w, word := range cur {
			for word != 0 {
				k := w*64 + bits.TrailingZeros64(word)
				word &= word - 1
				if k == n {
					continue
				}
				to := -1 // the state a match of c leads to
				switch t := &toks[k]; {
				case t.op == opByte && c == t.b, t.op == opSet && t.set.has(c):
					to = k + 1
				case t.op == opStar && c != '/', t.op == opAny:
					to = k
				}
				if to >= 0 {
					addState(toks, next, to)
					live = true
				}
			}
		}
		if !live {
			return false
		}
		cur, next = next, cur
	}
	return cur[n/64]&(1<<(n%64)) != 0
}

// addState adds state k and the states reachable from it without consuming
// a byte to set.
func addState(toks []globToken, set []uint64, k int) {
	for set[k/64]&(1<<(k%64)) == 0 {
		set[k/64] |= 1 << (k % 64)
		if k == len(toks) {
			return
		}
		switch toks[k].op {
		case opStar, opAny:
			k++
		case opDirs:
			addState(toks, set, k+3) // skip the directories and their '/'
			k++
		default:
			return
		}
	}
}
