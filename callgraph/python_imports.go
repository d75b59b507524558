package callgraph

// Python imports: names re-exported by the module they are imported
// from. `from pkg import Foo` binds Foo to pkg.Foo; when pkg/__init__.py
// has `from .sub import Foo` (or `from .sub import *`), the definition is
// pkg.sub.Foo. canonical follows such chains through the import bindings
// of each module on the way, as Python's import system does at run time.
//
// Imports are scoped: one in a function's body binds its names in that
// function (and the functions nested in it) only, and a parameter or
// variable of a function hides the module's import of the same name.

import (
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// maxReexports bounds the chain of re-exports followed for one name
// (a cycle of `from .a import x` in a and b ends there too).
const maxReexports = 8

// canonical returns the qualified name of the definition q stands for
// when q is a name a Python module binds by importing it; else q.
//
// Only answers that read a Python module's scope are kept: the others
// cost a few map lookups to find again, and keeping them (every name a
// C file tries through its includes) took 620 MB on Linux 6.1.
func (r *resolver) canonical(q string) string {
	if !r.ix.python || r.known(q) {
		return q
	}
	if c, ok := r.canon[q]; ok {
		return c
	}
	walks := r.pyWalks
	c := r.canonicalDepth(q, maxReexports)
	if c == q && r.pyWalks == walks {
		return c
	}
	if r.canon == nil {
		r.canon = map[string]string{}
	}
	r.canon[q] = c
	return c
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
	r.pyWalks++
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

// boundIn reports whether function or class s binds name itself: by an
// import in its body (target, and ext when the import is from outside
// the repository), or as a parameter or variable (target ""). A class
// binds only its own imports; the module's bindings are not asked.
func (r *resolver) boundIn(s SymbolID, name string) (target, ext string, ok bool) {
	sc := r.scope
	if sc.byID == nil && sc.shadow == nil {
		return "", "", false
	}
	if l := sc.byID[s]; l != nil {
		if t, ok := l.bind[name]; ok {
			return t, l.external[name], true
		}
	}
	if sc.shadow[s][name] {
		return "", "", true
	}
	return "", "", false
}

// importOf returns what an import binds name to, seen from caller: the
// import of the innermost function around caller that binds name, else
// the module's. ok is false when nothing imports name, or a function on
// the way binds it itself (a parameter shadows the module's import).
func (r *resolver) importOf(caller SymbolID, name string) (target, ext string, ok bool) {
	if r.scope.byID != nil || r.scope.shadow != nil {
		for s, more := caller, true; more; s, more = r.parentOf(s) {
			if r.g.nodes[s].Kind == KindModule && r.isFileModule(s) {
				break
			}
			if r.isClass(s) && s != caller {
				continue // a class body is no enclosing scope of its methods
			}
			if t, e, bound := r.boundIn(s, name); bound {
				return t, e, t != ""
			}
		}
	}
	t, ok := r.scope.bind[name]
	ext, isExt := r.scope.external[name]
	return t, ext, ok || isExt
}

// shadows fills s.shadow with the names each function of f binds itself:
// its parameters and the names it assigns (for-loop targets included),
// and s.byID with its function-local imports. Both are by node, so that
// a lookup on the hot path of flow tracking hashes no qualified name.
func (r *resolver) shadows(f *extract.File, s *fileScope) {
	node := func(scope string) (SymbolID, bool) {
		for _, id := range r.g.byQualified[scope] {
			if r.g.nodes[id].File == f.Path {
				return id, true
			}
		}
		return 0, false
	}
	for scope, l := range s.local {
		if id, ok := node(scope); ok {
			if s.byID == nil {
				s.byID = map[SymbolID]*fileScope{}
			}
			s.byID[id] = l
		}
	}
	add := func(id SymbolID, name string) {
		if s.shadow == nil {
			s.shadow = map[SymbolID]map[string]bool{}
		}
		if s.shadow[id] == nil {
			s.shadow[id] = map[string]bool{}
		}
		s.shadow[id][name] = true
	}
	for _, id := range r.g.byFile[f.Path] {
		for _, p := range r.ix.params[id] {
			add(id, p)
		}
	}
	var names func(scope SymbolID, t extract.Expr)
	names = func(scope SymbolID, t extract.Expr) {
		switch t.Kind() {
		case extract.ExprName:
			add(scope, t.Name())
		case extract.ExprTuple, extract.ExprList, extract.ExprSplat:
			for i := range t.Len() {
				names(scope, t.Sub(i))
			}
		}
	}
	mod := moduleName(f)
	for _, b := range f.Bindings {
		if b.Scope == mod || b.Target == "<return>" || strings.HasPrefix(b.Value, "@") {
			continue
		}
		if id, ok := node(b.Scope); ok {
			names(id, b.TargetExpr)
		}
	}
}
