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
	files     map[string][]*extract.File // JS/TS/TSX files by module name
	imports   map[string]map[string]jsImportSpec
	memo      map[[2]string]jsValue
	busy      map[[2]string]bool
	cut       int                                        // busy hits: results computed across one are not memoised
	binds     map[string]map[[2]string][]int             // by file: its bindings by scope and target
	vals      map[jsVarKey][]jsVal                       // values of local variables, computed once
	params    map[string]map[jsDeclKey][]string          // by file: its functions' parameters
	docs      map[string]map[jsDeclKey]map[string]string // by file: its functions' JSDoc @param types
	accessors map[string]map[jsDeclKey]bool              // by file: its getters and setters
	calls     map[string]map[string][]int                // by file: its calls' indexes by called name, in order
	bound     map[string][]jsBound                       // by file: its bindings of a name to f.bind(…), in order
	varTypes  map[[2]string]jsVarTypeOf                  // by file and name: a module variable's declared type
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
				// A package's value passed on (exports.json =
				// bodyParser.json) counts as much as a symbol.
				if v := r.exportOf(src.q, name); (v.found() || v.ext != "") && !containsValue(got, v) {
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
