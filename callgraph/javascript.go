package callgraph

import (
	"fmt"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// JavaScript, TypeScript and TSX resolve names through modules and their
// export lists (extract.File.Exports), not through qualified names: an
// import binds a local name to what another module exports under some
// name, which may itself be re-exported from a third module.
//
//   - A relative specifier names a module: "./a" and "./a.js" are module a
//     whichever of .js .jsx .ts .tsx .mjs .cjs or .d.ts defines it (the
//     extraction drops the extension), and "./dir" is dir.index when no
//     module dir exists. Other specifiers are packages: external.
//   - exportOf follows export lists: local names, `export {a as b}`,
//     `export {x} from`, `export * from` (not the default; a name two
//     stars provide is ambiguous, so not exported, as in ES), and
//     `export * as ns from`.
//   - A namespace (`import * as ns`, `const m = require()`, TypeScript
//     `import m = require()`) denotes the module: ns.f is its export f,
//     or a member f of its default export (CommonJS `module.exports =
//     class K` with static K.f); calling or extending it means its
//     default export.
//   - A default import of a module without a default export is its
//     namespace (CommonJS interop: module.exports as the default).
//   - super() calls the base class's constructor, or the base class when
//     it has none; this.m() in a constructor function or its prototype
//     methods (ES5 classes) finds the function's members, and in
//     `app.init = function` those of app. f.call() and f.apply() call f.
//   - Calls through a package or a builtin global (console, JSON, Math…),
//     or inherited from a package's or builtin's class, are unresolved
//     with that reason; nothing is guessed for them.
//   - A symbol declared both in a source file and in a .d.ts beside it
//     resolves to the source.
//
// Receivers of unknown type — locals, parameters, `this.x`, `f()`,
// exported variables — fall back to the unique method name, as in other
// languages, except for the names of Array, String, Promise and Function
// methods (jsBuiltinMethods).

// jsLike reports whether lang resolves through ES and CommonJS modules.
func jsLike(lang string) bool {
	switch lang {
	case "javascript", "typescript", "tsx":
		return true
	}
	return false
}

// jsValue is what a name or path denotes at module level: a symbol, a
// module (namespace), something outside the repository, or nothing, with
// the reason.
type jsValue struct {
	q      string // qualified name of a symbol, or the module's name
	module bool
	ext    string // a package and the path into it: "react.Component"
	why    string // why there is no value
	// missing: the module has no export by the name (as opposed to one
	// that cannot be followed).
	missing bool
	// opaque: a name the repository defines as something other than a
	// function, class or object symbol (a variable): its type is unknown.
	opaque bool
}

func (v jsValue) found() bool { return v.q != "" }

// jsImportSpec is one local name an import binds: the import and the
// name it takes from the module ("" for the whole module).
type jsImportSpec struct {
	im   *extract.Import
	name string
}

// jsModules is the module table of one graph build.
type jsModules struct {
	files   map[string][]*extract.File // JS/TS/TSX files by module name
	imports map[string]map[string]jsImportSpec
	memo    map[[2]string]jsValue
	busy    map[[2]string]bool
	cut     int // busy hits: results computed across one are not memoised
}

// jsState returns the module table, built on first use.
func (r *resolver) jsState() *jsModules {
	if r.js != nil {
		return r.js
	}
	m := &jsModules{
		files:   map[string][]*extract.File{},
		imports: map[string]map[string]jsImportSpec{},
		memo:    map[[2]string]jsValue{},
		busy:    map[[2]string]bool{},
	}
	for _, p := range r.g.Files() {
		if f := r.g.files[p]; jsLike(f.Language) {
			m.files[f.Module] = append(m.files[f.Module], f)
		}
	}
	r.js = m
	return m
}

// jsImports returns the local names the imports of f bind; re-exports
// bind none.
func (r *resolver) jsImports(f *extract.File) map[string]jsImportSpec {
	st := r.jsState()
	if m, ok := st.imports[f.Path]; ok {
		return m
	}
	m := map[string]jsImportSpec{}
	for i := range f.Imports {
		im := &f.Imports[i]
		if isReexport(f, im) {
			continue
		}
		if im.Alias != "" {
			m[im.Alias] = jsImportSpec{im: im}
		}
		for _, n := range im.Names {
			if n.Name == "*" {
				continue
			}
			local := n.Alias
			if local == "" {
				local = n.Name
			}
			m[local] = jsImportSpec{im: im, name: n.Name}
		}
	}
	st.imports[f.Path] = m
	return m
}

// isReexport reports whether im is the import side of an
// `export … from` statement.
func isReexport(f *extract.File, im *extract.Import) bool {
	for _, e := range f.Exports {
		if e.From != "" && e.From == im.Path && e.Line == im.Line {
			return true
		}
	}
	return false
}

// jsScopeOf is scopeOf for JavaScript: imports bound to their final
// targets, packages as external.
func (r *resolver) jsScopeOf(f *extract.File) *fileScope {
	s := &fileScope{bind: map[string]string{}, external: map[string]string{}}
	for local, spec := range r.jsImports(f) {
		v := r.jsImportValue(f, spec)
		switch {
		case v.ext != "":
			s.external[local] = v.ext
		case v.found():
			s.bind[local] = v.q
		}
	}
	return s
}

// jsSource resolves an import specifier of f to a module.
func (r *resolver) jsSource(f *extract.File, spec, resolved string) jsValue {
	if resolved == "" {
		if strings.HasPrefix(spec, ".") || strings.HasPrefix(spec, "/") {
			return jsValue{why: "module " + spec + " is outside the repository"}
		}
		return jsValue{ext: spec}
	}
	st := r.jsState()
	for _, m := range []string{resolved, resolved + ".index"} {
		if len(st.files[m]) > 0 {
			return jsValue{q: m, module: true}
		}
	}
	return jsValue{why: "module " + spec + " is not in the repository"}
}

// jsImportValue is what one import binding denotes.
func (r *resolver) jsImportValue(f *extract.File, spec jsImportSpec) jsValue {
	src := r.jsSource(f, spec.im.Path, spec.im.Resolved)
	switch {
	case src.ext != "" && spec.name != "" && spec.name != "default":
		return jsValue{ext: src.ext + "." + spec.name}
	case !src.found() || spec.name == "":
		return src
	}
	v := r.exportOf(src.q, spec.name)
	if v.missing && spec.name == "default" {
		return src // CommonJS interop: the default is module.exports
	}
	return v
}

// maxReexportDepth bounds chains of re-exports.
const maxReexportDepth = 32

// exportOf returns what module mod exports under name.
func (r *resolver) exportOf(mod, name string) jsValue {
	st := r.jsState()
	key := [2]string{mod, name}
	if v, ok := st.memo[key]; ok {
		return v
	}
	if st.busy[key] || len(st.busy) > maxReexportDepth {
		st.cut++
		return jsValue{why: fmt.Sprintf("export %s of %s is part of a cycle", name, mod), missing: true}
	}
	st.busy[key] = true
	cut := st.cut
	v := r.lookupExport(mod, name)
	delete(st.busy, key)
	if st.cut == cut {
		st.memo[key] = v
	}
	return v
}

func (r *resolver) lookupExport(mod, name string) jsValue {
	files := r.jsState().files[mod]
	var failed jsValue
	for _, f := range files {
		for _, e := range f.Exports {
			if e.Name != name {
				continue
			}
			v := r.exportValue(f, e)
			if v.found() || v.ext != "" {
				return v
			}
			failed = v
		}
	}
	if failed.why != "" {
		return failed
	}
	if name != "default" {
		// export * from: a name exactly one star provides.
		var got []jsValue
		for _, f := range files {
			for _, e := range f.Exports {
				if e.Name != "*" {
					continue
				}
				src := r.jsSource(f, e.From, e.Resolved)
				if !src.found() {
					continue
				}
				if v := r.exportOf(src.q, name); v.found() && !containsValue(got, v) {
					got = append(got, v)
				}
			}
		}
		switch len(got) {
		case 1:
			return got[0]
		case 0:
		default:
			return jsValue{why: fmt.Sprintf("ambiguous: %d modules re-exported by %s export %s", len(got), mod, name)}
		}
	}
	return jsValue{why: fmt.Sprintf("module %s exports no %s", mod, name), missing: true}
}

func containsValue(vs []jsValue, v jsValue) bool {
	for _, x := range vs {
		if x == v {
			return true
		}
	}
	return false
}

// exportValue is what one export entry of f denotes.
func (r *resolver) exportValue(f *extract.File, e extract.Export) jsValue {
	if e.From != "" {
		src := r.jsSource(f, e.From, e.Resolved)
		switch {
		case src.ext != "" && e.Local != "*":
			return jsValue{ext: src.ext + "." + e.Local}
		case !src.found() || e.Local == "*":
			return src
		}
		return r.exportOf(src.q, e.Local)
	}
	if e.Local == "" {
		return jsValue{why: fmt.Sprintf("export %s of %s is an expression", e.Name, f.Module), opaque: true}
	}
	return r.jsPath(f, e.Local)
}

// jsPath resolves a name or dotted path at the top level of f.
func (r *resolver) jsPath(f *extract.File, path string) jsValue {
	parts := strings.Split(path, ".")
	var v jsValue
	if q := joinQ(f.Module, parts[0]); r.known(q) {
		v = jsValue{q: q}
	} else if spec, ok := r.jsImports(f)[parts[0]]; ok {
		v = r.jsImportValue(f, spec)
	} else {
		return jsValue{why: fmt.Sprintf("%s is no function or class declared in %s", parts[0], f.Path), opaque: true}
	}
	for _, p := range parts[1:] {
		v = r.jsMember(v, p)
	}
	return v
}

// jsMember is member name of v: an export of a module (or a member of its
// default export), a member of a class or object, a path into a package.
// Members of values of unknown type are opaque too, and so are properties
// of functions that their declarations do not define (functions get them
// by assignment: `app.handle = …`).
func (r *resolver) jsMember(v jsValue, name string) jsValue {
	switch {
	case v.ext != "":
		return jsValue{ext: v.ext + "." + name}
	case !v.found():
		return v
	case v.module:
		m := r.exportOf(v.q, name)
		if !m.missing {
			return m
		}
		d := r.exportOf(v.q, "default")
		switch {
		case d.opaque:
			return jsValue{why: fmt.Sprintf("the default export of %s is an expression", v.q), opaque: true}
		case d.found() && !d.module:
			return r.jsMember(d, name)
		}
		return m
	}
	if ids, _ := r.symbolMember(v.q, name); len(ids) > 0 {
		return jsValue{q: r.g.nodes[ids[0]].Qualified}
	}
	if r.isFunction(v.q) {
		return jsValue{why: fmt.Sprintf("%s is no member %s declares", name, v.q), opaque: true}
	}
	return jsValue{why: fmt.Sprintf("no member %s on %s", name, v.q)}
}

// isFunction reports whether q names a function or method.
func (r *resolver) isFunction(q string) bool {
	for _, id := range r.g.byQualified[q] {
		if k := r.g.nodes[id].Kind; k == extract.KindFunction || k == extract.KindMethod {
			return true
		}
	}
	return false
}

// symbolMember finds member name of the symbol q: in a class and its
// bases (inherited reports a base's), or declared under q.
func (r *resolver) symbolMember(q, name string) (ids []SymbolID, inherited bool) {
	for _, id := range r.g.byQualified[q] {
		if r.isClass(id) {
			if ms, inh := r.method(id, name); len(ms) > 0 {
				return ms, inh
			}
		}
	}
	return r.g.byQualified[joinQ(q, name)], false
}

// jsValueOf is the value of a receiver path seen from caller, and how its
// head was bound; ok is false when its head is no name the file knows.
func (r *resolver) jsValueOf(caller SymbolID, path string) (v jsValue, how Resolution, ok bool) {
	parts := strings.Split(path, ".")
	head := parts[0]
	switch {
	case head == "exports" || head == "module" && len(parts) > 1 && parts[1] == "exports":
		if head == "module" {
			parts = parts[1:]
		}
		v, how = jsValue{q: r.f.Module, module: true}, Local
	default:
		if ids, h := r.resolveName(caller, head); len(ids) > 0 {
			n := r.g.nodes[ids[0]]
			v, how = jsValue{q: n.Qualified, module: n.Kind == KindModule}, h
		} else if spec, found := r.jsImports(r.f)[head]; found {
			v, how = r.jsImportValue(r.f, spec), Import
		} else {
			return jsValue{}, "", false
		}
	}
	for _, p := range parts[1:] {
		v = r.jsMember(v, p)
	}
	return v, how, true
}

// jsCall resolves the call sites the generic rules get wrong for
// JavaScript; handled is false to leave c to them.
func (r *resolver) jsCall(caller SymbolID, c extract.Call) (ids []SymbolID, how Resolution, reason string, handled bool) {
	recv := c.Receiver
	switch {
	case c.Name == "super" && recv == "":
		ids, how, reason = r.jsSuperCall(caller)
		return ids, how, reason, true
	case c.Name == "()":
		return nil, "", "", false
	case recv == "":
		return r.jsNameCall(caller, c.Name)
	case r.isSelf(recv) || r.isSuper(recv):
		return r.jsSelfCall(caller, c)
	}
	path := strings.ReplaceAll(strings.ReplaceAll(recv, "?.", "."), "!", "")
	if strings.ContainsAny(path, "()[]{} \"'`<>+-*/,=:;") {
		// f().m(), a[i].m(), (x as T).m(): a receiver of unknown type.
		ids, how, reason = r.jsUnique(c.Name)
		return ids, how, reason, true
	}
	v, how, ok := r.jsValueOf(caller, path)
	if !ok {
		head := strings.SplitN(path, ".", 2)[0]
		if jsGlobals[head] {
			return nil, "", "builtin: " + path + "." + c.Name, true
		}
		// a.b.m = function at the top level is the method m of "a.b".
		if ids := r.g.byQualified[joinQ(r.f.Module, path+"."+c.Name)]; len(ids) > 0 && !r.isSelf(head) {
			ids, how, reason = r.jsInstantiate(ids, Local)
			return ids, how, reason, true
		}
		ids, how, reason = r.jsUnique(c.Name)
		return ids, how, reason, true
	}
	switch {
	case v.ext != "":
		return nil, "", "external: " + v.ext + "." + c.Name, true
	case v.opaque:
		// A variable of unknown type, as a local one would be.
		ids, how, reason = r.jsUnique(c.Name)
		return ids, how, reason, true
	case !v.found():
		return nil, "", v.why, true
	}
	if v.module {
		// A namespace: the module's export, or a member of its default.
		e, d := r.exportOf(v.q, c.Name), r.exportOf(v.q, "default")
		switch {
		case !e.missing:
			ids, how, reason = r.jsCallValue(e, how)
			return ids, how, reason, true
		case d.opaque:
			// module.exports = new Registry(): a method of a value of
			// unknown type.
			ids, how, reason = r.jsUnique(c.Name)
			return ids, how, reason, true
		case !d.found() || d.module:
			return nil, "", e.why, true
		}
		v = d
	}
	// A member of a class (its own or a base's), object or function.
	ids, inherited := r.symbolMember(v.q, c.Name)
	switch {
	case inherited:
		return r.jsSources(ids), Inherited, "", true
	case len(ids) > 0:
		ids, how, reason = r.jsInstantiate(ids, how)
		return ids, how, reason, true
	case r.isFunction(v.q):
		switch c.Name {
		case "call", "apply": // f.call(this, …) calls f
			ids, how, reason = r.jsInstantiate(r.g.byQualified[v.q], how)
			return ids, how, reason, true
		case "bind":
			return nil, "", "builtin: Function.bind", true
		}
		ids, how, reason = r.jsUnique(c.Name) // a property assigned to the function
		return ids, how, reason, true
	}
	if ext := r.jsExternalBaseOf(v.q); ext != "" {
		return nil, "", ext + "." + c.Name + " (inherited)", true
	}
	return nil, "", fmt.Sprintf("no member %s on %s", c.Name, v.q), true
}

// jsCallValue resolves a call of v.
func (r *resolver) jsCallValue(v jsValue, how Resolution) ([]SymbolID, Resolution, string) {
	switch {
	case v.found() && !v.module:
		return r.jsInstantiate(r.g.byQualified[v.q], how)
	case v.ext != "":
		return nil, "", "external: " + v.ext
	case v.found():
		return nil, "", fmt.Sprintf("module %s is called", v.q)
	}
	return nil, "", v.why
}

// jsExternalBaseOf is jsExternalBase for the class named q, if it is one.
func (r *resolver) jsExternalBaseOf(q string) string {
	for _, id := range r.g.byQualified[q] {
		if r.isClass(id) {
			return r.jsExternalBase(id)
		}
	}
	return ""
}

// jsNameCall handles f() where f is bound to a module (its default export
// is called) or to an import that cannot be followed.
func (r *resolver) jsNameCall(caller SymbolID, name string) ([]SymbolID, Resolution, string, bool) {
	ids, how := r.resolveName(caller, name)
	if len(ids) == 0 {
		if spec, ok := r.jsImports(r.f)[name]; ok {
			if v := r.jsImportValue(r.f, spec); v.why != "" {
				return nil, "", v.why, true
			}
		}
		if jsGlobals[name] {
			return nil, "", "builtin: " + name, true
		}
		return nil, "", "", false
	}
	if r.g.nodes[ids[0]].Kind != KindModule {
		if src := r.jsSources(ids); len(src) < len(ids) && !r.decorated(ids) {
			ids, how, reason := r.jsInstantiate(src, how)
			return ids, how, reason, true
		}
		return nil, "", "", false
	}
	mod := r.g.nodes[ids[0]].Qualified
	d := r.exportOf(mod, "default")
	switch {
	case d.ext != "":
		return nil, "", "external: " + d.ext, true
	case !d.found() || d.module:
		return nil, "", fmt.Sprintf("module %s has no default export to call", mod), true
	}
	ids, how, reason := r.jsInstantiate(r.g.byQualified[d.q], how)
	return ids, how, reason, true
}

// jsSuperCall resolves super(…): the constructor of the nearest base
// class that has one, or the base class itself.
func (r *resolver) jsSuperCall(caller SymbolID) ([]SymbolID, Resolution, string) {
	cls, ok := r.enclosingClass(caller)
	if !ok {
		return nil, "", "super outside a class"
	}
	var first []SymbolID
	for _, b := range r.linearize(cls)[1:] {
		if ms := r.members(b, "constructor"); len(ms) > 0 {
			return r.jsSources(ms), Inherited, ""
		}
		if first == nil && r.g.nodes[b].Kind == extract.KindClass {
			first = []SymbolID{b}
		}
	}
	if first != nil {
		return first, Inherited, ""
	}
	if ext := r.jsExternalBase(cls); ext != "" {
		return nil, "", ext + ".constructor"
	}
	return nil, "", fmt.Sprintf("the base class of %s is not in the repository", r.g.nodes[cls].Name)
}

// jsSelfCall handles this.m() and super.m(): in a class and its bases,
// from an external base class, or among the members of an ES5
// constructor function.
func (r *resolver) jsSelfCall(caller SymbolID, c extract.Call) ([]SymbolID, Resolution, string, bool) {
	cls, ok := r.enclosingClass(caller)
	if ok {
		lin := r.linearize(cls)
		if r.isSuper(c.Receiver) {
			lin = lin[1:]
		}
		for i, b := range lin {
			if ms := r.members(b, c.Name); len(ms) > 0 {
				how := Receiver
				if i > 0 || r.isSuper(c.Receiver) {
					how = Inherited
				}
				return r.jsSources(ms), how, "", true
			}
		}
		if ext := r.jsExternalBase(cls); ext != "" {
			return nil, "", ext + "." + c.Name + " (inherited)", true
		}
		return nil, "", "", false
	}
	if !r.isSelf(c.Receiver) {
		return nil, "", "", false
	}
	// function Foo() { this.m() } and Foo.prototype.m = function: the
	// members of the constructor function Foo; app.init = function () {
	// this.m() }: the members of app, as when called as app.init().
	for s, ok := caller, true; ok; s, ok = r.parentOf(s) {
		n := r.g.nodes[s]
		if n.Kind == KindModule {
			break
		}
		var q string
		switch n.Kind {
		case extract.KindFunction:
			q = n.Qualified + "." + c.Name
		case extract.KindMethod:
			q = moduleOf(n.Qualified) + "." + c.Name
		default:
			continue
		}
		if ids := r.g.byQualified[q]; len(ids) > 0 && r.g.nodes[ids[0]].Kind == extract.KindMethod {
			return r.jsSources(ids), Receiver, "", true
		}
	}
	ids, how, reason := r.jsUnique(c.Name) // this outside classes: unknown
	return ids, how, reason, true
}

// jsInstantiate is instantiate, keeping only the definitions in source
// files when a declaration file (.d.ts) beside them declares the same
// names.
func (r *resolver) jsInstantiate(ids []SymbolID, how Resolution) ([]SymbolID, Resolution, string) {
	out, how, reason := r.instantiate(ids, how)
	return r.jsSources(out), how, reason
}

// jsSources drops the symbols of declaration files from ids when some are
// declared in source files.
func (r *resolver) jsSources(ids []SymbolID) []SymbolID {
	var src []SymbolID
	for _, id := range ids {
		if !isDeclarationFile(r.g.nodes[id].File) {
			src = append(src, id)
		}
	}
	if len(src) == 0 {
		return ids
	}
	return src
}

// isDeclarationFile reports whether p is a TypeScript declaration file.
func isDeclarationFile(p string) bool {
	return strings.HasSuffix(p, ".d.ts") || strings.HasSuffix(p, ".d.mts") || strings.HasSuffix(p, ".d.cts")
}

// jsUnique is unique for a method called on a receiver of unknown type,
// but for the names of the builtin methods JavaScript code calls all the
// time on arrays, strings, promises and functions: a repository method
// named forEach or then is far more often not the one called (eslint's
// 203 calls of forEach, on arrays, all went to the one Map subclass that
// overrides it).
func (r *resolver) jsUnique(name string) ([]SymbolID, Resolution, string) {
	if jsBuiltinMethods[name] {
		return nil, "", "builtin: " + name + " on a receiver of unknown type"
	}
	return r.unique(name, true)
}

// jsBuiltinMethods are the methods of Array, String, Promise, RegExp and
// Function that a receiver of unknown type is assumed to be calling.
// Collection verbs that repositories define as their own API too (add,
// get, set, has, delete) are not among them.
var jsBuiltinMethods = map[string]bool{
	"forEach": true, "map": true, "filter": true, "reduce": true, "reduceRight": true,
	"some": true, "every": true, "find": true, "findIndex": true, "findLast": true,
	"findLastIndex": true, "flatMap": true, "flat": true, "push": true, "pop": true,
	"shift": true, "unshift": true, "slice": true, "splice": true, "concat": true,
	"join": true, "indexOf": true, "lastIndexOf": true, "includes": true, "sort": true,
	"reverse": true, "fill": true, "keys": true, "values": true, "entries": true,
	"then": true, "catch": true, "finally": true,
	"call": true, "apply": true, "bind": true,
	"toString": true, "valueOf": true, "hasOwnProperty": true, "toLocaleString": true,
	"split": true, "replace": true, "replaceAll": true, "trim": true, "trimStart": true,
	"trimEnd": true, "startsWith": true, "endsWith": true, "toLowerCase": true,
	"toUpperCase": true, "padStart": true, "padEnd": true, "charAt": true,
	"charCodeAt": true, "codePointAt": true, "substring": true, "substr": true,
	"match": true, "matchAll": true, "test": true, "exec": true, "localeCompare": true,
}

// jsExternalBase returns the first base of cls, or of a class it
// inherits from, that comes from a package or is a builtin, as a reason:
// "external: react.Component", "builtin: Error".
func (r *resolver) jsExternalBase(cls SymbolID) string {
	for _, c := range r.linearize(cls) {
		f := r.g.files[r.g.nodes[c].File]
		if f == nil || !jsLike(f.Language) {
			continue
		}
		s := r.fileScope(f)
		for _, b := range r.ix.bases[c] {
			b = cleanTypeName(b)
			head, rest, _ := strings.Cut(b, ".")
			if ext, ok := s.external[head]; ok {
				return "external: " + joinQ(ext, rest)
			}
			if jsGlobals[head] && !r.known(joinQ(f.Module, head)) {
				return "builtin: " + b
			}
		}
	}
	return ""
}

// jsExpr is resolveExpr for JavaScript: a path to the qualified name of
// a class or other symbol. A module stands for its default export, so
// that `class A extends require("./b")` finds b's class.
func (r *resolver) jsExpr(caller SymbolID, expr string) (string, Resolution, bool) {
	v, how, ok := r.jsValueOf(caller, strings.ReplaceAll(expr, "?.", "."))
	if !ok || !v.found() {
		return "", "", false
	}
	if v.module {
		if d := r.exportOf(v.q, "default"); d.found() && !d.module {
			return d.q, how, true
		}
	}
	return v.q, how, true
}

// jsGlobals are the builtin objects and functions of JavaScript engines,
// browsers and Node: calls through them are never the repository's.
// Globals that code also uses as local names (window, document, history,
// location: rxjs has a local window in every window operator) are left
// out, since locals are not tracked.
var jsGlobals = map[string]bool{
	"console": true, "Math": true, "JSON": true, "Object": true, "Array": true, "Promise": true,
	"Reflect": true, "Symbol": true, "Number": true, "String": true, "Boolean": true, "Date": true,
	"RegExp": true, "Error": true, "TypeError": true, "RangeError": true, "SyntaxError": true,
	"ReferenceError": true, "EvalError": true, "URIError": true, "AggregateError": true, "Map": true, "Set": true, "WeakMap": true, "WeakSet": true,
	"Intl": true, "BigInt": true, "ArrayBuffer": true, "Atomics": true, "Proxy": true,
	"globalThis": true, "process": true, "Buffer": true, "URL": true, "URLSearchParams": true,
	"setTimeout": true, "setInterval": true, "clearTimeout": true, "clearInterval": true,
	"setImmediate": true, "queueMicrotask": true, "requestAnimationFrame": true,
	"parseInt": true, "parseFloat": true, "isNaN": true, "isFinite": true,
	"encodeURIComponent": true, "decodeURIComponent": true, "encodeURI": true, "decodeURI": true,
	"fetch": true, "require": true, "structuredClone": true, "alert": true,
}
