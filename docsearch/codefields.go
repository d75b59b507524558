package docsearch

import "math"

// A code chunk's BM25 score, which fusion ranks by, is over all of its
// fields at once: its name (nameWeight times), its qualified name and
// path (titleWeight times), its lead, doc comment and body. The members
// of one class or file share the qualified name and the path, so for a
// query whose words are those of the class or the file they all match
// alike, and the shortest wins on density ("right file, wrong symbol").
// The field features score a candidate by its own text alone, past the
// lines naming it and its place (codeBody: its doc comment, body and
// calls), with BM25's length normalisation over the candidates being
// ranked, and by how much of the query it covers at all.

// fieldWindow bounds how many of the first code candidates have their
// text analysed: it is the field features' cost, a few KB each.
const fieldWindow = codeWindow

// fieldFeatures sets featText and featCover of cands, the first code
// candidates of a query in words with terms qw, using an. A candidate's
// text is analysed once; terms are counted only when they are the
// query's.
func fieldFeatures(an *analyzer, cands []codeCand, qw []idfTerm) {
	if len(qw) == 0 || len(cands) == 0 {
		return
	}
	var total float64
	index := make(map[string]int, len(qw))
	for i, t := range qw {
		index[t.term] = i
		total += t.idf
	}
	if total == 0 {
		return
	}
	n := min(len(cands), fieldWindow)
	tf := make([][]int, n) // per candidate, per query term
	lens := make([]int, n)
	var sumLen int
	for i := range n {
		counts := make([]int, len(qw))
		length := 0
		an.analyze(codeBody(cands[i].d.text), func(t string, _ bool) {
			length++
			if k, ok := index[t]; ok {
				counts[k]++
			}
		})
		tf[i], lens[i] = counts, length
		sumLen += length
	}
	avg := max(float64(sumLen)/float64(n), 1)
	scores := make([]float64, n)
	var best float64
	for i := range n {
		norm := bm25K1 * (1 - bm25B + bm25B*float64(lens[i])/avg)
		var s float64
		for k, c := range tf[i] {
			if c > 0 {
				s += qw[k].idf * float64(c) * (bm25K1 + 1) / (float64(c) + norm)
			}
		}
		scores[i] = s
		best = max(best, s)
	}
	for i := range n {
		c := &cands[i]
		if best > 0 {
			c.f[featText] = scores[i]/best - 0.5
		} else {
			c.f[featText] = -0.5
		}
		var covered float64
		for k, cnt := range tf[i] {
			if cnt > 0 || k < 64 && c.own&(1<<k) != 0 {
				covered += qw[k].idf
			}
		}
		c.f[featCover] = covered/total - 0.5
	}
}

// fileBest sets featSibling of cands: how well the best other candidate
// of the same file scored, over the best candidate's score, as log(1+x).
// It is the file-level signal by a file's best symbol rather than by how
// many of its chunks matched (featFile).
func fileBest(cands []codeCand, fused func(codeCand) float64) {
	if len(cands) == 0 {
		return
	}
	top := fused(cands[0])
	if top <= 0 {
		return
	}
	type two struct{ a, b float64 } // the best two scores of a file
	best := map[string]two{}
	for _, c := range cands {
		s, b := fused(c), best[c.file]
		switch {
		case s > b.a:
			b.a, b.b = s, b.a
		case s > b.b:
			b.b = s
		}
		best[c.file] = b
	}
	for i := range cands {
		c := &cands[i]
		s, b := fused(*c), best[c.file]
		other := b.a
		if s >= b.a {
			other = b.b
		}
		c.f[featSibling] = math.Log1p(other / top)
	}
}
