package callgraph

import (
	"fmt"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// JavaScript call sites, resolved through the modules and exports of
// javascript.go (see its comment for the rules).

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
	}
	if ids, how, reason, ok := r.jsValueCall(caller, c); ok {
		return ids, how, reason, true
	}
	switch {
	case c.Name == "()":
		return nil, "", "", false
	case recv == "":
		return r.jsNameCall(caller, c.Name)
	case r.isSelf(recv) || r.isSuper(recv):
		return r.jsSelfCall(caller, c)
	}
	path := strings.ReplaceAll(strings.ReplaceAll(recv, "?.", "."), "!", "")
	if strings.ContainsAny(path, "()[]{} \"'`<>+-*/,=:;") {
		// new Set().m(), 'a'.m(), [1].m(): a builtin's method.
		if b := r.jsBuiltinReceiver(caller, c.ReceiverExpr()); b != "" {
			return nil, "", "builtin: " + b + "." + c.Name, true
		}
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

// jsBuiltinReceiver names the builtin class a receiver expression is an
// instance of — a string, number or array literal, `new Set()` — or "".
func (r *resolver) jsBuiltinReceiver(caller SymbolID, e extract.Expr) string {
	switch e.Kind() {
	case extract.ExprString:
		return "String"
	case extract.ExprNumber:
		return "Number"
	case extract.ExprList:
		return "Array"
	case extract.ExprCall:
		vs := r.jsEval(caller, e, 0)
		if len(vs) == 0 {
			return ""
		}
		for _, v := range vs {
			if v.builtin == "" || v.builtin != vs[0].builtin || strings.HasPrefix(v.builtin, "external: ") {
				return ""
			}
		}
		return vs[0].builtin
	}
	return ""
}

// jsCallValue resolves a call of v.
func (r *resolver) jsCallValue(v jsValue, how Resolution) ([]SymbolID, Resolution, string) {
	switch {
	case v.found() && !v.module:
		return r.jsInstantiate(r.g.byQualified[v.q], how)
	case v.ext != "":
		return nil, "", "external: " + v.ext
	case v.found():
		// utils.clone() for clone: require('./clone'): a CommonJS
		// module called is its module.exports.
		switch d := r.exportOf(v.q, "default"); {
		case d.ext != "":
			return nil, "", "external: " + d.ext
		case d.found() && !d.module:
			return r.jsInstantiate(r.g.byQualified[d.q], how)
		}
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
		if ids := r.jsProtoMembers(s, c.Name); len(ids) > 0 {
			return ids, Receiver, "", true // Foo.prototype.m = fooM
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
		if !extract.DeclarationFile(r.g.nodes[id].File) {
			src = append(src, id)
		}
	}
	if len(src) == 0 {
		return ids
	}
	return src
}

// jsUnique is unique for a method called on a receiver of unknown type,
// but for the names of the builtin methods JavaScript code calls all the
// time on arrays, strings, promises and functions: a repository method
// named forEach or then is far more often not the one called (eslint's
// 203 calls of forEach, on arrays, all went to the one Map subclass that
// overrides it).
//
// Nor is an edge made for the names of protocols that builtins, Node's
// objects and packages share (jsProtocolMethods: listen, on, emit, get,
// set, add, has, delete, end, write…): koa's `server.listen()` went to
// its Application.listen, mobx's `res.add(x)` on a Set to its
// ObservableSet.add. A getter or setter is no method to call either:
// `delegate(proto).method('get')` went to a `get method()` accessor.
// What remains is the one method of that name, labelled Name: a guess.
func (r *resolver) jsUnique(name string) ([]SymbolID, Resolution, string) {
	if jsBuiltinMethods[name] {
		return nil, "", "builtin: " + name + " on a receiver of unknown type"
	}
	ids, how, reason := r.unique(name, true)
	switch {
	case len(ids) == 0:
		return nil, "", reason
	case jsProtocolMethods[name]:
		return nil, "", "unknown receiver: " + name + " is a method of builtins and packages too"
	case r.jsAccessors(ids):
		return nil, "", "unknown receiver: the one " + name + " is an accessor"
	case r.f != nil && r.f.Language == "javascript" && r.jsDeclaredOnly(ids):
		// A declaration file types code found elsewhere, and JavaScript
		// calls code, never a type: pino's stream.flush(cb), a
		// SonicBoom's, went to the LoggerExtras interface of its
		// pino.d.ts. TypeScript calls through such an interface's type
		// as the checker resolves them, and keep the guess.
		return nil, "", "unknown receiver: " + name + " is only declared, in a declaration file"
	}
	// One definition may be a source's and its declaration file's
	// (@nestjs/core's injector/container.js and container.d.ts): the
	// source's, as everywhere else.
	return r.jsSources(ids), how, reason
}

// jsDeclaredOnly reports whether every one of ids is in a declaration
// file (.d.ts): no code to call.
func (r *resolver) jsDeclaredOnly(ids []SymbolID) bool {
	for _, id := range ids {
		if !extract.DeclarationFile(r.g.nodes[id].File) {
			return false
		}
	}
	return true
}

// jsAccessors reports whether every one of ids is a getter or setter.
func (r *resolver) jsAccessors(ids []SymbolID) bool {
	st := r.jsState()
	for _, id := range ids {
		n := r.g.nodes[id]
		acc, ok := st.accessors[n.File]
		if !ok {
			// Indexed once per file: a bundle has tens of thousands of
			// symbols and a name-only call at every turn.
			acc = map[jsDeclKey]bool{}
			if f := r.g.files[n.File]; f != nil {
				for i := range f.Symbols {
					s := &f.Symbols[i]
					sig := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(s.Signature, "static "), "public "))
					if s.Kind == extract.KindMethod && (strings.HasPrefix(sig, "get ") || strings.HasPrefix(sig, "set ")) {
						acc[jsDeclKey{s.Qualified, s.StartLine}] = true
					}
				}
			}
			if st.accessors == nil {
				st.accessors = map[string]map[jsDeclKey]bool{}
			}
			st.accessors[n.File] = acc
		}
		if !acc[jsDeclKey{n.Qualified, n.Line}] {
			return false
		}
	}
	return true
}

// jsProtocolMethods are method names that Node's streams, servers,
// sockets, emitters, requests and responses, the builtin collections and
// common packages all define: on a receiver of unknown type, the one
// method of the repository by that name is more often not the one called.
var jsProtocolMethods = map[string]bool{
	// events and streams
	"on": true, "once": true, "off": true, "emit": true, "addListener": true,
	"removeListener": true, "removeAllListeners": true, "listeners": true,
	"pipe": true, "unpipe": true, "write": true, "read": true, "end": true,
	"destroy": true, "pause": true, "resume": true, "close": true, "open": true,
	"listen": true, "connect": true, "send": true, "abort": true,
	// the Web platform's event targets (every DOM node, window,
	// XMLHttpRequest, AbortSignal, Node's EventTarget) and streams'
	// readers and writers
	"addEventListener": true, "removeEventListener": true, "dispatchEvent": true,
	"getReader": true, "getWriter": true, "releaseLock": true, "cancel": true,
	"pipeTo": true, "pipeThrough": true, "enqueue": true,
	// collections
	"get": true, "set": true, "has": true, "delete": true, "add": true, "clear": true,
	"size": true, "at": true, "intersection": true, "union": true, "difference": true,
	"symmetricDifference": true, "isSubsetOf": true, "isSupersetOf": true, "isDisjointFrom": true,
	"toSorted": true, "toReversed": true, "toSpliced": true, "with": true,
	// iterators and promises
	"next": true, "return": true, "throw": true, "resolve": true, "reject": true,
	// Node's HTTP messages
	"setHeader": true, "getHeader": true, "removeHeader": true, "hasHeader": true,
	"getHeaders": true, "writeHead": true, "flushHeaders": true, "toJSON": true,
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
