package docsearch

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"sync"
)

// A question is asked in the words of a doc comment, and an undocumented
// function has none: its words are its code's. The repository's own
// documented symbols pair the two vocabularies. The vocabulary bridge
// reads the documented code candidates whose doc comment holds some of
// the query's words and takes the code terms most of them share in their
// names, signatures and bodies (not their docs), and that are rare in
// the index, as what those words are called in this repository's code:
// for "sets the name and error handling property for a flag set", pflag's
// documented functions of that doc share `errorhandl` and `f.name` in
// their code. An undocumented function holding those terms is raised:
// it lacks the words its documented siblings match by, and the bridge
// gives them back in its own code's terms.
//
// It raises only what is likely a documented function whose doc is not
// there: an exported function or method, not nested in a function or
// method among the candidates (a callback or wrapper the documented one
// defines, click's pass_obj's new_func), and not a method with the name
// of a documented method among them (an override, whose doc is its base
// method's: Flask.add_url_rule under Scaffold.add_url_rule). Nor does it
// raise a function whose code is longer than the bridgeCode bytes the
// terms were read from in each documented one: a long function holds
// many terms, so it holds the bridge's by its length more than by what
// it does (werkzeug's 80-line WSGIRequestHandler.make_environ, cobra's
// 180-line InitDefaultCompletionCmd, each raised to first place above
// the documented siblings of the answer).

// Measured (docs/code-search.md, 2026-12-05, ninth session) on the tuning
// split of docs/bench/codegen, function / file nDCG@10: 0.248 / 0.737 ->
// 0.287 / 0.747 (Go 0.149 -> 0.222, JavaScript 0.309 -> 0.309, Python
// 0.291 -> 0.330); the written questions (docs/bench/code) unchanged at
// 0.720 / 0.944. The held-out split (run on the weight-0.7 commit before
// the read was bounded): function level 0.180 -> 0.199, file level 0.669
// -> 0.664. Raising every candidate holding the terms, documented or
// not, lost the tuning split (0.241 at weight 0.3): it raises the
// documented siblings the terms came from.
const (
	// bridgeWeight: a candidate holding all the terms' weight ranks
	// x e^0.7 (2.0). 0.5 gave 0.277 on the tuning split; 0.85 and 1
	// gave 0.286 and lost the written questions (0.716 / 0.940: chi's
	// middleware StripSlashes 1st to 2nd, under the router's
	// undocumented node.FindRoute).
	bridgeWeight = 0.7
	// bridgePool is how many documented candidates whose doc holds a
	// query word are read, in fused order.
	bridgePool = 20
	// bridgeMinDocs is how many of them must hold a term: two documented
	// candidates, one nested in the other, share their text and so any
	// term (express's sendfile and its onfile; written question
	// express-05 fell 1st to 3rd with 2).
	bridgeMinDocs = 3
	// bridgeShare is the least share of the pool's doc match that holds a
	// term, and bridgeLift the least ratio of that share to the term's
	// share of all chunks: self, def, error are everywhere.
	bridgeShare = 0.5
	bridgeLift  = 10
	// bridgeTerms is how many terms are kept, by share × log(lift).
	bridgeTerms = 8
	// bridgeScan is how many of the first candidates the bridge reads
	// and raises: each read is a document looked up, which a search
	// over every scope of a spilled index pays for.
	bridgeScan = 100
	// bridgeCode bounds the code text of one candidate read, and the
	// code of a function raised. Raising only functions whose code fits
	// (2026-12-06, tenth session) took the tuning split's file level
	// from 0.747 to 0.754 (three answers' files 2nd to 1st, one 5th to
	// 4th; one answer,
	// a long function, fell from 12th to 72nd), function level the same
	// (0.287), the written questions unchanged (0.720 / 0.944); 1,536
	// and 2,048 bytes gave 0.751 and 0.747, a cap of 20 and 30 lines
	// 0.751 and 0.754, lowering the raise by 20 or 40 over the lines
	// (none over that many) 0.751.
	bridgeCode = 1024
)

// bridgeTerm is a code term the bridge chose and its weight.
type bridgeTerm struct {
	term   string
	weight float64
}

// splitDoc returns a code document's doc comment (with any enriched
// prose before its body) and its name, signature and body; both are ""
// when the body's start is not found (bodyStart).
func splitDoc(title, text string) (doc, code string) {
	_, sig := codeMeta(text)
	rest := codeBody(text)
	start := bodyStart(rest, strings.TrimSpace(sig), localName(title))
	if start == 0 {
		return "", ""
	}
	return rest[:start], embedName(title) + "\n" + sig + "\n" + rest[start:]
}

// vocabularyBridge returns the bridge's terms for the query terms qw
// from the documented code candidates of ranked (in fused order), best
// first, at most bridgeTerms.
func (ix *Index) vocabularyBridge(an *analyzer, ranked []hit, qw []idfTerm) []bridgeTerm {
	var qtotal float64
	inQuery := map[string]bool{}
	for _, t := range qw {
		qtotal += t.idf
		inQuery[t.term] = true
	}
	if qtotal == 0 {
		return nil
	}
	share := map[string]float64{}
	docs := map[string]int{}
	seen := map[string]bool{}
	var total float64
	pooled := 0
	for _, h := range ranked[:min(len(ranked), bridgeScan)] {
		if pooled == bridgePool {
			break
		}
		d := ix.doc(ix.chunkDoc(h.chunk))
		if d == nil || !isCodeScope(d.scope) || d.summary == "" {
			continue
		}
		docPart, code := splitDoc(d.title, d.text)
		if docPart == "" {
			continue
		}
		clear(seen)
		an.analyze(docPart, func(t string, _ bool) {
			if inQuery[t] {
				seen[t] = true
			}
		})
		var m float64
		for _, t := range qw {
			if seen[t.term] {
				m += t.idf
			}
		}
		if m == 0 {
			continue
		}
		m /= qtotal
		pooled++
		total += m
		clear(seen)
		an.analyze(cutAt(code, bridgeCode), func(t string, _ bool) {
			if !inQuery[t] {
				seen[t] = true
			}
		})
		for t := range seen {
			share[t] += m
			docs[t]++
		}
	}
	if total == 0 {
		return nil
	}
	live := float64(max(ix.lex.live, 1))
	var out []bridgeTerm
	for t, s := range share {
		if docs[t] < bridgeMinDocs || s/total < bridgeShare {
			continue
		}
		id, ok := ix.lex.id(t)
		if !ok {
			continue
		}
		p := s / total
		lift := p / max(float64(ix.lex.df(id))/live, 1e-9)
		if lift < bridgeLift {
			continue
		}
		out = append(out, bridgeTerm{t, p * math.Log(lift)})
	}
	slices.SortFunc(out, func(a, b bridgeTerm) int {
		if c := cmp.Compare(b.weight, a.weight); c != 0 {
			return c
		}
		return strings.Compare(a.term, b.term)
	})
	return out[:min(len(out), bridgeTerms)]
}

// bridgeAnalyzers keeps analyzers between searches: an analyzer caches
// the terms of each word it has read, and the bridge reads the code of
// up to bridgePool candidates a search, mostly words read before. A
// fresh analyzer a search put the bridge at half of a code search's
// time in BenchmarkSearchDocsServe (2026-12-05).
var bridgeAnalyzers sync.Pool

// bridge raises the code results of ranked (in fused order) that the
// vocabulary bridge finds for query (see above): each by
// exp(bridgeWeight × the share of the terms' weight it holds). It
// reports whether it raised any; ranked is then to be sorted again.
func (ix *Index) bridge(ranked []hit, query string, qt QueryType) bool {
	if qt == QueryCodeLookup || len(ranked) == 0 {
		return false
	}
	an, _ := bridgeAnalyzers.Get().(*analyzer)
	if an == nil {
		an = newAnalyzer()
	}
	terms := ix.vocabularyBridge(an, ranked, ix.queryIDF(query))
	bridgeAnalyzers.Put(an)
	if len(terms) == 0 {
		return false
	}
	// The terms' weight each of the first candidates holds, found in
	// the terms' postings (in increasing chunk order) by binary search:
	// a bridge term may be in tens of thousands of chunks of a large
	// index, and only bridgeScan candidates are read.
	cands := ranked[:min(len(ranked), bridgeScan)]
	val := make([]float64, len(cands))
	var total float64
	for _, t := range terms {
		total += t.weight
		id, _ := ix.lex.id(t.term)
		ps := ix.lex.postings(id)
		for i, h := range cands {
			if _, ok := slices.BinarySearchFunc(ps, h.chunk, func(p posting, c uint32) int { return cmp.Compare(p.chunk, c) }); ok {
				val[i] += t.weight
			}
		}
	}
	type span struct {
		file      string
		line, end uint32
	}
	var funcs []span
	documented := map[string]bool{} // names of documented methods
	for _, h := range cands {
		d := ix.doc(ix.chunkDoc(h.chunk))
		if d == nil || !isCodeScope(d.scope) {
			continue
		}
		kind, _ := codeMeta(d.text)
		if kind != "function" && kind != "method" {
			continue
		}
		rec := ix.chunk(h.chunk)
		funcs = append(funcs, span{codeFileOf(d.path), rec.line, rec.end})
		if kind == "method" && d.summary != "" {
			documented[localName(d.title)] = true
		}
	}
	changed := false
	for i := range cands {
		v := val[i]
		if v == 0 {
			continue
		}
		d := ix.doc(ix.chunkDoc(ranked[i].chunk))
		if d == nil || !isCodeScope(d.scope) || d.summary != "" {
			continue
		}
		kind, _ := codeMeta(d.text)
		name, file := localName(d.title), codeFileOf(d.path)
		if kind != "function" && kind != "method" || kind == "method" && documented[name] || !exported(name, file) ||
			len(codeBody(d.text)) > bridgeCode {
			continue
		}
		rec := ix.chunk(ranked[i].chunk)
		nested := false
		for _, b := range funcs {
			if b.file == file && b.line <= rec.line && rec.end <= b.end && (b.line != rec.line || b.end != rec.end) {
				nested = true
				break
			}
		}
		if nested {
			continue
		}
		ranked[i].fused *= math.Exp(bridgeWeight * v / total)
		changed = true
	}
	return changed
}
