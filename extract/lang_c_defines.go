package extract

import "bytes"

// Headers of object-like macros only.
//
// Linux 6.1 holds 2,625 C headers (119 MB of the 887 MB extracted) that
// are nothing but `#define NAME value` lines, include guards and
// comments: the register maps of its GPU drivers. Their tree has no
// error and nothing C's query captures (a value is one opaque
// preproc_arg token; a function-like macro, `#define F(x)`, is not such a
// file), so their File is known without a parse: Source returns
// plainFile for them. The recognizer is conservative: anything it is not
// sure of is parsed, and TestCDefinesOnlyMatchesParse and
// FuzzCDefinesOnly check that whatever it accepts extracts as the parse
// does.

// plainFile is the File of a file of lang that its plain hook accepts:
// what run makes of a tree without errors or matches.
func plainFile(rel string, lang *Language, generated string) *File {
	return &File{
		Path:      rel,
		Language:  lang.Name,
		Generated: generated,
		Test:      testFile(rel, generated),
		Module:    pathModule(rel),
		Imports:   []Import{},
		Symbols:   []Symbol{},
		Calls:     []Call{},
		Errors:    []SyntaxError{},
	}
}

// cDefinesOnly reports whether src is a C file of object-like #define,
// #undef, balanced #ifdef/#ifndef/#else/#endif lines, blank lines and
// comments only, each line ending in "\n".
func cDefinesOnly(src []byte) bool {
	if len(src) == 0 || src[len(src)-1] != '\n' {
		return false
	}
	for _, b := range src {
		if b < ' ' && b != '\t' && b != '\n' || b == 0x7f {
			return false
		}
	}
	var (
		inComment bool // a block comment runs on
		cont      bool // a #define's value runs on after a backslash
		elses     []bool
	)
	for line := range bytes.Lines(src) {
		line = line[:len(line)-1]
		switch {
		case cont:
			if bytes.Contains(line, []byte("/")) {
				return false
			}
			cont = bytes.HasSuffix(line, []byte(`\`))
			continue
		case inComment:
			end := bytes.Index(line, []byte("*/"))
			if end < 0 {
				continue
			}
			inComment = false
			var ok bool
			if inComment, ok = onlyComments(line[end+2:]); !ok {
				return false
			}
			continue
		}
		rest := trimBlank(line)
		if len(rest) == 0 || rest[0] != '#' {
			var ok bool
			if inComment, ok = onlyComments(rest); !ok {
				return false
			}
			continue
		}
		word, rest := cutWord(trimBlank(rest[1:]))
		switch string(word) {
		case "define":
			name, value := cutWord(trimBlank(rest))
			if len(rest) == 0 || !isBlank(rest[0]) || !cIdent(name) {
				return false
			}
			if len(value) > 0 && !isBlank(value[0]) || bytes.Contains(value, []byte("/")) {
				return false // function-like, or a comment may be in the value
			}
			if len(value) > 0 && len(trimBlank(value)) == 0 {
				return false // blanks and no value: the grammar wants no blank before the line's end
			}
			cont = bytes.HasSuffix(value, []byte(`\`))
			continue
		case "undef", "ifdef", "ifndef":
			name, after := cutWord(trimBlank(rest))
			if len(rest) == 0 || !isBlank(rest[0]) || !cIdent(name) {
				return false
			}
			rest = after
			if string(word) != "undef" {
				elses = append(elses, false)
			}
		case "else":
			if len(elses) == 0 || elses[len(elses)-1] {
				return false
			}
			elses[len(elses)-1] = true
		case "endif":
			if len(elses) == 0 {
				return false
			}
			elses = elses[:len(elses)-1]
		default:
			return false
		}
		if len(rest) > 0 && !isBlank(rest[0]) && rest[0] != '/' {
			return false
		}
		var ok bool
		if inComment, ok = onlyComments(trimBlank(rest)); !ok {
			return false
		}
	}
	return !inComment && !cont && len(elses) == 0
}

// onlyComments reports whether s holds nothing but blanks and comments;
// open is true when a block comment runs past its end. A line comment
// ending in a backslash, which runs on, is not taken.
func onlyComments(s []byte) (open, ok bool) {
	for {
		s = trimBlank(s)
		switch {
		case len(s) == 0:
			return false, true
		case bytes.HasPrefix(s, []byte("//")):
			return false, !bytes.HasSuffix(s, []byte(`\`))
		case bytes.HasPrefix(s, []byte("/*")):
			end := bytes.Index(s[2:], []byte("*/"))
			if end < 0 {
				return true, true
			}
			s = s[2+end+2:]
		default:
			return false, false
		}
	}
}

// cutWord splits s after its leading run of ASCII letters, digits and
// underscores.
func cutWord(s []byte) (word, rest []byte) {
	i := 0
	for i < len(s) && (s[i] == '_' || s[i] >= '0' && s[i] <= '9' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
		i++
	}
	return s[:i], s[i:]
}

// cIdent reports whether w is an ASCII C identifier.
func cIdent(w []byte) bool {
	return len(w) > 0 && !(w[0] >= '0' && w[0] <= '9')
}

func isBlank(b byte) bool { return b == ' ' || b == '\t' }

func trimBlank(s []byte) []byte { return bytes.TrimLeft(s, " \t") }
