package callgraph

import (
	"fmt"
	"go/ast"

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
		if path == "unsafe" {
			// GOROOT/src/unsafe declares Sizeof, Add, ... for the docs
			// only: the compiler builds them in.
			return nil, "", "builtin: unsafe." + c.Name
		}
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
	case isOutside(t) || t.kind == gNamed && t.name == "error":
		if ext := goExternalIface(t); ext != nil {
			return r.goExternalCall(t.name, ext, c.Name)
		}
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
		if ids, how, reason, ok := r.goPromotedExternal(cls, name); ok {
			return ids, how, reason
		}
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
// implement interface iface (goMethodSet: its own methods and those of
// every interface it embeds, inside the repository or not), on the type
// or promoted to it. Sorted by ID.
func (r *resolver) goImplementations(iface SymbolID, name string) []SymbolID {
	reqs, _ := r.goMethodSet(iface)
	return r.goDispatch(iface, reqs, name)
}

// goExternalCall resolves a call of method name on a value of the type
// typeName declared outside the repository, whose method set is ext: an
// interface dispatches to the repository's implementers.
func (r *resolver) goExternalCall(typeName string, ext *goIface, name string) ([]SymbolID, Resolution, string) {
	switch {
	case ext.unknown != "":
		// Not "external: …": the PyCG output reads those as callee names.
		return nil, "", ext.unknown + " (calling " + typeName + "." + name + ")"
	case ext.notIface || !hasMethod(ext.methods, name):
		return nil, "", "external: " + typeName + "." + name
	}
	if ids := r.goDispatch(ext, ext.methods, name); len(ids) > 0 {
		return ids, Interface, ""
	}
	what := "external interface "
	if typeName == "error" {
		what = "predeclared interface "
	}
	return nil, "", what + typeName + ": no implementation of " + name + " in the repository"
}

// goPromotedExternal resolves method name that the repository type cls
// does not declare but gets from an interface declared outside the
// repository: one its interface embeds (`type WriteSyncer interface{
// io.Writer; Sync() error }`) or its struct embeds (`struct{ io.Writer }`).
// ok is false when no such interface has name.
func (r *resolver) goPromotedExternal(cls SymbolID, name string) (ids []SymbolID, how Resolution, reason string, ok bool) {
	for _, c := range r.linearize(cls) {
		cn := r.g.nodes[c]
		if cn.Language != "go" {
			return nil, "", "", false
		}
		if cn.Kind == extract.KindInterface {
			if reqs, _ := r.goMethodSet(c); hasMethod(reqs, name) {
				if ids := r.goDispatch(c, reqs, name); len(ids) > 0 {
					return ids, Interface, "", true
				}
				return nil, "", "interface " + cn.Qualified + ": no implementation of " + name + " in the repository", true
			}
			continue
		}
		f := r.g.files[cn.File]
		for _, b := range r.ix.bases[c] {
			if ext := r.goExternalType(f, b); ext != nil && (ext.unknown != "" || hasMethod(ext.methods, name)) {
				ids, how, reason := r.goExternalCall(cleanTypeName(b), ext, name)
				return ids, how, reason, true
			}
		}
	}
	return nil, "", "", false
}
