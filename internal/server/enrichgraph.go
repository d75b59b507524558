package server

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/enrich"
	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/graphstore"
)

// What file_info, report_file_info and the artifacts read of the call
// graph (enrich.Graph) is answered, while the graph is pending and the
// saved symbols index describes it, from the saved state: nodes, callers,
// callees and qualified names from symbols.idx, a file's unresolved calls
// from graph.bin's deferred part (graphstore.Snapshot.UnresolvedIn). On
// the Linux kernel the first file_info restored the whole graph (4.2 s,
// and 1.5 GB more resident; docs/bigrepos.md); it now reads a few pages.
//
// The references by name (ReferencesCapped) come from the reference
// sites symbols.idx saves, as the restored graph's do: its files are slim
// (their symbols, not their references). Damage to what the view reads
// (a block of symbols.idx failing its checksum, graph.bin changed since
// the load) is never an answer: the view restores the graph and answers
// from it from then on, as it would have without the view.

// enrichGraph returns what enrich reads of the workspace's call graph:
// the saved view while the graph is pending and the saved symbols index
// describes it, else the graph. The caller holds mu.
func (w *workspace) enrichGraph() enrich.Graph {
	p := w.unrestored()
	if p == nil || !w.symIdxCurrent() {
		return w.callGraph()
	}
	return &savedView{sym: w.symIdx, snap: p.snap, pending: p, files: w.files, log: w.log}
}

// savedView answers enrich.Graph from the saved state of a pending graph
// (see enrichGraph). It is made under the workspace's mu and used under
// it; its methods are safe for concurrent use.
type savedView struct {
	sym     *graphstore.Symbols
	snap    savedGraph
	pending *pendingGraph
	files   map[string]*source // the workspace's, read under its mu
	log     *slog.Logger

	mu    sync.Mutex
	g     *callgraph.Graph // once damage was met: the restored graph
	nodes map[callgraph.SymbolID]callgraph.Node
}

var _ enrich.PlaceGraph = (*savedView)(nil)

// errModule is the damage of a saved index that does not name a file's
// module node once.
var errModule = errors.New("the saved symbols index does not name the file's module node once")

// read runs f over the saved state and returns nil, or, when f meets
// damage (or a module it cannot place), the restored graph, which v
// answers from afterwards.
func (v *savedView) read(f func()) *callgraph.Graph {
	v.mu.Lock()
	g := v.g
	v.mu.Unlock()
	if g != nil {
		return g
	}
	err := graphstore.Guard(f)
	if err == nil {
		return nil
	}
	v.log.Warn("the saved graph could not be read for file_info: restoring it", "error", err)
	g = v.pending.get()
	v.mu.Lock()
	v.g = g
	v.mu.Unlock()
	return g
}

// Node returns node id. The nodes read are kept: a prompt reads each
// caller's node for its list, the file's connections and the callers'
// keys, and each read copies its six strings out of the mapping.
func (v *savedView) Node(id callgraph.SymbolID) (n callgraph.Node) {
	v.mu.Lock()
	n, ok := v.nodes[id]
	v.mu.Unlock()
	if ok {
		return n
	}
	if g := v.read(func() { n = v.sym.Node(id) }); g != nil {
		return g.Node(id)
	}
	v.mu.Lock()
	if v.nodes == nil {
		v.nodes = map[callgraph.SymbolID]callgraph.Node{}
	}
	v.nodes[id] = n
	v.mu.Unlock()
	return n
}

// Callers returns the edges into id, in the graph's order.
func (v *savedView) Callers(id callgraph.SymbolID) (es []callgraph.Edge) {
	if g := v.read(func() { es = v.sym.Callers(id) }); g != nil {
		return g.Callers(id)
	}
	return es
}

// Callees returns the edges out of id, in the graph's order.
func (v *savedView) Callees(id callgraph.SymbolID) (es []callgraph.Edge) {
	if g := v.read(func() { es = v.sym.Callees(id) }); g != nil {
		return g.Callees(id)
	}
	return es
}

// Lookup returns the nodes of qualified name q, in ID order.
func (v *savedView) Lookup(q string) (ids []callgraph.SymbolID) {
	if g := v.read(func() { ids = v.sym.Qualified(q) }); g != nil {
		return g.Lookup(q)
	}
	return ids
}

// InFile returns the nodes of file as the graph lists them: its module's
// node first (shared by the files of a module, and so that of another
// file for all but the first), then its symbols' in ID order.
func (v *savedView) InFile(file string) (ids []callgraph.SymbolID) {
	if g := v.read(func() { ids = v.inFile(file) }); g != nil {
		return g.InFile(file)
	}
	return ids
}

func (v *savedView) inFile(file string) []callgraph.SymbolID {
	src := v.files[file]
	if src == nil {
		return nil // not among the graph's files
	}
	own := v.sym.InFile(file)
	mod := callgraph.ModuleName(src.file)
	var m []callgraph.SymbolID
	for _, id := range v.sym.Qualified(mod) {
		if v.sym.Node(id).Kind == callgraph.KindModule {
			m = append(m, id)
		}
	}
	if len(m) != 1 {
		// A module-kind symbol (a Ruby module, a Rust mod) of the same
		// name: which is the module's node is not known here.
		panic(&graphstore.CorruptError{What: fmt.Sprintf("%s: %v", file, errModule)})
	}
	if len(own) > 0 && own[0] == m[0] {
		return own
	}
	return append(m, own...)
}

// UnresolvedIn returns the calls file left unresolved, in line order.
func (v *savedView) UnresolvedIn(file string) (us []callgraph.Unresolved) {
	g := v.read(func() {
		var err error
		if us, err = v.snap.UnresolvedIn(file); err != nil {
			panic(&graphstore.CorruptError{What: err.Error()})
		}
	})
	if g != nil {
		return g.UnresolvedIn(file)
	}
	return us
}

// ReferencesCapped returns the first limit places that use id's name as
// a value and how many there are, as the graph's ReferencesCapped: from
// the name's reference sites saved in symbols.idx, read in place.
func (v *savedView) ReferencesCapped(id callgraph.SymbolID, limit int) (refs []callgraph.Reference, total int) {
	g := v.read(func() {
		n := v.sym.Node(id)
		refs, total = callgraph.ReferencesAmong(n, v.sym.RefSites(n.Name), limit, nil)
	})
	if g != nil {
		return g.ReferencesCapped(id, limit)
	}
	return refs, total
}

// PlacesIn returns the places of file: the workspace's file holds them,
// bare or whole (graphstore.Bare keeps them).
func (v *savedView) PlacesIn(file string) []extract.Place {
	if src := v.files[file]; src != nil && src.file != nil {
		return src.file.Places
	}
	return nil
}
