package callgraph

import (
	"fmt"
	"go/ast"
	"sort"

	"github.com/fileinfo/fileinfo/extract"
)

// resolveGo resolves a Go call site: package functions, package-qualified
// calls through imports, methods on receivers whose type goTypes knows
// (promoted through embedding: inherited; through an interface: every
// implementer), and the unique-name fallback only for receivers of
// unknown type.
func (r *resolver) resolveGo(caller SymbolID, c extract.Call) ([]SymbolID, Resolution, string) {
	gt := r.gotypes
	ctx := gctx{file: r.f, scope: c.Caller, line: c.Line}
	if c.Name == "()" {
		return nil, "", "call of a function value"
	}
	if c.Receiver == "" {
		if gt.isVar(ctx, c.Name) {
			return nil, "", "call of a function value " + c.Name
		}
		ids, how := r.resolveName(caller, c.Name)
		if len(ids) == 0 {
			return nil, "", r.unknownName(c.Name)
		}
		if r.isClass(ids[0]) {
			return nil, "", "conversion to " + r.g.nodes[ids[0]].Qualified
		}
		return ids, how, ""
	}
	recv := gt.parse(c.Receiver)
	if recv == nil {
		return nil, "", "receiver does not parse: " + c.Receiver
	}
	if path, ok := gt.importOf(ctx, recv); ok {
		q := path + "." + c.Name
		ids := r.g.byQualified[q]
		switch {
		case len(ids) > 0 && r.isClass(ids[0]):
			return nil, "", "conversion to " + q
		case len(ids) > 0:
			return ids, Import, ""
		case !r.hasMembers(path):
			return nil, "", "external: " + q
		}
		return nil, "", "not a function of " + path + ": " + c.Name
	}
	if gt.isType(ctx, recv) { // method expression T.M(x)
		if t := gt.typeExpr(r.f, recv); t != nil && t.declared {
			return r.goMethod(t, c.Name, Receiver)
		}
		return nil, "", "method expression on a type outside the repository"
	}
	t := gt.exprType(ctx, recv, 0)
	switch {
	case t == nil:
		if id, ok := recv.(*ast.Ident); ok && !gt.isVar(ctx, id.Name) {
			if ext, ok := r.scope.external[id.Name]; ok {
				return nil, "", "external: " + ext + "." + c.Name
			}
		}
		return r.unique(c.Name, true)
	case t.declared:
		return r.goMethod(t, c.Name, Receiver)
	case isOutside(t):
		return nil, "", "external: " + t.origin() + "." + c.Name
	case t.kind == gNamed && predeclaredTypes[t.name]:
		return nil, "", fmt.Sprintf("method %s of predeclared type %s", c.Name, t.name)
	case t.kind == gNamed:
		return nil, "", "external: " + t.name + "." + c.Name
	}
	return nil, "", fmt.Sprintf("method %s on an unnamed type", c.Name)
}

// goMethod resolves method name on the repository type t: its own method
// (how), a promoted one (inherited), or through an interface to the
// interface method and every implementation (interface).
func (r *resolver) goMethod(t *gtype, name string, how Resolution) ([]SymbolID, Resolution, string) {
	cls := t.repo
	ms, inherited := r.method(cls, name)
	if len(ms) == 0 {
		if ft := r.gotypes.field(cls, name); ft != nil {
			return nil, "", fmt.Sprintf("call of function-typed field %s of %s", name, t.name)
		}
		return nil, "", fmt.Sprintf("no method %s on %s", name, t.name)
	}
	// The method of an interface, the type's own or one embedded in a
	// struct, is dispatched dynamically.
	if p, ok := r.parentOf(ms[0]); ok && r.g.nodes[p].Kind == extract.KindInterface {
		iface := cls
		if r.g.nodes[cls].Kind != extract.KindInterface {
			iface = p
		}
		return append(append([]SymbolID(nil), ms...), r.goImplementations(iface, name)...), Interface, ""
	}
	if inherited {
		return ms, Inherited, ""
	}
	return ms, how, ""
}

// goImplementations returns the methods named name of the Go types that
// implement interface iface: every method of its method set, by name
// (signatures are not compared), on the type or promoted to it. Sorted by
// ID.
func (r *resolver) goImplementations(iface SymbolID, name string) []SymbolID {
	var out []SymbolID
	seen := map[SymbolID]bool{}
	for _, cls := range r.goImplementers(iface) {
		if ms, _ := r.method(cls, name); len(ms) > 0 && !seen[ms[0]] {
			seen[ms[0]] = true
			out = append(out, ms[0])
		}
	}
	sortIDs(out)
	return out
}

// goImplementers returns the non-interface Go types whose method set covers
// iface's, computed once per interface (class hierarchy analysis).
func (r *resolver) goImplementers(iface SymbolID) []SymbolID {
	gt := r.gotypes
	if impl, ok := gt.ifaces[iface]; ok {
		return impl
	}
	var names []string
	seen := map[string]bool{}
	for _, c := range r.linearize(iface) {
		for _, id := range r.g.byFile[r.g.nodes[c].File] {
			n := r.g.nodes[id]
			if n.Kind == extract.KindMethod && moduleOf(n.Qualified) == r.g.nodes[c].Qualified && !seen[n.Name] {
				seen[n.Name] = true
				names = append(names, n.Name)
			}
		}
	}
	var impl []SymbolID
	if len(names) > 0 {
		sort.Strings(names)
		// Candidates declare the first method or embed a type that does.
		cands := map[SymbolID]bool{}
		for _, id := range r.ix.byName[names[0]] {
			n := r.g.nodes[id]
			if n.Kind != extract.KindMethod || n.Language != "go" {
				continue
			}
			if p, ok := r.parentOf(id); ok && r.isClass(p) {
				cands[p] = true
				for _, e := range r.subtypesOf(p) {
					cands[e] = true
				}
			}
		}
		for c := range cands {
			if r.g.nodes[c].Kind == extract.KindInterface {
				continue
			}
			all := true
			for _, m := range names {
				if ms, _ := r.method(c, m); len(ms) == 0 {
					all = false
					break
				}
			}
			if all {
				impl = append(impl, c)
			}
		}
		sortIDs(impl)
	}
	gt.ifaces[iface] = impl
	return impl
}
