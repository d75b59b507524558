package docsearch

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/kljensen/snowball/english"
)

// Analysis turns text into index terms. A word is a run of letters,
// digits and underscores; words joined by ".", "-" or "::" with no space
// between make one compound ("os.path.join", "tree-sitter",
// "std::vector"). Every compound is cut into parts at the joiners, at
// underscores, at camelCase humps (an upper-case letter after a lower-case
// one, or the last of a run of capitals before a lower-case letter:
// "HTTPServer" is "HTTP" "Server") and between letters and digits. Each
// part is lower-cased, dropped if it is a stop word or a single character,
// and stemmed with the Snowball English stemmer. A compound of more than
// one part is also kept whole, lower-cased and unstemmed, so that "mapBy"
// finds the token mapBy itself before the words map and by: that is the
// exact-literal path.

// maxTermLen is the longest term kept, in bytes; longer runs are hashes,
// base64 and the like.
const maxTermLen = 64

// analyzer holds the stems it has computed: Snowball costs about 1 µs a
// word, and words repeat. An analyzer is not safe for concurrent use.
type analyzer struct {
	words map[string][]wordTerm // compound → its terms: words repeat, so most are looked up once
	stems map[string]string
	parts []string   // scratch
	terms []wordTerm // scratch
	buf   []byte     // scratch
	// keep says which stop words are terms all the same: every one in a
	// code symbol's own name (namesAnalyzer), the ones a query writes as
	// names (queryStops). Set before the first analyze; nil keeps none.
	keep func(w string) bool
}

// wordTerm is a term of a compound.
type wordTerm struct {
	term  string
	whole bool
}

func newAnalyzer() *analyzer {
	return &analyzer{words: map[string][]wordTerm{}, stems: map[string]string{}}
}

// namesAnalyzer is an analyzer for the names of code symbols, which keeps
// stop words: a method called where, then, once, all or off, or Go's
// errors.Is and time.After, is found by its name.
func namesAnalyzer() *analyzer {
	a := newAnalyzer()
	a.keep = func(string) bool { return true }
	return a
}

// maxStems bounds the stem and compound caches; past it a cache starts
// over. A small cache stays in the processor's caches: analysing 60 MB
// of npm READMEs, whose vocabulary is large, took 2.28 s with 32k
// entries against 3.03 s with 256k (Rust's docs: the same within noise).
const maxStems = 1 << 15

// stem returns the Snowball stem of the lower-case word w: a string of
// its own (never w's bytes), which a caller may keep.
func (a *analyzer) stem(w string) string {
	if s, ok := a.stems[w]; ok {
		return s
	}
	s := w
	if isASCII(w) && len(w) > 2 {
		s = english.Stem(w, false)
	}
	if len(a.stems) >= maxStems {
		clear(a.stems)
	}
	// w, and so a stem that is a prefix of it, may point into a
	// scratch buffer.
	w = strings.Clone(w)
	if s = strings.Clone(s); s == w {
		s = w
	}
	a.stems[w] = s
	return s
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func isWordRune(r rune) bool {
	return r == '_' || isLetter(r) || isNumber(r)
}

// asciiWord says which ASCII bytes are word runes: the loops over text
// test bytes against it before they decode a rune.
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = isWordRune(rune(c))
	}
	return t
}()

// analyze calls emit with each term of text, in order. whole is set for
// the whole form of a compound. Terms come from the analyzer's cache of
// compounds, which owns copies of them: a caller may keep a term without
// copying it (and the same term is the same string every time it is
// cached, so kept terms share memory).
func (a *analyzer) analyze(text string, emit func(term string, whole bool)) {
	for i := 0; i < len(text); {
		if c := text[i]; c < utf8.RuneSelf {
			if !asciiWord[c] {
				i++
				continue
			}
		} else if r, n := runeAt(text, i); !isWordRune(r) {
			i += n
			continue
		}
		end := compoundEnd(text, i)
		c := text[i:end]
		if t, n := symbolName(c, text[end:]); n > 0 {
			emit(t, false)
			i = end + n
			continue
		}
		ts, ok := a.words[c]
		if !ok {
			// The terms are gathered in scratch and copied once, at
			// their number; stems are the stem cache's own strings,
			// kept without a copy, and only a compound's whole form,
			// made in a scratch buffer, is copied.
			a.terms = a.terms[:0]
			a.compound(c, func(t string, whole bool) {
				if whole {
					t = strings.Clone(t)
				}
				a.terms = append(a.terms, wordTerm{t, whole})
			})
			ts = slices.Clone(a.terms)
			if len(a.words) >= maxStems {
				clear(a.words)
			}
			a.words[strings.Clone(c)] = ts
		}
		for _, t := range ts {
			emit(t.term, t.whole)
		}
		i = end
	}
}

// symbolName returns the term of a language whose name is a letter and
// symbols (C++, C#, F#), when the one-letter compound c followed by rest
// spells one, and the length of the symbols; else "", 0. Without it the
// letter is too short to be a term and the symbols are not word runes,
// so "C++" left no term at all.
func symbolName(c, rest string) (string, int) {
	if len(c) != 1 {
		return "", 0
	}
	switch l := c[0] | 0x20; {
	case l == 'c' && strings.HasPrefix(rest, "++"):
		return "cpp", 2
	case l == 'c' && strings.HasPrefix(rest, "#"):
		return "csharp", 1
	case l == 'f' && strings.HasPrefix(rest, "#"):
		return "fsharp", 1
	}
	return "", 0
}

// compoundEnd returns the end of the compound that starts at i.
func compoundEnd(s string, i int) int {
	for {
		for i < len(s) {
			if c := s[i]; c < utf8.RuneSelf {
				if !asciiWord[c] {
					break
				}
				i++
				continue
			}
			r, n := runeAt(s, i)
			if !isWordRune(r) {
				break
			}
			i += n
		}
		j := i
		switch {
		case strings.HasPrefix(s[i:], "::"):
			j += 2
		case i < len(s) && (s[i] == '.' || s[i] == '-'):
			j++
		default:
			return i
		}
		if r, _ := runeAt(s, j); !isWordRune(r) {
			return i
		}
		i = j
	}
}

// compound emits the terms of one compound. A whole form lies in a
// scratch buffer, valid until the next call; a stem is the stem cache's
// own copy (see stem), kept by whoever wants it.
func (a *analyzer) compound(c string, emit func(string, bool)) {
	a.parts = splitParts(c, a.parts[:0])
	if len(a.parts) > 1 && len(c) <= maxTermLen {
		emit(a.whole(c), true)
	}
	for _, p := range a.parts {
		if len(p) > maxTermLen {
			continue
		}
		w := a.lower(p)
		if utf8.RuneCountInString(w) < 2 || stopwords[w] && (a.keep == nil || !a.keep(w)) {
			continue
		}
		emit(a.stem(americanSpelling(w)), false)
	}
}

// whole returns the whole form of a compound: lower-cased, without
// underscores, so that read_only, readOnly and ReadOnly are one term, and
// the word readonly reaches it.
func (a *analyzer) whole(c string) string {
	if !isASCII(c) {
		return strings.ReplaceAll(strings.ToLower(c), "_", "")
	}
	a.buf = a.buf[:0]
	for i := 0; i < len(c); i++ {
		switch ch := c[i]; {
		case ch == '_':
		case 'A' <= ch && ch <= 'Z':
			a.buf = append(a.buf, ch+32)
		default:
			a.buf = append(a.buf, ch)
		}
	}
	return unsafeString(a.buf)
}

// lower returns s lower-cased in the analyzer's scratch buffer when s is
// ASCII; the result is valid until the next call.
func (a *analyzer) lower(s string) string {
	if !isASCII(s) {
		return strings.ToLower(s)
	}
	a.buf = append(a.buf[:0], s...)
	for i, c := range a.buf {
		if 'A' <= c && c <= 'Z' {
			a.buf[i] = c + 32
		}
	}
	return unsafeString(a.buf)
}

// unsafeString returns b as a string without copying; the string is valid
// while b is unchanged.
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// splitParts appends the parts of compound c to dst.
func splitParts(c string, dst []string) []string {
	start := 0
	var prev rune = -1
	flush := func(end int) {
		if end > start {
			dst = append(dst, c[start:end])
		}
	}
	for i := 0; i < len(c); {
		r, n := runeAt(c, i)
		switch {
		case r == '_' || r == '.' || r == '-' || r == ':':
			flush(i)
			start = i + n
			prev = -1
			i += n
			continue
		case prev >= 0 && boundary(prev, r, c[i+n:]):
			flush(i)
			start = i
		}
		prev = r
		i += n
	}
	flush(len(c))
	return dst
}

// boundary reports whether a new part starts at r, which follows prev and
// is followed by rest.
func boundary(prev, r rune, rest string) bool {
	switch {
	case isNumber(prev) != isNumber(r):
		return true
	case unicode.IsLower(prev) && unicode.IsUpper(r):
		return true
	case unicode.IsUpper(prev) && unicode.IsUpper(r):
		next, _ := runeAt(rest, 0)
		return next >= 0 && unicode.IsLower(next)
	}
	return false
}

// stopwords are English function words, too common to tell documents
// apart. Query classification reads the raw query, so "how" and "what"
// still count there.
var stopwords = setOf(`a about above after again against all am an and any are as at
		be because been before being below between both but by can could did do does doing don down
		during each few for from further had has have having he her here hers herself him himself his
		how i if in into is it its itself just me more most my myself no nor not now of off on once
		only or other our ours ourselves out over own same she should so some such than that the
		their theirs them themselves then there these they this those through to too under until up
		very was we were what when where which while who whom why will with would you your yours
		yourself yourselves`)

// setOf returns the set of the whitespace-separated words of words.
func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}
