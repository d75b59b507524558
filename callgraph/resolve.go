package callgraph

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// resolver resolves the call sites of one graph build.
type resolver struct {
	g        *Graph
	ix       *index
	bases    map[SymbolID][]SymbolID // resolved base classes, by class
	mro      map[SymbolID][]SymbolID
	subtypes map[SymbolID][]SymbolID // by class: classes with it among their bases, transitively; built on first use

	scopes  map[string]*fileScope // by file path
	flow    *flow
	gotypes *goTypes
	jvm     *jvmIndex         // declared types, built on first use
	js      *jsModules        // JavaScript modules and exports, built on first use
	canon   map[string]string // canonical's answers (python_imports.go)
	pyWalks int               // Python scopes canonical has read, to tell answers worth keeping
	key     []byte            // scratch for byJoined
	uniques map[uniqueKey]uniqueAnswer
	outside map[SymbolID][]string // python_outside.go, by class
	parents []SymbolID            // parentOf's answers plus one, by node, 0 for not asked; nil: not kept (classes.go)
	// cName's answers in the C file cMemoFile, by name (lang_c.go)
	cMemo     map[string]cAnswer
	cMemoFile string

	// per file
	caller SymbolID // of the call being resolved
	res    *fileResult
	f      *extract.File
	tr     traits
	scope  *fileScope
}

func newResolver(g *Graph, ix *index) *resolver {
	return &resolver{g: g, ix: ix, bases: map[SymbolID][]SymbolID{}, mro: map[SymbolID][]SymbolID{}, scopes: map[string]*fileScope{}}
}

// fileScope returns the import bindings of f, decoded once.
func (r *resolver) fileScope(f *extract.File) *fileScope {
	s, ok := r.scopes[f.Path]
	if !ok {
		if jsLike(f.Language) {
			s = r.jsScopeOf(f)
		} else {
			s = scopeOf(f, r.known)
			if f.Language == "python" {
				r.shadows(f, s)
			}
		}
		r.scopes[f.Path] = s
	}
	return s
}

func (r *resolver) known(q string) bool { return len(r.g.byQualified[q]) > 0 }

// enter makes f the file whose calls are resolved.
func (r *resolver) enter(f *extract.File) {
	r.f, r.tr = f, languageTraits[f.Language]
	r.scope = r.fileScope(f)
}

func (r *resolver) resolveFile(f *extract.File) *fileResult {
	r.enter(f)
	res := &fileResult{unique: map[string]bool{}}
	r.res = res
	defer func() { r.res = nil }()
	for i, c := range f.Calls {
		caller, ok := r.callerOf(c)
		if !ok {
			continue
		}
		r.caller = caller
		targets, how, reason := r.resolveCall(caller, c)
		if jsLike(f.Language) {
			outside := len(targets) == 0 && strings.HasPrefix(reason, "external: ")
			for _, e := range r.jsCallbacks(caller, c, outside) {
				if _, _, drop := r.withoutTests(caller, []SymbolID{e.Callee}, e.Resolution); !drop {
					res.edges = append(res.edges, r.g.fileEdge(e))
				}
			}
		}
		switch {
		case f.Language == "cpp":
			targets = r.cDefinitions(targets)
		case jsLike(f.Language):
			targets = r.jsDefinitions(r.jsSameFormat(targets))
		}
		if kept, dropped, ok := r.withoutTests(caller, targets, how); ok {
			targets = kept
			if len(kept) == 0 {
				reason = "defined only in test code: " + r.g.nodes[dropped].Qualified
			}
		}
		if len(targets) == 0 && r.tr.flow && !strings.HasPrefix(reason, "external: ") && !strings.HasPrefix(reason, "builtin: ") && c.Name != "()" {
			if ext := r.flow.externalCallee(caller, c); ext != "" {
				reason = "external: " + ext
			}
		}
		if len(targets) == 0 {
			res.calls = append(res.calls, unresolvedCall{call: int32(i), reason: r.g.reasonID(reason)})
			continue
		}
		for _, t := range distinctIDs(targets) {
			res.edges = append(res.edges, fileEdge{caller: caller, callee: t, line: int32(c.Line), how: r.g.howID(how)})
		}
	}
	// A loop over an instance calls its class's __iter__, and the
	// __next__ of the iterator that returns (Python's iteration protocol).
	for _, b := range f.Bindings {
		if !b.Iter {
			continue
		}
		caller, ok := r.callerOf(extract.Call{Caller: b.Scope, Line: b.Line})
		if !ok {
			continue
		}
		iters, nexts := r.flow.iteration(r.flow.eval(caller, b.ValueExpr))
		for _, vs := range []valueSet{iters, nexts} {
			ids := make([]SymbolID, 0, len(vs))
			for v := range vs {
				ids = append(ids, v.id)
			}
			sortIDs(ids)
			ids, _, _ = r.withoutTests(caller, ids, Receiver)
			for _, id := range ids {
				res.edges = append(res.edges, fileEdge{caller: caller, callee: id, line: int32(b.Line), how: r.g.howID(Receiver)})
			}
		}
	}
	return res
}

// callerOf finds the node of c.Caller declared in this file (the one whose
// lines hold the call, among overloads), or the module node.
func (r *resolver) callerOf(c extract.Call) (SymbolID, bool) {
	var fallback SymbolID
	found := false
	for _, id := range r.g.byQualified[c.Caller] {
		n := r.g.nodes[id]
		if n.Kind == KindModule {
			return id, true
		}
		if n.File != r.f.Path {
			continue
		}
		if n.Line <= c.Line && c.Line <= n.EndLine {
			return id, true
		}
		fallback, found = id, true
	}
	return fallback, found
}

// distinctIDs returns ids without repeats, in their order: a class
// declared more than once (a JavaScript class beside its declaration
// file's) stands for one constructor once per declaration. ids may be a
// slice the graph holds; it is copied, not changed, when it repeats one.
func distinctIDs(ids []SymbolID) []SymbolID {
	if len(ids) > 16 { // a name's many definitions: a set, not a scan each
		seen := make(map[SymbolID]bool, len(ids))
		for _, id := range ids {
			seen[id] = true
		}
		if len(seen) == len(ids) {
			return ids
		}
		out := make([]SymbolID, 0, len(seen))
		for _, id := range ids {
			if seen[id] {
				out = append(out, id)
				delete(seen, id)
			}
		}
		return out
	}
	for i := 1; i < len(ids); i++ {
		if slices.Contains(ids[:i], ids[i]) {
			out := slices.Clone(ids[:i])
			for _, id := range ids[i+1:] {
				if !slices.Contains(out, id) {
					out = append(out, id)
				}
			}
			return out
		}
	}
	return ids
}

// resolveCall returns the targets of one call site and how they were
// found, or the reason there are none.
func (r *resolver) resolveCall(caller SymbolID, c extract.Call) ([]SymbolID, Resolution, string) {
	if r.f.Language == "go" {
		return r.resolveGo(caller, c)
	}
	if jsLike(r.f.Language) {
		if ids, how, reason, ok := r.jsCall(caller, c); ok {
			return ids, how, reason
		}
	}
	if r.tr.call != nil {
		if ids, how, reason, ok := r.tr.call(r, caller, c); ok {
			return ids, how, reason
		}
	}
	recv := c.Receiver
	switch {
	case c.Name == "()":
		if ids := r.flowTargets(caller, c); len(ids) > 0 {
			return r.instantiate(ids, Receiver)
		}
		return nil, "", "dynamic call of an expression"
	case recv == "":
		if ids, how := r.resolveName(caller, c.Name); len(ids) > 0 && !r.decorated(ids) {
			return r.instantiate(ids, how)
		}
		if ids := r.flowTargets(caller, c); len(ids) > 0 {
			return r.instantiate(ids, Local)
		}
		if family(r.f.Language) == "c" {
			return r.cName(c.Name)
		}
		if r.tr.globalNames {
			return r.unique(c.Name, false)
		}
		return nil, "", r.unknownName(c.Name)
	case r.isSelf(recv):
		cls, ok := r.enclosingClass(caller)
		if !ok {
			return r.unique(c.Name, true)
		}
		if ids, inherited := r.method(cls, c.Name); len(ids) > 0 {
			if inherited {
				return ids, Inherited, ""
			}
			return ids, Receiver, ""
		}
		if ids := r.flowTargets(caller, c); len(ids) > 0 {
			return r.instantiate(ids, Receiver) // an attribute holding a function
		}
		return nil, "", fmt.Sprintf("no method %s on %s or its bases", c.Name, r.g.nodes[cls].Name)
	case r.isSuper(recv):
		cls, ok := r.enclosingClass(caller)
		if !ok {
			return nil, "", "super outside a class"
		}
		for _, b := range r.linearize(cls)[1:] {
			if ids := r.members(b, c.Name); len(ids) > 0 {
				return ids, Inherited, ""
			}
		}
		return nil, "", fmt.Sprintf("no method %s in the bases of %s", c.Name, r.g.nodes[cls].Name)
	}
	// A receiver expression: a module, a class, or an instance of one.
	if target, how, ok := r.resolveExpr(caller, recv); ok {
		if ids := r.g.byQualified[target]; len(ids) > 0 && r.isClass(r.symbolFirst(ids)) {
			cls := r.symbolFirst(ids)
			if r.tr.newMethod != "" && c.Name == r.tr.newMethod {
				return r.instantiate([]SymbolID{cls}, how)
			}
			if ms, inherited := r.method(cls, c.Name); len(ms) > 0 {
				if inherited {
					return ms, Inherited, ""
				}
				return ms, how, ""
			}
		}
		if ids := r.lookup(target + "." + c.Name); len(ids) > 0 {
			return r.instantiate(ids, how)
		}
	}
	if ids := r.flowTargets(caller, c); len(ids) > 0 {
		return r.instantiate(ids, Receiver)
	}
	if reason, ok := r.externalReceiver(caller, recv, c.Name); ok {
		return nil, "", reason
	}
	if r.tr.flow {
		if ids, reason, ok := r.knownReceiver(caller, c); ok {
			if len(ids) > 0 {
				return r.instantiate(ids, Receiver)
			}
			return nil, "", reason // a known type is no guess by name
		}
	}
	return r.unique(c.Name, true)
}

// decorated reports whether a decorator rebinds one of ids.
func (r *resolver) decorated(ids []SymbolID) bool {
	if r.flow == nil {
		return false
	}
	for _, id := range ids {
		if r.flow.decorated[id] {
			return true
		}
	}
	return false
}

// flowTargets asks the flow analysis, where the file has one.
func (r *resolver) flowTargets(caller SymbolID, c extract.Call) []SymbolID {
	if r.flow == nil || len(r.flow.vars) == 0 && !hasFlow(r.f) {
		return nil
	}
	return r.flow.targets(caller, c)
}

// resolveName resolves an unqualified name seen from caller: enclosing
// scopes, the module, imports, wildcard imports.
func (r *resolver) resolveName(caller SymbolID, name string) ([]SymbolID, Resolution) {
	for s, ok := caller, true; ok; s, ok = r.parentOf(s) {
		n := r.g.nodes[s]
		if r.isClass(s) {
			if !r.tr.classScope {
				continue
			}
			if ids, inherited := r.method(s, name); len(ids) > 0 && !r.isConstructor(ids[0]) {
				if inherited {
					return ids, Inherited
				}
				return ids, Local
			}
			continue
		}
		if n.Kind == KindModule && r.isFileModule(s) {
			break // a Ruby or Rust module symbol is a scope like a function
		}
		if ids := r.byJoined(n.Qualified, name); len(ids) > 0 {
			return ids, Local
		}
		if t, _, bound := r.boundIn(s, name); bound {
			// A function's own import, parameter or variable.
			if ids := r.lookup(t); t != "" && len(ids) > 0 {
				return ids, Import
			}
			return nil, ""
		}
	}
	mod := moduleName(r.f)
	if r.f.Language == "go" {
		mod = r.f.Module // "" for a root package without go.mod
	}
	if ids := r.byJoined(mod, name); len(ids) > 0 {
		return ids, Local
	}
	if t, ok := r.scope.bind[name]; ok {
		if ids := r.lookup(t); len(ids) > 0 {
			return ids, Import
		}
	}
	for _, w := range r.scope.wildcards {
		if ids := r.lookupIn(w, name); len(ids) > 0 {
			return ids, Import
		}
	}
	return nil, ""
}

// byJoined returns g.byQualified[prefix+"."+name] (of name alone for no
// prefix) without making the key a string: the names resolution tries
// and misses made 3.4 GB of garbage on Linux 6.1.
func (r *resolver) byJoined(prefix, name string) []SymbolID {
	if prefix == "" {
		return r.g.byQualified[name]
	}
	r.key = append(append(append(r.key[:0], prefix...), '.'), name...)
	return r.g.byQualified[string(r.key)]
}

// lookupIn is lookup(joinQ(prefix, name)), which builds the name only
// when it may be a Python re-export: not when prefix is a module of
// another language (a C file's includes are wildcards), nor in a graph
// without Python.
func (r *resolver) lookupIn(prefix, name string) []SymbolID {
	if ids := r.byJoined(prefix, name); len(ids) > 0 || !r.ix.python {
		return ids
	}
	if prefix != "" && !strings.Contains(name, ".") {
		if id, ok := r.ix.module[prefix]; ok {
			if f := r.g.files[r.g.nodes[id].File]; f == nil || f.Language != "python" {
				return nil // canonicalDepth would stop at this module
			}
		}
	}
	return r.lookup(joinQ(prefix, name))
}

// resolveExpr resolves a receiver like "a.b.c" to the qualified name of a
// module, class or other scope, with how its head was bound.
func (r *resolver) resolveExpr(caller SymbolID, expr string) (string, Resolution, bool) {
	if jsLike(r.f.Language) {
		return r.jsExpr(caller, expr)
	}
	if strings.ContainsAny(expr, "()[]{} \"'") {
		return "", "", false
	}
	// A leading separator is the global namespace: PHP's \A\B.
	parts := strings.Split(strings.TrimPrefix(strings.NewReplacer("::", ".", "->", ".", "?.", ".", "\\", ".").Replace(expr), "."), ".")
	head := parts[0]
	var q string
	var how Resolution
	if ids, h := r.resolveName(caller, head); len(ids) > 0 {
		q, how = r.g.nodes[ids[0]].Qualified, h
	} else if t, _, ok := r.importOf(caller, head); ok && t != "" {
		q, how = r.canonical(t), Import
	} else if id, ok := r.ix.module[head]; ok {
		q, how = r.g.nodes[id].Qualified, Import
	} else if mod := moduleName(r.f); r.known(joinQ(mod, head)) || r.hasMembers(joinQ(mod, head)) {
		q, how = joinQ(mod, head), Local
	} else if p, n := r.knownPrefix(parts); n > 0 {
		q, how, parts = p, Import, parts[n-1:] // a fully qualified name
	} else {
		return "", "", false
	}
	for _, p := range parts[1:] {
		q = r.canonical(q + "." + p)
	}
	return q, how, r.known(q) || r.hasMembers(q)
}

// hasMembers reports whether some symbol is qualified under q (a Lua
// table, a namespace without a node).
func (r *resolver) hasMembers(q string) bool {
	_, ok := r.ix.module[q]
	return ok || r.qualifiedPrefixes()[q]
}

// instantiate maps class targets to their constructors.
func (r *resolver) instantiate(ids []SymbolID, how Resolution) ([]SymbolID, Resolution, string) {
	var out []SymbolID
	ctor := false
	for _, id := range ids {
		if !r.isClass(id) {
			out = append(out, id)
			continue
		}
		ctor = true
		if r.companionObject(id, ids) {
			continue
		}
		var found []SymbolID
		if r.tr.ctor != nil {
			for _, name := range r.tr.ctor(r.g.nodes[id].Name) {
				if ms, _ := r.method(id, name); len(ms) > 0 {
					found = ms
					break
				}
			}
		}
		if len(found) == 0 || r.primaryConstructor(id) {
			found = append(found, id) // the class stands for its constructor
		}
		out = append(out, found...)
	}
	if ctor {
		how = Constructor
	}
	return out, how, ""
}

// unique resolves name to the only callable with that name in the
// repository (methods only when onlyMethods), in the caller's language
// family. Nodes that share a qualified name are one definition:
// overloads, or a C declaration and its definition; a declaration (a C++
// member declared in its class) is none beside a definition. For
// production code, a definition in test code it does not import is no
// target, but still counts: a name a test double shares is no unique
// name (tests.go).
func (r *resolver) unique(name string, onlyMethods bool) ([]SymbolID, Resolution, string) {
	if r.res != nil {
		r.res.unique[name] = true // depends on every definition of name
	}
	a := r.uniqueDefs(uniqueKey{name, onlyMethods, family(r.f.Language)})
	switch a.defs {
	case 1:
		return r.productionOnly(a.ids)
	case 0:
		if onlyMethods {
			return nil, "", "not defined in the repository (builtin, standard library or dependency)"
		}
		return nil, "", r.unknownName(name)
	}
	return nil, "", fmt.Sprintf("ambiguous: %d definitions named %s", a.defs, name)
}

// productionOnly keeps of ids, the nodes of one definition, those a
// production caller may reach: not test code its file does not import.
func (r *resolver) productionOnly(ids []SymbolID) ([]SymbolID, Resolution, string) {
	if len(r.ix.test) == 0 || r.inTest(r.caller) {
		return ids, Name, ""
	}
	var kept []SymbolID
	for _, id := range ids {
		if !r.ix.test[id] || r.importsModuleOf(id) {
			kept = append(kept, id)
		}
	}
	if len(kept) == 0 {
		return nil, "", "defined only in test code: " + r.g.nodes[ids[0]].Qualified
	}
	return kept, Name, ""
}

// uniqueKey and uniqueAnswer are a question unique asks of the index and
// its answer: the callables named name in a language family, and how
// many definitions (distinct qualified names) they are.
type (
	uniqueKey struct {
		name        string
		onlyMethods bool
		family      string
	}
	uniqueAnswer struct {
		ids  []SymbolID
		defs int
	}
)

// uniqueDefs answers k, once per resolver: the index does not change
// while a resolver runs, and a name that a bundle's thousands of
// functions share was otherwise looked through at each of its calls.
// The ids are capped at their length, so that appending to them copies.
func (r *resolver) uniqueDefs(k uniqueKey) uniqueAnswer {
	if a, ok := r.uniques[k]; ok {
		return a
	}
	var cands []SymbolID
	bodies := false
	for _, id := range r.ix.byName[k.name] {
		n := r.g.nodes[id]
		if family(n.Language) != k.family {
			continue
		}
		if kind := n.Kind; kind == extract.KindMethod || !k.onlyMethods && kind == extract.KindFunction {
			cands = append(cands, id)
			bodies = bodies || !n.Declaration
		}
	}
	if bodies {
		cands = slices.DeleteFunc(cands, func(id SymbolID) bool { return r.g.nodes[id].Declaration })
	}
	defs := map[string]bool{}
	for _, id := range cands {
		defs[r.g.nodes[id].Qualified] = true
	}
	a := uniqueAnswer{ids: cands[:len(cands):len(cands)], defs: len(defs)}
	if a.defs != 1 {
		a.ids = nil
	}
	if r.uniques == nil {
		r.uniques = map[uniqueKey]uniqueAnswer{}
	}
	r.uniques[k] = a
	return a
}

func (r *resolver) unknownName(name string) string {
	if _, ext, ok := r.importOf(r.caller, name); ok && ext != "" {
		return "external: " + ext
	}
	if r.f.Language == "python" && pythonBuiltins[name] {
		return "builtin: " + name
	}
	return "not defined in the repository (builtin, standard library or dependency)"
}

func (r *resolver) isSelf(recv string) bool { return contains(r.tr.self, recv) }
func (r *resolver) isSuper(recv string) bool {
	return contains(r.tr.super, recv) || strings.HasPrefix(recv, "super(")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func joinQ(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}
