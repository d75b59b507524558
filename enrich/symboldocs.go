package enrich

import "github.com/fileinfo/fileinfo/extract"

// SymbolDoc is the prose a report gives one symbol.
type SymbolDoc struct {
	Purpose        string
	Implementation string // the Implementation Summary's steps, one a line
}

// SymbolDocs returns what r says of each of f's symbols, by qualified
// name, for a search index to hold beside the code. Names r gets wrong,
// and symbols it gives no prose, are left out. It never returns nil.
func SymbolDocs(r *Report, f *extract.File) map[string]SymbolDoc {
	out := map[string]SymbolDoc{}
	if r == nil {
		return out
	}
	docs, _ := resolve(r, newFacts(f, nil))
	for q, d := range docs {
		if !d.empty() {
			out[q] = SymbolDoc{Purpose: d.purpose, Implementation: d.implementation}
		}
	}
	return out
}
