package docsearch

import (
	"strings"
)

// ContentType is what a chunk mostly holds; queries prefer one or another
// (see QueryType).
type ContentType string

const (
	Prose        ContentType = "prose"
	Code         ContentType = "code"
	APIReference ContentType = "api-reference"
)

// A chunk is a piece of one section of a document, at most the chunk
// token limit long, never cut inside a code block unless the block alone
// is over codeLimitFactor times the limit. Chunks of a document are
// numbered in order, so the neighbours of chunk i are i-1 and i+1 when
// they belong to the same document.
type chunk struct {
	title string // heading path, "Guide > Install > From source"
	// embedTitle, when not "", is embedded in the place of title (see
	// embedText): a code symbol's name without its package path.
	embedTitle string
	text       string // the blocks' text
	lead       string // of code, its doc comment's first sentence (see leadSentence)
	line, end  int    // line range in the source, 1-based
	ctype      ContentType
	template   uint64 // see templateHash
}

// codeLimitFactor is how many times the chunk limit a code block may be
// before it is cut: a whole example is worth more than an even size.
const codeLimitFactor = 4

// chunker cuts sections into chunks. It is not safe for concurrent use.
type chunker struct {
	limit int
	tc    *tokenCounter
	// uncapped counts in full, past the limit: tests check that capping
	// changes no chunk.
	uncapped bool
}

// tokensUpTo returns the token count of s when it is at most limit, and
// else some count over limit (see countUpTo). That is all chunks and split
// need: a count over the limit only sends a block to split, and split only
// compares counts with the limit, so the chunks are those exact counts
// make (TestChunksCappedCountsMatchExact checks). Stopping past the limit
// spares split, which halves a block until the halves fit, from counting
// every half in full: a block of n bytes costs O(n) instead of
// O(n log n). Callers count only text longer in bytes than the room left:
// a token is at least one byte, so shorter text fits uncounted.
func (c *chunker) tokensUpTo(s string, limit int) int {
	if c.uncapped {
		return c.tc.count(s)
	}
	return c.tc.countUpTo(s, limit)
}

// chunks cuts a parsed document into chunks.
func (c *chunker) chunks(secs []section, docTitle string) []chunk {
	var out []chunk
	for _, s := range secs {
		title := strings.Join(s.path, " > ")
		if title == "" {
			title = docTitle
		}
		var cur []block
		curTokens := 0
		emit := func() {
			if len(cur) == 0 {
				return
			}
			out = append(out, makeChunk(title, cur))
			cur, curTokens = nil, 0
		}
		for _, b := range s.blocks {
			limit := c.limit
			if b.code {
				limit *= codeLimitFactor
			}
			n := len(b.text) // an upper bound, exact when counted (up to limit)
			if curTokens+n > c.limit {
				n = c.tokensUpTo(b.text, limit)
			}
			if n > limit {
				emit()
				for _, piece := range c.split(b, n, limit) {
					out = append(out, makeChunk(title, []block{piece}))
				}
				continue
			}
			if curTokens+n > c.limit {
				emit()
			}
			cur = append(cur, b)
			curTokens += n
		}
		emit()
	}
	return out
}

// split cuts a block over limit tokens in halves at line breaks, or at
// spaces for a single long line, until every piece is within it. n is the
// block's token count (exact only up to limit), or -1 when it has not been
// counted.
func (c *chunker) split(b block, n, limit int) []block {
	if n < 0 && len(b.text) > limit {
		n = c.tokensUpTo(b.text, limit)
	}
	if n <= limit { // or not counted: no longer in bytes than the limit
		return []block{b}
	}
	mid := len(b.text) / 2
	cut := cutNear(b.text, mid)
	if cut <= 0 || cut >= len(b.text) {
		return []block{b} // one rune: cannot be cut
	}
	first := block{text: b.text[:cut], line: b.line, code: b.code}
	first.end = b.line + strings.Count(first.text[:len(first.text)-1], "\n")
	second := block{text: b.text[cut:], line: first.end, end: b.end, code: b.code}
	if strings.HasSuffix(first.text, "\n") {
		second.line = first.end + 1
	}
	return append(c.split(first, -1, limit), c.split(second, -1, limit)...)
}

// cutNear returns a cut position near mid: after the line break closest
// to it, else after the closest space, else at a rune boundary.
func cutNear(s string, mid int) int {
	best := -1
	for _, sep := range []byte{'\n', ' '} {
		lo := strings.LastIndexByte(s[:mid], sep)
		hi := strings.IndexByte(s[mid:], sep)
		switch {
		case lo > 0 && (hi < 0 || mid-lo <= hi):
			best = lo + 1
		case hi >= 0 && mid+hi+1 < len(s):
			best = mid + hi + 1
		}
		if best > 0 && best < len(s) {
			return best
		}
	}
	for mid > 0 && mid < len(s) && s[mid]&0xC0 == 0x80 {
		mid--
	}
	return mid
}

func makeChunk(title string, blocks []block) chunk {
	var b strings.Builder
	code := 0
	for i, bl := range blocks {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(bl.text)
		if bl.code {
			code += len(bl.text)
		}
	}
	text := b.String()
	return chunk{
		title: title,
		text:  text,
		line:  blocks[0].line,
		end:   blocks[len(blocks)-1].end,
		ctype: contentType(title, text, code),
	}
}

// contentType classifies a chunk: code when code blocks are most of it;
// api-reference when its heading names an API (a call "f(x)", a dotted or
// camelCase identifier) or its text reads like a reference entry
// (parameters, returns, signatures); prose otherwise.
func contentType(title, text string, codeBytes int) ContentType {
	if codeBytes*2 > len(text) {
		return Code
	}
	last := title
	if i := strings.LastIndex(title, " > "); i >= 0 {
		last = title[i+3:]
	}
	if looksLikeAPIName(last) {
		return APIReference
	}
	lower := strings.ToLower(text)
	hits := 0
	for _, w := range []string{"parameters", "returns", "@param", "@return", "arguments:", "| type", "type |", "default:", "signature"} {
		if strings.Contains(lower, w) {
			hits++
		}
	}
	if hits >= 2 {
		return APIReference
	}
	return Prose
}

// looksLikeAPIName reports whether a heading names a function, method,
// type or option rather than a topic.
func looksLikeAPIName(h string) bool {
	h = strings.TrimSpace(h)
	if h == "" || len(h) > 80 {
		return false
	}
	if strings.Contains(h, "(") && strings.Contains(h, ")") && !strings.Contains(h, " (") {
		return true
	}
	if strings.ContainsRune(h, ' ') {
		return false
	}
	var parts []string
	parts = splitParts(h, parts)
	return len(parts) > 1 && strings.ContainsAny(h, "._:") || len(parts) > 1 && h[0] >= 'a' && h[0] <= 'z'
}
