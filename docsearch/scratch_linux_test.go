//go:build linux

package docsearch

import "testing"

// TestScratchRegion: large scratch is mapped apart, small on the heap.
func TestScratchRegion(t *testing.T) {
	small := &scratch{}
	small.alloc(1000)
	if small.region != nil {
		t.Error("1,000 chunks' scratch was mapped")
	}
	large := &scratch{}
	large.alloc(hugeScratchBytes / 17 * 2)
	if large.region == nil || len(large.region.b) < 17*len(large.acc) {
		t.Error("a large scratch is not in a mapping of its own")
	}
}
