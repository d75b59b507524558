package docsearch

import (
	"math/bits"
	"os"
	"testing"
)

func TestBitSetAddRange(t *testing.T) {
	for _, r := range [][2]uint32{{0, 0}, {0, 1}, {3, 64}, {63, 65}, {64, 128}, {5, 300}, {128, 130}} {
		var s bitSet
		s.add(1000) // grown past the range first: addRange must not shrink it
		s.addRange(r[0], r[1])
		for id := range uint32(1100) {
			want := id >= r[0] && id < r[1] || id == 1000
			if s.has(id) != want {
				t.Fatalf("addRange(%d, %d): has(%d) = %v", r[0], r[1], id, !want)
			}
		}
	}
	var s bitSet
	s.addRange(70, 200)
	if len(s) != 4 {
		t.Errorf("addRange(70, 200) made %d words; want 4", len(s))
	}
}

// checkDeadChunks checks that ix.deadChunks holds exactly the chunks of
// removed documents, and that ix.dead counts them.
func checkDeadChunks(t *testing.T, ix *Index) {
	t.Helper()
	removed := func(id uint32) bool {
		if tab := ix.tab; tab != nil {
			if int(id) < len(tab.docs) {
				return ix.tabGone(id)
			}
			return ix.ovDoc(id) == nil
		}
		return ix.docs[id] == nil
	}
	n := 0
	for c := range uint32(ix.nchunks()) {
		if got, want := ix.deadChunks.has(c), removed(ix.chunkDoc(c)); got != want {
			t.Fatalf("chunk %d: dead %v, its document removed %v", c, got, want)
		}
	}
	for _, w := range ix.deadChunks {
		n += bits.OnesCount64(w)
	}
	if n != ix.dead {
		t.Errorf("%d chunks marked dead; ix.dead is %d", n, ix.dead)
	}
}

// TestDeadChunksAreTheRemoved checks the dead chunks a search leaves out
// by their bits: after a change beside the loaded tables, after the
// delta is read back, and after a change to an index built in memory.
// (TestOverlaySearchEqualsWhole checks the searches themselves.)
func TestDeadChunksAreTheRemoved(t *testing.T) {
	oc := newOverlayCase(t, &trigramEmbedder{})
	ix := openTest(t, os.DirFS(oc.root), Options{Dir: oc.dir, Embedder: oc.emb})
	oc.change(t, ix)
	if ix.dead == 0 {
		t.Fatal("the change removed no chunk")
	}
	checkDeadChunks(t, ix)

	again, err := OpenSaved(ctx, os.DirFS(oc.root), Options{Dir: oc.dir, Embedder: oc.emb})
	if err != nil {
		t.Fatal(err)
	}
	if again.dead == 0 {
		t.Fatal("the delta read back removed no chunk")
	}
	checkDeadChunks(t, again)

	mem := openTest(t, os.DirFS(oc.root), Options{Embedder: oc.emb})
	putCode(t, mem, overlayCode(false))
	putCode(t, mem, overlayCode(true), "src/flask/app.py")
	if mem.dead == 0 {
		t.Fatal("the second put removed no chunk")
	}
	checkDeadChunks(t, mem)
	mem.mu.Lock()
	mem.compact()
	mem.mu.Unlock()
	if mem.dead != 0 || mem.deadChunks != nil {
		t.Errorf("after compact: dead %d, %d words of dead bits; want none", mem.dead, len(mem.deadChunks))
	}
}
