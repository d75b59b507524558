package callgraph

import (
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// isClass reports whether id is a type that can have methods.
func (r *resolver) isClass(id SymbolID) bool {
	switch r.g.nodes[id].Kind {
	case extract.KindClass, extract.KindStruct, extract.KindInterface, extract.KindTrait,
		extract.KindEnum, extract.KindObject, extract.KindType:
		return true
	}
	return false
}

// parentOf returns the symbol or module that encloses id. The answer
// depends on the graph's nodes only: a resolver that resolves files keeps
// it by node (parents), as Python flow tracking asks it for every scope
// of every name it reads, in every round.
func (r *resolver) parentOf(id SymbolID) (SymbolID, bool) {
	if int(id) >= len(r.parents) { // not kept, or a node added since
		return r.findParent(id)
	}
	switch p := r.parents[id]; p {
	case 0:
	case noParent:
		return 0, false
	default:
		return p - 1, true
	}
	p, ok := r.findParent(id)
	if !ok {
		r.parents[id] = noParent
	} else if p+1 < noParent {
		r.parents[id] = p + 1
	}
	return p, ok
}

// noParent marks a node without parent in resolver.parents, which holds
// parentOf's answers plus one (0: not asked yet).
const noParent = ^SymbolID(0)

// findParent computes parentOf.
func (r *resolver) findParent(id SymbolID) (SymbolID, bool) {
	n := r.g.nodes[id]
	if n.Kind == KindModule {
		return 0, false
	}
	q := moduleOf(n.Qualified)
	for q != "" {
		if ids := r.g.byQualified[q]; len(ids) > 0 {
			// A class declared again in a declaration file or stub of the
			// same module (@nestjs/core's router-explorer.d.ts beside
			// its .js, a .pyi beside its .py) is not the parent of the
			// source's methods: theirs is in their own file.
			for _, p := range ids {
				if pn := r.g.nodes[p]; pn.File == n.File && (pn.Kind != KindModule || !r.isFileModule(p)) {
					return p, true
				}
			}
			return r.symbolFirst(ids), true
		}
		if m, ok := r.ix.module[q]; ok {
			return m, true
		}
		q = moduleOf(q)
	}
	if m, ok := r.ix.module[moduleName(r.g.files[n.File])]; ok && m != id {
		return m, true
	}
	return 0, false
}

// enclosingClass returns the innermost class around caller.
func (r *resolver) enclosingClass(caller SymbolID) (SymbolID, bool) {
	for s, ok := caller, true; ok; s, ok = r.parentOf(s) {
		if r.isClass(s) {
			return s, true
		}
	}
	return 0, false
}

// members returns the symbols named name declared directly in cls (or
// in its Kotlin companion object).
func (r *resolver) members(cls SymbolID, name string) []SymbolID {
	if ids := r.g.byQualified[r.g.nodes[cls].Qualified+"."+name]; len(ids) > 0 {
		return ids
	}
	if ids := r.jsProtoMembers(cls, name); len(ids) > 0 {
		return ids
	}
	return r.companionMembers(cls, name)
}

// method finds name in cls or, in method resolution order, its bases;
// inherited is true when a base has it.
func (r *resolver) method(cls SymbolID, name string) (ids []SymbolID, inherited bool) {
	for i, c := range r.linearize(cls) {
		if ms := r.members(c, name); len(ms) > 0 {
			return ms, i > 0
		}
	}
	return nil, false
}

// linearize returns cls followed by its bases in C3 order (Python's MRO;
// a depth-first order where C3 has no solution).
func (r *resolver) linearize(cls SymbolID) []SymbolID {
	if l, ok := r.mro[cls]; ok {
		return l
	}
	r.mro[cls] = []SymbolID{cls} // cycle guard while computing
	bases := r.basesOf(cls)
	var seqs [][]SymbolID
	for _, b := range bases {
		seqs = append(seqs, append([]SymbolID(nil), r.linearize(b)...))
	}
	seqs = append(seqs, append([]SymbolID(nil), bases...))
	l := []SymbolID{cls}
	if merged, ok := c3merge(seqs); ok {
		l = append(l, merged...)
	} else {
		seen := map[SymbolID]bool{cls: true}
		for _, s := range seqs {
			for _, c := range s {
				if !seen[c] {
					seen[c] = true
					l = append(l, c)
				}
			}
		}
	}
	r.mro[cls] = l
	return l
}

// c3merge merges linearizations: repeatedly take the first head that
// appears in no other sequence's tail.
func c3merge(seqs [][]SymbolID) ([]SymbolID, bool) {
	var out []SymbolID
	for {
		var nonEmpty [][]SymbolID
		for _, s := range seqs {
			if len(s) > 0 {
				nonEmpty = append(nonEmpty, s)
			}
		}
		if len(nonEmpty) == 0 {
			return out, true
		}
		seqs = nonEmpty
		var pick SymbolID
		found := false
		for _, s := range seqs {
			cand := s[0]
			inTail := false
			for _, t := range seqs {
				for _, x := range t[1:] {
					if x == cand {
						inTail = true
					}
				}
			}
			if !inTail {
				pick, found = cand, true
				break
			}
		}
		if !found {
			return nil, false
		}
		out = append(out, pick)
		for i, s := range seqs {
			if s[0] == pick {
				seqs[i] = s[1:]
			}
		}
	}
}

// basesOf resolves the base types of cls as written in its file.
func (r *resolver) basesOf(cls SymbolID) []SymbolID {
	if b, ok := r.bases[cls]; ok {
		return b
	}
	r.bases[cls] = nil
	n := r.g.nodes[cls]
	written := r.ix.bases[cls]
	if len(written) == 0 {
		return nil
	}
	// Resolve in the class's own file.
	saved := *r
	defer func() { r.f, r.tr, r.scope = saved.f, saved.tr, saved.scope }()
	r.enter(r.g.files[n.File])
	from, ok := r.parentOf(cls)
	if !ok {
		from = cls
	}
	var out []SymbolID
	for _, b := range written {
		b = cleanTypeName(b)
		if b == "" {
			continue
		}
		q, _, ok := r.resolveExpr(from, b)
		if !ok {
			continue
		}
		for _, id := range r.g.byQualified[q] {
			if r.isClass(id) && id != cls {
				out = append(out, id)
				break
			}
		}
	}
	r.bases[cls] = out
	return out
}

// cleanTypeName reduces "Generic[T]", "Base<T>", "*pkg.T" or "public Foo"
// to the name to resolve.
func cleanTypeName(s string) string {
	if i := strings.IndexAny(s, "[<("); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(strings.TrimLeft(s, "*&"))
	if f := strings.Fields(s); len(f) > 0 {
		s = f[len(f)-1]
	}
	return s
}

// subtypesOf returns the classes that have t among their bases, directly
// or not (Go: the types embedding it), in ID order; computed for every
// class on first use.
func (r *resolver) subtypesOf(t SymbolID) []SymbolID {
	if r.subtypes == nil {
		r.subtypes = map[SymbolID][]SymbolID{}
		classes := make([]SymbolID, 0, len(r.ix.bases))
		for id := range r.ix.bases {
			classes = append(classes, id)
		}
		sortIDs(classes)
		for _, c := range classes {
			for _, b := range r.linearize(c)[1:] {
				r.subtypes[b] = append(r.subtypes[b], c)
			}
		}
	}
	return r.subtypes[t]
}
