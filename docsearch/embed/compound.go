package embed

import "unicode/utf8"

// Code repeats its identifiers: a function body names the same dozen
// variables, types and calls over and over, and a tree names them again
// in file after file. Splitting such a name into words and looking each
// word up in the table's map (and, for a word the table lacks whole, in
// the cache of its pieces) was 16 of the 22 CPU-s the Linux kernel's
// code documents took to embed. So the embedder keeps the rows of the
// compounds it met last in a small direct-mapped cache, probed by a hash
// made while the compound is scanned: one probe gives all its rows, in
// order. A map of compounds instead was no quicker than the word lookups
// it saved; the small cache embeds the kernel's kernel/ directory at
// 56-69 MB/s against 50-57 (BenchmarkEmbedCode, alternated), and 16,384
// or 65,536 slots did no better than 4,096.
//
// A compound is a run of ASCII letters, digits and underscores, or any
// run of bytes with a non-ASCII one among them, cut at the other ASCII
// bytes. Every word of splitWords lies inside one compound (an ASCII
// byte other than a letter or a digit always ends a word), so the words
// of a text are the words of its compounds one after the other, and the
// rows a compound adds depend on nothing else: cached or not, a text
// adds the same rows in the same order.

// compoundSlot holds one compound of up to slotKey bytes and its rows,
// up to slotRows of them.
type compoundSlot struct {
	key  [slotKey]byte
	klen uint8 // 0: empty
	n    uint8
	rows [slotRows]int32
}

const (
	slotKey   = 24
	slotRows  = 4
	slotCount = 1 << 12 // 4,096 slots of 44 bytes: the cache stays in a core's L2
)

// compoundByte says which ASCII bytes a compound holds.
var compoundByte = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = c == '_' || isAlnumASCII(byte(c))
	}
	return t
}()

// tallyCompounds adds the rows of text's words compound by compound.
func (e *embedder) tallyCompounds(text string) {
	for i := 0; i < len(text); {
		if c := text[i]; c < utf8.RuneSelf && !compoundByte[c] {
			i++
			continue
		}
		j, ascii := i, true
		h := uint32(2166136261)
		for j < len(text) {
			c := text[j]
			if c >= utf8.RuneSelf {
				ascii = false
			} else if !compoundByte[c] {
				break
			}
			h = (h ^ uint32(c)) * 16777619
			j++
		}
		e.compound(text[i:j], ascii, h)
		i = j
	}
}

// compound adds the rows of the words of compound c, whose FNV-1a hash
// is h, from the cache when c is in it.
func (e *embedder) compound(c string, ascii bool, h uint32) {
	if !ascii || len(c) > slotKey {
		splitWords(c, e.buf, e.word)
		return
	}
	s := &e.slots[(h^h>>16)&(slotCount-1)]
	if int(s.klen) == len(c) && string(s.key[:len(c)]) == c {
		for _, row := range s.rows[:s.n] {
			e.add(row)
		}
		return
	}
	e.rec = e.rec[:0]
	e.recording = true
	splitWords(c, e.buf, e.word)
	e.recording = false
	if len(e.rec) > slotRows {
		return
	}
	s.klen = uint8(copy(s.key[:], c))
	s.n = uint8(copy(s.rows[:], e.rec))
}
