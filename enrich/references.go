package enrich

import (
	"bytes"
	"fmt"
)

// references returns the places that use s's name as a value instead of
// calling it (callgraph.References): the symbol or module each is in, and
// where. A function with no callers but such uses is not dead code.
func (fs *facts) references(s *symbol) []ref {
	if !s.hasNode || s.role != roleCallable {
		return nil
	}
	var out []ref
	for _, r := range fs.g.References(s.node) {
		out = append(out, ref{name: r.Caller, file: r.File, line: r.Line})
	}
	return out
}

// renderReferences writes the "Used as a value" list of s, if it has
// one, for an artifact.
func renderReferences(b *bytes.Buffer, fs *facts, s *symbol) {
	refs := fs.references(s)
	if len(refs) == 0 {
		return
	}
	fmt.Fprintf(b, "\n**Used as a value, not called** (found by name):\n")
	for i, r := range refs {
		if i == maxCalledBy {
			fmt.Fprintf(b, "- and %d more\n", len(refs)-i)
			break
		}
		fmt.Fprintf(b, "- in %s at %s\n", codeSpan(r.name), codeSpan(fmt.Sprintf("%s:%d", r.file, r.line)))
	}
}
