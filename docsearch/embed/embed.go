package embed

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"
)

// Options tune how a Model turns text into a vector. The zero value gives
// the defaults, which are the ones measured best (see doc.go).
type Options struct {
	// Words keeps only the first Words tokens of the table, the most
	// probable ones; 0 keeps them all.
	Words int
	// SIF is the a of the smooth-inverse-frequency weight a/(a+p(w)) of a
	// word of probability p(w). 0 means DefaultSIF; a negative value
	// weights every word 1 (a plain mean).
	SIF float64
	// KeepPC keeps the table's principal directions in the vectors; by
	// default they are projected out.
	KeepPC bool
	// Counts weights a token by the number of times it occurs in the text,
	// as a mean does; by default the weight is 1 + ln(count), which lets a
	// word repeated all over a long text count for less.
	Counts bool
	// KeepKeywords embeds the keywords of programming languages (Keywords)
	// like any word; by default they are skipped.
	KeepKeywords bool
}

// rules numbers the way text becomes a vector (splitting, weighting,
// projection). Name includes it: change it whenever a change of code
// changes the vectors of some text for the same table and options.
const rules = 1

// DefaultSIF is the a of the SIF weights when Options.SIF is 0.
const DefaultSIF = 3e-4

// Keywords are the words Embed skips unless Options.KeepKeywords is set:
// the syntax of common programming languages, which every piece of code
// repeats whatever it does. Words that also name a topic ("string",
// "type", "length") are not among them.
var Keywords = []string{
	"and", "args", "as", "catch", "cls", "const", "def", "elif", "else", "except",
	"false", "finally", "for", "from", "func", "function", "if", "import", "in", "is",
	"kwargs", "let", "new", "nil", "none", "not", "null", "or", "param", "params",
	"pass", "private", "protected", "public", "raise", "return", "returns", "rtype",
	"self", "static", "this", "throw", "true", "try", "var", "void", "while", "with",
}

var keywordSet = func() map[string]bool {
	m := make(map[string]bool, len(Keywords))
	for _, w := range Keywords {
		m[w] = true
	}
	return m
}()

// Model is a static embedding model: a table of token vectors and the
// rules that map text onto it. It is safe for concurrent use.
type Model struct {
	name   string
	dim    int
	pieces bool             // KindPieces: segment words into pieces
	ids    map[string]int32 // token → row; KindPieces: -1 for a prefix of a piece
	whole  int32            // KindPieces: the first row of a whole word, not a piece
	toks   []string         // row → token
	sif    []float32        // row → smooth-inverse-frequency weight
	coef   []float32        // row → sif × dequantisation scale
	vecs   []int8           // rows × dim
	pcs    [][]float32      // orthonormal directions projected out
	stop   map[string]bool  // words skipped, nil to skip none
	isStop []bool           // row → whether its token is a whole word in stop
	logp   []float32        // KindPieces: row → log probability
	maxLen int              // KindPieces: longest token in bytes
	// idle holds the embedders not in use, at most maxIdle, under
	// poolMu. Not a sync.Pool: that lets go of its items at every
	// collection, and with them the segmentation caches (segs) that
	// make a word's pieces one lookup; building a big index collects
	// every second or so, so the caches kept emptying.
	poolMu sync.Mutex
	idle   []*embedder
	counts bool // Options.Counts
}

// New returns the Model of table t with options o.
func New(t *Table, o Options) (*Model, error) {
	if err := t.check(); err != nil {
		return nil, err
	}
	n := t.Count
	if o.Words > 0 && o.Words < n {
		n = o.Words
	}
	a := o.SIF
	if a == 0 {
		a = DefaultSIF
	}
	m := &Model{
		name:   t.Name + "+rules=" + strconv.Itoa(rules) + "+table=" + t.fingerprint(),
		dim:    t.Dim,
		pieces: t.Kind == KindPieces,
		ids:    make(map[string]int32, n),
		sif:    make([]float32, n),
		coef:   make([]float32, n),
		vecs:   t.Vectors[:n*t.Dim],
		toks:   t.Tokens[:n],
	}
	m.whole = int32(t.Count - t.Whole)
	for i, tok := range t.Tokens[:n] {
		m.ids[tok] = int32(i)
		w := 1.0
		if a > 0 {
			w = a / (a + float64(t.Probs[i]))
		}
		m.sif[i] = float32(w)
		m.coef[i] = m.sif[i] * t.Scales[i]
		if m.pieces {
			m.logp = append(m.logp, float32(math.Log(float64(t.Probs[i]))))
			if int32(i) < m.whole {
				m.maxLen = max(m.maxLen, len(tok))
			}
		}
	}
	if m.pieces {
		// Every proper prefix of a piece maps to -1 unless it is a token
		// itself, so segmentation stops extending a match at the first
		// byte no piece continues with.
		for _, tok := range m.toks[:min(n, int(m.whole))] {
			for k := 1; k < len(tok); k++ {
				if _, ok := m.ids[tok[:k]]; !ok {
					m.ids[tok[:k]] = -1
				}
			}
		}
	}
	if !o.KeepPC {
		m.pcs = t.PCs
	}
	if !o.KeepKeywords {
		m.stop = keywordSet
		m.isStop = make([]bool, n)
		for w := range m.stop {
			if m.pieces {
				w = PieceMark + w
			}
			if row, ok := m.ids[w]; ok && row >= 0 {
				m.isStop[row] = true
			}
		}
	}
	m.counts = o.Counts
	// The name records everything that changes the vectors.
	if n != t.Count {
		m.name += "+words=" + strconv.Itoa(n)
	}
	if o.SIF != 0 {
		m.name += "+sif=" + strconv.FormatFloat(o.SIF, 'g', -1, 64)
	}
	if o.KeepPC {
		m.name += "+keeppc"
	}
	if o.KeepKeywords {
		m.name += "+keywords"
	}
	if o.Counts {
		m.name += "+counts"
	}
	return m, nil
}

// Load decodes a table and returns its Model with options o.
func Load(data []byte, o Options) (*Model, error) {
	t, err := Decode(data)
	if err != nil {
		return nil, err
	}
	return New(t, o)
}

// Name identifies the model, its version and its options, for recording in
// an index: vectors of models of different names are not comparable. It
// includes a fingerprint of the table's contents, so a table made again
// from other data is a model of another name even if its header's name is
// the same, and an index built with the old one embeds its chunks again.
func (m *Model) Name() string { return m.name }

// Dim is the length of every vector Embed returns.
func (m *Model) Dim() int { return m.dim }

// Embed returns one vector of Dim() float32s per text. A vector is the
// weighted sum of the vectors of the text's tokens (the words of
// splitWords less Keywords, segmented into the table's tokens; weights as
// in doc.go), with the table's principal directions projected out, scaled
// to unit length. A text with no known token (empty, punctuation, unknown
// words) gets the zero vector, whose cosine with anything is 0. A text's
// vector does not depend on the other texts. The vectors share one
// allocation. Embed returns ctx's error if ctx ends before it is done.
func (m *Model) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	flat := make([]float32, len(texts)*m.dim)
	if err := m.EmbedInto(ctx, texts, flat); err != nil {
		return nil, err
	}
	out := make([][]float32, len(texts))
	for i := range out {
		out[i] = flat[i*m.dim : (i+1)*m.dim : (i+1)*m.dim]
	}
	return out, nil
}

// EmbedInto writes the vectors Embed returns for texts into dst, one
// after another, Dim() float32s each; dst must hold them all. It makes
// no allocation of its own for the vectors: an index building from a
// big tree embeds into the same buffer batch after batch, where Embed's
// 1 KB a text was garbage once stored (1.1 GB over the Linux kernel).
func (m *Model) EmbedInto(ctx context.Context, texts []string, dst []float32) error {
	if len(dst) < len(texts)*m.dim {
		return fmt.Errorf("embed: room for %d floats, %d texts need %d", len(dst), len(texts), len(texts)*m.dim)
	}
	e := m.getEmbedder()
	defer m.putEmbedder(e)
	for i, text := range texts {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("embed: %w", err)
			}
		}
		e.embed(text, dst[i*m.dim:(i+1)*m.dim:(i+1)*m.dim])
	}
	return nil
}

// Tokens returns the vocabulary tokens text maps onto, in order: what Embed
// averages. It is for tests and diagnostics.
func (m *Model) Tokens(text string) []string {
	var toks []string
	e := m.getEmbedder()
	defer m.putEmbedder(e)
	e.visit = func(row int32) { toks = append(toks, m.toks[row]) }
	e.embed(text, make([]float32, m.dim))
	return toks
}

// embedder holds the scratch space of Embed; one goroutine uses it at a
// time.
type embedder struct {
	m    *Model
	acc  []float32
	buf  []byte
	key  []byte
	best []float32 // KindPieces: Viterbi scores
	from []int32   // KindPieces: Viterbi back-pointers (row << 8 | length)
	// Rows are counted first and their vectors added once per text: long
	// texts repeat their words, and adding a vector costs Dim operations.
	count     []float32         // row → occurrences in the current text
	touched   []int32           // rows with a count, in first-seen order
	segs      map[string]uint64 // KindPieces: word → its pieces in arena, start<<32 | length
	arena     []int32
	slots     *[slotCount]compoundSlot // the compounds met last and their rows
	rec       []int32                  // the rows of the compound being split
	recording bool                     // add appends to rec
	visit     func(row int32)          // when set, called with every row added
}

// getEmbedder returns an embedder from m's pool; putEmbedder returns it.
// Reusing them keeps Embed to a few allocations a call.
func (m *Model) getEmbedder() *embedder {
	m.poolMu.Lock()
	if n := len(m.idle); n > 0 {
		e := m.idle[n-1]
		m.idle[n-1] = nil
		m.idle = m.idle[:n-1]
		m.poolMu.Unlock()
		return e
	}
	m.poolMu.Unlock()
	return &embedder{
		m:     m,
		acc:   make([]float32, m.dim),
		buf:   make([]byte, 0, 4*maxWord),
		key:   make([]byte, 0, 4*maxWord+3),
		count: make([]float32, len(m.coef)),
		segs:  map[string]uint64{},
		slots: new([slotCount]compoundSlot),
	}
}

func (m *Model) putEmbedder(e *embedder) {
	e.visit = nil
	m.poolMu.Lock()
	if len(m.idle) < maxIdle {
		m.idle = append(m.idle, e)
	}
	m.poolMu.Unlock()
}

// maxIdle bounds the embedders a Model keeps for reuse: an index embeds
// on a worker a core, a server's searches on a few more. Each holds its
// count table (4 bytes a row) and up to maxSegs cached segmentations, a
// few MB.
const maxIdle = 8

// Words returns the words of text that Embed looks up, lowercased, in
// order: its words less Keywords. It is for the generator, which picks
// the words to add to a table from them.
func (m *Model) Words(text string) []string {
	var words []string
	splitWords(text, make([]byte, 0, 4*maxWord), func(w []byte) {
		if !m.stop[string(w)] {
			words = append(words, string(w))
		}
	})
	return words
}

// Bag returns the rows of the table text maps onto, in first-seen order,
// and the weight Embed sums each row's vector with, before dequantisation:
// its smooth inverse frequency times its damped count. It is for the
// generator, which tunes the vectors these weights sum.
func (m *Model) Bag(text string) (rows []int32, weights []float32) {
	e := m.getEmbedder()
	defer m.putEmbedder(e)
	e.tally(text)
	for _, row := range e.touched {
		rows = append(rows, row)
		weights = append(weights, m.sif[row]*m.damp(e.count[row]))
		e.count[row] = 0
	}
	return rows, weights
}

// damp is the factor a row occurring n times in a text is weighed by:
// 1 + ln n, or n itself with Options.Counts.
func (m *Model) damp(n float32) float32 {
	if m.counts || n == 1 { // most rows occur once, and 1 + ln 1 is 1
		return n
	}
	return 1 + float32(math.Log(float64(n)))
}

// tally counts the rows of text's tokens into e.count, listing each in
// e.touched in first-seen order.
func (e *embedder) tally(text string) {
	e.touched = e.touched[:0]
	e.tallyCompounds(text)
}

// embed writes text's vector into dst.
func (e *embedder) embed(text string, dst []float32) {
	clear(e.acc)
	e.tally(text)
	m := e.m
	if len(e.touched) == 0 {
		clear(dst)
		return
	}
	// Rows in first-seen order, so the sum is a function of the text.
	d := m.dim
	for _, row := range e.touched {
		c := m.coef[row] * m.damp(e.count[row])
		e.count[row] = 0
		addScaled(e.acc, c, m.vecs[int(row)*d:int(row)*d+d])
	}
	for _, pc := range m.pcs {
		var dot float32
		for j, x := range e.acc {
			dot += x * pc[j]
		}
		for j := range e.acc {
			e.acc[j] -= dot * pc[j]
		}
	}
	var norm float64
	for _, x := range e.acc {
		norm += float64(x) * float64(x)
	}
	if norm == 0 {
		clear(dst)
		return
	}
	r := float32(1 / math.Sqrt(norm))
	for j, x := range e.acc {
		dst[j] = x * r
	}
}

// word adds the vector of one lowercased word.
func (e *embedder) word(w []byte) {
	m := e.m
	if m.pieces {
		e.pieces(w)
		return
	}
	if row, ok := m.ids[string(w)]; ok {
		if m.isStop == nil || !m.isStop[row] {
			e.add(row)
		}
		return
	}
	if m.stop[string(w)] {
		return
	}
	// Not known whole: try its letter and digit runs ("utf8" → utf, 8).
	start := 0
	for k := 1; k <= len(w); k++ {
		if k == len(w) || isDigit(w[k]) != isDigit(w[k-1]) {
			if start == 0 && k == len(w) {
				return // a single run, already looked up
			}
			if row, ok := m.ids[string(w[start:k])]; ok {
				e.add(row)
			}
			start = k
		}
	}
}

// pieces adds w's whole-word token if the table has one, and otherwise
// the pieces of the most probable segmentation of PieceMark+w, by the
// Viterbi algorithm over the pieces' log probabilities. Bytes no piece
// covers are skipped. Segmentations are cached by the embedder: words
// repeat.
func (e *embedder) pieces(w []byte) {
	m := e.m
	key := append(append(e.key[:0], PieceMark...), w...)
	if row, ok := m.ids[string(key)]; ok && row >= 0 { // the common case: a whole-word piece or whole word
		if m.isStop == nil || !m.isStop[row] {
			e.add(row)
		}
		return
	}
	if m.stop[string(w)] {
		return
	}
	if span, ok := e.segs[string(key)]; ok {
		for _, row := range e.arena[span>>32 : span>>32+span&0xffffffff] {
			e.add(row)
		}
		return
	}
	n := len(key)
	const unreached = float32(-1e30)
	e.best = append(e.best[:0], make([]float32, n+1)...)
	e.from = append(e.from[:0], make([]int32, n+1)...)
	for k := 1; k <= n; k++ {
		e.best[k] = unreached
	}
	for i := range n {
		// Skipping a byte costs more than any piece, so pieces win.
		if s := e.best[i] - 100; s > e.best[i+1] {
			e.best[i+1], e.from[i+1] = s, -1
		}
		// Extend key[i:j] while it is a prefix of some piece.
		for j := i + 1; j <= n && j-i <= m.maxLen; j++ {
			row, ok := m.ids[string(key[i:j])]
			if !ok {
				break
			}
			if row < 0 || row >= m.whole {
				continue // a prefix of a piece, or a whole word: not a piece
			}
			if s := e.best[i] + m.logp[row]; s > e.best[j] {
				e.best[j], e.from[j] = s, row<<8|int32(j-i)
			}
		}
	}
	start := len(e.arena)
	for k := n; k > 0; {
		f := e.from[k]
		if f < 0 {
			k--
			continue
		}
		e.arena = append(e.arena, f>>8)
		k -= int(f & 0xff)
	}
	seg := e.arena[start:]
	slices.Reverse(seg)
	for _, row := range seg {
		e.add(row)
	}
	if len(e.segs) >= maxSegs {
		clear(e.segs)
		e.arena = append(e.arena[:0], seg...)
		start = 0
	}
	e.segs[string(key)] = uint64(start)<<32 | uint64(len(seg))
}

// maxSegs bounds the segmentations an embedder caches.
const maxSegs = 1 << 15

// add counts one occurrence of row.
func (e *embedder) add(row int32) {
	if e.recording {
		e.rec = append(e.rec, row)
	}
	if e.visit != nil {
		e.visit(row)
	}
	if e.count[row] == 0 {
		e.touched = append(e.touched, row)
	}
	e.count[row]++
}
