package callgraph

import (
	"go/ast"
	"go/token"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// The types of Go expressions: what goTypes (gotypes.go) evaluates a
// receiver to, from the declarations it reaches.

// exprType is the type of the index-th value of expression e at ctx.
func (gt *goTypes) exprType(ctx gctx, e ast.Expr, index int) *gtype {
	switch e := e.(type) {
	case *ast.Ident:
		if index > 0 {
			return nil
		}
		if gb, ok := gt.local(ctx, e.Name); ok {
			return gt.bindingType(gb)
		}
		if ids := gt.r.g.byQualified[joinQ(ctx.file.Module, e.Name)]; len(ids) > 0 && gt.r.g.nodes[ids[0]].Kind == extract.KindFunction {
			return gt.funcType(ids[0]) // a function used as a value
		}
	case *ast.BasicLit:
		switch e.Kind {
		case token.STRING:
			return predeclared("string")
		case token.INT:
			return predeclared("int")
		}
	case *ast.ParenExpr:
		return gt.exprType(ctx, e.X, index)
	case *ast.StarExpr:
		return gt.exprType(ctx, e.X, index)
	case *ast.UnaryExpr:
		switch e.Op {
		case token.AND:
			return gt.exprType(ctx, e.X, index)
		case token.ARROW:
			if t := gt.underlying(gt.exprType(ctx, e.X, 0)); t != nil && t.kind == gChan && index == 0 {
				return t.elem
			} else if t != nil && t.opaque != "" {
				return t
			}
		}
	case *ast.CompositeLit:
		if index == 0 && e.Type != nil {
			return gt.typeExpr(ctx.file, e.Type)
		}
	case *ast.TypeAssertExpr:
		if index == 0 && e.Type != nil {
			return gt.typeExpr(ctx.file, e.Type)
		}
	case *ast.IndexExpr:
		if index > 0 {
			return nil // v, ok := m[k]
		}
		t := gt.underlying(gt.exprType(ctx, e.X, 0))
		switch {
		case t == nil:
		case t.kind == gSlice || t.kind == gMap:
			return t.elem
		case t.opaque != "":
			return t
		}
	case *ast.SliceExpr:
		return gt.exprType(ctx, e.X, index)
	case *ast.SelectorExpr:
		if index > 0 {
			return nil
		}
		return gt.selectorType(ctx, e)
	case *ast.FuncLit:
		return gt.typeExpr(ctx.file, e.Type)
	case *ast.CallExpr:
		return gt.callType(ctx, e, index)
	}
	return nil
}

// selectorType is the type of x.f: a package's variable, a field (also
// promoted through embedding), or a method value.
func (gt *goTypes) selectorType(ctx gctx, e *ast.SelectorExpr) *gtype {
	if path, ok := gt.importOf(ctx, e.X); ok {
		if gb, ok := gt.member(path, e.Sel.Name); ok {
			return gt.bindingType(gb)
		}
		for _, id := range gt.r.g.byQualified[path+"."+e.Sel.Name] {
			if gt.r.g.nodes[id].Kind == extract.KindFunction {
				return gt.funcType(id)
			}
		}
		if !gt.r.hasMembers(path) {
			return outside(path + "." + e.Sel.Name)
		}
		return nil
	}
	t := gt.exprType(ctx, e.X, 0)
	if isOutside(t) {
		return outside(t.origin() + "." + e.Sel.Name)
	}
	if t == nil || !t.declared {
		return nil
	}
	if ft := gt.field(t.repo, e.Sel.Name); ft != nil {
		return ft
	}
	if et := gt.embeddedField(t.repo, e.Sel.Name); et != nil {
		return et
	}
	if ms, _ := gt.r.method(t.repo, e.Sel.Name); len(ms) > 0 {
		return gt.funcType(ms[0])
	}
	return nil
}

// importOf reports the import path when e is a package name at ctx (not
// shadowed by a variable).
func (gt *goTypes) importOf(ctx gctx, e ast.Expr) (string, bool) {
	id, ok := e.(*ast.Ident)
	if !ok || gt.isVar(ctx, id.Name) {
		return "", false
	}
	path, ok := gt.r.fileScope(ctx.file).bind[id.Name]
	return path, ok
}

// field returns the type of field name of the repository type cls, or of
// a type it embeds.
func (gt *goTypes) field(cls SymbolID, name string) *gtype {
	for _, c := range gt.r.linearize(cls) {
		if gb, ok := gt.member(gt.r.g.nodes[c].Qualified, name); ok {
			return gt.bindingType(gb)
		}
	}
	return nil
}

// embeddedField returns the type of the field an embedded type makes in
// cls, or in a type cls embeds: `h.Core` where h's struct embeds
// `zapcore.Core` or `*Core`. Nil when there is none.
func (gt *goTypes) embeddedField(cls SymbolID, name string) *gtype {
	for _, c := range gt.r.linearize(cls) {
		for _, b := range gt.r.ix.bases[c] {
			clean := cleanTypeName(b)
			if clean[strings.LastIndexByte(clean, '.')+1:] != name {
				continue
			}
			f := gt.r.g.files[gt.r.g.nodes[c].File]
			return gt.typeExpr(f, gt.parse(strings.TrimLeft(b, "*")))
		}
	}
	return nil
}

// funcType is the type of a declared function or method used as a value.
func (gt *goTypes) funcType(fn SymbolID) *gtype {
	t := &gtype{kind: gFunc}
	for _, gb := range gt.bindings[gscopeKey{gt.r.g.nodes[fn].Qualified, "<result>"}] {
		t.results = append(t.results, gt.bindingType(gb))
	}
	return t
}

// callType is the type of the index-th result of a call.
func (gt *goTypes) callType(ctx gctx, call *ast.CallExpr, index int) *gtype {
	fun := call.Fun
	for {
		switch f := fun.(type) {
		case *ast.ParenExpr:
			fun = f.X
			continue
		case *ast.IndexExpr: // F[T](x)
			if !gt.isType(ctx, f.X) {
				fun = f.X
				continue
			}
		case *ast.IndexListExpr:
			fun = f.X
			continue
		}
		break
	}
	if id, ok := fun.(*ast.Ident); ok && !gt.isVar(ctx, id.Name) && gt.r.g.byQualified[joinQ(ctx.file.Module, id.Name)] == nil {
		switch id.Name {
		case "new", "make":
			if len(call.Args) > 0 && index == 0 {
				if t := gt.typeExpr(ctx.file, call.Args[0]); t != nil || id.Name == "new" {
					return t
				}
			}
			return nil
		case "append":
			if len(call.Args) > 0 {
				return gt.exprType(ctx, call.Args[0], 0)
			}
			return nil
		case "len", "cap", "copy":
			return predeclared("int")
		}
	}
	if gt.isType(ctx, fun) {
		if index == 0 {
			return gt.typeExpr(ctx.file, fun) // a conversion
		}
		return nil
	}
	var ft *gtype
	for _, id := range gt.callees(ctx, fun) {
		ft = gt.funcType(id)
		break
	}
	if ft == nil {
		ft = gt.exprType(ctx, fun, 0) // a function value, or a function of another module
	}
	if isOutside(ft) {
		if t := gt.externalResult(ctx, fun, index); t != nil {
			return t
		}
		return outside(ft.origin() + "()")
	}
	ft = gt.underlying(ft)
	if ft == nil || ft.kind != gFunc || index >= len(ft.results) {
		return nil
	}
	return ft.results[index]
}

// externalResult is the type of the index-th result of a call of a
// function or method declared outside the repository, read from its
// source (goExternal) when the result is a named type: `errors.New(s)`
// is an error, `r.Context()` a context.Context. Nil otherwise.
func (gt *goTypes) externalResult(ctx gctx, fun ast.Expr, index int) *gtype {
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	var q string
	if path, ok := gt.importOf(ctx, sel.X); ok {
		if gt.r.hasMembers(path) {
			return nil
		}
		q = goExternal.resultType(path, "", sel.Sel.Name, index)
	} else if t := gt.exprType(ctx, sel.X, 0); t != nil && t.kind == gNamed && !t.declared && t.opaque == "" {
		i := strings.LastIndexByte(t.name, '.')
		if i <= 0 {
			return nil
		}
		q = goExternal.resultType(t.name[:i], t.name[i+1:], sel.Sel.Name, index)
	}
	switch {
	case q == "":
		return nil
	case predeclaredTypes[q]:
		return predeclared(q)
	}
	if t := gt.named(q); t != nil {
		return t
	}
	return &gtype{name: q}
}

// callees returns the declared functions or methods fun names, without
// interface dispatch: the first is enough to know the result types.
func (gt *goTypes) callees(ctx gctx, fun ast.Expr) []SymbolID {
	switch f := fun.(type) {
	case *ast.Ident:
		if gt.isVar(ctx, f.Name) {
			return nil
		}
		return gt.r.g.byQualified[joinQ(ctx.file.Module, f.Name)]
	case *ast.SelectorExpr:
		if path, ok := gt.importOf(ctx, f.X); ok {
			return gt.r.g.byQualified[path+"."+f.Sel.Name]
		}
		if t := gt.exprType(ctx, f.X, 0); t != nil && t.declared {
			ms, _ := gt.r.method(t.repo, f.Sel.Name)
			return ms
		}
		if gt.isType(ctx, f.X) { // method expression T.M
			if t := gt.typeExpr(ctx.file, f.X); t != nil && t.declared {
				ms, _ := gt.r.method(t.repo, f.Sel.Name)
				return ms
			}
		}
	}
	return nil
}
