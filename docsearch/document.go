package docsearch

import (
	"crypto/sha256"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"
)

// Document is a document given to Put instead of read from a file
// system: the way to index text that has no file (a benchmark corpus, a
// generated page).
type Document struct {
	Path    string // unique key, used as a file path would be
	Scope   string // one of the index's scopes
	Title   string // "" takes the first heading
	Text    string
	Format  string // "markdown" (default), "text", "rst" or "html"
	Updated time.Time
}

// doc is one indexed document. Its prose, never nil, is noProse, shared,
// for a document with none (every code document): 144 bytes a document
// instead of 240, 107 MB of the Linux kernel's 1.12 M code documents
// (docs/bigrepos.md).
type doc struct {
	path    string
	scope   string
	title   string
	summary string
	*prose
	size   int64
	mtime  int64    // file modification time, Unix ns; 0 for a Put document
	hash   [16]byte // of the file's bytes
	text   string   // a Put document's text, which has no file to read again
	stamp  uint64   // a code document's CodeFile.Stamp; 0 for none
	first  uint32   // its chunks are [first, first+count)
	count  uint32
	format format
	put    bool
	// generated says a code document is of a file a tool wrote
	// (CodeFile.Generated).
	generated bool
}

// prose is what a document read as prose (or Put with a date) has and
// a code document has not.
type prose struct {
	entities []string
	headings []Heading
	updated  time.Time
	note     string    // what of it was not indexed, over the budget of a document; "" for nothing
	page     *pageInfo // page-level signals (page.go)
}

// noProse is the prose of documents with none. It is never written to:
// a writer takes ownProse first.
var noProse = &prose{}

// ownProse returns d's prose to write to, its own.
func (d *doc) ownProse() *prose {
	if d.prose == nil || d.prose == noProse {
		d.prose = &prose{}
	}
	return d.prose
}

// proseOr returns p, or noProse when p holds nothing.
func proseOr(p *prose) *prose {
	if len(p.entities) == 0 && len(p.headings) == 0 && p.updated.IsZero() && p.note == "" && p.page == nil {
		return noProse
	}
	return p
}

// processed is a document cut into chunks and analysed, ready to enter
// the index.
type processed struct {
	doc    *doc
	chunks []chunk
	terms  [][]termFreq // per chunk, in the order of first occurrence
}

// termFreq is a term's weighted frequency in a chunk.
type termFreq struct {
	term string
	tf   uint32
}

// titleWeight is how many times a chunk's heading path counts against
// its text: headings name what a section is about.
const titleWeight = 2

// worker holds what one goroutine needs to process documents.
type worker struct {
	keepText bool // chunk texts are embedded after processing
	an       *analyzer
	names    *analyzer // a code symbol's own name: keeps stop words
	ch       chunker
	counts   map[string]uint32 // scratch: term → index in the chunk's list
	terms    []termFreq        // scratch: the chunk's list while it grows
}

func newWorker(limit int) (*worker, error) {
	tc, err := newTokenCounter()
	if err != nil {
		return nil, err
	}
	return &worker{an: newAnalyzer(), names: namesAnalyzer(), ch: chunker{limit: limit, tc: tc}, counts: map[string]uint32{}}, nil
}

// maxDocChunks bounds the chunks of a document: past them, its text is
// not indexed. With the file size limit (Options.MaxFileBytes) and
// maxDocHeadings, it bounds what one document costs, whatever it holds.
const maxDocChunks = 10000

// process cuts text, read as format f, into an analysed document. title
// overrides the document's own title when not empty. A document over the
// budget (maxDocHeadings, maxDocChunks) is cut to it, and d.note says so.
func (w *worker) process(d *doc, text string, f format, title string) processed {
	d.ownProse()
	secs, fm, pageTitle, over := readSections(text, f)
	page := f == formatHTML
	if page {
		f = formatMarkdown
	}
	if title == "" {
		title = pageTitle
	}
	if title == "" && fm != "" {
		title = frontMatterValue(fm, "title")
	}
	if d.updated.IsZero() && fm != "" {
		if t, err := time.Parse(time.RFC3339, frontMatterValue(fm, "extracted_at")); err == nil {
			d.updated = t.UTC()
		}
	}
	d.headings = d.headings[:0]
	for _, s := range secs {
		if s.level > 0 {
			d.headings = append(d.headings, Heading{Level: s.level, Text: s.heading, Line: s.line})
		}
	}
	if title == "" {
		title = firstTitle(secs, f, page)
	}
	if title == "" {
		title = path.Base(d.path)
	}
	d.title = title
	d.summary = summarize(secs, page)
	d.entities = entities(secs)
	d.format = f
	d.page = pageOf(w.an, d)
	chunks := w.ch.chunks(secs, title)
	var notes []string
	if over > 0 {
		notes = append(notes, fmt.Sprintf("%d headings: past the first %d, headings are read as text", len(d.headings)+over, len(d.headings)))
	}
	if len(chunks) > maxDocChunks {
		notes = append(notes, fmt.Sprintf("truncated: the first %d chunks of %d are indexed", maxDocChunks, len(chunks)))
		chunks = chunks[:maxDocChunks:maxDocChunks]
	}
	d.note = strings.Join(notes, "; ")
	p := processed{doc: d, chunks: chunks, terms: make([][]termFreq, len(chunks))}
	for i := range chunks {
		c := &p.chunks[i]
		if hasLead(*c, f) {
			c.lead = leadSentence(c.text)
		}
		p.terms[i] = w.analyze(c.title, c.lead, c.text)
		c.template = templateHash(p.terms[i], d.page.terms)
		if !w.keepText {
			c.text, c.lead = "", "" // only an embedder reads them again
		}
	}
	return p
}

// analyze returns the term frequencies of a chunk, its title counted
// titleWeight times and its lead (a part of text) leadWeight times more.
func (w *worker) analyze(title, lead, text string) []termFreq {
	clear(w.counts)
	out := w.terms[:0]
	add := func(weight uint32) func(string, bool) {
		return func(t string, _ bool) {
			// t is the analyzer's own copy, kept without copying again.
			if i, ok := w.counts[t]; ok {
				out[i].tf += weight
				return
			}
			w.counts[t] = uint32(len(out))
			out = append(out, termFreq{t, weight})
		}
	}
	w.an.analyze(title, add(titleWeight))
	w.an.analyze(lead, add(leadWeight))
	w.an.analyze(text, add(1))
	w.terms = out
	// The list is kept until the chunk enters the index: one allocation
	// of its size, not the ones of growing it. It stays in text order:
	// the lexicon needs no order, and the saved index sorts its terms.
	return slices.Clone(out)
}

// maxSummary is the longest summary, in bytes.
const maxSummary = 240

// summarize returns the first paragraph of prose, without markup and
// without its lines of badges, links or HTML only (proseOf), cut at
// a word boundary to at most maxSummary bytes. For an HTML page with a
// level-1 heading, the paragraph is one after it: what comes before the
// title of a page is navigation, skip links and hidden help ("Skip to
// main content" was the summary of every rustdoc page without a main
// element). Markdown is read from its start: 250 of 8,920 npm READMEs
// describe the package before their first "# " heading (under an HTML
// <h1>, or none).
func summarize(secs []section, page bool) string {
	for i, s := range secs {
		if page && s.level == 1 {
			secs = secs[i:]
			break
		}
	}
	for _, s := range secs {
		for _, b := range s.blocks {
			if b.code {
				continue
			}
			t := strings.Join(strings.Fields(plainInline(proseOf(b.text))), " ")
			// Tables and short lines of links leave little text.
			if len(t) < 20 || strings.HasPrefix(t, "|") || strings.HasPrefix(t, "<") {
				continue
			}
			return truncate(t, maxSummary)
		}
	}
	return ""
}

// truncate cuts s to at most n bytes at a space, adding "…".
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	if cut < n/2 {
		cut = n
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
	}
	return strings.TrimRight(s[:cut], " ,;:") + "…"
}

// maxEntities is how many entities a document lists.
const maxEntities = 10

// entities returns the identifiers a document is about: code spans and
// headings that look like code, most frequent first (ties in order of
// first appearance).
func entities(secs []section) []string {
	count := map[string]int{}
	var order []string
	add := func(e string) {
		e = strings.TrimSpace(e)
		if i := strings.IndexByte(e, '('); i > 0 {
			e = e[:i]
		}
		if len(e) < 2 || len(e) > 60 || strings.ContainsAny(e, " \t\n{}[]<>\"'=,;") || !isIdentifierLike(e) {
			return
		}
		if count[e] == 0 {
			order = append(order, e)
		}
		count[e]++
	}
	for _, s := range secs {
		if s.level > 0 && looksLikeAPIName(s.heading) {
			add(s.heading)
		}
		for _, b := range s.blocks {
			if b.code {
				continue
			}
			t := b.text
			for {
				i := strings.IndexByte(t, '`')
				if i < 0 {
					break
				}
				j := strings.IndexByte(t[i+1:], '`')
				if j < 0 {
					break
				}
				add(t[i+1 : i+1+j])
				t = t[i+j+2:]
			}
		}
	}
	slices.SortStableFunc(order, func(a, b string) int { return count[b] - count[a] })
	if len(order) > maxEntities {
		order = order[:maxEntities]
	}
	return order
}

// isIdentifierLike reports whether e starts with a letter, "_", "$" or
// "." and has a letter in it.
func isIdentifierLike(e string) bool {
	r, _ := utf8.DecodeRuneInString(e)
	if !isLetter(r) && r != '_' && r != '$' && r != '.' && r != '@' && r != '-' {
		return false
	}
	return strings.IndexFunc(e, isLetter) >= 0
}

// contentHash is the hash documents are compared by.
func contentHash(b []byte) [16]byte {
	s := sha256.Sum256(b)
	var h [16]byte
	copy(h[:], s[:16])
	return h
}

// contentHashOf is contentHash of a then b joined, without joining them:
// hashing code documents' joined texts copied every symbol's source,
// 772 MB of garbage over the Linux kernel.
func contentHashOf(a, b string) [16]byte {
	h := sha256.New()
	h.Write(unsafe.Slice(unsafe.StringData(a), len(a))) // only read: no copy
	h.Write(unsafe.Slice(unsafe.StringData(b), len(b)))
	var sum [16]byte
	copy(sum[:], h.Sum(make([]byte, 0, sha256.Size)))
	return sum
}
