package docsearch

import (
	"path"
	"strings"
	"unicode"
)

// Scope names. A question about a library often names it ("… in flask",
// "click command groups"), though every page of its docs is about it;
// the name is a rare word of few chunks, so its IDF is high and it pulls
// up the landing and installation pages that say it most. A word that
// names the whole of a scope therefore counts as a qualifier, as a
// language name does (qualifierWeight): it still prefers pages of that
// project among otherwise equal ones.
//
// The names are read from each scope's own front page, the document
// called README, index, _index or contents nearest its top (docs/index.md
// when there is none at the top; all of them at that depth): the
// capitalised words of its title and summary ("Welcome to Click",
// "Cobra is a library for creating powerful modern CLI applications")
// that occur in at least minNameShare of the scope's documents. The share
// keeps words of the front page that are not the project's name
// ("Welcome", "Overview") out.

// minNameShare is the least share of a scope's documents a word of its
// front page occurs in to name the scope.
const minNameShare = 0.6

// frontPages are the base names, lower-cased and without extension, of
// the documents that introduce a directory.
var frontPages = map[string]bool{"readme": true, "index": true, "_index": true, "contents": true}

// qualifies reports whether the stem t qualifies a query rather than
// saying what it is about: a language name or the name of a scope.
// Callers hold ix.mu.
func (ix *Index) qualifies(t string) bool {
	return qualifierStems[t] || ix.names[t]
}

// scopeNames finds the stems that name a whole scope. Callers hold ix.mu
// for writing or own ix.
func (ix *Index) scopeNames() map[string]bool {
	type cand struct {
		stem  string
		scope string
	}
	an := newAnalyzer()
	var cands []cand
	perScope := map[string]int{}
	type front struct {
		d     *doc
		depth int
	}
	var fronts []front
	top := map[string]int{} // the least depth of a scope's front pages
	// Every document's scope and path are read, a loaded one's from the
	// tables; only front pages are decoded.
	for id := range uint32(ix.ndocs()) {
		if !ix.live(id) {
			continue
		}
		scope := ix.docScope(id)
		perScope[scope]++
		p := ix.docPath(id)
		if i := strings.LastIndexByte(p, ':'); i >= 0 {
			p = p[i+1:]
		}
		base := strings.ToLower(path.Base(p))
		for range 2 {
			base = strings.TrimSuffix(base, path.Ext(base))
		}
		if !frontPages[base] {
			continue
		}
		d := ix.doc(id)
		depth := strings.Count(p, "/")
		if t, ok := top[scope]; !ok || depth < t {
			top[scope] = depth
		}
		fronts = append(fronts, front{d, depth})
	}
	for _, fp := range fronts {
		d := fp.d
		if fp.depth != top[d.scope] {
			continue
		}
		for _, f := range strings.FieldsFunc(d.title+" "+d.summary, func(r rune) bool { return !isWordRune(r) }) {
			if r := []rune(f); len(r) > 1 && unicode.IsUpper(r[0]) {
				an.analyze(f, func(t string, whole bool) {
					if !whole {
						cands = append(cands, cand{strings.Clone(t), d.scope})
					}
				})
			}
		}
	}
	names := map[string]bool{}
	for _, c := range cands {
		if names[c.stem] || qualifierStems[c.stem] {
			continue
		}
		id, ok := ix.lex.id(c.stem)
		if !ok {
			continue
		}
		seen := map[uint32]bool{}
		for _, p := range ix.lex.postings(id) {
			if int(p.chunk) >= ix.nchunks() {
				continue
			}
			did := ix.chunkDoc(p.chunk)
			if ix.live(did) && ix.docScope(did) == c.scope {
				seen[did] = true
			}
		}
		if float64(len(seen)) >= minNameShare*float64(perScope[c.scope]) && perScope[c.scope] >= 3 {
			names[c.stem] = true
		}
	}
	return names
}
