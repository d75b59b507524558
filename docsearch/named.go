package docsearch

import "strings"

// maxNamedScan bounds the postings a search for an identifier reads to
// find the symbols of that name (namedHits): past it, a name is too
// common to be looked up this way, and ranking alone finds what it can.
const maxNamedScan = 10000

// maxNamed bounds the symbols of one name namedHits adds.
const maxNamed = 20

// namedHits adds to ranked (fused order) the code symbols named by
// query, an identifier ("packages.Load", "Table"), that fusion left out
// or ranked past the window the rules after it read (copyWindow):
// a symbol's callers write its name whole, and a short query's words
// are everywhere in a large tree, so in golang.org/x/tools the callers
// of packages.Load filled the candidates and Load was not among them.
// A symbol is named by the query when its qualified name is the query
// or ends with it after a ".", ":" or "/" (as raiseNamed, which then
// raises it). They are found through the postings of the term of the
// query's last part, its keys read without decoding their documents,
// and are added with (or raised to) the best fused score and relevance
// of ranked. keep and dead are the search's (keeper).
func (ix *Index) namedHits(ranked []hit, query string, keep func(uint32) bool, dead bitSet) []hit {
	if !oneWord(query) {
		return ranked
	}
	q := strings.TrimSpace(query)
	tid, ok := ix.nameTerm(namesAnalyzer(), localName(q))
	if !ok || ix.lex.df(tid) > maxNamedScan {
		return ranked
	}
	at := make(map[uint32]int, len(ranked)) // document → its place in ranked
	for i, h := range ranked {
		at[ix.chunkDoc(h.chunk)] = i
	}
	top := hit{fused: 1.0 / (rrfK + 1)}
	if len(ranked) > 0 {
		top = ranked[0]
	}
	added := 0
	ix.symbolPostings(tid, dead, func(chunk, id uint32, _, name string) bool {
		if added == maxNamed {
			return false
		}
		if keep != nil && !keep(chunk) || !namedBy(name, q) {
			return true
		}
		if d := ix.doc(id); d == nil || !isCodeScope(d.scope) {
			return true
		}
		ranked = joinAt(ranked, at, id, chunk, top) // if ranked, maybe past the window the rules read
		added++
		return true
	})
	return ranked
}

// joinAt raises document id's hit in ranked (at: each ranked document's
// place) to top's fused score and relevance, or, when id is not ranked,
// appends chunk's hit with them and records its place; it returns ranked.
func joinAt(ranked []hit, at map[uint32]int, id, chunk uint32, top hit) []hit {
	if i, ok := at[id]; ok {
		ranked[i].fused, ranked[i].score = max(ranked[i].fused, top.fused), max(ranked[i].score, top.score)
		return ranked
	}
	at[id] = len(ranked)
	return append(ranked, hit{chunk: chunk, fused: top.fused, score: top.score})
}

// nameTerm returns the ID of the term a symbol's name is looked up by,
// as an analyses it: its whole form, or else its first term; ok is false
// when the index has no such term.
func (ix *Index) nameTerm(an *analyzer, name string) (uint32, bool) {
	term, found := "", false
	an.analyze(name, func(t string, whole bool) {
		if whole || !found {
			term, found = t, true
		}
	})
	if !found {
		return 0, false
	}
	return ix.lex.id(term)
}

// symbolPostings calls f with each chunk the postings of term tid reach
// that is neither dead nor its document removed (an overlay keeps a
// removed document's postings) and whose document is a code symbol's:
// the chunk, its document, and the file and qualified name its key,
// "file#qualified name", says without decoding the document. f returns
// false to stop.
func (ix *Index) symbolPostings(tid uint32, dead bitSet, f func(chunk, id uint32, file, name string) bool) {
	tab, add := ix.lex.parts(tid)
	n := uint32(ix.nchunks())
	for _, ps := range [][]posting{tab, add} {
		for _, p := range ps {
			if p.chunk >= n || dead.has(p.chunk) {
				continue
			}
			id := ix.chunkDoc(p.chunk)
			if !ix.live(id) {
				continue
			}
			key := ix.docPath(id)
			i := strings.LastIndexByte(key, '#')
			if i < 0 {
				continue // not a code document's key
			}
			if !f(p.chunk, id, key[:i], keyName(key[i+1:])) {
				return
			}
		}
	}
}
