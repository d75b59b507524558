package callgraph

// Rust types: named types, aliases, bounds, impl methods and pub use
// re-exports, as lang_rust.go describes.

import (
	"fmt"
	"math"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// rustSelfType returns the type of the impl block (or the trait) around
// caller: the parent node of its method, or, for an impl in a module
// other than the type's, the type its name means there.
func (r *resolver) rustSelfType(caller SymbolID) (SymbolID, bool) {
	for s, ok := caller, true; ok; s, ok = r.parentOf(s) {
		n := r.g.nodes[s]
		if r.isClass(s) {
			return s, true
		}
		if n.Kind == extract.KindMethod && n.Parent != "" {
			if ts, ok := r.rustTypeNamed(s, n.Parent); ok && len(ts) > 0 {
				return ts[0], true
			}
			return 0, false
		}
	}
	return 0, false
}

// rustTypeNamed resolves a type's path as written, seen from scope (in
// the current file), to the repository's types; ok is false when it is
// not a path to one.
func (r *resolver) rustTypeNamed(scope SymbolID, text string) ([]SymbolID, bool) {
	segs := rustSegments(text)
	if len(segs) == 0 {
		return nil, false
	}
	q := r.rustHead(scope, segs[0])
	if q == "" {
		return nil, false
	}
	for _, s := range segs[1:] {
		q = r.rustCanonical(q+"."+s, maxRustDepth)
	}
	for _, id := range r.g.byQualified[q] {
		if r.isClass(id) {
			if r.g.nodes[id].Kind == extract.KindType {
				// A type alias: what it names, when it is a path.
				if ts, ok := r.rustAlias(id); ok {
					return ts, true
				}
			}
			return []SymbolID{id}, true
		}
	}
	return nil, false
}

// rustAlias resolves `type A = B<..>;` to B, once deep.
func (r *resolver) rustAlias(id SymbolID) ([]SymbolID, bool) {
	sig := r.signature(id)
	_, rhs, ok := strings.Cut(sig, "=")
	if !ok {
		return nil, false
	}
	inner := rustInnerType(rhs)
	if inner == "" {
		return nil, false
	}
	segs := rustSegments(inner)
	if len(segs) == 0 || segs[len(segs)-1] == r.g.nodes[id].Name {
		return nil, false
	}
	var out []SymbolID
	for _, t := range r.rustTypeAt(id, inner) {
		if r.g.nodes[t].Kind != extract.KindType {
			out = append(out, t)
		}
	}
	return out, len(out) > 0
}

// rustTypeAt resolves a type as written in the file of node at, seen from
// at.
func (r *resolver) rustTypeAt(at SymbolID, text string) []SymbolID {
	f := r.g.files[r.g.nodes[at].File]
	if f == nil {
		return nil
	}
	return r.inFile(f, func() []SymbolID {
		ts, _ := r.rustTypeNamed(at, text)
		return ts
	})
}

// rustInnerType strips references, pointers, dyn, impl and the smart
// pointers that call through to their content (Box, Rc, Arc, and their
// paths) from a type as written; "" for a tuple, slice, array or
// function type.
func rustInnerType(t string) string {
	for range maxRustDepth {
		t = strings.TrimSpace(t)
		switch {
		case strings.HasPrefix(t, "&"):
			t = strings.TrimPrefix(t, "&")
			if strings.HasPrefix(t, "'") { // a lifetime
				i := strings.IndexAny(t, " \t")
				if i < 0 {
					return ""
				}
				t = t[i:]
			}
			continue
		case strings.HasPrefix(t, "mut "):
			t = t[len("mut "):]
			continue
		case strings.HasPrefix(t, "dyn "), strings.HasPrefix(t, "impl "):
			_, t, _ = strings.Cut(t, " ")
			if i := strings.IndexByte(t, '+'); i >= 0 {
				t = t[:i]
			}
			continue
		}
		wrapped := false
		for _, w := range []string{"Box", "Rc", "Arc", "std::boxed::Box", "std::rc::Rc", "std::sync::Arc", "sync::Arc", "rc::Rc"} {
			if strings.HasPrefix(t, w+"<") && strings.HasSuffix(t, ">") {
				t, wrapped = t[len(w)+1:len(t)-1], true
				break
			}
		}
		if !wrapped {
			break
		}
	}
	if t == "" || strings.ContainsAny(t[:1], "([*!") || strings.HasPrefix(t, "fn(") {
		return ""
	}
	return t
}

// rustReturn returns a function signature's return type as written.
func rustReturn(sig string) string {
	i := strings.LastIndex(sig, "->")
	if i < 0 {
		return ""
	}
	ret := sig[i+2:]
	if j := strings.Index(ret, " where "); j >= 0 {
		ret = ret[:j]
	}
	return strings.TrimSpace(ret)
}

// rustUnwrap returns the T of Result<T, ..>, io::Result<T> or Option<T>.
func rustUnwrap(t string) string {
	open := strings.IndexByte(t, '<')
	if open < 0 || !strings.HasSuffix(t, ">") {
		return t
	}
	head := t[:open]
	if !strings.HasSuffix(head, "Result") && !strings.HasSuffix(head, "Option") {
		return t
	}
	args := t[open+1 : len(t)-1]
	depth := 0
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case '<', '(':
			depth++
		case '>', ')':
			depth--
		case ',':
			if depth == 0 {
				return strings.TrimSpace(args[:i])
			}
		}
	}
	return strings.TrimSpace(args)
}

// rustBoundTypes returns the traits of the repository that bound the type
// parameter name seen from scope, or from the caller being resolved when
// scope is a type (a struct's field `sink: S`, read in a method of
// `impl<S: Sink>`): the bindings extract records for `S: Sink` and `where
// S: Sink`. ok is false when name is no bounded parameter there.
func (r *resolver) rustBoundTypes(scope SymbolID, name string) ([]SymbolID, bool) {
	for _, s := range []SymbolID{scope, r.caller} {
		v, at, ok := r.rustVar(s, name, math.MaxInt)
		if !ok || !strings.HasPrefix(v.b.Type, "impl ") {
			continue
		}
		var out []SymbolID
		r.inFile(v.file, func() []SymbolID {
			for _, b := range strings.Split(strings.TrimPrefix(v.b.Type, "impl "), "+") {
				b = strings.TrimSpace(b)
				if b == "" || b[0] == '\'' || b[0] == '?' {
					continue
				}
				if ts, ok := r.rustTypeNamed(at, b); ok {
					out = append(out, ts...)
				}
			}
			return nil
		})
		return out, true
	}
	return nil, false
}

// rustMethods returns t's methods named name: those qualified under t,
// else those of the crate's impl blocks for a type of that name in other
// modules; for a type without one, the default method of the only trait
// of the repository that provides it (trait true). On a trait, its own
// method.
func (r *resolver) rustMethods(t SymbolID, name string) (ids []SymbolID, trait bool) {
	if ms := r.members(t, name); len(ms) > 0 {
		return ms, r.g.nodes[t].Kind == extract.KindTrait
	}
	tn := r.g.nodes[t]
	crate, _, _ := strings.Cut(tn.Qualified, ".")
	var own, provided []SymbolID
	provDefs := map[string]bool{}
	for _, id := range r.ix.byName[name] {
		n := r.g.nodes[id]
		if n.Language != "rust" || n.Kind != extract.KindMethod {
			continue
		}
		if c, _, _ := strings.Cut(n.Qualified, "."); c == crate && n.Parent == tn.Name {
			own = append(own, id)
		}
		if p, ok := r.parentOf(id); ok && r.g.nodes[p].Kind == extract.KindTrait && !n.Declaration {
			provided = append(provided, id)
			provDefs[n.Qualified] = true
		}
	}
	if len(own) > 0 {
		return own, false
	}
	if tn.Kind != extract.KindTrait && len(provDefs) == 1 {
		return provided, true
	}
	return nil, false
}

// rustMethodOn resolves a call of name on a value of the given types.
func (r *resolver) rustMethodOn(types []SymbolID, declared, name string) ([]SymbolID, Resolution, string) {
	if len(types) == 0 {
		return nil, "", fmt.Sprintf("receiver type %s is not in the repository", declared)
	}
	var out []SymbolID
	how := Receiver
	for _, t := range types {
		ms, trait := r.rustMethods(t, name)
		if trait || r.g.nodes[t].Kind == extract.KindTrait {
			how = Interface
		}
		out = append(out, ms...)
	}
	if len(out) == 0 {
		return nil, "", fmt.Sprintf("no method %s on %s in the repository (derived, or a library trait's)", name, r.g.nodes[types[0]].Name)
	}
	return dedupeIDs(out), how, ""
}

// rustReexports adds to names what the uses of Rust file f bind: a path
// through f's module may reach them (`pub use crate::searcher::Searcher`
// in lib.rs makes grep_searcher::Searcher), so they are names f defines
// for Update.
func rustReexports(f *extract.File, keep func(name, parent string) bool, names map[string]bool) {
	for _, im := range f.Imports {
		bound := []string{im.Alias, lastSegment(strings.ReplaceAll(im.Path, "::", "."))}
		for _, n := range im.Names {
			bound = append(bound, n.Name, n.Alias)
		}
		for _, b := range bound {
			if b != "" && b != "*" && keep(b, "") {
				names[b] = true
			}
		}
	}
}
