package docsearch

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"time"
)

// DocInfo describes one indexed document.
type DocInfo struct {
	Path     string   `json:"path"`
	Title    string   `json:"title"`
	Scope    string   `json:"scope"`
	Summary  string   `json:"summary,omitempty"`
	Entities []string `json:"entities,omitempty"`
	Updated  string   `json:"updated,omitempty"`
}

// Doc is a fetched document or section.
type Doc struct {
	Path    string `json:"path"`
	Title   string `json:"title"`
	Scope   string `json:"scope"`
	Summary string `json:"summary,omitempty"`
	Updated string `json:"updated,omitempty"`
	// Content starts with "<!-- Source: PATH -->"; code blocks are as in
	// the source, relative links are made absolute.
	Content string `json:"content"`
}

// NotFoundError is the error for a path that is no indexed document. It
// names up to five similar paths that are.
type NotFoundError struct {
	Path    string
	Similar []string
}

func (e *NotFoundError) Error() string {
	if len(e.Similar) == 0 {
		return fmt.Sprintf("no document %q is indexed", e.Path)
	}
	return fmt.Sprintf("no document %q is indexed; similar paths: %s", e.Path, strings.Join(e.Similar, ", "))
}

// info returns d's description. Callers hold ix.mu.
func info(d *doc) DocInfo {
	i := DocInfo{Path: d.path, Title: d.title, Scope: d.scope, Summary: d.summary, Entities: d.entities}
	if !d.updated.IsZero() {
		i.Updated = d.updated.UTC().Format(time.RFC3339)
	}
	return i
}

// lookup returns the document at p, or a NotFoundError. Callers hold
// ix.mu.
func (ix *Index) lookup(p string) (*doc, error) {
	p = strings.TrimPrefix(p, "/")
	if id, ok := ix.find(p); ok {
		return ix.doc(id), nil
	}
	if id, ok := ix.find(path.Clean(p)); ok {
		return ix.doc(id), nil
	}
	return nil, &NotFoundError{Path: p, Similar: ix.similar(p, 5)}
}

// List returns the documents of a scope, or of every scope but code (one
// document per symbol, which search finds) when scope is "", sorted by
// path.
func (ix *Index) List(scope string) ([]DocInfo, error) {
	if scope != "" && !ix.scopes.has(scope) {
		return nil, ix.scopes.errUnknownScope(scope)
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	out := []DocInfo{}
	for id := range uint32(ix.ndocs()) {
		if s := ix.docScope(id); s != "" && (scope == "" && !isCodeScope(s) || s == scope) {
			out = append(out, info(ix.doc(id)))
		}
	}
	slices.SortFunc(out, func(a, b DocInfo) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// Outline returns the headings of a document with their levels and lines.
func (ix *Index) Outline(p string) ([]Heading, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	d, err := ix.lookup(p)
	if err != nil {
		return nil, err
	}
	return append([]Heading{}, d.headings...), nil
}

// Fetch returns a document's content as it is now on disk, or the section
// under one of its headings (up to the next heading of the same or a
// higher level) when heading is not "". A heading is matched by its text,
// its heading path ("Guide > Install"), or its anchor ("#install"),
// ignoring case; failing those, by the name of the symbol whose signature
// it is (see symbolSection), so that an artifact's "create_logger" finds
// "def create_logger(app: App) -> logging.Logger". The HTML comments of markdown are not shown (see
// comment.go).
func (ix *Index) Fetch(p, heading string) (Doc, error) {
	ix.mu.RLock()
	d, err := ix.lookup(p)
	var dd doc
	if err == nil {
		dd = *d
		// A loaded text lies in the mapped index file, which a
		// compaction unmaps once the lock is let go.
		dd.text = strings.Clone(d.text)
	}
	ix.mu.RUnlock()
	if err != nil {
		return Doc{}, err
	}
	text := dd.text
	if !dd.put {
		src, _, err := ix.scopes.resolve(dd.path)
		if err != nil {
			return Doc{}, err
		}
		data, err := readFile(src.fsys, src.name, ix.opts.MaxFileBytes)
		if err != nil {
			return Doc{}, fmt.Errorf("fetch %s: %w", dd.path, err)
		}
		if text, err = decodeText(data); err != nil {
			return Doc{}, fmt.Errorf("fetch %s: %w", dd.path, err)
		}
	}
	body, _, fmLines := stripFrontMatter(text)
	if f, _ := docFormat(dd.path); f == formatHTML && !dd.put {
		body, _ = htmlToMarkdown(body)
		fmLines = 0
	} else if dd.format == formatMarkdown {
		body = hideComments(body, true) // not text: not indexed, not shown
	}
	if heading != "" {
		body, err = sectionText(body, dd.format, fmLines, heading)
		if err != nil {
			return Doc{}, fmt.Errorf("fetch %s: %w", dd.path, err)
		}
	}
	if dd.format == formatMarkdown {
		body = absoluteLinks(body, dd.path, ix.opts.LinkBase)
	}
	i := info(&dd)
	return Doc{
		Path: dd.path, Title: dd.title, Scope: dd.scope, Summary: dd.summary, Updated: i.Updated,
		Content: "<!-- Source: " + dd.path + " -->\n" + body,
	}, nil
}

// sectionText returns the lines under a heading of body.
func sectionText(body string, f format, fmLines int, heading string) (string, error) {
	secs := parse(body, f, fmLines+1)
	want := strings.ToLower(strings.TrimSpace(heading))
	want = strings.TrimPrefix(want, "#")
	var names []string
	found := -1
	for i, s := range secs {
		if s.level == 0 {
			continue
		}
		names = append(names, s.heading)
		if found < 0 && (strings.ToLower(s.heading) == want || strings.ToLower(strings.Join(s.path, " > ")) == want || slug(s.heading) == want) {
			found = i
		}
	}
	if found < 0 {
		found = symbolSection(secs, heading)
	}
	for i, s := range secs {
		if i != found {
			continue
		}
		end := -1
		for _, t := range secs[i+1:] {
			if t.level > 0 && t.level <= s.level {
				end = t.line
				break
			}
		}
		lines := splitLines(body)
		from := s.line - fmLines - 1
		to := len(lines)
		if end > 0 {
			to = end - fmLines - 1
		}
		// A setext heading's text is on the line before its underline.
		return strings.Join(lines[max(from, 0):max(to, from)], ""), nil
	}
	if len(names) > 20 {
		names = append(names[:20], "…")
	}
	return "", fmt.Errorf("no heading %q; headings: %s", heading, strings.Join(names, ", "))
}

// slug is a heading's anchor as GitHub makes it: lower case, spaces to
// hyphens, punctuation dropped.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case isLetter(r) || isNumber(r) || r == '_' || r == '-':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// absoluteLinks rewrites the relative targets of markdown links and
// images outside code, "[text](target)", to base followed by the target's
// path from the root. Targets with a scheme, anchors and absolute paths
// stay as they are.
func absoluteLinks(body, docPath, base string) string {
	if !strings.Contains(body, "](") {
		return body
	}
	dir := path.Dir(docPath)
	if i := strings.IndexByte(dir, ':'); i >= 0 && !strings.Contains(dir[:i], "/") {
		dir = dir[i+1:] // scope:path documents: links stay inside the scope
	}
	var b strings.Builder
	fence := ""
	for _, ln := range splitLines(body) {
		if fence != "" {
			if closesFence(ln, fence) {
				fence = ""
			}
			b.WriteString(ln)
			continue
		}
		if f := openFence(ln); f != "" {
			fence = f
			b.WriteString(ln)
			continue
		}
		b.WriteString(rewriteLinks(ln, dir, base))
	}
	return b.String()
}

func rewriteLinks(ln, dir, base string) string {
	var b strings.Builder
	inCode := false
	for i := 0; i < len(ln); i++ {
		c := ln[i]
		if c == '`' {
			inCode = !inCode
		}
		b.WriteByte(c)
		if inCode || c != ']' || i+1 >= len(ln) || ln[i+1] != '(' {
			continue
		}
		end := strings.IndexByte(ln[i+2:], ')')
		if end < 0 {
			continue
		}
		target := ln[i+2 : i+2+end]
		b.WriteByte('(')
		b.WriteString(absoluteTarget(target, dir, base))
		b.WriteByte(')')
		i += end + 2
	}
	return b.String()
}

func absoluteTarget(t, dir, base string) string {
	url, title, _ := strings.Cut(t, " ")
	if url == "" || strings.HasPrefix(url, "#") || strings.HasPrefix(url, "/") || strings.Contains(url, "://") ||
		strings.HasPrefix(url, "mailto:") || strings.HasPrefix(url, "data:") {
		return t
	}
	p := path.Join(dir, url)
	if strings.HasPrefix(p, "../") || p == ".." {
		return t // leaves the root: nothing to anchor it to
	}
	out := strings.TrimSuffix(base, "/") + "/" + p
	if strings.HasSuffix(url, "/") && !strings.HasSuffix(out, "/") {
		out += "/"
	}
	if title != "" {
		out += " " + title
	}
	return out
}

// similar returns up to n indexed paths nearest to p: those with the
// same base name first, then by edit distance of the base names, then of
// the whole paths. Callers hold ix.mu.
func (ix *Index) similar(p string, n int) []string {
	type cand struct {
		path string
		cost int
	}
	base := strings.ToLower(path.Base(p))
	lp := strings.ToLower(p)
	var cs []cand
	for q := range ix.paths() {
		lq := strings.ToLower(q)
		qb := path.Base(lq)
		cost := editDistance(base, qb)*4 + editDistance(lp, lq)
		if qb == base {
			cost = editDistance(lp, lq)
		} else if strings.TrimSuffix(qb, path.Ext(qb)) == strings.TrimSuffix(base, path.Ext(base)) {
			cost = 2 + editDistance(lp, lq)
		}
		if cost > 4*max(len(base), 4)+len(lp) {
			continue
		}
		cs = append(cs, cand{strings.Clone(q), cost}) // a loaded path aliases the mapping
	}
	slices.SortFunc(cs, func(a, b cand) int {
		if a.cost != b.cost {
			return a.cost - b.cost
		}
		return strings.Compare(a.path, b.path)
	})
	var out []string
	for _, c := range cs[:min(n, len(cs))] {
		out = append(out, c.path)
	}
	return out
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	if len(a) > 256 || len(b) > 256 {
		return max(len(a), len(b))
	}
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		diag := row[0]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			diag, row[j] = row[j], min(row[j]+1, row[j-1]+1, diag+cost)
		}
	}
	return row[len(b)]
}

// Scopes returns every scope name, sorted.
func (ix *Index) Scopes() []string { return ix.scopes.names() }

// Skipped returns, sorted by path, the files and directories (their
// paths end in "/") the last scan passed over, and the documents indexed
// in part only, over the budget of a document (maxDocHeadings,
// maxDocChunks), each with a reason.
func (ix *Index) Skipped() []Skipped {
	ix.mu.RLock()
	out := slices.Clone(ix.skipped)
	for id := range uint32(ix.ndocs()) {
		if ix.docNoted(id) {
			d := ix.doc(id)
			out = append(out, Skipped{d.path, "partly indexed: " + d.note})
		}
	}
	ix.mu.RUnlock()
	slices.SortStableFunc(out, func(a, b Skipped) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// Stats counts what an index holds.
type Stats struct {
	Docs     int    `json:"docs"`
	Bytes    int64  `json:"bytes"` // the documents' sizes as read, summed
	Chunks   int    `json:"chunks"`
	Terms    int    `json:"terms"`
	Postings int    `json:"postings"`
	Vectors  int    `json:"vectors"`
	Embedder string `json:"embedder,omitempty"`
	Skipped  int    `json:"skipped"` // entries of Skipped()
	// Unsaved is why the index could not be saved to Options.Dir the
	// last time it tried; "" when it was, or has no Dir.
	Unsaved string `json:"unsaved,omitempty"`
}

// Unsaved returns Stats().Unsaved without counting anything: why the
// index could not be saved the last time it tried, "" when it was.
func (ix *Index) Unsaved() string {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.unsaved
}

// Stats returns the index's counts.
func (ix *Index) Stats() Stats {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	s := Stats{Docs: ix.liveDocs(), Chunks: ix.nchunks() - ix.dead, Terms: ix.lex.nterms(), Postings: ix.lex.npostings(),
		Vectors: ix.vec.chunks(), Embedder: ix.embName, Skipped: len(ix.skipped), Unsaved: ix.unsaved}
	if t := ix.tab; t != nil {
		for i := range t.docs {
			if !ix.tabGone(uint32(i)) {
				s.Bytes += t.docs[i].size
			}
		}
	}
	for _, d := range ix.docs {
		if d != nil {
			s.Bytes += d.size
		}
	}
	for id := range uint32(ix.ndocs()) {
		if ix.docNoted(id) {
			s.Skipped++
		}
	}
	return s
}
