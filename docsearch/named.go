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
	q := strings.TrimSpace(query)
	if q == "" || strings.ContainsAny(q, " \t\n") {
		return ranked
	}
	name := localName(q)
	term, found := "", false
	namesAnalyzer().analyze(name, func(t string, whole bool) {
		if whole || !found {
			term, found = t, true
		}
	})
	tid, ok := ix.lex.id(term)
	if !found || !ok || ix.lex.df(tid) > maxNamedScan {
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
	tab, add := ix.lex.parts(tid)
	n := uint32(ix.nchunks())
	for _, ps := range [][]posting{tab, add} {
		for _, p := range ps {
			if added == maxNamed {
				return ranked
			}
			if p.chunk >= n || dead.has(p.chunk) || keep != nil && !keep(p.chunk) {
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
			if !namedBy(keyName(key[i+1:]), q) {
				continue
			}
			if d := ix.doc(id); d == nil || !isCodeScope(d.scope) {
				continue
			}
			if i, ok := at[id]; ok {
				// Ranked, maybe past the window the rules read.
				ranked[i].fused, ranked[i].score = max(ranked[i].fused, top.fused), max(ranked[i].score, top.score)
			} else {
				at[id] = len(ranked)
				ranked = append(ranked, hit{chunk: p.chunk, fused: top.fused, score: top.score})
			}
			added++
		}
	}
	return ranked
}
