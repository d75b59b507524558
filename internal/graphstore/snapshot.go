package graphstore

// The Snapshot Sync returns, and how it restores the saved graph.

import (
	"errors"
	"log/slog"
	"path/filepath"
	"sync"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// Snapshot is the extraction and graph of a root, fresh as of Sync.
type Snapshot struct {
	Files []extract.File // in walk order
	// Digests are the files' content digests (lower-case hex SHA-256),
	// by path, as of their extraction.
	Digests map[string]string
	// Skipped are the files extraction left out, sorted by path (those
	// the graph left out are its Skipped).
	Skipped []extract.Skipped
	// Extracted counts the files extracted this time; Reused those
	// taken from the saved state.
	Extracted, Reused int
	// How says how Sync came by the graph: the saved one, the saved one
	// updated with the Updated files changed, added or removed since it
	// was saved, or built whole, for the reason Why gives.
	How     How
	Updated int
	Why     string

	built     *callgraph.Graph // the graph Sync built, or nil when it was saved
	saved     callgraph.Saved  // the saved graph, when nothing changed
	discarded bool             // Options.Discard let go of the files and graph
	lazy      *Extractions     // Options.Lazy: the files' extractions, read on demand
	log       *slog.Logger

	// mu guards built, saved and deferred once Sync has returned.
	mu sync.Mutex
	// deferred, when not nil, holds saved's edges and unresolved calls,
	// which the load left in the file (see decodeStateSpans).
	deferred *openState
	// unresolved are the files' unresolved calls UnresolvedIn read from
	// deferred, by path.
	unresolved map[string][]callgraph.Unresolved
	// bare, when not nil, is the file Files were decoded bare from (see
	// Options.Lazy), which the graph's restore reads them slim from.
	bare *openState
	// symbols, when not nil, names the symbols.idx Sync left current,
	// whose reference sites a restore over slim files reads; sites are
	// those Sync gathered before a build took the files over (see
	// refsites.go).
	symbols *savedSymbols
	sites   []callgraph.RefSite
}

// savedSymbols names a symbols index: its directory and identity.
type savedSymbols struct {
	dir string
	id  [16]byte
}

// loadDeferred reads saved's deferred fields, if any are left in the
// file. The caller holds mu or is Sync.
func (s *Snapshot) loadDeferred() error {
	if s.deferred == nil {
		return nil
	}
	var st State
	if err := s.deferred.loadGraph(&st); err != nil {
		return err
	}
	s.saved.Edges, s.saved.Unresolved = st.Edges, st.Unresolved
	s.deferred = nil
	return nil
}

// SavedSymbols opens the symbols index Sync saved with the state it
// read back after an update (see How), or found current with nothing
// changed and Options.Lazy; nil, nil when it knows of none. It reads the
// index's header: Sync checked its stamps.
func (s *Snapshot) SavedSymbols() (*Symbols, error) {
	if s.symbols == nil {
		return nil, nil
	}
	sy, err := ReadSymbols(filepath.Join(s.symbols.dir, SymbolsFile))
	if err != nil {
		return nil, err
	}
	if sy.identity() != s.symbols.id {
		sy.Close()
		return nil, errors.New("graphstore: the symbols index changed since Sync saved it")
	}
	return sy, nil
}

// Extractions returns the reader of the files' full extractions when
// Options.Lazy left Files slim (see Slim), else nil. The caller closes
// it.
func (s *Snapshot) Extractions() *Extractions { return s.lazy }

// Graph returns the call graph over s.Files: the one Sync built, or, when
// nothing changed, the saved graph restored (see callgraph.Restore), whose
// first Update rebuilds what updating needs. A saved graph that does not
// fit the files is built instead, with a log line. It is nil when
// Options.Discard let go of the graph.
//
// Loaded slim (Options.Lazy), the saved graph's edges and unresolved
// calls stay in graph.bin until Graph is first called, which reads them
// (RestoreGraph says when that fails). Graph is safe for concurrent use.
func (s *Snapshot) Graph() *callgraph.Graph {
	g, err := s.RestoreGraph()
	if err != nil {
		s.log.Warn("graphstore: building the graph: the saved one does not fit", "reason", err)
		g = callgraph.Build(s.Files)
		s.mu.Lock()
		s.built = g
		s.mu.Unlock()
	}
	return g
}

// RestoreGraph is Graph without its fallback: when the saved graph
// cannot be read (graph.bin damaged since the load) or does not fit the
// files, it returns the error and no graph. The caller then builds the
// graph from the files' full extractions: Files are slim with
// Options.Lazy, and a graph built from them would lack their calls.
func (s *Snapshot) RestoreGraph() (*callgraph.Graph, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.built != nil || s.discarded {
		return s.built, nil
	}
	if err := s.loadDeferred(); err != nil {
		return nil, err
	}
	if s.bare != nil {
		// The files with their symbols (see Options.Lazy), and the
		// reference sites their Refs, not read, would give.
		files, err := s.bare.slimFiles()
		if err != nil {
			return nil, err
		}
		sites, err := s.restoredRefSites()
		if err != nil {
			return nil, err
		}
		s.Files, s.bare, s.saved.Refs = files, nil, sites
	}
	g, err := callgraph.Restore(s.Files, s.saved)
	if err != nil {
		return nil, err
	}
	s.built = g
	return g, nil
}

// SavedGraph returns the saved graph as callgraph.Restore takes it over
// the files' full extractions, without restoring it over Files: its
// edges and unresolved calls, read from graph.bin if the load left them
// there. A server's first update restores the graph over the full
// extractions; restoring it over the slim files first, only for Save to
// hand the edges on, held a second node table and its indexes beside
// the full one (on the Linux kernel 15 s and most of a gigabyte at the
// update's peak, docs/bigrepos.md). Refs are left out: full extractions
// hold theirs. Once the graph is restored, its Save is returned.
func (s *Snapshot) SavedGraph() (callgraph.Saved, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.built != nil {
		return s.built.Save(), nil
	}
	if s.discarded {
		return callgraph.Saved{}, errors.New("graphstore: the saved graph was let go of (Options.Discard)")
	}
	if err := s.loadDeferred(); err != nil {
		return callgraph.Saved{}, err
	}
	return callgraph.Saved{Edges: s.saved.Edges, Unresolved: s.saved.Unresolved, Skipped: s.saved.Skipped}, nil
}

// GraphCounts returns the number of the graph's edges and unresolved
// calls (callgraph.Graph's len(Edges()) and NumUnresolved) without
// restoring it.
func (s *Snapshot) GraphCounts() (edges, unresolved int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.built != nil:
		return len(s.built.Edges()), s.built.NumUnresolved()
	case s.deferred != nil:
		n := s.deferred.graph.n
		return n["Edges"], n["Unresolved"]
	}
	return len(s.saved.Edges), len(s.saved.Unresolved)
}

// GraphSkipped returns what the call graph skipped (callgraph.Graph's
// Skipped) without restoring it.
func (s *Snapshot) GraphSkipped() []extract.Skipped {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.built != nil {
		return s.built.Skipped()
	}
	return s.saved.Skipped
}
