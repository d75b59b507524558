package callgraph

// Rust: receivers by their declared types, paths by modules.
//
// extract names a crate's modules by the crate (grep_searcher.searcher),
// records parameters, lets and struct fields with their types as
// bindings, and resolves the `use` paths that start with crate, self or
// super. rustCall runs before the generic rules and settles every Rust
// call that has a receiver:
//
//   - a path, `T::f()`, `m::f()`, `crate::m::f()`, `super::f()`,
//     `Self::f()`, `grep_searcher::Searcher::new()`: its head is a name the
//     caller's scope binds (an item of its module, a `use`, an alias), a
//     crate of the workspace, crate, self, super or Self; the rest walks
//     modules, following `pub use` re-exports, to a function or to a type
//     whose method (of any of its impl blocks) is called (local, import).
//     A path whose head is none of these (std, a dependency, a type
//     parameter without a bound in the repository) is outside the
//     repository: no edge;
//   - a value, `x.m()`, `self.m()`, `self.searcher.m()`, `s.m()` for a
//     parameter `s: &mut Searcher`: the type of x is read from its
//     declaration (a let's type, or the type its initializer `T::new(..)`,
//     `T::f(..)?` or `T { .. }` makes, a parameter's type, a field's type
//     in its struct, the impl's type for self), through &, &mut, Box, Rc
//     and Arc. On a type of the repository the call is its method
//     (receiver), or the method a trait provides by default (interface);
//     on a trait object or a type parameter bounded by a trait of the
//     repository (`dyn Sink`, `impl Sink`, `S: Sink`) the trait's method
//     (interface). A type outside the repository (String, Vec, a
//     dependency's) is no edge.
//   - a value of unknown type: the only method of that name in the
//     program (name, a guess) unless the name is a method of the standard
//     library's traits and common types (rustProtocol: clone, unwrap,
//     into, iter, map, get, ...), which is no edge.
//
// A plain call `f()` goes to the generic rules (scopes, imports), except
// that a name found through a `pub use` re-export is followed, and a call
// of a tuple struct or enum variant by its name constructs, calling
// nothing.

import (
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

func init() {
	t := languageTraits["rust"]
	t.call = rustCall
	t.declaredTypes = true
	languageTraits["rust"] = t
}

// rustProtocol are method names of the standard library's traits and of
// its common types (Option, Result, Vec, String, slices, iterators, maps,
// I/O): a receiver of unknown type with one of these methods is much more
// likely a library value than the one project type defining it.
var rustProtocol = toSet(strings.Fields(`
	clone clone_from to_owned to_string to_vec into from try_into try_from
	unwrap unwrap_or unwrap_or_else unwrap_or_default expect expect_err
	unwrap_err ok err ok_or ok_or_else map map_err map_or map_or_else
	and_then or_else or filter flatten is_some is_none is_ok is_err
	as_ref as_mut as_deref as_str as_bytes as_slice as_path as_os_str
	borrow borrow_mut deref deref_mut drop default take replace get
	get_mut insert remove contains contains_key entry or_insert
	or_insert_with push push_str pop append extend truncate clear len
	is_empty capacity with_capacity reserve iter iter_mut into_iter next
	next_back peek rev enumerate zip chain skip skip_while take_while
	step_by collect fold for_each any all find find_map position count
	sum product min max min_by_key max_by_key last nth cloned copied
	filter_map flat_map windows chunks split splitn rsplit lines trim
	trim_start trim_end starts_with ends_with parse bytes chars join
	concat sort sort_by sort_by_key sort_unstable dedup retain swap
	binary_search first fmt write write_str write_fmt write_all read
	read_to_end read_to_string read_exact read_line flush lock try_lock
	send recv spawn eq ne cmp partial_cmp hash lt le gt ge add sub mul
	div index index_mut new display to_str to_path_buf to_string_lossy
	kind source description call call_mut call_once resize fill
	extend_from_slice copy_from_slice set_len as_ptr as_mut_ptr
	is_dir is_file exists metadata file_name extension parent
`))

func toSet(names []string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// maxRustDepth bounds the walks through re-exports, fields and aliases.
const maxRustDepth = 8

// rustCall is the call hook of Rust; see the file comment.
func rustCall(r *resolver, caller SymbolID, c extract.Call) ([]SymbolID, Resolution, string, bool) {
	recv := c.Receiver
	switch {
	case c.Name == "()":
		return nil, "", "", false
	case recv == "":
		return r.rustName(caller, c.Name)
	case rustIsPath(r, caller, recv, c.Line):
		ids, how, reason := r.rustPathCall(caller, recv, c.Name)
		return ids, how, reason, true
	}
	if types, declared, ok := r.rustExprType(caller, recv, c.Line, maxRustDepth); ok {
		ids, how, reason := r.rustMethodOn(types, declared, c.Name)
		return ids, how, reason, true
	}
	if rustProtocol[c.Name] {
		return nil, "", fmt.Sprintf("method %s of the standard library's traits on a receiver of unknown type", c.Name), true
	}
	ids, how, reason := r.unique(c.Name, true)
	return ids, how, reason, true
}

// rustName resolves a plain call: the generic scopes, then a re-export;
// a type's name called (a tuple struct, an enum variant imported by
// name) constructs a value and calls nothing.
func (r *resolver) rustName(caller SymbolID, name string) ([]SymbolID, Resolution, string, bool) {
	ids, how := r.resolveName(caller, name)
	if len(ids) > 0 && r.g.nodes[r.symbolFirst(ids)].Kind == KindModule {
		ids = nil // modules are not values: a use of a function of that name
	}
	if len(ids) == 0 {
		if t, _, ok := r.importOf(caller, name); ok && t != "" {
			if q := r.rustCanonical(t, maxRustDepth); r.known(q) {
				ids, how = r.g.byQualified[q], Import
			}
		}
	}
	if len(ids) == 0 {
		return nil, "", "", false
	}
	if r.isClass(r.symbolFirst(ids)) {
		return nil, "", "constructs " + name + ": no function is called", true
	}
	return ids, how, "", true
}

// rustIsPath reports whether a receiver is a path (`T`, `m`, `a::b`,
// `Self`), not a value: it has "::", or it is one name that starts with an
// upper-case letter, or one name no declaration in the caller binds.
func rustIsPath(r *resolver, caller SymbolID, recv string, line int) bool {
	if strings.HasSuffix(recv, ")") || strings.HasSuffix(recv, "?") {
		return false // a call's value: T::new().f()
	}
	if strings.Contains(recv, "::") || recv == "Self" || strings.HasPrefix(recv, "<") {
		return true
	}
	if !isIdent(recv) || recv == "self" {
		return false
	}
	if recv[0] >= 'A' && recv[0] <= 'Z' {
		return true
	}
	_, _, found := r.rustVar(caller, recv, line)
	return !found && r.rustHead(caller, recv) != ""
}

var rustGenericArgs = regexp.MustCompile(`::<[^<>]*(?:<[^<>]*(?:<[^<>]*>[^<>]*)*>[^<>]*)*>|<[^<>]*(?:<[^<>]*>[^<>]*)*>`)

// rustSegments splits a path into its names, type arguments dropped
// (`Vec::<u8>::new` is Vec, new; `<T as Tr>` is T as Tr's trait Tr).
func rustSegments(p string) []string {
	p = strings.TrimSpace(p)
	if strings.HasPrefix(p, "<") && strings.Contains(p, " as ") {
		// <T as Trait>::f: the trait's method.
		end := strings.LastIndexByte(p, '>')
		if end < 0 {
			return nil
		}
		_, trait, _ := strings.Cut(p[1:end], " as ")
		p = strings.TrimSpace(trait) + p[end+1:]
	}
	p = strings.TrimPrefix(p, "::")
	for i := 0; i < maxRustDepth && strings.ContainsAny(p, "<>"); i++ {
		p = rustGenericArgs.ReplaceAllString(p, "")
	}
	segs := strings.Split(p, "::")
	for _, s := range segs {
		if !isIdent(s) {
			return nil
		}
	}
	return segs
}

// rustHead resolves the first name of a path seen from caller to a
// qualified name: crate, self, super, Self, a name the scopes bind, a
// crate of the workspace. "" when it is none of these.
func (r *resolver) rustHead(caller SymbolID, head string) string {
	switch head {
	case "crate":
		return rustCrateRoot(r.f)
	case "self":
		return r.rustModuleAt(caller)
	case "super":
		return moduleOf(r.rustModuleAt(caller))
	case "Self":
		if t, ok := r.rustSelfType(caller); ok {
			return r.g.nodes[t].Qualified
		}
		return ""
	}
	if ids, _ := r.resolveName(caller, head); len(ids) > 0 {
		return r.g.nodes[r.symbolFirst(ids)].Qualified
	}
	if t, ext, ok := r.importOf(caller, head); ok && t != "" && ext == "" {
		return r.rustCanonical(t, maxRustDepth)
	}
	if id, ok := r.ix.module[head]; ok && r.g.nodes[id].Language == "rust" {
		return head // a crate of the workspace
	}
	return ""
}

// rustCrateRoot is the root module of the crate of f: its first segment
// under src (see extract's Rust conventions), else the file's module.
func rustCrateRoot(f *extract.File) string {
	if strings.HasPrefix(f.Path, "src/") || strings.Contains(f.Path, "/src/") {
		root, _, _ := strings.Cut(f.Module, ".")
		return root
	}
	return f.Module
}

// rustModuleAt is the module that holds caller: the innermost inline
// `mod` around it, else the file's.
func (r *resolver) rustModuleAt(caller SymbolID) string {
	for s, ok := caller, true; ok; s, ok = r.parentOf(s) {
		if r.g.nodes[s].Kind == KindModule {
			return r.g.nodes[s].Qualified
		}
	}
	return r.f.Module
}

// rustCanonical follows re-exports: a.b.C where module a.b does not
// declare C but binds it by a `use` (pub use x::C, pub use x::*) is what
// that binds; a path through a re-exported module or type continues in it.
func (r *resolver) rustCanonical(q string, depth int) string {
	if depth == 0 || r.known(q) {
		return q
	}
	mod, name := moduleOf(q), lastSegment(q)
	if mod == "" {
		return q
	}
	if !r.known(mod) && !r.hasMembers(mod) {
		c := r.rustCanonical(mod, depth-1)
		if c == mod {
			return q
		}
		mod = c
		if r.known(mod + "." + name) {
			return mod + "." + name
		}
	}
	id, ok := r.ix.module[mod]
	if !ok {
		return q
	}
	f := r.g.files[r.g.nodes[id].File]
	if f == nil || f.Language != "rust" {
		return q
	}
	s := r.fileScope(f)
	if t, ok := s.bind[name]; ok && t != q {
		return r.rustCanonical(t, depth-1)
	}
	for _, w := range s.wildcards {
		if c := r.rustCanonical(w+"."+name, depth-1); r.known(c) {
			return c
		}
	}
	return q
}

// rustPathCall resolves name called through the path recv.
func (r *resolver) rustPathCall(caller SymbolID, recv, name string) ([]SymbolID, Resolution, string) {
	segs := rustSegments(recv)
	if len(segs) == 0 {
		return nil, "", "path " + recv + " is not a plain path"
	}
	how := Local
	if _, _, ok := r.importOf(caller, segs[0]); ok {
		how = Import
	} else if _, ok := r.ix.module[segs[0]]; ok && segs[0] != r.f.Module {
		how = Import
	}
	q := r.rustHead(caller, segs[0])
	if q == "" {
		if ids, ok := r.rustBoundTypes(caller, segs[0]); ok && len(segs) == 1 {
			return r.rustMethodOn(ids, segs[0], name) // T::f() on a type parameter T: Trait
		}
		return nil, "", "not defined in the repository: " + recv + "::" + name
	}
	for _, s := range segs[1:] {
		if s == "super" {
			q = moduleOf(q)
			continue
		}
		q = r.rustCanonical(q+"."+s, maxRustDepth)
	}
	ids := r.g.byQualified[q]
	if len(ids) > 0 && r.isClass(r.symbolFirst(ids)) {
		t := r.symbolFirst(ids)
		if r.g.nodes[t].Kind == extract.KindType {
			if ts, ok := r.rustAlias(t); ok {
				t = ts[0]
			}
		}
		if ms, trait := r.rustMethods(t, name); len(ms) > 0 {
			if trait {
				return ms, Interface, ""
			}
			return ms, how, ""
		}
		return nil, "", fmt.Sprintf("no method %s on %s in the repository (an enum variant, a derived or a library trait's method)", name, r.g.nodes[t].Name)
	}
	if t := r.rustCanonical(q+"."+name, maxRustDepth); r.known(t) {
		ids := r.g.byQualified[t]
		if r.isClass(r.symbolFirst(ids)) {
			return nil, "", "constructs " + name + ": no function is called"
		}
		return ids, how, ""
	}
	return nil, "", fmt.Sprintf("%s::%s is not defined in the repository", recv, name)
}

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
