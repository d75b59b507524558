package callgraph

import (
	"github.com/fileinfo/fileinfo/extract"
)

// eval returns the values an expression may have, seen from scope. The
// expression is the structure extract carried out of the parse tree, so
// nothing here re-reads source text; the zero or an unfollowed
// expression has no values.
func (fl *flow) eval(scope SymbolID, e extract.Expr) valueSet {
	out := valueSet{}
	fl.evalInto(out, scope, e)
	return out
}

// evalInto adds the values of e to out.
func (fl *flow) evalInto(out valueSet, scope SymbolID, e extract.Expr) {
	switch e.Kind() {
	case extract.ExprName:
		fl.nameInto(out, scope, e.Name())
	case extract.ExprAttr:
		fl.attrInto(out, scope, e.Sub(0), e.Name())
	case extract.ExprCall:
		if isSuper(e.Sub(0)) {
			return // super(): the class hierarchy resolves it, not values
		}
		fl.callResultInto(out, fl.eval(scope, e.Sub(0)))
		vs, _ := fl.libraryResult(scope, e)
		union(out, vs)
	case extract.ExprIndex:
		// An element of a container: by literal key where the literal
		// was seen, else any element.
		if obj := e.Sub(0); obj.Kind() == extract.ExprName {
			if key, ok := literalKey(e.Sub(1)); ok {
				if vs, ok := fl.field(scope, obj.Name(), key); ok {
					union(out, vs)
					return
				}
			}
		}
		fl.evalInto(out, scope, e.Sub(0))
	case extract.ExprTuple, extract.ExprList, extract.ExprSet, extract.ExprAlt:
		// A container is flattened: it holds what its elements hold.
		for i := range e.Len() {
			fl.evalInto(out, scope, e.Sub(i))
		}
	case extract.ExprDict:
		for i := 1; i < e.Len(); i += 2 {
			fl.evalInto(out, scope, e.Sub(i))
		}
	case extract.ExprComp:
		fl.evalInto(out, scope, e.Sub(e.Len()-1)) // a dict's: the value
	case extract.ExprSplat:
		fl.evalInto(out, scope, e.Sub(0))
	}
}

// isSuper reports whether a callee is super or x.super.
func isSuper(callee extract.Expr) bool {
	k := callee.Kind()
	return (k == extract.ExprName || k == extract.ExprAttr) && callee.Name() == "super"
}

// literalKey returns the key a string or integer literal stands for, one
// way for both quotes: "a" and 'a' are the key `"a"`.
func literalKey(e extract.Expr) (string, bool) {
	switch e.Kind() {
	case extract.ExprString:
		return `"` + e.Name() + `"`, true
	case extract.ExprNumber:
		return e.Name(), true
	}
	return "", false
}

// name looks an identifier up: variables of the enclosing scopes, then
// the definitions and imports resolution knows.
func (fl *flow) name(scope SymbolID, n string) valueSet {
	out := valueSet{}
	fl.nameInto(out, scope, n)
	return out
}

// hasName reports whether name(scope, n) holds anything. It fills a
// scratch set nameInto never reaches again (it evaluates nothing), so
// the check costs no set of its own.
func (fl *flow) hasName(scope SymbolID, n string) bool {
	if fl.scratch == nil {
		fl.scratch = valueSet{}
	}
	clear(fl.scratch)
	fl.nameInto(fl.scratch, scope, n)
	return len(fl.scratch) > 0
}

// nameInto adds the values of identifier n (see name) to out. Writing
// into the caller's set instead of a set of its own halved the maps
// flow tracking made on the Python standard library (see
// BenchmarkBuildPythonStdlib).
func (fl *flow) nameInto(out valueSet, scope SymbolID, n string) {
	for s, ok := scope, true; ok; s, ok = fl.r.parentOf(s) {
		if fl.r.isClass(s) && s != scope {
			continue // class bodies are not enclosing scopes in Python
		}
		if vs, ok := fl.vars[varKey{fl.r.g.nodes[s].Qualified, n}]; ok {
			union(out, vs) // the innermost scope that binds n
			break
		}
	}
	if fl.r.isSelf(n) {
		if cls, ok := fl.r.enclosingClass(scope); ok {
			// cls, a class method's first parameter, is the class.
			out[value{cls, n != "cls"}] = true
		}
	}
	d := fl.definitions(scope, n)
	for _, id := range d.ids {
		if !fl.decorated[id] { // the decorator's result stands for it
			out[value{id, false}] = true
		}
	}
	if d.module {
		out[value{d.moduleID, false}] = true
	}
}

// nameDefs is what resolution binds a name to in a scope: its
// definitions, else the module an import names.
type nameDefs struct {
	ids      []SymbolID
	moduleID SymbolID
	module   bool
}

// defKey is a name seen from a scope while resolution is in file f
// (resolveName reads the file's imports).
type defKey struct {
	f     *extract.File
	scope SymbolID
	name  string
}

// definitions returns what resolution binds n to in scope. It depends
// on the graph and the file only, not on the values tracked, so it is
// worked out once and not in every round: on the Python standard
// library resolveName and importOf were a tenth of flow tracking's time.
func (fl *flow) definitions(scope SymbolID, n string) nameDefs {
	k := defKey{fl.r.f, scope, n}
	if d, ok := fl.defs[k]; ok {
		return d
	}
	var d nameDefs
	if ids, _ := fl.r.resolveName(scope, n); len(ids) > 0 {
		d.ids = ids
	} else if t, _, ok := fl.r.importOf(scope, n); ok && t != "" {
		d.moduleID, d.module = fl.r.ix.module[t]
	}
	if fl.defs == nil {
		fl.defs = map[defKey]nameDefs{}
	}
	fl.defs[k] = d
	return d
}

// field finds the element of container variable n under a literal key, in
// the innermost scope that has it.
func (fl *flow) field(scope SymbolID, n, key string) (valueSet, bool) {
	for s, ok := scope, true; ok; s, ok = fl.r.parentOf(s) {
		if vs, ok := fl.vars[varKey{fl.r.g.nodes[s].Qualified, n + "[" + key + "]"}]; ok {
			return vs, true
		}
	}
	return nil, false
}

// attr evaluates base.attr: a module's member, a class's method or
// attribute, an instance's (bound) method or attribute.
func (fl *flow) attr(scope SymbolID, base extract.Expr, attr string) valueSet {
	out := valueSet{}
	fl.attrInto(out, scope, base, attr)
	return out
}

// attrInto adds the values of base.attr (see attr) to out.
func (fl *flow) attrInto(out valueSet, scope SymbolID, base extract.Expr, attr string) {
	for v := range fl.eval(scope, base) {
		q := fl.r.g.nodes[v.id].Qualified
		if fl.r.isClass(v.id) {
			// The first class in method resolution order that has attr.
			for _, c := range fl.r.linearize(v.id) {
				cq := fl.r.g.nodes[c].Qualified
				ids, vs := fl.r.g.byQualified[cq+"."+attr], fl.vars[varKey{cq, attr}]
				for _, id := range ids {
					out[value{id, false}] = true
				}
				union(out, vs)
				if len(ids) > 0 || len(vs) > 0 {
					break
				}
			}
			continue
		}
		if fl.r.g.nodes[v.id].Kind == KindModule {
			for _, id := range fl.r.lookup(q + "." + attr) {
				out[value{id, false}] = true
			}
			if id, ok := fl.r.ix.module[q+"."+attr]; ok {
				out[value{id, false}] = true
			}
		}
		union(out, fl.vars[varKey{q, attr}])
	}
	union(out, fl.argparseAttr(scope, base, attr))
}

// targets turns the values of a call's callee into call targets: functions
// and methods, and classes (instantiation).
func (fl *flow) targets(scope SymbolID, c extract.Call) []SymbolID {
	var out []SymbolID
	seen := map[SymbolID]bool{}
	for v := range fl.callees(scope, c) {
		if v.instance || seen[v.id] {
			continue
		}
		k := fl.r.g.nodes[v.id].Kind
		if k == extract.KindFunction || k == extract.KindMethod || fl.r.isClass(v.id) {
			seen[v.id] = true
			out = append(out, v.id)
		}
	}
	sortIDs(out)
	return out
}

// callees evaluates what a call site calls: its receiver for a call of
// an expression (`f()()`), receiver.name for a method call, the name
// otherwise. A receiver without structure is not followed.
func (fl *flow) callees(scope SymbolID, c extract.Call) valueSet {
	switch {
	case c.Name == "()":
		return fl.eval(scope, c.ReceiverExpr())
	case c.ReceiverExpr().Valid():
		return fl.attr(scope, c.ReceiverExpr(), c.Name)
	case c.Receiver != "":
		return valueSet{}
	}
	return fl.name(scope, c.Name)
}

func union(dst, src valueSet) {
	for v := range src {
		dst[v] = true
	}
}
