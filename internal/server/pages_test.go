package server

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// hubTree is n functions calling hub.
func hubTree(n int) map[string]string {
	var b strings.Builder
	b.WriteString("def hub():\n    pass\n")
	for i := range n {
		fmt.Fprintf(&b, "\ndef c%02d():\n    hub()\n", i)
	}
	return map[string]string{"h.py": b.String()}
}

// TestTreePagesKept: the pages after the first of a callers answer come
// from the tree its first page made, not from a tree built again, while
// the graph is unchanged; after an edit a next page is built anew, and
// a first page always is.
func TestTreePagesKept(t *testing.T) {
	s := connect(t, hubTree(12), Options{NoDocs: true, NoWatch: true})
	s.srv.workspace().wait(context.Background())
	var first, all treeOut
	s.ok("callers", map[string]any{"symbol": "hub", "limit": 200}, &all)
	s.ok("callers", map[string]any{"symbol": "hub", "limit": 5}, &first)
	if first.NextCursor == "" || first.Total != 12 {
		t.Fatalf("first page: %+v", first)
	}
	key := fmt.Sprintf("%v\x00%s\x00%d\x00%d", true, "hub", 1, 5)
	// The kept tree is what the next page reads: mark it.
	s.srv.pages.mu.Lock()
	if len(s.srv.pages.trees) != 1 || s.srv.pages.trees[0].key != key {
		s.srv.pages.mu.Unlock()
		t.Fatalf("kept trees after a first page: %+v", s.srv.pages.trees)
	}
	kept := &s.srv.pages.trees[0].a
	marked := append(kept.rows[:0:0], kept.rows...)
	marked[5].Symbol = "marked"
	kept.rows = marked
	s.srv.pages.mu.Unlock()
	var next treeOut
	s.ok("callers", map[string]any{"symbol": "hub", "limit": 5, "cursor": first.NextCursor}, &next)
	if len(next.Calls) != 5 || next.Calls[0].Symbol != "marked" {
		t.Fatalf("second page did not read the kept tree: %+v", next.Calls)
	}
	// An edit: the next page is built from the graph as it is now.
	writeTree(t, s.root, hubTree(11))
	s.ok("file_info", map[string]any{"path": "h.py"}, &map[string]any{})
	s.ok("callers", map[string]any{"symbol": "hub", "limit": 5, "cursor": first.NextCursor}, &next)
	if next.Total != 11 || next.Calls[0].Symbol == "marked" || next.Calls[0].Symbol != all.Calls[5].Symbol {
		t.Fatalf("second page after an edit: %+v, want built anew: 11 calls, %s first", next, all.Calls[5].Symbol)
	}
	// A first page is built anew even with a kept tree.
	s.srv.pages.mu.Lock()
	s.srv.pages.trees[len(s.srv.pages.trees)-1].a.rows[0].Symbol = "marked"
	s.srv.pages.mu.Unlock()
	s.ok("callers", map[string]any{"symbol": "hub", "limit": 5}, &first)
	if first.Calls[0].Symbol == "marked" || first.Calls[0].Symbol != "h.c00" {
		t.Fatalf("first page: %+v", first.Calls)
	}
}

// TestTreePagesBounded: at most keptTrees trees are kept, the last used.
func TestTreePagesBounded(t *testing.T) {
	var p treePages
	for i := range keptTrees + 3 {
		p.put(fmt.Sprint(i), treeState{}, treeAnswer{})
	}
	p.put("5", treeState{}, treeAnswer{}) // again: moves to the end
	if len(p.trees) != keptTrees {
		t.Fatalf("%d trees kept, want %d", len(p.trees), keptTrees)
	}
	var keys []string
	for _, k := range p.trees {
		keys = append(keys, k.key)
	}
	if got := strings.Join(keys, ","); got != "3,4,6,5" {
		t.Errorf("kept %s, want 3,4,6,5", got)
	}
	if _, ok := p.get("2", treeState{}); ok {
		t.Error("the oldest tree was kept")
	}
	if _, ok := p.get("3", treeState{edits: 1}); ok {
		t.Error("a tree of another graph state was given")
	}
}
