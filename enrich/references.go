package enrich

import (
	"bytes"
	"fmt"

	"github.com/fileinfo/fileinfo/callgraph"
)

// references returns the places that use s's name as a value instead of
// calling it (callgraph.References): the symbol or module each is in, and
// where. A function with no callers but such uses is not dead code.
func (fs *facts) references(s *symbol, limit int) (refs []ref, total int) {
	if !s.hasNode || s.role != roleCallable {
		return nil, 0
	}
	// A function passed to a call that calls it back (fixes.sort(byRange))
	// is a caller's by a callback edge at that site: the same use is not
	// also "used as a value, not called" there.
	type site struct {
		file string
		line int
	}
	called := map[site]bool{}
	for _, e := range fs.g.Callers(s.node) {
		if e.Resolution == callgraph.Callback {
			called[site{e.File, e.Line}] = true
		}
	}
	if len(called) == 0 {
		rs, total := fs.g.ReferencesCapped(s.node, limit)
		for _, r := range rs {
			refs = append(refs, ref{name: r.Caller, file: r.File, line: r.Line})
		}
		return refs, total
	}
	all, _ := fs.g.ReferencesCapped(s.node, 0)
	for _, r := range all {
		if called[site{r.File, r.Line}] {
			continue
		}
		total++
		if limit <= 0 || len(refs) < limit {
			refs = append(refs, ref{name: r.Caller, file: r.File, line: r.Line})
		}
	}
	return refs, total
}

// renderReferences writes the "Used as a value" list of s, if it has
// one, for an artifact.
func renderReferences(b *bytes.Buffer, fs *facts, s *symbol) {
	refs, total := fs.references(s, maxCalledBy)
	if total == 0 {
		return
	}
	fmt.Fprintf(b, "\n**Used as a value, not called** (found by name):\n")
	for _, r := range refs {
		fmt.Fprintf(b, "- in %s at %s\n", codeSpan(r.name), codeSpan(fmt.Sprintf("%s:%d", r.file, r.line)))
	}
	if total > len(refs) {
		fmt.Fprintf(b, "- and %d more\n", total-len(refs))
	}
}
