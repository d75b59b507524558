package server

import (
	"log/slog"
	"sync"
	"time"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/graphstore"
)

// A workspace whose saved state was loaded with nothing changed (and so
// slim, see extractSaved) does not restore its call graph at the start:
// lookups read the saved symbols index (see lookupIndex), search reads
// the doc index, and the graph is restored when something first reads
// it (file_info's callers, the view, a report, the names of a code query
// while the code scope builds) or an update replaces it (prepareUpdate
// builds the full graph from the files, not from the restored one). On
// the Linux kernel the restored graph (its edges, nodes and indexes) is
// half a gigabyte of heap that a session of searches and lookups never
// reads, and twice that of resident memory once the collector's goal is
// counted (docs/bigrepos.md).

// pendingGraph is a call graph to restore from the saved state when
// first read. It is safe for concurrent use.
type pendingGraph struct {
	snap savedGraph
	// rebuild builds the graph from the files' full extractions, for a
	// saved graph that can no longer be read (damaged since the load).
	rebuild func(error) *callgraph.Graph
	log     *slog.Logger

	once sync.Once
	mu   sync.Mutex // guards g
	g    *callgraph.Graph
}

// savedGraph is the saved graph of a snapshot (*graphstore.Snapshot).
type savedGraph interface {
	RestoreGraph() (*callgraph.Graph, error)
	// SavedGraph reads what RestoreGraph restores, for a restore over
	// the files' full extractions (see prepareUpdate).
	SavedGraph() (callgraph.Saved, error)
	GraphCounts() (edges, unresolved int)
	GraphSkipped() []extract.Skipped
	// UnresolvedIn reads one file's unresolved calls without restoring
	// the graph (see savedView).
	UnresolvedIn(file string) ([]callgraph.Unresolved, error)
}

var _ savedGraph = (*graphstore.Snapshot)(nil)

// get returns the graph, restored on the first call.
func (p *pendingGraph) get() *callgraph.Graph {
	p.once.Do(func() {
		start := time.Now()
		g, err := p.snap.RestoreGraph()
		if err != nil || g == nil {
			g = p.rebuild(err)
		}
		if p.log != nil {
			p.log.Info("call graph restored", "symbols", g.Len(), "elapsed", time.Since(start).Round(time.Millisecond))
		}
		p.mu.Lock()
		p.g = g
		p.mu.Unlock()
	})
	return p.g
}

// saved returns what callgraph.Restore needs to give the graph back
// over the files' full extractions: the restored graph's Save if get has
// made it, else the saved state's, read without restoring the graph
// over the slim files.
func (p *pendingGraph) saved() (callgraph.Saved, error) {
	if g := p.restored(); g != nil {
		return g.Save(), nil
	}
	return p.snap.SavedGraph()
}

// restored returns the graph if get has made it, else nil.
func (p *pendingGraph) restored() *callgraph.Graph {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.g
}

// callGraph returns the workspace's call graph, restoring a pending one
// (see pendingGraph). The caller holds mu, for reading or writing.
func (w *workspace) callGraph() *callgraph.Graph {
	if p := w.pending; p != nil {
		return p.get()
	}
	return w.held
}

// graphID names the graph callGraph returns without restoring a pending
// one: equal while the graph is the same. The caller holds mu.
func (w *workspace) graphID() any {
	if w.pending != nil {
		return w.pending
	}
	return w.held
}

// unrestored returns the pending graph while nothing has restored it,
// else nil: what it describes is then read from the saved state. The
// caller holds mu.
func (w *workspace) unrestored() *pendingGraph {
	if p := w.pending; p != nil && p.restored() == nil {
		return p
	}
	return nil
}

// setGraph makes g the workspace's call graph. The caller holds mu for
// writing.
func (w *workspace) setGraph(g *callgraph.Graph) {
	w.held, w.pending = g, nil
}

// graphCounts returns the graph's symbols, resolved calls and unresolved
// calls, without restoring a pending graph while the saved symbols index
// describes it. The caller holds mu.
func (w *workspace) graphCounts() (symbols, edges, unresolved int) {
	if p := w.unrestored(); p != nil && w.symIdxCurrent() {
		edges, unresolved = p.snap.GraphCounts()
		return w.symIdx.Len(), edges, unresolved
	}
	g := w.callGraph()
	return g.Len(), len(g.Edges()), g.NumUnresolved()
}

// rebuildGraph builds the graph of a pending one whose saved graph could
// not be restored (err): from the files' full extractions (read from
// graph.bin or extracted again, see fullFiles); slim, files, if the
// workspace is closed meanwhile. The caller holds mu.
func (w *workspace) rebuildGraph(files []extract.File, err error) *callgraph.Graph {
	w.log.Warn("the saved call graph could not be restored: building it from the files", "root", w.root, "error", err)
	paths := make([]string, 0, len(w.files))
	for p, s := range w.files {
		if s.slim {
			paths = append(paths, p)
		}
	}
	var full []extract.File
	for _, s := range w.files {
		if !s.slim {
			full = append(full, *s.file)
		}
	}
	full, _, err = w.fullFiles(full, paths)
	if err != nil {
		return callgraph.Build(files) // closed: no answer will be read
	}
	return callgraph.Build(full)
}
