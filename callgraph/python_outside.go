package callgraph

import (
	"regexp"
	"slices"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// Python classes of the repository that derive from classes outside it:
// what their instances do not define themselves, the outside base does,
// and PyCG names it by that base (external/cls_parent: A(parent) calls
// ext.parent.__init__ when A has none, and self.parent_fn() calls
// ext.parent.parent_fn).

// outsideBases returns the external names of the outside classes cls
// derives from, directly or through its bases in the repository, in
// method resolution order; each base is named as the import of its
// class's file binds it (`from invoke import Context` ... Context is
// invoke.Context).
func (r *resolver) outsideBases(cls SymbolID) []string {
	if bs, ok := r.outside[cls]; ok {
		return bs
	}
	if r.outside == nil {
		r.outside = map[SymbolID][]string{}
	}
	bs := r.findOutsideBases(cls)
	r.outside[cls] = bs
	return bs
}

// findOutsideBases computes outsideBases.
func (r *resolver) findOutsideBases(cls SymbolID) []string {
	var out []string
	for _, c := range r.linearize(cls) {
		written := r.ix.bases[c]
		if len(written) == 0 || len(r.basesOf(c)) == len(written) {
			continue
		}
		for _, b := range r.outsideBasesOf(c, written) {
			if !slices.Contains(out, b) {
				out = append(out, b)
			}
		}
	}
	return out
}

// outsideBasesOf names the bases of c, written as in its file, that an
// import from outside the repository binds.
func (r *resolver) outsideBasesOf(c SymbolID, written []string) []string {
	f := r.g.files[r.g.nodes[c].File]
	if f == nil || f.Language != "python" {
		return nil
	}
	saved := *r
	defer func() { r.f, r.tr, r.scope = saved.f, saved.tr, saved.scope }()
	r.enter(f)
	from, ok := r.parentOf(c)
	if !ok {
		from = c
	}
	var out []string
	for _, b := range written {
		b = cleanTypeName(b)
		head, rest, dotted := strings.Cut(b, ".")
		if _, ext, ok := r.importOf(from, head); ok && ext != "" && isDotted(b) {
			if dotted {
				ext += "." + rest
			}
			out = append(out, ext)
		}
	}
	return out
}

// OutsideConstructors returns, for a Python class of the repository
// whose instantiation finds no __init__ in the repository, the
// constructors of the outside classes it derives from (["invoke.Program.__init__"]);
// nil for any other node.
func (g *Graph) OutsideConstructors(id SymbolID) []string {
	n := g.nodes[id]
	if n.Language != "python" || n.Kind != extract.KindClass {
		return nil
	}
	r := newResolver(g, g.ix)
	if ms, _ := r.method(id, "__init__"); len(ms) > 0 {
		return nil
	}
	var out []string
	for _, b := range r.outsideBases(id) {
		out = append(out, b+".__init__")
	}
	return out
}

// starParam matches the starred parameters of a Python signature:
// `*args` (a tuple) and `**kwargs` (a dict).
var starParam = regexp.MustCompile(`[(,]\s*(\*\*?)([A-Za-z_][A-Za-z0-9_]*)`)

// starParams makes the starred parameters of f's functions builtin
// values: kwargs.pop(...) is dict.pop, args.index(...) tuple.index. It
// records where they are, for positional.
func (fl *flow) starParams(f *extract.File) {
	for i := range f.Symbols {
		s := &f.Symbols[i]
		if s.Kind != extract.KindFunction && s.Kind != extract.KindMethod || !strings.Contains(s.Signature, "*") {
			continue
		}
		at := [2]int{-1, -1}
		for _, m := range starParam.FindAllStringSubmatch(s.Signature, -1) {
			t, k := "tuple", 0
			if m[1] == "**" {
				t, k = "dict", 1
			}
			fl.addExt(varKey{s.Qualified, m[2]}, builtinSets[t])
			at[k] = slices.Index(s.Params, m[2])
		}
		for _, id := range fl.r.g.byQualified[s.Qualified] {
			if n := fl.r.g.nodes[id]; n.File == f.Path && n.Line == s.StartLine {
				fl.stars[id] = at
			}
		}
	}
}

// positional returns the parameter of function fn that the positional
// argument at index i binds: past a *args parameter, that one (the
// tuple holds them all); never a **kwargs parameter.
func (fl *flow) positional(fn SymbolID, params []string, i int) (string, bool) {
	at, ok := fl.stars[fn]
	switch {
	case ok && at[0] >= 0 && i >= at[0]:
		return params[at[0]], true
	case ok && at[1] >= 0 && i >= at[1]:
		return "", false
	case i < len(params):
		return params[i], true
	}
	return "", false
}
