//go:build !linux

package docsearch

// scratchRegion is the mapping of a scratch's arrays on Linux; none here.
type scratchRegion struct{}

// alloc sizes sc's arrays for n chunks, zeroed.
func (sc *scratch) alloc(n int) { sc.allocHeap(n) }
