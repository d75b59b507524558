package docsearch

import "testing"

func TestBitSet(t *testing.T) {
	var s bitSet
	for _, id := range []uint32{0, 63, 64, 1000} {
		if s.has(id) {
			t.Fatalf("%d in an empty set", id)
		}
		if !s.add(id) || s.add(id) {
			t.Fatalf("add(%d) twice: want true, then false", id)
		}
		if !s.has(id) {
			t.Fatalf("%d not in the set after add", id)
		}
	}
	if s.has(1) || s.has(999) || s.has(5000) {
		t.Error("an ID never added is in the set")
	}
}
