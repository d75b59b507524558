package server

import (
	"sync"

	"github.com/fileinfo/fileinfo/internal/graphstore"
)

// treeState names the graph a tree was made from: a tree kept for its
// next pages serves them while the workspace's graph is that one (the
// same graph, not updated since, read through the same saved index).
type treeState struct {
	ws     *workspace
	graph  any // the graph, or the pending one (see graphID)
	edits  uint64
	symIdx *graphstore.Symbols
}

// stateOf returns the graph state of w. The caller holds w.mu.
func (w *workspace) stateOf() treeState {
	return treeState{ws: w, graph: w.graphID(), edits: w.edits, symIdx: w.symIdx}
}

// treePages keeps the last trees whose answer ran past its first page,
// for the pages that follow: the Linux kernel's kmalloc has 4,800
// callers, 96 pages of 50, and each page built the whole tree again
// (6.5 ms a page; mutex_lock's, 12 ms). A first page always builds the
// tree anew, so that an answer starts from the graph as it is now.
type treePages struct {
	mu    sync.Mutex
	trees []keptTree // most recent last
}

// keptTrees is how many trees treePages keeps: an agent pages through
// one or two answers at a time; a kept kernel tree is about a megabyte.
const keptTrees = 4

type keptTree struct {
	key   string
	state treeState
	a     treeAnswer
}

// get returns the tree kept for the query key made from the graph state.
func (p *treePages) get(key string, state treeState) (treeAnswer, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, t := range p.trees {
		if t.key == key && t.state == state {
			return t.a, true
		}
	}
	return treeAnswer{}, false
}

// put keeps a, the tree of the query key made from the graph state, in
// the place of one of the same query, or of the oldest.
func (p *treePages) put(key string, state treeState, a treeAnswer) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, t := range p.trees {
		if t.key == key {
			p.trees = append(p.trees[:i], p.trees[i+1:]...)
			break
		}
	}
	if len(p.trees) == keptTrees {
		p.trees = append(p.trees[:0], p.trees[1:]...)
	}
	p.trees = append(p.trees, keptTree{key, state, a})
}
