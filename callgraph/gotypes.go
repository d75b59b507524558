package callgraph

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// Go receivers are typed from the declarations package extract records as
// bindings: variables, parameters, receivers, results, struct fields,
// range and type-switch variables. Expressions and types stay source text
// until a call needs them; go/parser turns that text into syntax, and
// goTypes evaluates it the way the compiler would, without generics,
// untyped constants or method sets of unnamed types.

// gkind is the shape of a Go type.
type gkind uint8

const (
	gNamed gkind = iota // a named type: declared in the repository, external, or predeclared
	gSlice              // slices and arrays
	gMap
	gChan
	gFunc
	gUnnamed // struct{...} and interface{...} literals
)

// gtype is a Go type, pointers dropped: method calls and field selections
// look through them.
type gtype struct {
	kind gkind
	// name is the qualified name of a named type: "<import path>.<Name>"
	// for declared and external types, the bare name for predeclared ones.
	name string
	// repo is the type's node when the repository declares it.
	repo     SymbolID
	declared bool
	// opaque says where a value of a type this package cannot see comes
	// from ("reflect.ValueOf"): it is declared outside the repository.
	opaque  string
	key     *gtype   // map keys
	elem    *gtype   // slice, array, map and channel elements
	results []*gtype // function results
}

// goTypes types Go expressions for one graph build.
type goTypes struct {
	r         *resolver
	bindings  map[gscopeKey][]gbinding // sorted by line
	parsed    map[string]ast.Expr      // source text → syntax, nil when it does not parse; kept across updates
	typeMemo  map[*extract.Binding]*gtype
	visiting  map[*extract.Binding]bool
	msets     map[SymbolID]goMsetMemo // method sets of the repository's interfaces, computed on demand
	implBySet map[string][]SymbolID   // implementers by method set, computed on demand
	arity     map[SymbolID][2]int     // parameter and result counts of methods
	dispatch  map[goDispatchKey][]SymbolID
	embedsExt *[]SymbolID           // types embedding a package-qualified type, computed on demand
	embedders map[string][]SymbolID // Go types by the names of the types they embed, built on demand
	under     map[SymbolID]*gtype   // underlying types of named non-struct types
	aliasing  map[SymbolID]bool     // aliases being resolved
}

func newGoTypes(r *resolver, bindings map[gscopeKey][]gbinding, parsed map[string]ast.Expr) *goTypes {
	return &goTypes{
		r:         r,
		bindings:  bindings,
		parsed:    parsed,
		typeMemo:  map[*extract.Binding]*gtype{},
		visiting:  map[*extract.Binding]bool{},
		msets:     map[SymbolID]goMsetMemo{},
		implBySet: map[string][]SymbolID{},
		arity:     map[SymbolID][2]int{},
		dispatch:  map[goDispatchKey][]SymbolID{},
		under:     map[SymbolID]*gtype{},
		aliasing:  map[SymbolID]bool{},
	}
}

// parse returns the syntax of an expression or type written as text, or
// nil.
func (gt *goTypes) parse(src string) ast.Expr {
	if e, ok := gt.parsed[src]; ok {
		return e
	}
	var e ast.Expr
	if isIdentChain(src) {
		e = identChain(src) // most receivers: "s", "f.x.y"
	} else if x, err := parser.ParseExprFrom(token.NewFileSet(), "", src, parser.SkipObjectResolution); err == nil {
		e = x
	}
	gt.parsed[src] = e
	return e
}

func isIdentChain(s string) bool {
	if s == "" || s[0] == '.' || s[len(s)-1] == '.' || strings.Contains(s, "..") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '.' || c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' && i > 0 && s[i-1] != '.') {
			return false
		}
	}
	return true
}

func identChain(s string) ast.Expr {
	parts := strings.Split(s, ".")
	var e ast.Expr = ast.NewIdent(parts[0])
	for _, p := range parts[1:] {
		e = &ast.SelectorExpr{X: e, Sel: ast.NewIdent(p)}
	}
	return e
}

// gctx is where an expression is evaluated: a file, the qualified name of
// the enclosing function (or the package for package-level code) and a
// line.
type gctx struct {
	file  *extract.File
	scope string
	line  int
}

// local returns the binding of name visible at ctx: the latest one in the
// function whose scope holds the line, else the package-level one.
func (gt *goTypes) local(ctx gctx, name string) (gbinding, bool) {
	if ctx.scope != ctx.file.Module {
		bs := gt.bindings[gscopeKey{ctx.scope, name}]
		for i := len(bs) - 1; i >= 0; i-- {
			if inScope(bs[i].b, ctx.line) {
				return bs[i], true
			}
		}
	}
	return gt.member(ctx.file.Module, name)
}

// inScope reports whether a function's binding is visible on line. A
// variable's scope starts after its declaration (`note, err :=
// note.Open(...)` calls the package), a parameter's on its line (one-line
// functions).
func inScope(b *extract.Binding, line int) bool {
	if b.EndLine > 0 && line > b.EndLine {
		return false
	}
	return b.Line < line || b.Line == line && b.Value == ""
}

// member returns the binding of name declared directly in scope (a
// package's variable, a struct's field).
func (gt *goTypes) member(scope, name string) (gbinding, bool) {
	bs := gt.bindings[gscopeKey{scope, name}]
	if len(bs) == 0 {
		return gbinding{}, false
	}
	return bs[0], true
}

// isVar reports whether name is a variable at ctx, local or package-level.
func (gt *goTypes) isVar(ctx gctx, name string) bool {
	_, ok := gt.local(ctx, name)
	return ok
}

// bindingType is the type of a binding's target.
func (gt *goTypes) bindingType(gb gbinding) *gtype {
	b := gb.b
	if t, ok := gt.typeMemo[b]; ok {
		return t
	}
	if gt.visiting[b] {
		return nil // x := x.next(): no fixed point needed for a static type
	}
	gt.visiting[b] = true
	defer delete(gt.visiting, b)
	var t *gtype
	ctx := gctx{file: gb.file, scope: b.Scope, line: b.Line}
	switch {
	case b.Type != "":
		t = gt.typeExpr(gb.file, gt.parse(b.Type))
	case strings.HasPrefix(b.Value, "range "):
		over := gt.underlying(gt.exprType(ctx, gt.parse(strings.TrimPrefix(b.Value, "range ")), 0))
		if over != nil && over.opaque != "" {
			t = over
		} else {
			t = rangeType(over, b.Index)
		}
	default:
		t = gt.exprType(ctx, gt.parse(b.Value), b.Index)
	}
	gt.typeMemo[b] = t
	return t
}

// rangeType is the type of the index-th variable of a range over t.
func rangeType(t *gtype, index int) *gtype {
	if t == nil {
		return nil
	}
	switch t.kind {
	case gMap:
		if index == 0 {
			return t.key
		}
		return t.elem
	case gSlice:
		if index == 1 {
			return t.elem
		}
		return predeclared("int")
	case gChan:
		if index == 0 {
			return t.elem
		}
	case gNamed:
		if t.name == "string" {
			return predeclared([...]string{"int", "rune"}[min(index, 1)])
		}
	}
	return nil
}

func predeclared(name string) *gtype { return &gtype{name: name} }

// predeclaredTypes are Go's predeclared type names.
var predeclaredTypes = map[string]bool{
	"bool": true, "byte": true, "complex64": true, "complex128": true, "error": true,
	"float32": true, "float64": true, "int": true, "int8": true, "int16": true,
	"int32": true, "int64": true, "rune": true, "string": true, "uint": true,
	"uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true,
	"any": true, "comparable": true,
}

// typeExpr turns a type written in file into a gtype.
func (gt *goTypes) typeExpr(file *extract.File, e ast.Expr) *gtype {
	switch e := e.(type) {
	case *ast.Ident:
		if t := gt.named(joinQ(file.Module, e.Name)); t != nil {
			return t
		}
		if predeclaredTypes[e.Name] {
			return predeclared(e.Name)
		}
	case *ast.SelectorExpr:
		if pkg, ok := e.X.(*ast.Ident); ok {
			if path, ok := gt.r.fileScope(file).bind[pkg.Name]; ok {
				if t := gt.named(path + "." + e.Sel.Name); t != nil {
					return t
				}
				return &gtype{name: path + "." + e.Sel.Name}
			}
		}
	case *ast.StarExpr:
		return gt.typeExpr(file, e.X)
	case *ast.ParenExpr:
		return gt.typeExpr(file, e.X)
	case *ast.IndexExpr: // T[int]
		return gt.typeExpr(file, e.X)
	case *ast.IndexListExpr:
		return gt.typeExpr(file, e.X)
	case *ast.ArrayType:
		return &gtype{kind: gSlice, elem: gt.typeExpr(file, e.Elt)}
	case *ast.Ellipsis:
		return &gtype{kind: gSlice, elem: gt.typeExpr(file, e.Elt)}
	case *ast.MapType:
		return &gtype{kind: gMap, key: gt.typeExpr(file, e.Key), elem: gt.typeExpr(file, e.Value)}
	case *ast.ChanType:
		return &gtype{kind: gChan, elem: gt.typeExpr(file, e.Value)}
	case *ast.StructType, *ast.InterfaceType:
		return &gtype{kind: gUnnamed}
	case *ast.FuncType:
		t := &gtype{kind: gFunc}
		if e.Results != nil {
			for _, f := range e.Results.List {
				rt := gt.typeExpr(file, f.Type)
				for range max(len(f.Names), 1) {
					t.results = append(t.results, rt)
				}
			}
		}
		return t
	}
	return nil
}

// named returns the repository's named type q, or nil. An alias of a
// declared type stands for that type (`type ToolRequest = Request[*P]`).
func (gt *goTypes) named(q string) *gtype {
	for _, id := range gt.r.g.byQualified[q] {
		if !gt.r.isClass(id) {
			continue
		}
		t := &gtype{name: q, repo: id, declared: true}
		if gt.r.g.nodes[id].Kind == extract.KindType {
			if def, alias, f := gt.definition(id); alias && !gt.aliasing[id] {
				gt.aliasing[id] = true // cycle guard
				a := gt.typeExpr(f, gt.parse(def))
				delete(gt.aliasing, id)
				if a != nil && a.declared {
					return a
				}
			}
		}
		return t
	}
	return nil
}

// isType reports whether e, written in file, names a type rather than a
// value (for conversions T(x)).
func (gt *goTypes) isType(ctx gctx, e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		if gt.isVar(ctx, e.Name) {
			return false
		}
		return predeclaredTypes[e.Name] || gt.named(joinQ(ctx.file.Module, e.Name)) != nil
	case *ast.SelectorExpr:
		if pkg, ok := e.X.(*ast.Ident); ok && !gt.isVar(ctx, pkg.Name) {
			if path, ok := gt.r.fileScope(ctx.file).bind[pkg.Name]; ok {
				return gt.named(path+"."+e.Sel.Name) != nil
			}
		}
	case *ast.StarExpr:
		return gt.isType(ctx, e.X)
	case *ast.ParenExpr:
		return gt.isType(ctx, e.X)
	case *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.InterfaceType, *ast.StructType:
		return true
	}
	return false
}

// outside is the type of a value that comes from code outside the
// repository: its methods are not in the graph.
func outside(origin string) *gtype { return &gtype{opaque: origin} }

// isOutside reports whether t is declared outside the repository.
func isOutside(t *gtype) bool {
	return t != nil && (t.opaque != "" || t.kind == gNamed && !t.declared && t.name != "" && !predeclaredTypes[t.name])
}

// origin names where a value of an outside type comes from.
func (t *gtype) origin() string {
	if t.opaque != "" {
		return t.opaque
	}
	return t.name
}

// underlying returns the type a declared non-struct named type is
// defined as (`type EqualFunc func(x, y int) Result`), or t.
func (gt *goTypes) underlying(t *gtype) *gtype {
	if t == nil || !t.declared || gt.r.g.nodes[t.repo].Kind != extract.KindType {
		return t
	}
	if u, ok := gt.under[t.repo]; ok {
		if u == nil {
			return t
		}
		return u
	}
	gt.under[t.repo] = nil // cycle guard: type A B; type B A
	var u *gtype
	if def, _, f := gt.definition(t.repo); f != nil {
		u = gt.underlying(gt.typeExpr(f, gt.parse(def)))
	}
	gt.under[t.repo] = u
	if u == nil {
		return t
	}
	return u
}

// definition returns the type a declared named type id is defined as, as
// text, whether it is an alias (`type A = B`), and its file; nil when id
// has no such definition.
func (gt *goTypes) definition(id SymbolID) (def string, alias bool, f *extract.File) {
	n := gt.r.g.nodes[id]
	f = gt.r.g.files[n.File]
	for _, s := range f.Symbols {
		if s.Qualified != n.Qualified || s.StartLine != n.Line {
			continue
		}
		def = strings.TrimPrefix(s.Signature, "type "+s.Name)
		if strings.HasPrefix(def, "[") { // type parameters
			if i := strings.Index(def, "] "); i >= 0 {
				def = def[i+1:]
			}
		}
		def = strings.TrimSpace(def)
		if strings.HasPrefix(def, "= ") {
			return def[2:], true, f
		}
		return def, false, f
	}
	return "", false, nil
}
