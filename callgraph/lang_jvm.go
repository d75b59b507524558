package callgraph

// Java, C# and Kotlin: what resolution learns from declared types.
//
// Their extraction records typed declarations as bindings (see
// extract.Binding): locals and parameters in the scope of their function,
// fields, properties and Kotlin primary constructor parameters in the
// scope of their type, top-level Kotlin properties in the package. jvmCall
// runs before the generic rules of resolveCall and settles:
//
//   - a call on a variable, parameter or field (also `this.f.g()` and
//     `a.b.c()` through fields) whose declared type is in the repository:
//     the type's method (receiver), a base's (inherited) or, when the type
//     is an interface, the interface's method and each implementer's
//     (interface, class hierarchy analysis over the declared bases, up
//     to maxImplementations);
//   - a call on such a variable whose type is not in the repository, or
//     has no such method: a Kotlin extension function or C# extension
//     method declared for the type (receiver), else the only extension
//     of that name (name); for a library type, the methods of the
//     repository's classes that implement it (interface); else
//     unresolved with that reason, never a guess among all methods;
//   - `this(...)`, `super(...)` and C#'s `base(...)` in a constructor:
//     a constructor of the class or of its base class (constructor).
//
// A variable whose type is not written (`var x = new Foo()`, Kotlin
// `val x = Foo()`) takes the class its initializer instantiates. Among
// several declarations of one name in a function, the last one before the
// call wins; blocks are not scopes. Calls it does not settle fall through
// to the generic rules.

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// The hook is set here rather than in languageTraits: jvmCall reaches
// languageTraits, and a map literal cannot refer to itself.
func init() {
	for _, lang := range []string{"java", "csharp", "kotlin"} {
		t := languageTraits[lang]
		t.call = jvmCall
		languageTraits[lang] = t
	}
}

// jvmIndex holds what was computed from the declarations of the typed
// languages (the declarations themselves are Graph.bindings).
type jvmIndex struct {
	types      map[typeKey][]SymbolID
	companions map[SymbolID]SymbolID // Kotlin class → its companion object
	sigs       map[SymbolID]string   // signatures, read from the files once
	byBase     map[string][]SymbolID // classes by the simple names of their bases as written
}

type typeKey struct {
	file, scope, text string
}

// jvmIndexOf builds the index on first use.
func (r *resolver) jvmIndexOf() *jvmIndex {
	if r.jvm != nil {
		return r.jvm
	}
	ix := &jvmIndex{types: map[typeKey][]SymbolID{}, companions: map[SymbolID]SymbolID{}}
	for _, p := range r.g.Files() {
		f := r.g.files[p]
		if f.Language != "kotlin" {
			continue
		}
		for _, s := range f.Symbols {
			if s.Kind != extract.KindObject || !strings.Contains(s.Signature, "companion object") {
				continue
			}
			obj, ok := r.declared(f.Path, s.Qualified, s.StartLine)
			if !ok {
				continue
			}
			if cls, ok := r.declared(f.Path, moduleOf(s.Qualified), 0); ok {
				ix.companions[cls] = obj
			}
		}
	}
	r.jvm = ix
	return ix
}

// declared returns the node named q declared in file, at line if line > 0.
func (r *resolver) declared(file, q string, line int) (SymbolID, bool) {
	for _, id := range r.g.byQualified[q] {
		if n := r.g.nodes[id]; n.File == file && (line == 0 || n.Line == line) {
			return id, true
		}
	}
	return 0, false
}

// companionMembers returns the members named name of a Kotlin class's
// companion object: Kotlin lets callers reach them through the class.
func (r *resolver) companionMembers(cls SymbolID, name string) []SymbolID {
	if r.g.nodes[cls].Language != "kotlin" {
		return nil
	}
	obj, ok := r.jvmIndexOf().companions[cls]
	if !ok {
		return nil
	}
	return r.g.byQualified[r.g.nodes[obj].Qualified+"."+name]
}

// isConstructor reports whether id is a method named after its class,
// which an unqualified name in the class never reaches: `Foo()` or `new
// Foo()` there instantiates the class.
func (r *resolver) isConstructor(id SymbolID) bool {
	n := r.g.nodes[id]
	return n.Kind == extract.KindMethod && n.Name == n.Parent
}

// jvmCall is the call hook of Java, C# and Kotlin; see the file comment.
func jvmCall(r *resolver, caller SymbolID, c extract.Call) ([]SymbolID, Resolution, string, bool) {
	recv := c.Receiver
	switch {
	case recv == "" && (c.Name == "this" || c.Name == "super" || c.Name == "base"):
		ids, reason := r.chainedConstructor(caller, c.Name)
		return ids, Constructor, reason, true
	case recv == "" || r.isSelf(recv) || r.isSuper(recv):
		return nil, "", "", false
	}
	types, declared, ok := r.typeOfExpr(caller, recv, c.Line)
	if !ok {
		return nil, "", "", false
	}
	ids, how, reason := r.callOnType(types, declared, c.Name)
	return ids, how, reason, true
}

// chainedConstructor resolves this(...) to the constructors of the class
// around caller, and super(...) or base(...) to those of its base class
// (the class node where a class declares none).
func (r *resolver) chainedConstructor(caller SymbolID, kw string) ([]SymbolID, string) {
	cls, ok := r.enclosingClass(caller)
	if !ok {
		return nil, kw + "(...) outside a class"
	}
	if kw != "this" {
		base, found := SymbolID(0), false
		for _, b := range r.basesOf(cls) {
			if r.g.nodes[b].Kind != extract.KindInterface {
				base, found = b, true
				break
			}
		}
		if !found {
			return nil, fmt.Sprintf("the base class of %s is not in the repository", r.g.nodes[cls].Name)
		}
		cls = base
	}
	ids, _, _ := r.instantiate([]SymbolID{cls}, Constructor)
	// A constructor does not chain to itself: this(...) means another
	// overload, or Kotlin's primary constructor, which is the class.
	out := ids[:0:0]
	for _, id := range ids {
		if id != caller {
			out = append(out, id)
		}
	}
	if len(out) == 0 {
		out = []SymbolID{cls}
	}
	return out, ""
}

// typeOfExpr returns the classes of a receiver that is a typed variable,
// parameter or field, or a chain of fields from one ("a", "this.a",
// "a.b", "a?.b"), with the type as written; ok is false when expr is not
// such a receiver, or its type is unknown.
func (r *resolver) typeOfExpr(caller SymbolID, expr string, line int) (types []SymbolID, declared string, ok bool) {
	expr = strings.NewReplacer("?.", ".", "!!", "").Replace(expr)
	parts := strings.Split(expr, ".")
	for _, p := range parts {
		if !isIdent(p) {
			return nil, "", false
		}
	}
	if r.isSelf(parts[0]) {
		cls, ok := r.enclosingClass(caller)
		if !ok || len(parts) == 1 {
			return nil, "", false
		}
		types, declared, ok = r.fieldType([]SymbolID{cls}, parts[1])
		if !ok {
			return nil, "", false
		}
		parts = parts[1:]
	} else {
		v, scope, found := r.lookupVar(caller, parts[0], line)
		if !found {
			return nil, "", false
		}
		types, declared, ok = r.varType(v, scope)
		if !ok {
			return nil, "", false
		}
	}
	for _, p := range parts[1:] {
		if len(types) == 0 {
			return nil, declared, true // a field of a type outside the repository
		}
		if types, declared, ok = r.fieldType(types, p); !ok {
			return nil, "", false
		}
	}
	return types, declared, true
}

// lookupVar finds the declaration of name seen from caller at line: the
// enclosing functions' locals and parameters (the last declared before
// line), then the fields of the enclosing classes and their bases, then
// the package's top-level properties.
func (r *resolver) lookupVar(caller SymbolID, name string, line int) (gbinding, SymbolID, bool) {
	vars := func(scope string) []gbinding { return r.g.bindings[gscopeKey{scope, name}] }
	for s, ok := caller, true; ok; s, ok = r.parentOf(s) {
		n := r.g.nodes[s]
		switch {
		case r.isClass(s):
			for _, c := range r.linearize(s) {
				if v, ok := lastVar(vars(r.g.nodes[c].Qualified), nil, 0); ok {
					return v, c, true
				}
			}
		case n.Kind == KindModule:
			v, ok := lastVar(vars(n.Qualified), nil, 0)
			return v, s, ok
		default:
			if v, ok := lastVar(vars(n.Qualified), &n, line); ok {
				return v, s, true
			}
		}
	}
	return gbinding{}, 0, false
}

// lastVar returns the last of the declarations vars of one name; within
// fn's lines and before line when fn is given (overloads share a scope
// name).
func lastVar(vars []gbinding, fn *Node, line int) (gbinding, bool) {
	var best gbinding
	found := false
	for _, v := range vars {
		if fn != nil && (v.file.Path != fn.File || v.b.Line < fn.Line-1 || v.b.Line > fn.EndLine || v.b.Line > line) {
			continue
		}
		if !found || v.b.Line >= best.b.Line {
			best, found = v, true
		}
	}
	return best, found
}

// fieldType returns the type of field name of the first of types (or
// their bases) that declares it.
func (r *resolver) fieldType(types []SymbolID, name string) ([]SymbolID, string, bool) {
	for _, t := range types {
		for _, c := range r.linearize(t) {
			if v, ok := lastVar(r.g.bindings[gscopeKey{r.g.nodes[c].Qualified, name}], nil, 0); ok {
				return r.varType(v, c)
			}
		}
	}
	return nil, "", false
}

// varType resolves the type of a declaration made in scope, in the
// declaration's file: the declared type, or the class its initializer
// instantiates. ok is false when neither tells.
func (r *resolver) varType(v gbinding, scope SymbolID) ([]SymbolID, string, bool) {
	text := v.b.Type
	if text == "" {
		text = instantiated(v.b.Value)
		if text == "" {
			return nil, "", false
		}
	}
	name := typeName(text)
	if name == "" {
		return nil, "", false
	}
	ix := r.jvmIndexOf()
	key := typeKey{v.file.Path, r.g.nodes[scope].Qualified, name}
	types, cached := ix.types[key]
	if !cached {
		types = r.inFile(v.file, func() []SymbolID {
			q, _, ok := r.resolveExpr(scope, name)
			if !ok {
				return nil
			}
			for _, id := range r.g.byQualified[q] {
				if r.isClass(id) {
					return []SymbolID{id}
				}
			}
			return nil
		})
		ix.types[key] = types
	}
	if v.b.Type == "" && len(types) == 0 {
		return nil, "", false // `val x = f()`: a function, not a constructor
	}
	return types, name, true
}

// inFile runs fn with f as the current file.
func (r *resolver) inFile(f *extract.File, fn func() []SymbolID) []SymbolID {
	if f == r.f {
		return fn()
	}
	saved := r.f
	defer r.enter(saved)
	r.enter(f)
	return fn()
}

// instantiated returns the class an initializer creates, as written:
// "Foo" for `new Foo<T>(x)` or Kotlin's `Foo(x)`, "a.b.Foo" for `new
// a.b.Foo()`; "" for anything else.
func instantiated(value string) string {
	v := strings.TrimSpace(strings.TrimPrefix(value, "new "))
	open := strings.IndexByte(v, '(')
	if open <= 0 || !strings.HasSuffix(v, ")") {
		return ""
	}
	return v[:open]
}

// typeName reduces a type as written to the name to resolve: no type
// arguments, nullability, array brackets or "global::".
func typeName(text string) string {
	text = strings.TrimPrefix(strings.TrimSpace(text), "global::")
	if i := strings.IndexAny(text, "<[?("); i >= 0 {
		text = text[:i]
	}
	text = strings.ReplaceAll(text, " ", "")
	for _, p := range strings.Split(text, ".") {
		if !isIdent(p) {
			return ""
		}
	}
	return text
}

// callOnType resolves a call of name on a receiver of the given types.
func (r *resolver) callOnType(types []SymbolID, declared, name string) ([]SymbolID, Resolution, string) {
	if len(types) == 0 {
		if ids, how := r.extensions(declared, name); len(ids) > 0 {
			return ids, how, ""
		}
		if ids := r.externalImplementations(declared, name); len(ids) > 0 {
			return ids, Interface, ""
		}
		return nil, "", fmt.Sprintf("receiver type %s is not in the repository", declared)
	}
	var out []SymbolID
	how := Receiver
	for _, t := range types {
		ms, inherited := r.method(t, name)
		if len(ms) == 0 {
			continue
		}
		out = append(out, ms...)
		switch {
		case r.g.nodes[t].Kind == extract.KindInterface || r.isInterfaceMember(ms[0]):
			how = Interface
			if impl := r.implementations(t, name); len(impl) <= maxImplementations {
				out = append(out, impl...)
			}
		case inherited:
			how = Inherited
		}
	}
	if len(out) == 0 {
		if ids, how := r.extensions(r.g.nodes[types[0]].Name, name); len(ids) > 0 {
			return ids, how, ""
		}
		return nil, "", fmt.Sprintf("no method %s on %s or its bases in the repository", name, r.g.nodes[types[0]].Name)
	}
	return dedupeIDs(out), how, ""
}

// isInterfaceMember reports whether a method is declared in an interface.
func (r *resolver) isInterfaceMember(m SymbolID) bool {
	p, ok := r.parentOf(m)
	return ok && r.g.nodes[p].Kind == extract.KindInterface
}

// maxImplementations bounds class hierarchy analysis: a call through an
// interface method with more implementations than this reaches the
// interface method alone. In the JDK's java.util (369 files) the median
// call through an interface has 14 implementations and the largest 153
// (Consumer.accept); without the bound those calls made 85k of the
// graph's 111k edges, burying a method's own callees.
const maxImplementations = 32

// implementations returns, for each class below t in the repository, the
// method name dispatches to there.
func (r *resolver) implementations(t SymbolID, name string) []SymbolID {
	var out []SymbolID
	for _, s := range r.subtypesOf(t) {
		if r.g.nodes[s].Kind == extract.KindInterface {
			continue
		}
		ms, _ := r.method(s, name)
		out = append(out, ms...)
	}
	return out
}

// extensions finds the extension functions (Kotlin) or extension methods
// (C#) named name declared for a type with simple name typ (receiver);
// failing that, the only extension of any type with that name (name),
// since the receiver may be a subtype of it.
func (r *resolver) extensions(typ, name string) ([]SymbolID, Resolution) {
	typ = lastSegment(typ)
	var exact, any []SymbolID
	exactDefs, anyDefs := map[string]bool{}, map[string]bool{}
	for _, id := range r.ix.byName[name] {
		n := r.g.nodes[id]
		switch n.Language {
		case "kotlin":
			if r.known(moduleOf(n.Qualified)) || n.Parent == "" {
				continue // a member, or a plain function
			}
			any, anyDefs[n.Qualified] = append(any, id), true
			if n.Parent == typ {
				exact, exactDefs[n.Qualified] = append(exact, id), true
			}
		case "csharp":
			sig := r.signature(id)
			if !strings.Contains(sig, "(this ") {
				continue
			}
			any, anyDefs[n.Qualified] = append(any, id), true
			if strings.Contains(sig, "(this "+typ+" ") || strings.Contains(sig, "(this "+typ+"<") {
				exact, exactDefs[n.Qualified] = append(exact, id), true
			}
		}
	}
	switch {
	case len(exactDefs) == 1:
		return exact, Receiver
	case len(exactDefs) == 0 && len(anyDefs) == 1:
		return any, Name
	}
	return nil, ""
}

// externalImplementations returns, for a type outside the repository,
// the methods name of the repository's classes that name it among their
// bases, and of their subclasses: a call on an interface of a library
// may reach the repository's implementations of it.
func (r *resolver) externalImplementations(declared, name string) []SymbolID {
	ix := r.jvmIndexOf()
	if ix.byBase == nil {
		ix.byBase = map[string][]SymbolID{}
		for id, bases := range r.ix.bases {
			for _, b := range bases {
				simple := lastSegment(cleanTypeName(b))
				if l := ix.byBase[simple]; len(l) == 0 || l[len(l)-1] != id {
					ix.byBase[simple] = append(l, id)
				}
			}
		}
		for _, l := range ix.byBase {
			sortIDs(l)
		}
	}
	roots := ix.byBase[lastSegment(declared)]
	seen := map[SymbolID]bool{}
	var out []SymbolID
	add := func(c SymbolID) {
		if seen[c] || r.g.nodes[c].Kind == extract.KindInterface {
			return
		}
		seen[c] = true
		ms, _ := r.method(c, name)
		out = append(out, ms...)
	}
	for _, c := range roots {
		add(c)
		for _, s := range r.subtypesOf(c) {
			add(s)
		}
	}
	if len(out) > maxImplementations {
		return nil
	}
	return dedupeIDs(out)
}

// signature returns the signature of a Java, C# or Kotlin symbol, read
// from its file once.
func (r *resolver) signature(id SymbolID) string {
	ix := r.jvmIndexOf()
	if ix.sigs == nil {
		ix.sigs = map[SymbolID]string{}
		for _, p := range r.g.Files() {
			f := r.g.files[p]
			if !languageTraits[f.Language].declaredTypes {
				continue
			}
			for _, s := range f.Symbols {
				if sid, ok := r.declared(f.Path, s.Qualified, s.StartLine); ok {
					ix.sigs[sid] = s.Signature
				}
			}
		}
	}
	return ix.sigs[id]
}

// primaryConstructor reports whether a Kotlin class has a primary
// constructor, which the class node stands for: a parameter list after
// its name, or no secondary constructor either.
func (r *resolver) primaryConstructor(cls SymbolID) bool {
	n := r.g.nodes[cls]
	if n.Language != "kotlin" || n.Kind != extract.KindClass {
		return false
	}
	sig := r.signature(cls)
	i := strings.Index(sig, "class "+n.Name)
	if i < 0 {
		return false
	}
	rest := sig[i+len("class "+n.Name):]
	if strings.HasPrefix(rest, "<") {
		rest = rest[skipAngles(rest):]
	}
	if j := strings.IndexAny(rest, ":{"); j >= 0 {
		rest = rest[:j]
	}
	if strings.Contains(rest, "(") {
		return true
	}
	return len(r.members(cls, n.Name)) == 0
}

// skipAngles returns the index after the <...> group that opens s.
func skipAngles(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<':
			depth++
		case '>':
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
	return len(s)
}

// knownPrefix returns the longest prefix of parts, joined, that names a
// module, package, namespace or symbol, and how many parts it has.
func (r *resolver) knownPrefix(parts []string) (string, int) {
	for n := len(parts); n > 1; n-- {
		q := strings.Join(parts[:n], ".")
		if r.known(q) || r.hasMembers(q) {
			return q, n
		}
	}
	return "", 0
}

func dedupeIDs(ids []SymbolID) []SymbolID {
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	out := ids[:0]
	for i, id := range ids {
		if i == 0 || id != ids[i-1] {
			out = append(out, id)
		}
	}
	return out
}
