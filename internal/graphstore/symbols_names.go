package graphstore

// The names sections of symbols.idx (version 3): the distinct lower-case
// node names, sorted, and an index of them by trigram, so that a search
// for the names holding a word (the web view's name search) reads the
// names it can match, not every node's name. Reading every distinct name
// through the nodes took 716 ms on the Linux kernel (850,547 distinct
// names of 1.1 million nodes, 16 MB of text; docs/bigrepos.md).
//
//	names       the distinct lower-case names (strings.ToLower of each
//	            node's name), sorted, concatenated
//	nameStarts  per distinct name, then once more for the end, two
//	            uint32s: its offset in names, and its first position in
//	            byName (whose nodes with that name run to the next
//	            name's first position); the last pair is (len(names),
//	            nodes)
//	grams       per distinct trigram (three bytes of a name), sorted by
//	            key, then once more for the end, two uint32s: the key
//	            (b0<<16 | b1<<8 | b2; the end's is 1<<24) and the offset
//	            of its postings in gramPosts
//	gramPosts   per trigram, the numbers of the distinct names holding
//	            it, ascending, as uvarints: the first, then each one's
//	            distance from the one before (at least 1)
//
// Every offset and number is checked where it is read: a damaged
// section is a CorruptError, never an answer.

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/fileinfo/fileinfo/callgraph"
)

const gramEnd = 1 << 24 // the key of the grams section's last entry

// nameLayout is what the names sections hold, made when the index is
// laid out.
type nameLayout struct {
	byName []uint32 // node numbers sorted by lower-case name, then number
	text   []byte
	starts []uint32 // pairs, as in nameStarts
	grams  []uint32 // pairs, as in grams
	posts  []byte
}

// layoutNames sorts the nodes by lower-case name and makes the names
// sections.
func layoutNames(nodes []callgraph.Node) *nameLayout {
	keys := make([]string, len(nodes))
	ids := make([]uint32, len(nodes))
	for i := range nodes {
		ids[i], keys[i] = uint32(i), strings.ToLower(nodes[i].Name)
	}
	slices.SortFunc(ids, func(a, b uint32) int { return cmp.Or(strings.Compare(keys[a], keys[b]), cmp.Compare(a, b)) })
	l := &nameLayout{byName: ids}
	type list struct {
		buf  []byte
		last uint32 // the last name number added, +1 (0: none)
	}
	lists := map[uint32]*list{}
	k := uint32(0)
	for i, id := range ids {
		name := keys[id]
		if i > 0 && name == keys[ids[i-1]] {
			continue
		}
		l.starts = append(l.starts, uint32(len(l.text)), uint32(i))
		l.text = append(l.text, name...)
		for j := 0; j+3 <= len(name); j++ {
			g := gramKey(name[j:])
			p := lists[g]
			if p == nil {
				p = &list{}
				lists[g] = p
			}
			if p.last == k+1 {
				continue // the trigram again in the same name
			}
			p.buf = binary.AppendUvarint(p.buf, uint64(k+1-p.last)-boolU64(p.last == 0))
			p.last = k + 1
		}
		k++
	}
	l.starts = append(l.starts, uint32(len(l.text)), uint32(len(ids)))
	for _, g := range slices.Sorted(maps.Keys(lists)) {
		l.grams = append(l.grams, g, uint32(len(l.posts)))
		l.posts = append(l.posts, lists[g].buf...)
	}
	l.grams = append(l.grams, gramEnd, uint32(len(l.posts)))
	return l
}

// boolU64 is 1 for true: the first posting is written as is, the
// others as distances.
func boolU64(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func gramKey(s string) uint32 { return uint32(s[0])<<16 | uint32(s[1])<<8 | uint32(s[2]) }

// nameCount is the number of distinct names; -1 when the sections
// cannot hold what they say (parseSymbols refuses such a file).
func (s *Symbols) nameCount() int { return len(s.sec[secNameStarts])/8 - 1 }

// nameAt returns the offsets in names of distinct name k and the range
// of its nodes in byName.
func (s *Symbols) nameAt(k int) (from, to uint32, lo, hi int) {
	b := s.touch(secNameStarts, uint64(k)*8, 16)
	le := binary.LittleEndian
	from, to = le.Uint32(b), le.Uint32(b[8:])
	lo, hi = int(le.Uint32(b[4:])), int(le.Uint32(b[12:]))
	if from > to || lo > hi || hi > s.nodes {
		corrupt(fmt.Sprintf("name %d", k))
	}
	return from, to, lo, hi
}

// nameText returns distinct name k.
func (s *Symbols) nameText(k int) string {
	from, to, _, _ := s.nameAt(k)
	return string(s.touch(secNames, uint64(from), uint64(to-from)))
}

// nameIDs returns the nodes of distinct name k, in increasing number.
func (s *Symbols) nameIDs(k int) []callgraph.SymbolID {
	_, _, lo, hi := s.nameAt(k)
	out := make([]callgraph.SymbolID, 0, hi-lo)
	for i := lo; i < hi; i++ {
		id := s.u32(secByName, uint64(i))
		if int(id) >= s.nodes {
			corrupt(fmt.Sprintf("node %d of %d", id, s.nodes))
		}
		out = append(out, callgraph.SymbolID(id))
	}
	return out
}

// EachName calls f with each distinct lower-case node name, in order,
// until it returns false.
func (s *Symbols) EachName(f func(lower string) bool) {
	for k := range s.nameCount() {
		if !f(s.nameText(k)) {
			return
		}
	}
}

// EachNameHolding calls f with each distinct lower-case name that holds
// one of words (lower-case) as a substring, and its nodes in increasing
// number, in name order, until f returns false. A word of three bytes or
// more is looked up by its trigrams, and only the names holding all of
// its rarest ones are read; a shorter one reads every name (the names
// section, not the nodes).
func (s *Symbols) EachNameHolding(words []string, f func(lower string, ids []callgraph.SymbolID) bool) {
	var found []int
	scan := false
	for _, w := range words {
		if len(w) < 3 {
			scan = true
			continue
		}
		for _, k := range s.gramCandidates(w) {
			if strings.Contains(s.nameText(k), w) {
				found = append(found, k)
			}
		}
	}
	if scan {
		found = append(found, s.scanNames(words)...)
	}
	slices.Sort(found)
	found = slices.Compact(found)
	for _, k := range found {
		if !f(s.nameText(k), s.nameIDs(k)) {
			return
		}
	}
}

// scanNames returns the distinct names holding one of the words shorter
// than three bytes, reading the names section whole.
func (s *Symbols) scanNames(words []string) []int {
	n := s.nameCount()
	if n <= 0 {
		return nil
	}
	starts := s.touch(secNameStarts, 0, uint64(n+1)*8)
	text := s.touch(secNames, 0, uint64(len(s.sec[secNames])))
	le := binary.LittleEndian
	var out []int
	for k := range n {
		from, to := le.Uint32(starts[8*k:]), le.Uint32(starts[8*k+8:])
		if from > to || int(to) > len(text) {
			corrupt(fmt.Sprintf("name %d", k))
		}
		name := text[from:to]
		for _, w := range words {
			if len(w) < 3 && bytes.Contains(name, []byte(w)) {
				out = append(out, k)
				break
			}
		}
	}
	return out
}

// gramCandidates returns, ascending, the distinct names holding the
// rarest trigrams of w (len(w) >= 3): a superset of those holding w.
func (s *Symbols) gramCandidates(w string) []int {
	type posting struct{ from, to uint32 }
	var ps []posting
	seen := map[uint32]bool{}
	for j := 0; j+3 <= len(w); j++ {
		g := gramKey(w[j:])
		if seen[g] {
			continue
		}
		seen[g] = true
		from, to, ok := s.gram(g)
		if !ok {
			return nil // no name holds this trigram
		}
		ps = append(ps, posting{from, to})
	}
	slices.SortFunc(ps, func(a, b posting) int { return cmp.Compare(a.to-a.from, b.to-b.from) })
	// The rarest list, narrowed by the next two: the rest cost more to
	// decode than the names they would rule out cost to check.
	out := s.postings(ps[0].from, ps[0].to)
	for _, p := range ps[1:min(len(ps), 3)] {
		if len(out) == 0 {
			break
		}
		other := s.postings(p.from, p.to)
		kept := out[:0]
		i := 0
		for _, k := range out {
			for i < len(other) && other[i] < k {
				i++
			}
			if i < len(other) && other[i] == k {
				kept = append(kept, k)
			}
		}
		out = kept
	}
	return out
}

// gram finds trigram g's postings in gramPosts.
func (s *Symbols) gram(g uint32) (from, to uint32, ok bool) {
	n := len(s.sec[secGrams])/8 - 1 // entries before the end's
	key := func(i int) uint32 { return s.u32(secGrams, uint64(2*i)) }
	i := searchN(n, func(i int) bool { return key(i) >= g })
	if i >= n || key(i) != g {
		return 0, 0, false
	}
	from, to = s.u32(secGrams, uint64(2*i+1)), s.u32(secGrams, uint64(2*i+3))
	if from > to {
		corrupt(fmt.Sprintf("trigram %06x postings", g))
	}
	return from, to, true
}

// postings decodes the name numbers at [from, to) of gramPosts.
func (s *Symbols) postings(from, to uint32) []int {
	b := s.touch(secGramPosts, uint64(from), uint64(to-from))
	n := s.nameCount()
	var out []int
	next := uint64(0)
	for len(b) > 0 {
		d, k := binary.Uvarint(b)
		if k <= 0 || d > uint64(n) || (len(out) > 0 && d == 0) {
			corrupt("trigram postings")
		}
		next += d
		if next >= uint64(n) {
			corrupt("trigram postings")
		}
		out = append(out, int(next))
		b = b[k:]
	}
	return out
}

// checkNames checks the sizes of the names sections (parseSymbols).
func (s *Symbols) checkNames() error {
	st, g := len(s.sec[secNameStarts]), len(s.sec[secGrams])
	if st < 8 || st%8 != 0 || g < 8 || g%8 != 0 || st/8-1 > s.nodes {
		return fmt.Errorf("%w: names sections", ErrCorrupt)
	}
	return nil
}

// section writes names section i of the layout, and lets go of it.
func (l *nameLayout) section(i int, b *secBuffer) {
	switch i {
	case secByName:
		b.u32s(l.byName)
		l.byName = nil
	case secNames:
		b.bytes(l.text)
		l.text = nil
	case secNameStarts:
		b.u32s(l.starts)
		l.starts = nil
	case secGrams:
		b.u32s(l.grams)
		l.grams = nil
	case secGramPosts:
		b.bytes(l.posts)
		l.posts = nil
	}
}

// sizes are the bytes of the names sections.
func (l *nameLayout) sizes(size *[symSections]uint64) {
	size[secNames] = uint64(len(l.text))
	size[secNameStarts] = uint64(len(l.starts)) * 4
	size[secGrams] = uint64(len(l.grams)) * 4
	size[secGramPosts] = uint64(len(l.posts))
}
