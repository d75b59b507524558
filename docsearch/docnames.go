package docsearch

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// What the project's docs say a function does. A question is often asked
// in the words of a README or a guide ("make an option mandatory"), and
// the page names the function that does it ("Specify a required
// (mandatory) option using `.makeOptionMandatory()`"), while the
// function's own code and doc comment may share none of the words. So a
// code search also ranks the docs scope's chunks in its lexical pass
// (lexicalSearchAlso), reads the best sections' passages (a paragraph or a list item, with the heading it is
// under and the code block that follows it) and gives each code name a
// passage names the share of the query's IDF weight that passage holds
// (docNamed). A code candidate so named gets that share as a feature
// (featDocs), and the best named functions join the candidates
// (addDocNamed). Both run only when the code weights weigh the feature
// (see codeWeights) and the index has docs.

// Limits of the docs lookup: the sections read, how far under the best
// section's score one may be, and the bytes of a file read for them.
const (
	docsSections = 4
	docsMinRatio = 0.5
	docsMaxRead  = 1 << 20
)

// readsDocs says whether a search for q reads the docs for the names
// they give: a search in words whose code weights (q's, or the built-in
// ones) weigh the docs feature, or that observes the code candidates.
func (ix *Index) readsDocs(q Query, qt QueryType) bool {
	w := q.CodeWeights
	if w == nil {
		w = codeWeights[:]
	}
	return qt != QueryCodeLookup && (weighs(w, featDocs) || q.CodeCandidates != nil)
}

// docNamed returns, for the query terms qw and the docs chunks of hits
// (a lexical list, best first), the code names the docs
// passages that hold the query's words name, each with the largest share
// of the query's IDF weight such a passage holds, scaled by its section's
// lexical score over the best section's and divided by the square root of
// the number of names the passage gives (a list of ten functions says
// less of each than a sentence about one). Callers hold ix.mu.
func (ix *Index) docNamed(query string, qw []idfTerm, hits []scored) map[string]float64 {
	var qtotal float64
	for _, t := range qw {
		qtotal += t.idf
	}
	hits = slices.DeleteFunc(slices.Clone(hits), func(h scored) bool {
		d := ix.doc(ix.chunkDoc(h.chunk))
		return d == nil || d.scope != ScopeDocs
	})
	if qtotal == 0 || len(hits) == 0 || hits[0].score <= 0 {
		return nil
	}
	an := newAnalyzer()
	an.keep = queryStops(query)
	inQuery := make(map[string]float64, len(qw))
	for _, t := range qw {
		inQuery[t.term] = t.idf
	}
	files := map[uint32][]string{}
	out := map[string]float64{}
	read := 0
	for _, h := range hits {
		if read == docsSections || h.score < docsMinRatio*hits[0].score {
			break
		}
		rec := ix.chunk(h.chunk)
		d := ix.doc(rec.doc)
		if d == nil || d.scope != ScopeDocs || d.format != formatMarkdown && d.format != formatRST {
			continue
		}
		lines, ok := files[rec.doc]
		if !ok {
			lines = ix.docLines(d)
			files[rec.doc] = lines
		}
		hi := min(int(rec.end), len(lines))
		if int(rec.line) < 1 || int(rec.line) > hi {
			continue
		}
		read++
		ratio := float64(h.score / hits[0].score)
		heading := rec.title
		if i := strings.LastIndex(heading, " > "); i >= 0 {
			heading = heading[i+3:]
		}
		for _, p := range passages(heading, lines[rec.line-1:hi]) {
			if len(p.names) == 0 {
				continue
			}
			seen := map[string]bool{}
			var m float64
			an.analyze(p.text, func(t string, _ bool) {
				if idf, ok := inQuery[t]; ok && !seen[t] {
					seen[t] = true
					m += idf
				}
			})
			if m == 0 {
				continue
			}
			s := ratio * m / qtotal / math.Sqrt(float64(len(p.names)))
			for _, n := range p.names {
				if v, ok := out[n]; !ok {
					out[strings.Clone(n)] = s // a loaded text aliases the mapping
				} else if s > v {
					out[n] = s
				}
			}
		}
	}
	return out
}

// Newcomers: the functions the docs name best join the code candidates
// when fusion ranked them past the features' window or not at all: a
// question in the docs' words may share none with the function's code.
// At most docsNewNames names scoring at least docsNewMin, and
// docsNewPerName symbols of each, join at the fused score of the
// docsNewAt-th code candidate; the features then rank them.
const (
	docsNewNames   = 3
	docsNewMin     = 0.25
	docsNewPerName = 4
	docsNewAt      = 10
)

// addDocNamed adds to ranked (fused order) the code symbols named as the
// newcomers above, or raises those ranked past the window, and says
// whether it moved any. Callers hold ix.mu.
func (ix *Index) addDocNamed(ranked []hit, named map[string]float64) ([]hit, bool) {
	names := make([]string, 0, len(named))
	for n, s := range named {
		if s >= docsNewMin {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return ranked, false
	}
	slices.SortFunc(names, func(a, b string) int {
		if c := cmp.Compare(named[b], named[a]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	names = names[:min(len(names), docsNewNames)]
	at := make(map[uint32]int, len(ranked)) // code document → its place in ranked
	window := map[uint32]bool{}             // the first codeWindow code candidates, which the features rank
	var top hit
	for i := range ranked {
		id := ix.chunkDoc(ranked[i].chunk)
		if d := ix.doc(id); d == nil || !isCodeScope(d.scope) {
			continue
		}
		if len(at) < docsNewAt || len(at) == 0 {
			top = ranked[i]
		}
		window[id] = len(at) < codeWindow
		at[id] = i
	}
	if len(at) == 0 {
		return ranked, false
	}
	moved := false
	an := namesAnalyzer()
	for _, n := range names {
		tid, ok := ix.nameTerm(an, n)
		if !ok || ix.lex.df(tid) > maxNamedScan {
			continue
		}
		added := 0
		ix.symbolPostings(tid, ix.deadChunks, func(chunk, id uint32, _, name string) bool {
			if added == docsNewPerName {
				return false
			}
			if localName(name) != n {
				return true
			}
			if d := ix.doc(id); d == nil || !isCodeScope(d.scope) {
				return true
			}
			added++
			if !window[id] {
				ranked, moved = joinAt(ranked, at, id, chunk, top), true
			}
			return true
		})
	}
	return ranked, moved
}

// docLines returns the lines of a docs document's text, nil when it
// cannot be read.
func (ix *Index) docLines(d *doc) []string {
	text := d.text
	if !d.put {
		src, ok, err := ix.scopes.resolve(d.path)
		if err != nil || !ok || src.fsys == nil {
			return nil // not a document of a file system the index reads
		}
		data, err := readFile(src.fsys, src.name, min(ix.opts.MaxFileBytes, docsMaxRead))
		if err != nil {
			return nil
		}
		if text, err = decodeText(data); err != nil {
			return nil
		}
	}
	return splitLines(text)
}

// passage is a paragraph or list item of a docs section: its prose with
// its heading, and the code names it, its heading and the code block
// after it give.
type passage struct {
	text  string
	names []string
}

// passages cuts a section's lines into passages. A blank line, a list
// item or a heading starts a new one; a fenced code block gives its
// names, not its words, to the passage before it under the same heading,
// or when there is none, to the next.
func passages(heading string, lines []string) []passage {
	var out []passage
	var text strings.Builder
	var names []string
	headNames := headingNames(heading)
	flush := func() {
		if text.Len() == 0 {
			return // the names of a code block with no passage before it wait for the next
		}
		all := append(names, headNames...)
		slices.Sort(all)
		out = append(out, passage{text: heading + "\n" + text.String(), names: slices.Compact(all)})
		text.Reset()
		names = nil
	}
	fence := ""
	blank := false // the last passage was cut by a blank line: a code block after it is its
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
				continue
			}
			names = append(names, codeNames(t, false)...)
			continue
		}
		switch {
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			fence = t[:3]
			if blank && len(out) > 0 && text.Len() == 0 {
				// The code of a passage already cut by a blank line.
				last := &out[len(out)-1]
				text.WriteString(strings.TrimPrefix(last.text, heading+"\n"))
				names = append(names, last.names...)
				out = out[:len(out)-1]
			}
		case t == "":
			// A blank line ends a passage unless a code block follows
			// it: the fence's case above takes the passage back.
			blank = blank || text.Len() > 0
			flush()
			continue
		case strings.HasPrefix(t, "#"):
			flush()
			blank, names = false, nil
			heading = strings.TrimSpace(strings.TrimLeft(t, "#"))
			headNames = headingNames(heading)
		case itemLine(t):
			flush()
			blank = false
			text.WriteString(t)
			text.WriteByte('\n')
			names = append(names, spanNames(t)...)
		default:
			blank = false
			text.WriteString(t)
			text.WriteByte('\n')
			names = append(names, spanNames(t)...)
		}
	}
	flush()
	return out
}

// headingNames returns the names a heading gives: what it calls
// ("semver.clean(version)") and what its code spans name; a heading's
// plain word ("Options") is no name.
func headingNames(h string) []string {
	return append(codeNames(h, false), spanNames(h)...)
}

// itemLine says whether a trimmed line starts a list item, bulleted
// (listItem) or numbered.
func itemLine(t string) bool {
	if listItem(t) {
		return true
	}
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && t[i+1] == ' '
}

// spanNames returns the code names of a prose line's code spans
// (`x`, “x“, :func:`x`).
func spanNames(line string) []string {
	var out []string
	for {
		i := strings.IndexByte(line, '`')
		if i < 0 {
			return out
		}
		n := 1
		for i+n < len(line) && line[i+n] == '`' {
			n++
		}
		tick := line[i : i+n]
		rest := line[i+n:]
		j := strings.Index(rest, tick)
		if j < 0 {
			return out
		}
		out = append(out, codeNames(rest[:j], true)...)
		line = rest[j+n:]
	}
}

// codeNames returns the names code calls in s (an identifier followed by
// an opening parenthesis), and when span is set and s calls none, the
// last identifier of s when s is one dotted path (`app.use`, `Router`).
func codeNames(s string, span bool) []string {
	var out []string
	last, idents := "", 0
	for i := 0; i < len(s); {
		c := s[i]
		if !identStart(c) {
			i++
			continue
		}
		j := i + 1
		for j < len(s) && identPart(s[j]) {
			j++
		}
		w := s[i:j]
		k := j
		for k < len(s) && s[k] == ' ' {
			k++
		}
		if k < len(s) && s[k] == '(' && !docsKeywords[w] {
			out = append(out, w)
		}
		last = w
		idents++
		i = j
	}
	if span && len(out) == 0 && last != "" && !docsKeywords[last] && dottedPath(s) {
		out = append(out, last)
	}
	return out
}

// dottedPath says whether s, trimmed, is identifiers joined by ., :: or #,
// with at most a trailing "()".
func dottedPath(s string) bool {
	s = strings.TrimSuffix(strings.TrimSpace(s), "()")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !identPart(c) && c != '.' && c != ':' && c != '#' {
			return false
		}
	}
	return identStart(s[0]) || s[0] == '.'
}

func identStart(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func identPart(c byte) bool { return identStart(c) || c >= '0' && c <= '9' }

// docsKeywords are words that look like calls in code examples and name
// no function of a project: keywords and the everyday built-ins of
// examples.
var docsKeywords = setOf(`if for while switch catch function return typeof new require import
	print println printf console log def func fn async await super this self assert`)
