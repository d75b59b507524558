package docsearch

// bitSet is a set of IDs, a bit each, that grows as IDs are added.
type bitSet []uint64

// has reports whether id is in s.
func (s bitSet) has(id uint32) bool {
	w := int(id / 64)
	return w < len(s) && s[w]&(1<<(id%64)) != 0
}

// addRange puts the IDs from lo up to, not including, hi in s.
func (s *bitSet) addRange(lo, hi uint32) {
	if lo >= hi {
		return
	}
	if w := int((hi - 1) / 64); w >= len(*s) {
		*s = append(*s, make([]uint64, w+1-len(*s))...)
	}
	for id := lo; id < hi; {
		if id%64 == 0 && hi-id >= 64 {
			(*s)[id/64] = ^uint64(0)
			id += 64
			continue
		}
		(*s)[id/64] |= 1 << (id % 64)
		id++
	}
}

// add puts id in s and reports whether it was not there already.
func (s *bitSet) add(id uint32) bool {
	w := int(id / 64)
	if w >= len(*s) {
		*s = append(*s, make([]uint64, w+1-len(*s))...)
	}
	if (*s)[w]&(1<<(id%64)) != 0 {
		return false
	}
	(*s)[w] |= 1 << (id % 64)
	return true
}
