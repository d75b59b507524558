package docsearch

import (
	"path"
	"regexp"
	"slices"
	"strings"
)

// Page-level signals. BM25 ranks chunks, and a document ranks by its best
// chunk: a page that mentions a topic in one sub-section ranks with the
// page that is about it, and hubs, what's-new pages and changelogs, which
// mention everything once, outrank the reference page as often as not.
// So fusion hears about the page as a whole too (pageSignal):
//
//   - its page field, the words of its title, first heading and path
//     segments, is one more ranked list of reciprocal rank fusion: the
//     candidates whose page field covers most of the query's weight come
//     first; on a page whose field matches some word, a word only in its
//     summary (the first paragraph, which says what the page is for)
//     counts leadShare of one. The summary alone does not enter the list:
//     a hub's introduction says the words of many topics;
//   - a page that reads as release notes, a changelog or a dated post
//     (pageInfo.changes, by its structure) counts changesPenalty times
//     less unless the query asks about versions or changes.

// pageInfo is what the page signals read of a document, made when it is
// processed or loaded.
type pageInfo struct {
	terms   []uint64 // hashes (termHash) of the stems of the title, first heading and path segments, sorted, unique
	lead    []uint64 // hashes of the stems of its summary, its first paragraph, sorted, unique
	changes bool     // release notes, changelog or dated post
}

// termHash is the FNV-1a hash of a term: a page field is matched by
// comparing hashes, a fifth of a search's time when it compared strings
// (BenchmarkSearch). Two terms of one query and page that collide in 64
// bits are not worth a string.
func termHash(t string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(t); i++ {
		h ^= uint64(t[i])
		h *= 1099511628211
	}
	return h
}

// pageOf reads a document's page field and kind with an. A document
// without headings has no page field: its title is a name given by the
// caller or its first line, not what an author called a page. CoSQA's
// functions, titled by their names, lost nDCG@10 0.502 -> 0.399 with
// one: a function name covers a question's words far less surely than a
// page title does.
func pageOf(an *analyzer, d *doc) *pageInfo {
	p := &pageInfo{changes: readsAsChanges(an, d)}
	if len(d.headings) == 0 {
		return p
	}
	emit := func(t string, _ bool) { p.terms = append(p.terms, termHash(t)) }
	an.analyze(d.title, emit)
	if len(d.headings) > 0 && d.headings[0].Text != d.title {
		an.analyze(d.headings[0].Text, emit)
	}
	an.analyze(pathWords(d.path), emit)
	slices.Sort(p.terms)
	p.terms = slices.Compact(p.terms)
	an.analyze(d.summary, func(t string, _ bool) { p.lead = append(p.lead, termHash(t)) })
	slices.Sort(p.lead)
	p.lead = slices.Compact(p.lead)
	return p
}

// pathWords returns the words of a document path: its segments without
// the extension (and a second one, as in Sphinx's page.rst.txt), joined
// by spaces; "index", "readme" and "_index" segments say nothing.
func pathWords(p string) string {
	if i := strings.LastIndexByte(p, ':'); i >= 0 {
		p = p[i+1:] // a scope's own file system: "scope:path"
	}
	base := path.Base(p)
	for range 2 {
		if ext := path.Ext(base); len(ext) > 1 && len(ext) <= 9 && strings.IndexFunc(ext[1:], isLetter) >= 0 {
			base = strings.TrimSuffix(base, ext)
		}
	}
	segs := strings.Split(path.Dir(p), "/")
	segs = append(segs, base)
	var b strings.Builder
	for _, s := range segs {
		switch strings.ToLower(strings.Trim(s, "_")) {
		case ".", "", "index", "readme":
			continue
		}
		b.WriteString(strings.NewReplacer("_", " ", "-", " ").Replace(s))
		b.WriteByte(' ')
	}
	return b.String()
}

var (
	// versionPattern matches a version number: 3.11, v2.0.1.
	versionPattern = regexp.MustCompile(`(?:^|[^\w.])[vV]?\d+\.\d+(?:\.\d+)?(?:[^\w.]|$)`)
	// datePattern matches a calendar date: 2024-05-01, 2024/5/1, or a
	// month name and a year ("May 1, 2024", "1 May 2024").
	datePattern = regexp.MustCompile(`\b(?:19|20)\d\d[-/.](?:0?[1-9]|1[0-2])(?:[-/.]\d\d?)?\b|(?i:\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+(?:\d\d?(?:st|nd|rd|th)?,?\s+)?(?:19|20)\d\d\b)`)
)

// changeStems are the stems of the words release notes head their
// sections with ("New Features", "Deprecated", "Removed", "Build
// Changes") and of the words a query about versions or changes uses.
var changeStems = func() map[string]bool {
	an := newAnalyzer()
	m := map[string]bool{}
	for _, w := range strings.Fields(`new changes changelog release released releases history news
		deprecated deprecation removed upgrade upgrading migration migrate whatsnew breaking`) {
		m[an.stem(w)] = true
	}
	return m
}()

// readsAsChanges reports whether a document is release notes, a
// changelog or a dated post, by its structure: at least three headings,
// a quarter of them or more, carry a version number or a date (a
// changelog's "Version 2.2.2", "3.11.0 (2022-10-24)"); or its title or
// path carries a date (a post); or its title or path carries a version
// and three of its headings or more name changes ("New Features",
// "Deprecated", "Removed": a what's-new page). A page that names one
// version in its title ("DB-API 2.0 interface") is none of these.
func readsAsChanges(an *analyzer, d *doc) bool {
	dated := 0
	for _, h := range d.headings {
		if hasDigit(h.Text) && (versionPattern.MatchString(h.Text) || datePattern.MatchString(h.Text)) {
			dated++
		}
	}
	if dated >= 3 && dated*4 >= len(d.headings) {
		return true
	}
	if !hasDigit(d.title) && !hasDigit(d.path) {
		return false // the patterns below all need one; regexps cost
	}
	if datePattern.MatchString(d.title) || datePattern.MatchString(d.path) {
		return true
	}
	if !versionPattern.MatchString(d.title) && !versionPattern.MatchString(pathWords(d.path)) {
		return false
	}
	named := 0
	for _, h := range d.headings {
		if namesChange(an, h.Text) {
			if named++; named >= 3 {
				return true
			}
		}
	}
	return false
}

func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// namesChange reports whether text has a word of changeStems.
func namesChange(an *analyzer, text string) bool {
	found := false
	an.analyze(text, func(t string, whole bool) {
		found = found || !whole && changeStems[t]
	})
	return found
}

// asksAboutChanges reports whether a query asks about versions or
// changes: it names a version or a word of changeStems.
func asksAboutChanges(an *analyzer, text string) bool {
	return versionPattern.MatchString(text) || namesChange(an, text)
}

// Weights of the page signals, measured on the docs benchmark
// (docs/bench/docs, docs/docs-measurements.md).
const (
	// pageWeight is the weight of the page-field list in fusion, against
	// 1 for each retriever.
	pageWeight = 1.0
	// minPageCover is the least share of the query's weight a page field
	// covers to enter the list.
	minPageCover = 0.2
	// changesPenalty divides the fused score of release notes when the
	// query does not ask about changes.
	changesPenalty = 1.5
	// leadShare is what a query word in a page's summary, and not in its
	// title or path, counts of one in them. bench docs, MRR@10 / Hit@1:
	// 0.824 / 0.725 without, 0.832 / 0.745 with 0.5; counting summaries
	// of pages whose field matched nothing too put hubs first (0.834 /
	// 0.745, but Flask and Python lost, and so did testdata/rank).
	leadShare = 0.5
)

// pageSignal adds the page signals to fused hits and sorts them again.
// They are lexical: a search by vectors alone goes without them. The
// artifacts and code scopes have none: an artifact's or a symbol's title
// and path are those of its source file, which its text names throughout
// (code has its own, coderank.go). Callers
// hold ix.mu for reading.
func (ix *Index) pageSignal(text string, hits []hit) []hit {
	if len(hits) < 2 {
		return hits
	}
	an := newAnalyzer()
	type qword struct {
		hash   uint64
		weight float64
	}
	var words []qword
	var total float64
	seen := map[string]bool{}
	an.analyze(text, func(t string, _ bool) {
		if seen[t] {
			return
		}
		seen[t] = true
		w := ix.lex.idf(0)
		if id, ok := ix.lex.id(t); ok {
			w = ix.lex.idf(ix.lex.df(id))
		}
		if ix.qualifies(t) {
			w *= qualifierWeight
		}
		words = append(words, qword{termHash(t), w})
		total += w
	})
	changes := asksAboutChanges(an, text)
	type ranked struct {
		i     int
		cover float64
		size  int
	}
	var list []ranked
	for i := range hits {
		d := ix.doc(ix.chunkDoc(hits[i].chunk))
		p := d.page
		if p == nil || d.scope == ScopeArtifacts || isCodeScope(d.scope) {
			continue // an artifact's or a symbol's title and path are its source file's
		}
		if p.changes && !changes {
			hits[i].fused /= changesPenalty
		}
		var cover, lead float64
		for _, w := range words {
			if _, ok := slices.BinarySearch(p.terms, w.hash); ok {
				cover += w.weight
			} else if _, ok := slices.BinarySearch(p.lead, w.hash); ok {
				lead += leadShare * w.weight
			}
		}
		if cover > 0 {
			cover += lead
		}
		if total > 0 && cover/total >= minPageCover {
			list = append(list, ranked{i, cover / total, len(p.terms)})
		}
	}
	// The fullest cover first; of equal ones, the page field with fewer
	// other words.
	slices.SortStableFunc(list, func(a, b ranked) int {
		switch {
		case a.cover > b.cover:
			return -1
		case a.cover < b.cover:
			return 1
		}
		return a.size - b.size
	})
	for r, x := range list {
		hits[x.i].fused += pageWeight / float64(rrfK+r+1)
	}
	slices.SortStableFunc(hits, byFused)
	return hits
}
