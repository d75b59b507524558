package callgraph

// JavaScript and TypeScript types as written: TypeScript annotations and
// JSDoc @param types, read as the values of javascript_values.go.

import (
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// jsDocParamType returns the type a JSDoc `@param {Type} name` gives
// the parameter name of the function id, in a JavaScript file (where
// the TypeScript checker reads it too, with checkJs), as a TypeScript
// type: `?T` and `T=` are T, `*` is any.
func (r *resolver) jsDocParamType(id SymbolID, name string) (string, bool) {
	if r.f.Language != "javascript" {
		return "", false
	}
	st := r.jsState()
	if st.docs == nil {
		st.docs = map[string]map[jsDeclKey]map[string]string{}
	}
	m, ok := st.docs[r.f.Path]
	if !ok {
		m = map[jsDeclKey]map[string]string{}
		for i := range r.f.Symbols {
			sym := &r.f.Symbols[i]
			if len(sym.Params) > 0 && strings.Contains(sym.Doc, "@param") {
				if ts := jsDocParams(sym.Doc); len(ts) > 0 {
					m[jsDeclKey{sym.Qualified, sym.StartLine}] = ts
				}
			}
		}
		st.docs[r.f.Path] = m
	}
	n := r.g.nodes[id]
	if n.File != r.f.Path {
		return "", false
	}
	t, ok := m[jsDeclKey{n.Qualified, n.Line}][name]
	return t, ok
}

// jsTwinParam is the value a declaration file beside a JavaScript file
// gives parameter name of s by its type. Packages compiled from
// TypeScript ship the JavaScript without types and the declaration file
// with them: @nestjs/core's router-explorer.js takes `container` and
// router-explorer.d.ts says it is a NestContainer, so
// this.container.getModuleByKey() is NestContainer's. The type is read
// where it is written, in the declaration file and its imports. A
// compiler writes both files at once, so a change of one comes with a
// change of the other, which resolves the JavaScript again.
func (r *resolver) jsTwinParam(s SymbolID, name string) ([]jsVal, bool) {
	if r.f.Language != "javascript" {
		return nil, false
	}
	n := r.g.nodes[s]
	for _, id := range r.g.byQualified[n.Qualified] {
		tf := r.g.files[r.g.nodes[id].File]
		if tf == nil || !extract.DeclarationFile(tf.Path) {
			continue
		}
		for _, i := range r.jsBindingsOf(tf)[[2]string{n.Qualified, name}] {
			b := &tf.Bindings[i]
			if b.Type == "" {
				continue
			}
			saved := *r
			r.enter(tf)
			vs := r.jsTyped(id, b.Type)
			r.f, r.tr, r.scope = saved.f, saved.tr, saved.scope
			if len(vs) > 0 {
				return vs, true
			}
		}
	}
	return nil, false
}

// jsDocParams reads the `@param {Type} name` and `@param {Type} [name]`
// tags of a doc comment: the types by parameter name. Dotted names
// (properties of a parameter) are left out.
func jsDocParams(doc string) map[string]string {
	out := map[string]string{}
	for rest := doc; ; {
		i := strings.Index(rest, "@param")
		if i < 0 {
			return out
		}
		rest = strings.TrimLeft(rest[i+len("@param"):], " \t")
		if !strings.HasPrefix(rest, "{") {
			continue
		}
		depth, end := 0, -1
		for j := 0; j < len(rest) && end < 0; j++ {
			switch rest[j] {
			case '{':
				depth++
			case '}':
				if depth--; depth == 0 {
					end = j
				}
			}
		}
		if end < 0 {
			return out
		}
		typ := strings.TrimSpace(rest[1:end])
		rest = strings.TrimLeft(rest[end+1:], " \t")
		name := rest
		if k := strings.IndexAny(name, " \t\n"); k >= 0 {
			name = name[:k]
		}
		name = strings.TrimPrefix(name, "[")
		if k := strings.IndexAny(name, "]="); k >= 0 {
			name = name[:k]
		}
		if name == "" || strings.ContainsAny(name, ".{}") {
			continue
		}
		typ = strings.TrimSuffix(strings.TrimPrefix(typ, "?"), "=")
		if typ == "*" || typ == "" {
			typ = "any"
		}
		out[name] = typ
	}
}

// jsTyped is what a value of the TypeScript type typ may be, for each
// member of a union (null and undefined left out): an instance of the
// class a member names (`Store`, `ns.Store`, `Store<T>`), a value of the
// interface it names (whose declared methods are what the checker calls;
// a method it does not declare leaves the receiver unknown), a builtin
// (`string`, `Set<T>`, `T[]`, `Promise<X>`, a literal type), or what a
// package exports (`http.Server`, imported). A member that is anything
// else — a type alias, a type parameter, `any`, a function or object
// type — makes the whole type unknown: nil.
func (r *resolver) jsTyped(scope SymbolID, typ string) []jsVal {
	if len(typ) > maxJSTypeText {
		return nil
	}
	var out []jsVal
	for _, member := range splitTypeUnion(typ) {
		vs, ok := r.jsTypeMember(scope, member)
		if !ok {
			return nil
		}
		out = append(out, vs...)
	}
	return out
}

// maxJSTypeText bounds the declared types read: longer ones are object
// or function types, which name no class.
const maxJSTypeText = 200

// jsTypeMember is jsTyped for one member of a union; ok is false when
// it is unknown.
func (r *resolver) jsTypeMember(scope SymbolID, t string) (vals []jsVal, ok bool) {
	t = strings.TrimSpace(t)
	for strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")") {
		t = strings.TrimSpace(t[1 : len(t)-1])
	}
	t = strings.TrimPrefix(t, "readonly ")
	switch {
	case t == "null" || t == "undefined" || t == "void" || t == "never":
		return nil, true
	case strings.HasSuffix(t, "[]"):
		return []jsVal{{builtin: "Array", elem: strings.TrimSuffix(t, "[]"), scope: scope}}, true
	case t == "":
		return nil, false
	case t[0] == '"' || t[0] == '\'' || t[0] == '`':
		return []jsVal{{builtin: "String"}}, true
	case t[0] >= '0' && t[0] <= '9' || t[0] == '-':
		return []jsVal{{builtin: "Number"}}, true
	case t == "true" || t == "false":
		return []jsVal{{builtin: "Boolean"}}, true
	}
	if p, ok := jsPrimitiveTypes[t]; ok {
		return []jsVal{{builtin: p}}, p != ""
	}
	var args string
	if i := strings.IndexByte(t, '<'); i >= 0 {
		if strings.HasSuffix(t, ">") {
			args = t[i+1 : len(t)-1]
		}
		t = strings.TrimSpace(t[:i])
	}
	if t == "" || strings.ContainsAny(t, " ()[]{}|&=>:,;'\"`") {
		return nil, false
	}
	v, _, found := r.jsValueOf(scope, t)
	v = r.jsDefaultOf(v)
	switch {
	case !found:
		if head, _, _ := strings.Cut(t, "."); jsBuiltinTypes[head] || jsGlobals[head] {
			if elem := jsContainerElem(t, args); elem != "" {
				return []jsVal{{builtin: t, elem: elem, scope: scope}}, true
			}
			return []jsVal{{builtin: t}}, true
		}
		return nil, false // a type parameter, a global interface
	case v.ext != "":
		return []jsVal{{builtin: "external: " + v.ext}}, true
	case !v.found() || v.module:
		return nil, false
	}
	for _, id := range r.jsSources(r.g.byQualified[v.q]) {
		switch r.g.nodes[id].Kind {
		case extract.KindClass, extract.KindInterface:
			vals = append(vals, jsVal{id: id, instance: true})
		}
	}
	return vals, len(vals) > 0
}

// splitTypeUnion splits a type at the bars of its top-level union.
func splitTypeUnion(t string) []string { return splitTopLevel(t, '|') }

// splitTopLevel splits a type at each sep outside brackets, parentheses,
// braces and type arguments (an arrow's "=>" closes nothing).
func splitTopLevel(t string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '<', '(', '[', '{':
			depth++
		case '>', ')', ']', '}':
			if depth > 0 && !(t[i] == '>' && i > 0 && t[i-1] == '=') {
				depth--
			}
		case sep:
			if depth == 0 {
				out = append(out, t[start:i])
				start = i + 1
			}
		}
	}
	return append(out, t[start:])
}

// jsPrimitiveTypes are TypeScript's keyword types, by the builtin class
// whose methods their values have; "" for those that say nothing (any,
// unknown, object).
var jsPrimitiveTypes = map[string]string{
	"string": "String", "number": "Number", "boolean": "Boolean", "bigint": "BigInt",
	"symbol": "Symbol", "any": "", "unknown": "", "object": "", "this": "",
}

// jsBuiltinTypes are the types of the standard library (lib.*.d.ts and
// Node's) that are no global values: their instances' methods are never
// the repository's. A repository's own class of the same name is found
// first.
var jsBuiltinTypes = map[string]bool{
	"ReadonlyArray": true, "ReadonlyMap": true, "ReadonlySet": true, "ReadonlySetLike": true,
	"PromiseLike": true, "Iterable": true, "Iterator": true, "IterableIterator": true,
	"AsyncIterable": true, "AsyncIterator": true, "AsyncIterableIterator": true,
	"Generator": true, "AsyncGenerator": true, "ArrayLike": true, "Function": true,
	"Uint8Array": true, "Int8Array": true, "Uint16Array": true, "Int16Array": true,
	"Uint32Array": true, "Int32Array": true, "Float32Array": true, "Float64Array": true,
	"DataView": true, "TextEncoder": true, "TextDecoder": true, "AbortController": true,
	"AbortSignal": true, "Headers": true, "Request": true, "Response": true,
	"NodeJS": true, "ReadableStream": true, "WritableStream": true,
}
