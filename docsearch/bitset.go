package docsearch

// bitSet is a set of IDs, a bit each, that grows as IDs are added.
type bitSet []uint64

// has reports whether id is in s.
func (s bitSet) has(id uint32) bool {
	w := int(id / 64)
	return w < len(s) && s[w]&(1<<(id%64)) != 0
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
