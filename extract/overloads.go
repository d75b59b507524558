package extract

import "slices"

// Overloads returns, by qualified name, the indexes in symbols of the
// declarations (Symbol.Declaration) of each function or method that has
// exactly one definition among them: TypeScript's overload signatures, a
// file's prototype of its own function. They document that definition
// rather than stand beside it: enrich lists them in its entry, the code
// index folds them into its search document. Nil when symbols declare
// nothing.
func Overloads(symbols []Symbol) map[string][]int {
	callable := func(s *Symbol) bool { return s.Kind == KindFunction || s.Kind == KindMethod }
	if !slices.ContainsFunc(symbols, func(s Symbol) bool { return s.Declaration && callable(&s) }) {
		return nil // most files: no map made
	}
	defs := map[string]int{}
	for i := range symbols {
		if s := &symbols[i]; callable(s) && !s.Declaration {
			defs[s.Qualified]++
		}
	}
	var out map[string][]int
	for i := range symbols {
		if s := &symbols[i]; callable(s) && s.Declaration && defs[s.Qualified] == 1 {
			if out == nil {
				out = map[string][]int{}
			}
			out[s.Qualified] = append(out[s.Qualified], i)
		}
	}
	return out
}
