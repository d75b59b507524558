package enrich

import (
	"bytes"
	"fmt"
)

// references returns the places that use s's name as a value instead of
// calling it (callgraph.References): the symbol or module each is in, and
// where. A function with no callers but such uses is not dead code.
func (fs *facts) references(s *symbol, limit int) (refs []ref, total int) {
	if !s.hasNode || s.role != roleCallable {
		return nil, 0
	}
	rs, total := fs.g.ReferencesCapped(s.node, limit)
	for _, r := range rs {
		refs = append(refs, ref{name: r.Caller, file: r.File, line: r.Line})
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
