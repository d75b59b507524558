package callgraph

import "strings"

// Tests stay tests: a definition in test-only code (a test file by its
// path, a Rust #[cfg(test)] module; extract's File.Test and Symbol.Test)
// is never the callee of production code unless the production file
// imports its module. Test doubles that implement a production interface
// (viper's finderStub in finder_test.go) are no implementers for a
// production call, and a production call resolved by its name alone does
// not count the test code's definitions of that name.

// inTest reports whether the call being resolved is test code: made in a
// test file, or by a symbol declared in test-only code.
func (r *resolver) inTest(caller SymbolID) bool {
	return r.f.Test || r.ix.test[caller]
}

// withoutTests drops from ids, the targets of a call made by production
// code, the symbols declared in test-only code that the call's file does
// not import (how Import says it does). It returns ids itself when nothing
// is dropped, and the first symbol dropped.
func (r *resolver) withoutTests(caller SymbolID, ids []SymbolID, how Resolution) (kept []SymbolID, dropped SymbolID, any bool) {
	if len(r.ix.test) == 0 || how == Import || r.inTest(caller) {
		return ids, 0, false
	}
	for i, id := range ids {
		if !r.ix.test[id] || r.importsModuleOf(id) {
			if kept != nil {
				kept = append(kept, id)
			}
			continue
		}
		if !any {
			dropped, any = id, true
			kept = append(make([]SymbolID, 0, len(ids)-1), ids[:i]...)
		}
	}
	if !any {
		return ids, 0, false
	}
	return kept, dropped, true
}

// importsModuleOf reports whether the file being resolved imports the
// module that declares id: the module, a name in it (`from tests.helpers
// import f`) or a package above it whose attributes reach it (`import
// tests.helpers` binds tests). A Go import path is a package of its own:
// importing example.com/m/sub imports nothing of example.com/m. An import
// of the file's own module (Rust's `use super::*` in a test module, which
// binds the file's names) imports nothing.
func (r *resolver) importsModuleOf(id SymbolID) bool {
	f := r.g.files[r.g.nodes[id].File]
	if f == nil {
		return false
	}
	mod, own := moduleName(f), moduleName(r.f)
	if v, ok := r.scope.imports[mod]; ok {
		return v
	}
	related := func(target string) bool {
		return target != own && (target == mod || strings.HasPrefix(target, mod+".") || strings.HasPrefix(mod, target+"."))
	}
	var in func(s *fileScope) bool
	in = func(s *fileScope) bool {
		for _, t := range s.bind {
			if related(t) {
				return true
			}
		}
		for _, w := range s.wildcards {
			if related(w) {
				return true
			}
		}
		for _, l := range s.local {
			if in(l) {
				return true
			}
		}
		return false
	}
	v := in(r.scope)
	if r.scope.imports == nil {
		r.scope.imports = map[string]bool{}
	}
	r.scope.imports[mod] = v
	return v
}
