package graphstore

// The reference sites saved in symbols.idx (its refs and refImps
// sections, see the format at the top of symbols.go): the places that
// use a name as a value (callgraph.RefSite), which callgraph's
// References reads by name. A server's files are slim (no Refs), so
// without them a restarted server's prompts lacked the "used as a
// value" lines of the first start's. A lookup reads a name's sites in
// place (RefSites); the restored graph reads them all once
// (allRefSites), or, when symbols.idx cannot give them, decodes them
// from graph.bin's files (openState.refSites).

import (
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// savedSites returns which of sites are saved: those whose name is that
// of a node other than a module's, no other being ever read (References
// answers nothing for a module). A bit a site, not a copy: the writer
// holds no more than its input beside a section (see symbols_write.go).
func savedSites(nodes []callgraph.Node, sites []callgraph.RefSite) bitset {
	if len(sites) == 0 {
		return nil
	}
	// The sites' names, marked when a node has them: a set of the
	// nodes' names would be a million strings on the Linux kernel, whose
	// few sites are its Python scripts'.
	names := map[string]bool{}
	for i := range sites {
		names[sites[i].Name] = false
	}
	for i := range nodes {
		if n := &nodes[i]; n.Kind != callgraph.KindModule && n.Name != "" {
			if _, ok := names[n.Name]; ok {
				names[n.Name] = true
			}
		}
	}
	keep := make(bitset, (len(sites)+63)/64)
	for i := range sites {
		if names[sites[i].Name] {
			keep[i/64] |= 1 << (i % 64)
		}
	}
	return keep
}

// sitesToSave returns the reference sites of files that symbols.idx may
// keep (see savedSites): those of a symbol's name. For a build that
// takes the files over, which holds them until the index is written.
func sitesToSave(files []extract.File) []callgraph.RefSite {
	sites := callgraph.RefSitesOf(files)
	names := map[string]bool{}
	for i := range sites {
		names[sites[i].Name] = false
	}
	for i := range files {
		for j := range files[i].Symbols {
			if n := files[i].Symbols[j].Name; n != "" {
				if _, ok := names[n]; ok {
					names[n] = true
				}
			}
		}
	}
	kept := sites[:0]
	for _, r := range sites {
		if names[r.Name] {
			kept = append(kept, r)
		}
	}
	return slices.Clone(kept)
}

// bitset is a set of indexes.
type bitset []uint64

func (b bitset) has(i int) bool { return b[i/64]&(1<<(i%64)) != 0 }

func (s *Symbols) refRecord(k int) []byte {
	if k < 0 || k >= s.refs {
		corrupt(fmt.Sprintf("reference site %d of %d", k, s.refs))
	}
	return s.touch(secRefs, uint64(k)*symRefWords*4, symRefWords*4)
}

func (s *Symbols) refName(k int) string { return s.str(s.refRecord(k)) }

// refSite decodes site k.
func (s *Symbols) refSite(k int) callgraph.RefSite {
	b := s.refRecord(k)
	le := binary.LittleEndian
	r := callgraph.RefSite{
		Name: s.str(b[0:]), Receiver: s.str(b[8:]), Caller: s.str(b[16:]), File: s.str(b[24:]),
		Line: int(le.Uint32(b[32:])), Go: le.Uint32(b[36:])&1 != 0,
	}
	lo, hi := uint64(le.Uint32(b[40:])), uint64(s.refImps)
	if k+1 < s.refs {
		hi = uint64(le.Uint32(s.refRecord(k + 1)[40:]))
	}
	if lo > hi || hi > uint64(s.refImps) {
		corrupt("reference site imports")
	}
	for i := lo; i < hi; i++ {
		ib := s.touch(secRefImps, i*symImpWords*4, symImpWords*4)
		r.Imports = append(r.Imports, callgraph.RefImport{Path: s.str(ib[0:]), Resolved: s.str(ib[8:])})
	}
	return r
}

// RefSites returns the saved reference sites of name, in the order
// callgraph.RefSitesOf gives them: what callgraph.ReferencesAmong reads
// for a node of that name.
func (s *Symbols) RefSites(name string) []callgraph.RefSite {
	k := searchN(s.refs, func(k int) bool { return s.refName(k) >= name })
	var out []callgraph.RefSite
	for ; k < s.refs; k++ {
		r := s.refSite(k)
		if r.Name != name {
			break
		}
		out = append(out, r)
	}
	return out
}

// allRefSites returns every saved reference site, in order; never nil.
func (s *Symbols) allRefSites() []callgraph.RefSite {
	out := make([]callgraph.RefSite, 0, s.refs)
	for k := range s.refs {
		r := s.refSite(k)
		if k > 0 && r.Name < out[k-1].Name {
			corrupt("reference sites out of order")
		}
		out = append(out, r)
	}
	return out
}

// savedRefSites reads the reference sites of the symbols index of
// identity id in dir, all of them, each block checked: the sites a
// graph restored over slim files reads (callgraph.Saved.Refs). It fails
// when dir holds another index than the one Sync left current.
func savedRefSites(dir string, id [16]byte) (sites []callgraph.RefSite, err error) {
	s, err := ReadSymbols(filepath.Join(dir, SymbolsFile))
	if err != nil {
		return nil, err
	}
	defer s.Close()
	if s.identity() != id {
		return nil, fmt.Errorf("%s: %w: replaced since the load", SymbolsFile, ErrStale)
	}
	err = Guard(func() { sites = s.allRefSites() })
	return sites, err
}

// refFields are the fields of extract.File RefSitesOf reads.
var refFields = map[string]bool{"Path": true, "Language": true, "Imports": true, "Refs": true}

// refSites decodes the reference sites of every file saved in sf: the
// files' paths, languages, imports and references, no more, checked
// against the checksums taken at load (see filesKeeping).
func (sf *openState) refSites() ([]callgraph.RefSite, error) {
	p, err := entryPlanKeeping(refFields)
	if err != nil {
		return nil, err
	}
	files, err := sf.filesKeeping(p)
	if err != nil {
		return nil, err
	}
	return callgraph.RefSitesOf(files), nil
}

// refSitesFor returns the reference sites of the graph s saves, whose
// files are files: those Sync gathered before a build took the files
// over (given once), or those RestoreGraph read for slim files, else
// files'.
func (s *Snapshot) refSitesFor(files []extract.File) []callgraph.RefSite {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch sites := s.sites; {
	case sites != nil:
		s.sites = nil // held for this save only
		return sites
	case s.saved.Refs != nil:
		return s.saved.Refs
	}
	return callgraph.RefSitesOf(files)
}

// restoredRefSites returns the reference sites of a graph restored over
// slim files: from symbols.idx when Sync left it current (symbols), else
// decoded from graph.bin's files (bare). The caller holds mu.
func (s *Snapshot) restoredRefSites() ([]callgraph.RefSite, error) {
	if s.symbols != nil {
		sites, err := savedRefSites(s.symbols.dir, s.symbols.id)
		if err == nil {
			return sites, nil
		}
		s.log.Warn("graphstore: reading the references from graph.bin", "reason", err)
	}
	if s.bare == nil {
		return nil, errors.New("graphstore: no saved references")
	}
	return s.bare.refSites()
}
