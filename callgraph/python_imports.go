package callgraph

// Python imports: names re-exported by the module they are imported
// from. `from pkg import Foo` binds Foo to pkg.Foo; when pkg/__init__.py
// has `from .sub import Foo` (or `from .sub import *`), the definition is
// pkg.sub.Foo. canonical follows such chains through the import bindings
// of each module on the way, as Python's import system does at run time.

// maxReexports bounds the chain of re-exports followed for one name
// (a cycle of `from .a import x` in a and b ends there too).
const maxReexports = 8

// canonical returns the qualified name of the definition q stands for
// when q is a name a Python module binds by importing it; else q.
func (r *resolver) canonical(q string) string {
	return r.canonicalDepth(q, maxReexports)
}

func (r *resolver) canonicalDepth(q string, depth int) string {
	if depth == 0 || r.known(q) {
		return q
	}
	mod, name := moduleOf(q), lastSegment(q)
	if mod == "" {
		return q
	}
	id, ok := r.ix.module[mod]
	if !ok {
		// pkg.Foo.go: the definition of pkg.Foo, then its member.
		if c := r.canonicalDepth(mod, depth-1); c != mod {
			return r.canonicalDepth(c+"."+name, depth-1)
		}
		return q
	}
	f := r.g.files[r.g.nodes[id].File]
	if f == nil || f.Language != "python" {
		return q
	}
	s := r.fileScope(f)
	if t, ok := s.bind[name]; ok && t != q {
		return r.canonicalDepth(t, depth-1)
	}
	for _, w := range s.wildcards {
		if c := r.canonicalDepth(joinQ(w, name), depth-1); r.known(c) {
			return c
		}
	}
	return q
}

// lookup returns the nodes of q, or of the definition it re-exports.
func (r *resolver) lookup(q string) []SymbolID {
	if ids := r.g.byQualified[q]; len(ids) > 0 {
		return ids
	}
	return r.g.byQualified[r.canonical(q)]
}
