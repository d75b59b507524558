package docsearch

import (
	"hash/maphash"
	"math/bits"
	"strings"
	"unsafe"
)

// termTable finds a term's ID while a lexicon is built: an open-addressed
// table of term IDs, probed linearly, whose terms lie in the lexicon's
// term list. A slot is 8 bytes, the term's hash's high 32 bits and its ID
// plus one (0: empty), where map[string]uint32 spends 24 bytes a slot
// and keeps a string header per term besides the list's. The table is
// kept at most 3/4 full, so a term costs 11-21 bytes here against the
// map's 29-57. On the Linux kernel's 3.78 M terms that is 40-80 MB
// instead of 110-215 (docs/bigrepos.md).
type termTable struct {
	slots []uint64
	n     int
	seed  maphash.Seed
}

func newTermTable(n int) *termTable {
	t := &termTable{seed: maphash.MakeSeed()}
	t.slots = make([]uint64, tableSize(n))
	return t
}

// tableSize is the power of two of slots that holds n terms at most 3/4
// full, at least 16.
func tableSize(n int) int {
	need := max(n+n/3+1, 16)
	return 1 << bits.Len(uint(need-1))
}

// len returns the number of terms in the table.
func (t *termTable) len() int {
	if t == nil {
		return 0
	}
	return t.n
}

func (t *termTable) hash(s string) uint64 { return maphash.String(t.seed, s) }

// find returns term s's ID, given terms, the lexicon's list.
func (t *termTable) find(terms []string, s string) (uint32, bool) {
	if t == nil || t.n == 0 {
		return 0, false
	}
	h := t.hash(s)
	mask := uint64(len(t.slots) - 1)
	tag := h >> 32
	for i := h & mask; ; i = (i + 1) & mask {
		v := t.slots[i]
		if v == 0 {
			return 0, false
		}
		if v>>32 == tag {
			if id := uint32(v) - 1; terms[id] == s {
				return id, true
			}
		}
	}
}

// insert records that terms[id] has ID id; it must not be in the table.
func (t *termTable) insert(terms []string, id uint32) {
	if (t.n+1)*4 > len(t.slots)*3 {
		t.grow(terms)
	}
	t.put(t.hash(terms[id]), id)
	t.n++
}

func (t *termTable) put(h uint64, id uint32) {
	mask := uint64(len(t.slots) - 1)
	i := h & mask
	for t.slots[i] != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = h>>32<<32 | uint64(id+1)
}

// grow doubles the table, hashing every term again: cheaper, over a
// build, than keeping 8 more bytes a slot for the hash's low half.
func (t *termTable) grow(terms []string) {
	old := t.slots
	t.slots = make([]uint64, len(old)*2)
	for _, v := range old {
		if v != 0 {
			id := uint32(v) - 1
			t.put(t.hash(terms[id]), id)
		}
	}
}

// termArena holds the strings of a lexicon's terms, copied into blocks
// of termBlock bytes: one allocation a block, not one a term rounded up
// to its size class.
type termArena struct {
	block []byte
}

const termBlock = 64 << 10

// intern returns a copy of s in the arena.
func (a *termArena) intern(s string) string {
	if len(s) == 0 {
		return ""
	}
	if len(s) > termBlock/8 {
		return strings.Clone(s)
	}
	if cap(a.block)-len(a.block) < len(s) {
		a.block = make([]byte, 0, termBlock)
	}
	at := len(a.block)
	a.block = append(a.block, s...)
	return unsafe.String(&a.block[at], len(s))
}
