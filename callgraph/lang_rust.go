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
