package docsearch

import "container/heap"

// bpeHeapMin is the piece length, in bytes, from which bpeCount merges
// with a heap (bpeCountLong) rather than by scanning the parts for the
// best pair at each merge. Scanning costs O(n²) in the piece's length:
// pieces are words, short, almost always, but a run of letters with no
// space, such as a paragraph of Chinese or a line of emoji, is one piece;
// 100 KB of emoji took 14 s to index, and a 4 MB file of them would take
// hours.
const bpeHeapMin = 256

// bpeCountLong is bpeCount for long pieces, in O(n log n): the candidate
// merges wait in a heap by rank, then start (so the leftmost of equal
// ranks comes first, as bpeCount takes it); a merge pushes the two pairs
// it forms with its neighbours, and a popped pair that a merge has
// changed since it was pushed is passed over. Its counts equal
// bpeCount's (TestBPECountLong).
func (c *tokenCounter) bpeCountLong(p string) int {
	n := len(p)
	// next[i] is the start of the part after the one starting at i, prev[i]
	// the start of the one before; next[i] < 0 once i starts no part.
	next := make([]int32, n)
	prev := make([]int32, n)
	pairs := make(mergeHeap, 0, n)
	for i := range n {
		next[i], prev[i] = int32(i+1), int32(i-1)
		if i+1 < n {
			if r := c.ranks.pairs[pairKey(p[i:])]; r != noRank {
				pairs = append(pairs, merge{rank: r, start: int32(i), end: int32(i + 2)})
			}
		}
	}
	heap.Init(&pairs)
	parts := n
	for len(pairs) > 0 {
		m := heap.Pop(&pairs).(merge)
		mid := next[m.start]
		if mid < 0 || int(mid) >= n || next[mid] != m.end {
			continue // a part of it has merged with another since
		}
		// The part at mid joins the one at start.
		next[m.start], next[mid] = m.end, -1
		if int(m.end) < n {
			prev[m.end] = m.start
		}
		parts--
		if l := prev[m.start]; l >= 0 {
			if r := c.ranks.rank(p[l:m.end]); r != noRank {
				heap.Push(&pairs, merge{rank: r, start: l, end: m.end})
			}
		}
		if int(m.end) < n {
			e := next[m.end]
			if r := c.ranks.rank(p[m.start:e]); r != noRank {
				heap.Push(&pairs, merge{rank: r, start: m.start, end: e})
			}
		}
	}
	return parts
}

// merge is a candidate merge of the parts p[start:x] and p[x:end].
type merge struct {
	rank       int32
	start, end int32
}

// mergeHeap orders candidate merges by rank, then start.
type mergeHeap []merge

func (h mergeHeap) Len() int { return len(h) }
func (h mergeHeap) Less(i, j int) bool {
	return h[i].rank < h[j].rank || h[i].rank == h[j].rank && h[i].start < h[j].start
}
func (h mergeHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *mergeHeap) Push(x any)   { *h = append(*h, x.(merge)) }
func (h *mergeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
