package callgraph

// Rust receivers: the types of values (lets, parameters, fields,
// initialisers, patterns), as lang_rust.go describes.

import (
	"fmt"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// rustVar finds the declaration of name visible from caller at line: a
// let or parameter of the caller or the functions around it (the last
// before line whose block holds line).
func (r *resolver) rustVar(caller SymbolID, name string, line int) (gbinding, SymbolID, bool) {
	for s, ok := caller, true; ok; s, ok = r.parentOf(s) {
		n := r.g.nodes[s]
		if n.Kind != extract.KindFunction && n.Kind != extract.KindMethod {
			break
		}
		var best gbinding
		found := false
		for _, v := range r.g.bindings[gscopeKey{n.Qualified, name}] {
			b := v.b
			if v.file.Path != n.File || b.Line < n.Line-1 || b.Line > n.EndLine || b.Line > line || b.EndLine != 0 && line > b.EndLine {
				continue
			}
			if !found || b.Line >= best.b.Line {
				best, found = v, true
			}
		}
		if found {
			return best, s, true
		}
	}
	return gbinding{}, 0, false
}

// rustValueType returns the types of a value receiver (`x`, `self`,
// `self.a.b`, `x.a`) with the type as written; ok is false when its type
// is unknown. No types with ok true is a type outside the repository.
func (r *resolver) rustValueType(caller SymbolID, recv string, line int) ([]SymbolID, string, bool) {
	recv = strings.TrimPrefix(strings.TrimPrefix(recv, "&"), "*")
	parts := strings.Split(recv, ".")
	for _, p := range parts {
		if !isIdent(p) {
			return nil, "", false
		}
	}
	var types []SymbolID
	var declared string
	if parts[0] == "self" {
		t, ok := r.rustSelfType(caller)
		if !ok {
			return nil, "", false
		}
		types, declared = []SymbolID{t}, r.g.nodes[t].Name
	} else {
		v, scope, ok := r.rustVar(caller, parts[0], line)
		if !ok {
			return nil, "", false
		}
		if types, declared, ok = r.rustBindingType(v, scope, maxRustDepth); !ok {
			return nil, "", false
		}
	}
	for _, p := range parts[1:] {
		if len(types) == 0 {
			return nil, "", false // a field of a type outside the repository
		}
		var ok bool
		if types, declared, ok = r.rustFieldType(types[0], p); !ok {
			return nil, "", false
		}
	}
	return types, declared, true
}

// rustExprType returns the types of a receiver expression: a value
// (rustValueType), or a call whose callee's return type is known: `T::new(..)`,
// `x.with(..)` returning Self or a type of the repository (a builder's
// chain), through `?`, unwrap and expect of a Result or Option.
func (r *resolver) rustExprType(caller SymbolID, expr string, line, depth int) ([]SymbolID, string, bool) {
	expr = strings.TrimSpace(expr)
	unwrapped := false
	if strings.HasSuffix(expr, "?") {
		expr, unwrapped = strings.TrimSuffix(expr, "?"), true
	}
	if !strings.HasSuffix(expr, ")") || depth == 0 {
		if unwrapped {
			return nil, "", false
		}
		return r.rustValueType(caller, expr, line)
	}
	open := rustOpenParen(expr)
	if open <= 0 {
		return nil, "", false
	}
	callee := expr[:open]
	dot, path := strings.LastIndexByte(callee, '.'), strings.LastIndex(callee, "::")
	var types []SymbolID
	var name string
	switch {
	case dot > path && dot > 0:
		name = callee[dot+1:]
		if name == "unwrap" || name == "expect" {
			return r.rustExprType(caller, callee[:dot]+"?", line, depth-1)
		}
		var ok bool
		if types, _, ok = r.rustExprType(caller, callee[:dot], line, depth-1); !ok {
			return nil, "", false
		}
		if len(types) == 0 {
			return nil, "", true // a method of a type outside the repository
		}
	case path > 0:
		name = callee[path+2:]
		if strings.ContainsAny(callee[:path], "()") {
			return nil, "", false
		}
		ts, ok := r.rustTypeNamed(caller, callee[:path])
		if !ok && callee[:path] == "Self" {
			if t, found := r.rustSelfType(caller); found {
				ts, ok = []SymbolID{t}, true
			}
		}
		if !ok {
			if segs := rustSegments(callee[:path]); len(segs) > 0 && r.rustOutside(caller, r.f, segs[0]) {
				return nil, callee[:path], true // a type or module outside the repository
			}
			return nil, "", false
		}
		types = ts
	default:
		return nil, "", false
	}
	if !isIdent(name) || len(types) == 0 {
		return nil, "", false
	}
	ms, _ := r.rustMethods(types[0], name)
	if len(ms) == 0 {
		return nil, "", false
	}
	ret := rustReturn(r.signature(ms[0]))
	if unwrapped {
		ret = rustUnwrap(ret)
	}
	ret = rustInnerType(ret)
	t := r.g.nodes[types[0]]
	if ret == "Self" || ret == t.Name || strings.HasPrefix(ret, t.Name+"<") {
		return types[:1], t.Name, true
	}
	if ret == "" {
		return nil, "", false
	}
	if ts := r.rustTypeAt(ms[0], ret); len(ts) > 0 {
		return ts, ret, true
	}
	if segs := rustSegments(ret); len(segs) > 0 && !unwrapped && r.rustOutside(ms[0], r.g.files[r.g.nodes[ms[0]].File], segs[0]) {
		return nil, ret, true // returns a type outside the repository
	}
	return nil, "", false
}

// rustOpenParen returns the index of the "(" that the final ")" of s
// closes, or -1.
func rustOpenParen(s string) int {
	depth := 0
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case ')', ']', '}':
			depth++
		case '(', '[', '{':
			depth--
			if depth == 0 {
				if s[i] != '(' {
					return -1
				}
				return i
			}
		}
	}
	return -1
}

// rustFieldType returns the type of field name of struct t.
func (r *resolver) rustFieldType(t SymbolID, name string) ([]SymbolID, string, bool) {
	for _, v := range r.g.bindings[gscopeKey{r.g.nodes[t].Qualified, name}] {
		if v.b.Type != "" {
			return r.rustBindingType(v, t, maxRustDepth)
		}
	}
	return nil, "", false
}

// rustBindingType resolves the type of a declaration made in scope: its
// type as written, or the type its initializer makes.
func (r *resolver) rustBindingType(v gbinding, scope SymbolID, depth int) ([]SymbolID, string, bool) {
	f := v.file
	text := v.b.Type
	if text == "" && strings.HasPrefix(v.b.Value, "pattern ") {
		return r.rustPatternType(v, depth)
	}
	if text == "" {
		return r.rustInitType(v, scope, depth)
	}
	inner := rustInnerType(text)
	if inner == "" {
		return nil, text, true // a tuple, slice, array or function: no method of ours
	}
	var types []SymbolID
	var ok bool
	var bound []SymbolID
	var isBound bool
	r.inFile(f, func() []SymbolID {
		types, ok = r.rustTypeNamed(scope, inner)
		if !ok && len(rustSegments(inner)) == 1 {
			bound, isBound = r.rustBoundTypes(scope, rustSegments(inner)[0])
		}
		return nil
	})
	if ok {
		return types, inner, true
	}
	if isBound {
		return bound, inner, true
	}
	if strings.HasPrefix(strings.TrimSpace(text), "impl ") || strings.Contains(text, "dyn ") {
		return nil, "", false // a trait of another crate: its implementations may be ours
	}
	if segs := rustSegments(inner); len(segs) == 1 && len(segs[0]) == 1 {
		return nil, "", false // a type parameter the signature does not bound
	}
	return nil, inner, true
}

// rustInitType reads the type a let's initializer makes: `T { .. }`,
// `T::f(..)` with f returning Self or T (through Result and Option when
// followed by ? or unwrap/expect), another variable.
func (r *resolver) rustInitType(v gbinding, scope SymbolID, depth int) ([]SymbolID, string, bool) {
	val := strings.TrimSpace(v.b.Value)
	unwrapped := false
	for _, suf := range []string{"?", ".unwrap()"} {
		if strings.HasSuffix(val, suf) {
			val, unwrapped = strings.TrimSuffix(val, suf), true
		}
	}
	if i := strings.LastIndex(val, ".expect("); i > 0 && strings.HasSuffix(val, ")") {
		val, unwrapped = val[:i], true
	}
	val = strings.TrimPrefix(strings.TrimPrefix(val, "&mut "), "&")
	if isIdent(val) && val[0] >= 'A' && val[0] <= 'Z' {
		// let x = Unit;
		if ts := r.rustTypeAt(scope, val); len(ts) > 0 {
			return ts, val, true
		}
		return nil, "", false
	}
	if depth > 0 && isIdent(val) && v.b.Line > 0 {
		// let y = x;
		var out []SymbolID
		var declared string
		ok := false
		r.inFile(v.file, func() []SymbolID {
			if w, s, found := r.rustVar(scope, val, v.b.Line-1); found && w.b != v.b {
				out, declared, ok = r.rustBindingType(w, s, depth-1)
			}
			return nil
		})
		return out, declared, ok
	}
	if i := strings.IndexByte(val, '{'); i > 0 && strings.HasSuffix(val, "}") && !unwrapped {
		path := strings.TrimSpace(val[:i])
		if ts := r.rustTypeAt(scope, path); len(ts) > 0 {
			return ts, path, true
		}
		return nil, "", false
	}
	open := strings.IndexByte(val, '(')
	if open <= 0 || !strings.HasSuffix(val, ")") {
		return nil, "", false
	}
	callee := val[:open]
	i := strings.LastIndex(callee, "::")
	if i <= 0 {
		return nil, "", false
	}
	typ, fn := callee[:i], callee[i+2:]
	ts := r.rustTypeAt(scope, typ)
	if len(ts) == 0 || !isIdent(fn) {
		if segs := rustSegments(typ); len(segs) > 0 && r.rustOutside(scope, v.file, segs[0]) {
			return nil, typ, true // made by a type or module outside the repository
		}
		return nil, "", false
	}
	t := ts[0]
	ms, _ := r.rustMethods(t, fn)
	if len(ms) == 0 {
		return nil, "", false
	}
	ret := rustReturn(r.signature(ms[0]))
	if unwrapped {
		ret = rustUnwrap(ret)
	}
	name := r.g.nodes[t].Name
	if ret == "Self" || ret == name || strings.HasPrefix(ret, name+"<") {
		return ts, name, true
	}
	return nil, "", false
}

// rustOutside reports whether the head of a path, seen from scope in file
// f, names something outside the repository: a `use` of another crate, or
// a name that nothing in scope binds, no workspace crate has and no type
// parameter is (std, a dependency in the extern prelude, a prelude type).
func (r *resolver) rustOutside(scope SymbolID, f *extract.File, head string) bool {
	out := false
	r.inFile(f, func() []SymbolID {
		if r.rustHead(scope, head) != "" {
			return nil
		}
		if _, ext, ok := r.importOf(scope, head); ok {
			out = ext != ""
			return nil
		}
		_, bound := r.rustBoundTypes(scope, head)
		out = !bound
		return nil
	})
	return out
}

// rustPatternType returns the type of a name a tuple struct pattern binds
// (`Standard(ref m)` in a match arm): the field at its index of the enum
// variant the pattern names, by path (`Imp::Standard`, `Self::Standard`)
// or by a name a wildcard use brings in (`use self::Imp::*`).
func (r *resolver) rustPatternType(v gbinding, depth int) ([]SymbolID, string, bool) {
	segs := rustSegments(strings.TrimPrefix(v.b.Value, "pattern "))
	if len(segs) == 0 || depth == 0 {
		return nil, "", false
	}
	variant := segs[len(segs)-1]
	field := fmt.Sprintf("%s.%d", variant, v.b.Index)
	var enums []SymbolID
	r.inFile(v.file, func() []SymbolID {
		at, ok := r.bindingScope(v)
		if !ok {
			return nil
		}
		if len(segs) > 1 {
			enums, _ = r.rustTypeNamed(at, strings.Join(segs[:len(segs)-1], "::"))
			return nil
		}
		for _, w := range r.scope.wildcards {
			for _, id := range r.g.byQualified[r.rustCanonical(w, maxRustDepth)] {
				if r.g.nodes[id].Kind == extract.KindEnum && len(r.g.bindings[gscopeKey{r.g.nodes[id].Qualified, field}]) > 0 && !containsID(enums, id) {
					enums = append(enums, id) // a use repeated in each function is one
				}
			}
		}
		return nil
	})
	if len(enums) != 1 {
		return nil, "", false
	}
	for _, fb := range r.g.bindings[gscopeKey{r.g.nodes[enums[0]].Qualified, field}] {
		return r.rustBindingType(fb, enums[0], depth-1)
	}
	return nil, "", false
}

// bindingScope returns the node of the function that holds binding v.
func (r *resolver) bindingScope(v gbinding) (SymbolID, bool) {
	for _, id := range r.g.byQualified[v.b.Scope] {
		n := r.g.nodes[id]
		if n.File == v.file.Path && n.Line-1 <= v.b.Line && v.b.Line <= n.EndLine {
			return id, true
		}
	}
	return 0, false
}
