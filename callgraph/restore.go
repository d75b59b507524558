package callgraph

import (
	"fmt"
	"go/ast"
	"sync"

	"github.com/fileinfo/fileinfo/extract"
)

// Saved is what a graph's readers see beyond its files, in a form a
// store can keep: a graph restored from it over the same files answers
// every query as the graph it was taken from, without resolving a call.
// The nodes are not in it: they are the files' symbols, numbered as
// Build numbers them, and Restore numbers them again.
type Saved struct {
	Edges []Edge // in the order of Edges
	// Unresolved are the call sites without a target, in file and line
	// order (the order of Unresolved).
	Unresolved []Unresolved
	// Skipped are the files whose resolution failed (Skipped).
	Skipped []extract.Skipped
	// Refs, when not nil, are the reference sites of the files
	// (RefSitesOf; those of names no node has may be left out), for
	// files given to Restore without their Refs: a store's slim files.
	// References reads them instead of the files'. Save leaves it nil:
	// the files it was taken over hold their Refs.
	Refs []RefSite
}

// Save returns what Restore needs to give g back over g's files. The
// slices are g's own or new; g must not be updated while they are used.
func (g *Graph) Save() Saved {
	var un []Unresolved
	if g.unresolved.n > 0 {
		un = make([]Unresolved, 0, g.unresolved.n)
		for _, p := range g.Files() {
			un = append(un, g.UnresolvedIn(p)...)
		}
	}
	return Saved{Edges: g.edges, Unresolved: un, Skipped: g.Skipped()}
}

// Nodes returns every node, by ID; the slice is g's own, not to be
// changed, and good until g is updated.
func (g *Graph) Nodes() []Node { return g.nodes }

// Restore gives back, over files, the graph s was saved from: reads
// answer at once, as from that graph. The resolution state Update needs
// is rebuilt by the first Update, which costs what Build does; until
// then the graph holds no more than its answers.
//
// Restore checks that s fits files (every edge between nodes of the
// files, in order; every unresolved call in one of them) and returns an
// error when it does not: the caller builds the graph instead. It does
// not check that s is what Build would make of files; that is the
// store's part (it saves s with the content hashes of files).
func Restore(files []extract.File, s Saved) (*Graph, error) {
	g := &Graph{
		edges:    s.Edges,
		files:    make(map[string]*extract.File, len(files)),
		results:  make(map[string]*fileResult, len(files)),
		byFile:   make(map[string][]SymbolID, len(files)),
		failed:   map[string]string{},
		restored: true,
	}
	n := 0
	for i := range files {
		f := &files[i]
		if g.files[f.Path] != nil {
			return nil, fmt.Errorf("restore: file %s given twice", f.Path)
		}
		g.files[f.Path] = f
		g.results[f.Path] = &fileResult{}
		n += 1 + len(f.Symbols)
	}
	// The nodes, as reindex numbers them: by file in path order, a
	// module's node before the first of its files' symbols, each file's
	// list led by its module's node.
	g.nodes = make([]Node, 0, n)
	modules := map[string]SymbolID{}
	for _, p := range g.Files() {
		f := g.files[p]
		mod := moduleName(f)
		m, ok := modules[mod]
		if !ok {
			m = SymbolID(len(g.nodes))
			modules[mod] = m
			g.nodes = append(g.nodes, Node{Qualified: mod, Name: lastSegment(mod), Kind: KindModule, File: f.Path, Line: 1, EndLine: 1, Language: f.Language})
		}
		ids := make([]SymbolID, 0, 1+len(f.Symbols))
		ids = append(ids, m)
		for i := range f.Symbols {
			ids = append(ids, SymbolID(len(g.nodes)))
			g.nodes = append(g.nodes, symbolNode(f, &f.Symbols[i]))
		}
		g.byFile[p] = ids
	}
	// The name index is a million entries on the Linux kernel: it is
	// made beside the rest.
	var names sync.WaitGroup
	names.Go(func() {
		g.byQualified = make(map[string][]SymbolID, len(g.nodes))
		for i, n := range g.nodes {
			g.byQualified[n.Qualified] = append(g.byQualified[n.Qualified], SymbolID(i))
		}
	})
	defer names.Wait()
	for i, e := range s.Edges {
		if int(e.Caller) >= len(g.nodes) || int(e.Callee) >= len(g.nodes) {
			return nil, fmt.Errorf("restore: edge %d points past the %d nodes", i, len(g.nodes))
		}
		if i > 0 && edgeLess(e, s.Edges[i-1]) {
			return nil, fmt.Errorf("restore: edge %d is out of order", i)
		}
	}
	// A file's calls are one run of s.Unresolved (it is in file order):
	// the run is its list, not a copy (the Linux kernel's 474,000 calls
	// are 42 MB, and the lists grown a call at a time as much again of
	// garbage). A run of a file met before, out of order, is appended.
	for i := 0; i < len(s.Unresolved); {
		file := s.Unresolved[i].File
		r := g.results[file]
		if r == nil {
			return nil, fmt.Errorf("restore: unresolved call in %s, not among the files", file)
		}
		j := i + 1
		for j < len(s.Unresolved) && s.Unresolved[j].File == file {
			j++
		}
		if r.unresolved == nil {
			r.unresolved = s.Unresolved[i:j:j]
		} else {
			r.unresolved = append(r.unresolved, s.Unresolved[i:j]...)
		}
		i = j
	}
	for i, r := range s.Refs {
		if g.files[r.File] == nil {
			return nil, fmt.Errorf("restore: reference site in %s, not among the files", r.File)
		}
		if i > 0 && r.Name < s.Refs[i-1].Name {
			return nil, fmt.Errorf("restore: reference site %d is out of order", i)
		}
	}
	for _, sk := range s.Skipped {
		g.failed[sk.Path] = sk.Reason
	}
	g.adjacency()
	g.refs.saved = s.Refs
	return g, nil
}

// Restored reports whether g lacks the resolution state: it was
// restored and not updated since, so its first Update rebuilds it (see
// complete).
func (g *Graph) Restored() bool { return g.restored }

// complete rebuilds the resolution state of a restored graph from its
// files: the index of names, the Go bindings, the importers. It resolves
// no call: every file keeps the edges and unresolved calls it was
// restored with, which are Build's (Restore's contract), so afterwards
// g answers and updates as Build of its files would. On the Linux
// kernel resolving every file again was a minute of CPU and gigabytes
// (docs/bigrepos.md); an edit re-resolves a few files.
//
// Two things resolution records of a file are not saved, and are
// assumed of a restored one, so that an Update re-resolves a superset
// of the files it would after Build, never fewer: that it read the C
// include graph (every C or C++ file, see includes), and which names
// its unique-name fallback looked up (unknownLookups: any it reads).
func (g *Graph) complete() {
	files, results, failed := g.files, g.results, g.failed
	g.files = make(map[string]*extract.File, len(files))
	g.results = make(map[string]*fileResult, len(files))
	g.tokens, g.byToken, g.hasTokens = nil, nil, false // built by the Update that follows
	g.bindings = map[gscopeKey][]gbinding{}
	g.importers = map[string]map[string]bool{}
	g.parsed = map[string]ast.Expr{}
	g.failed = map[string]string{}
	for p, f := range files {
		g.setFile(p, f)
	}
	g.reindex()
	for p, f := range files {
		res := results[p]
		if res == nil {
			res = &fileResult{}
		}
		res.unique = nil // not known: see unknownLookups
		res.includes = family(f.Language) == "c"
		g.results[p] = res
	}
	for p, reason := range failed {
		if g.files[p] != nil {
			g.failed[p] = reason
		}
	}
	g.restored = false
}

// Resolved returns how many files' calls g has resolved since it was
// made (by Build, by its updates), for logs and tests: a restored graph
// resolves none until an update re-resolves what it affects.
func (g *Graph) Resolved() int { return g.resolvedAll }

// File returns the extraction of path that g holds (for a restored
// graph, the files Restore was given), or nil when g has none.
func (g *Graph) File(path string) *extract.File { return g.files[path] }
