package docsearch

import "strings"

// A copy answered by its source. demoteCopies lowers a copy only when the
// function it copies is among the candidates too. A bundle without a
// source map (moment's moment.js, min/moment-with-locales.js and
// dist/moment.js, three builds of src/) repeats every function of the
// modules, and its copy often outranks the module's by the words of its
// place, so that the module's own never becomes a candidate. So each of
// the first results is looked up by its name: when a function of the
// same name elsewhere has the same text, laid out otherwise (the bundle
// indents its modules and drops their `export`), and starts nearer the
// top of its file, the result is that function, in the copy's place.

const (
	// sourceWindow is how many of the first results are looked up.
	sourceWindow = 20
	// maxSourceDF is the most chunks a name may be in to be looked up:
	// a bundle's names are a module's, and a name that common (init, get)
	// would cost a search a walk of its postings.
	maxSourceDF = 256
)

// answerBySource replaces each code result among the first sourceWindow
// of ranked that copies a function nearer the top of another file by
// that function; when that function is ranked already, it is raised to
// the copy's score, if below it, and the copy lowered (copyDemote). It
// reports whether it changed any. A source that takes a copy's place
// takes its score times lower(the copy, the source), when lower is not nil: the
// features' verdict on the source that the copy's score lacks. ix.mu is
// held for reading.
func (ix *Index) answerBySource(ranked []hit, lower func(dup, src *doc) float64) bool {
	at := make(map[uint32]int, len(ranked))
	for i, h := range ranked {
		if _, ok := at[h.chunk]; !ok {
			at[h.chunk] = i
		}
	}
	an := newAnalyzer()
	changed := false
	for i := range ranked[:min(len(ranked), sourceWindow)] {
		src, ok := ix.sourceOf(an, ranked[i].chunk)
		if !ok {
			continue
		}
		changed = true
		score := ranked[i].fused
		if lower != nil {
			score *= lower(ix.doc(ix.chunkDoc(ranked[i].chunk)), ix.doc(ix.chunkDoc(src)))
		}
		if j, ranks := at[src]; ranks {
			// The function is ranked already: it takes the copy's place
			// if that is above its own, and the copy is lowered.
			ranked[j].fused = max(ranked[j].fused, score)
			ranked[i].fused *= copyDemote
			continue
		}
		delete(at, ranked[i].chunk)
		ranked[i].chunk, ranked[i].fused = src, score
		at[src] = i
	}
	return changed
}

// sourceOf returns the chunk of the function that the code chunk c
// copies (see answerBySource), and whether there is one.
func (ix *Index) sourceOf(an *analyzer, c uint32) (uint32, bool) {
	id := ix.chunkDoc(c)
	d := ix.doc(id)
	if d == nil || !isCodeScope(d.scope) {
		return 0, false
	}
	file, line := codeFileOf(d.path), ix.chunk(c).line
	built := ix.builtCopy(d, file)
	if built {
		if src, ok := ix.twinAnswer(d, file); ok {
			return src, true
		}
		if ix.bundle(file) {
			if src, ok := ix.bundleAnswer(an, d, file); ok {
				return src, true
			}
		}
	}
	name := unrenamed(localName(d.title))
	if name == "" || strings.HasPrefix(name, "<") {
		return 0, false // a place: its name is not its own
	}
	raw, text, short, ok := copyText(d)
	if !ok {
		return 0, false
	}
	tid, ok := ix.nameTerm(an, name)
	if !ok || ix.lex.df(tid) > maxSourceDF {
		return 0, false
	}
	best, bestLine := uint32(0), line
	found, bestSource := false, false
	ix.symbolPostings(tid, ix.deadChunks, func(oc, oid uint32, ofile, oname string) bool {
		if oc == c || oid == id || ofile == file || unrenamed(localName(oname)) != name {
			return true
		}
		od := ix.doc(oid)
		if od == nil || od.scope != d.scope {
			return true // the search's scopes kept the copy's, not perhaps another's
		}
		oline := ix.chunk(oc).line
		obuilt := ix.builtCopy(od, ofile)
		switch {
		case obuilt && (!built || bestSource):
			return true // a source is never answered by a build's copy
		case built && !obuilt && !bestSource:
			// A build's copy is answered by its source wherever that
			// starts: a module format's twin (twins.go) starts near
			// the same line as the source.
		case oline >= bestLine:
			return true
		}
		// Of copies laid out alike, a build's (moment's dist/) is
		// answered by the source's, and no other: a function copied
		// from one module to another is no bundle's.
		if oraw, otext, oshort, ok := copyText(od); ok && (oraw != raw || built && !obuilt) && copies(raw, text, short, oraw, otext, oshort) {
			best, bestLine = oc, oline // live, checked by symbolPostings: its path's document
			found, bestSource = true, built && !obuilt
		}
		return true
	})
	return best, found
}

// twinAnswer returns the chunk of the symbol that d, a code document of
// file, copies when file is a module format's copy of a file (twins.go,
// mirror.go): the source file's symbol of the same kind and the same
// name past the file's module (a place too: `<callback of
// this.joins.find>`), or, but for a place, of the same local name (an
// AMD copy nests its functions in the define callback). It is looked up
// in the source's own documents, so that a name as common as save
// (maxSourceDF) is still found there, whatever the compiler rewrote in
// its text.
func (ix *Index) twinAnswer(d *doc, file string) (uint32, bool) {
	twin := ix.twinSourceOf(file)
	if twin == "" || strings.HasSuffix(twin, "/") {
		return 0, false
	}
	inner := innerName(d.title, file)
	name := unrenamed(localName(d.title))
	place := name == "" || strings.HasPrefix(name, "<")
	var byName uint32 // the first of the local name, if none of the inner name
	found := false
	for key, oid := range ix.pathsUnder(twin + "#") {
		od := ix.doc(oid)
		if od == nil || od.scope != d.scope || codeFileOf(key) != twin || !ix.live(oid) || !sameKind(d, od) {
			continue
		}
		switch {
		case innerName(od.title, twin) == inner:
			return od.first, true
		case !found && !place && unrenamed(localName(od.title)) == name:
			byName, found = od.first, true
		}
	}
	return byName, found
}

// innerName is a code symbol's qualified name past its file's module (the
// file's path less extension, dotted), or the whole name when it does
// not start with it.
func innerName(title, file string) string {
	stem, _ := scriptStem(file)
	if rest, ok := strings.CutPrefix(title, strings.ReplaceAll(stem, "/", ".")+"."); ok {
		return rest
	}
	return title
}

// sameKind reports whether two code documents are of the same kind of
// symbol (function, method, module...).
func sameKind(a, b *doc) bool {
	ka, _ := codeMeta(a.text)
	kb, _ := codeMeta(b.text)
	return ka == kb
}

// keyName is the qualified name of a code document's key past its file:
// without the "@line" or "@line.n" CodeKeys appends to a second symbol
// of the same name.
func keyName(k string) string {
	i := strings.LastIndexByte(k, '@')
	if i < 0 || strings.Trim(k[i+1:], "0123456789.") != "" || i == len(k)-1 {
		return k
	}
	return k[:i]
}
