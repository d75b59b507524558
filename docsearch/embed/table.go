package embed

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// The table format. All integers and floats are little-endian.
//
//	magic    8 bytes  "FIEMBED1"
//	hdrlen   uint32   length of the header
//	header   hdrlen bytes of JSON: a Header
//	tokens   Count entries, each a uvarint byte length and that many bytes of UTF-8
//	probs    Count × float32   unigram probability of each token, in (0, 1]
//	scales   Count × float32   dequantisation scale: vector[j] = scale × int8[j]
//	vectors  Count × Dim int8  quantised vectors, row by row
//	pcs      PCs × Dim float32 principal directions of the vocabulary, orthonormal
//	crc      uint32            CRC-32 (IEEE) of every byte before it
//
// Tokens are distinct and in the order the generator wrote them (by
// descending probability, then a KindPieces table's Whole words). A
// Header's Kind says how text maps onto tokens: KindWords looks each word
// up whole; KindPieces takes a word's whole-word token if it has one, and
// otherwise segments the word into pieces (the first prefixed with
// PieceMark) by the most probable segmentation under the unigram
// probabilities. A whole-word token (the last Whole, each PieceMark and a
// word) is looked up only as the whole of a word, never as a piece of a
// segmentation: they are words the generator added to a vocabulary of
// pieces (internal/gen/vocab.go), so adding them changes no other word's
// segmentation.

// Magic opens every table.
const Magic = "FIEMBED1"

// Kinds of table.
const (
	KindWords  = "words"
	KindPieces = "pieces"
)

// PieceMark starts the first piece of a word in a KindPieces table, as in
// SentencePiece vocabularies.
const PieceMark = "\u2581"

// Limits a table must respect; they bound what a corrupt table can make
// Decode allocate.
const (
	maxDim    = 4096
	maxCount  = 1 << 22
	maxHeader = 1 << 16
	maxPCs    = 64
	maxToken  = 255
)

// Header describes a table: its model, where it came from and how it was
// built. It is stored as JSON, so fields can be added without a new magic.
type Header struct {
	Name      string `json:"name"`            // model name and version, e.g. "glove-6b-100d-sif/1"
	Kind      string `json:"kind"`            // KindWords or KindPieces
	Dim       int    `json:"dim"`             // vector length
	Count     int    `json:"count"`           // number of tokens
	PCs       int    `json:"pcs"`             // number of principal directions stored
	Whole     int    `json:"whole,omitempty"` // KindPieces: how many of the last tokens are whole words
	Package   string `json:"package"`         // npm package the data came from, name@version
	Integrity string `json:"integrity"`       // that package's npm integrity string (sha512 of the tarball)
	License   string `json:"license"`         // licence of the data
	Generator string `json:"generator"`       // how the table was made (command and options)
	Notes     string `json:"notes,omitempty"`
}

// Table is a decoded table: what the generator writes and Decode reads.
type Table struct {
	Header
	Tokens  []string
	Probs   []float32
	Scales  []float32
	Vectors []int8      // Count × Dim, row-major
	PCs     [][]float32 // PCs directions of Dim floats
}

// Encode returns the binary form of t. Equal tables encode to equal bytes.
func (t *Table) Encode() ([]byte, error) {
	if err := t.check(); err != nil {
		return nil, err
	}
	hdr, err := json.Marshal(t.Header)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(Magic)
	b.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(hdr))))
	b.Write(hdr)
	for _, tok := range t.Tokens {
		b.Write(binary.AppendUvarint(nil, uint64(len(tok))))
		b.WriteString(tok)
	}
	var f [4]byte
	putFloats := func(xs []float32) {
		for _, x := range xs {
			binary.LittleEndian.PutUint32(f[:], math.Float32bits(x))
			b.Write(f[:])
		}
	}
	putFloats(t.Probs)
	putFloats(t.Scales)
	for _, q := range t.Vectors {
		b.WriteByte(byte(q))
	}
	for _, pc := range t.PCs {
		putFloats(pc)
	}
	out := b.Bytes()
	return binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(out)), nil
}

// check reports whether t is consistent: the lengths agree with the header,
// tokens are distinct, non-empty UTF-8, and the numbers are finite.
func (t *Table) check() error {
	h := t.Header
	if h.Kind != KindWords && h.Kind != KindPieces {
		return fmt.Errorf("unknown kind %q", h.Kind)
	}
	if h.Dim <= 0 || h.Dim > maxDim {
		return fmt.Errorf("dim %d out of range (1..%d)", h.Dim, maxDim)
	}
	if h.Count <= 0 || h.Count > maxCount {
		return fmt.Errorf("count %d out of range (1..%d)", h.Count, maxCount)
	}
	if h.PCs < 0 || h.PCs > maxPCs {
		return fmt.Errorf("pcs %d out of range (0..%d)", h.PCs, maxPCs)
	}
	if h.Whole < 0 || h.Whole > h.Count || h.Whole > 0 && h.Kind != KindPieces {
		return fmt.Errorf("whole %d out of range (0..%d, and only in a table of pieces)", h.Whole, h.Count)
	}
	if len(t.Tokens) != h.Count || len(t.Probs) != h.Count || len(t.Scales) != h.Count ||
		len(t.Vectors) != h.Count*h.Dim || len(t.PCs) != h.PCs {
		return errors.New("section lengths disagree with the header")
	}
	seen := make(map[string]bool, h.Count)
	for i, tok := range t.Tokens {
		if tok == "" || len(tok) > maxToken || !utf8.ValidString(tok) {
			return fmt.Errorf("token %d is empty, too long or not UTF-8", i)
		}
		if seen[tok] {
			return fmt.Errorf("token %q repeated", tok)
		}
		seen[tok] = true
		if i >= h.Count-h.Whole && (!strings.HasPrefix(tok, PieceMark) || len(tok) == len(PieceMark)) {
			return fmt.Errorf("whole word %q does not start with %q", tok, PieceMark)
		}
	}
	for i := range h.Count {
		p, s := float64(t.Probs[i]), float64(t.Scales[i])
		if !(p > 0 && p <= 1) || !(s >= 0) || math.IsInf(s, 0) {
			return fmt.Errorf("token %q: probability %g or scale %g out of range", t.Tokens[i], p, s)
		}
	}
	for _, pc := range t.PCs {
		if len(pc) != h.Dim {
			return errors.New("principal direction of the wrong length")
		}
		for _, x := range pc {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return errors.New("principal direction not finite")
			}
		}
	}
	return nil
}

// Decode parses a table written by Encode. It returns an error, never
// panics, on any malformed input, and checks the CRC first.
func Decode(data []byte) (*Table, error) {
	if len(data) < len(Magic)+4+4 || string(data[:len(Magic)]) != Magic {
		return nil, errors.New("not an embedding table (bad magic)")
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return nil, errors.New("embedding table checksum mismatch")
	}
	r := body[len(Magic):]
	n := binary.LittleEndian.Uint32(r)
	r = r[4:]
	if n > maxHeader || int(n) > len(r) {
		return nil, errors.New("embedding table header truncated")
	}
	t := new(Table)
	if err := json.Unmarshal(r[:n], &t.Header); err != nil {
		return nil, fmt.Errorf("embedding table header: %w", err)
	}
	r = r[n:]
	h := t.Header
	if h.Dim <= 0 || h.Dim > maxDim || h.Count <= 0 || h.Count > maxCount || h.PCs < 0 || h.PCs > maxPCs {
		return nil, fmt.Errorf("embedding table: dim %d, count %d or pcs %d out of range", h.Dim, h.Count, h.PCs)
	}
	// Every token takes at least two bytes, so a count the data cannot hold
	// is refused before anything of that size is allocated.
	if need := h.Count*(2+4+4+h.Dim) + 4*h.PCs*h.Dim; need > len(r) {
		return nil, errors.New("embedding table truncated")
	}
	t.Tokens = make([]string, h.Count)
	for i := range t.Tokens {
		l, k := binary.Uvarint(r)
		if k <= 0 || l == 0 || l > maxToken || uint64(len(r)-k) < l {
			return nil, fmt.Errorf("embedding table: token %d malformed", i)
		}
		t.Tokens[i] = string(r[k : k+int(l)])
		r = r[k+int(l):]
	}
	if len(r) != h.Count*(4+4+h.Dim)+4*h.PCs*h.Dim {
		return nil, errors.New("embedding table: sections do not add up to the data")
	}
	floats := func(n int) []float32 {
		xs := make([]float32, n)
		for i := range xs {
			xs[i] = math.Float32frombits(binary.LittleEndian.Uint32(r[4*i:]))
		}
		r = r[4*n:]
		return xs
	}
	t.Probs = floats(h.Count)
	t.Scales = floats(h.Count)
	t.Vectors = make([]int8, h.Count*h.Dim)
	for i := range t.Vectors {
		t.Vectors[i] = int8(r[i])
	}
	r = r[len(t.Vectors):]
	for range h.PCs {
		t.PCs = append(t.PCs, floats(h.Dim))
	}
	if err := t.check(); err != nil {
		return nil, fmt.Errorf("embedding table: %w", err)
	}
	return t, nil
}

// fingerprint returns 8 hex digits that change with anything of t that
// changes a vector: its tokens, probabilities, vectors, scales and
// principal directions (CRC-32 of them all).
func (t *Table) fingerprint() string {
	h := crc32.NewIEEE()
	var b [4]byte
	for _, tok := range t.Tokens {
		h.Write([]byte(tok))
		h.Write([]byte{0})
	}
	for _, fs := range append([][]float32{t.Probs, t.Scales}, t.PCs...) {
		for _, f := range fs {
			binary.LittleEndian.PutUint32(b[:], math.Float32bits(f))
			h.Write(b[:])
		}
	}
	// The int8 vectors, as the bytes they are.
	h.Write(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(t.Vectors))), len(t.Vectors)))
	return fmt.Sprintf("%08x", h.Sum32())
}
