package callgraph

import (
	"testing"
	"unsafe"
)

// TestFileEdge: a file's result holds its edges in 16 bytes each, and
// gives back the Edge it was made from.
func TestFileEdge(t *testing.T) {
	if n := unsafe.Sizeof(fileEdge{}); n > 16 {
		t.Errorf("fileEdge is %d bytes, want 16 at most", n)
	}
	g := &Graph{}
	for i, how := range []Resolution{Local, Import, Receiver, Constructor, Inherited, Interface, Name, Callback, Macro, Local, "other"} {
		e := Edge{Caller: SymbolID(i), Callee: SymbolID(1 << 31), File: "fs/9p/acl.c", Line: 1<<31 - 1, Resolution: how}
		if got := g.edge(e.File, g.fileEdge(e)); got != e {
			t.Errorf("%+v came back as %+v", e, got)
		}
	}
	if len(g.hows) != 10 {
		t.Errorf("%d resolutions interned, want 10: %v", len(g.hows), g.hows)
	}
}
