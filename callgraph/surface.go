package callgraph

import (
	"strconv"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// surface returns, as one comparable string, what resolving other files
// can read of f: its module and imports, its symbols' names, kinds,
// parents, signatures and bases in order, its exports, and the
// declarations other files look up (package variables, fields, results)
// — not function bodies, locals or line numbers. Most saves edit a body:
// the file's surface stays the same, and Update then re-resolves that
// file alone, however many files read its names.
//
// Line numbers matter only where another file declares the same name
// (duplicate definitions are ordered by line); shared says so, and the
// surface then holds every declaration with its line.
func surface(f *extract.File, shared bool) string {
	var b strings.Builder
	b.WriteString(surfaceHeader(f, shared))
	field := func(ss ...string) {
		for _, s := range ss {
			b.WriteString(s)
			b.WriteByte(0)
		}
		b.WriteByte('\n')
	}
	line := func(n int) string {
		if !shared {
			return ""
		}
		return strconv.Itoa(n)
	}
	for _, e := range f.Exports {
		field("export", e.Name, e.Local, e.From, e.Resolved, line(e.Line))
	}
	funcs := functionScopes(f)
	for _, s := range f.Symbols {
		field("symbol", s.Qualified, s.Name, string(s.Kind), s.Parent, s.Signature, strconv.FormatBool(s.Exported), line(s.StartLine), line(s.EndLine))
		for _, base := range s.Bases {
			field("base", base)
		}
	}
	for _, bd := range f.Bindings {
		if funcs[bd.Scope] && bd.Target != "<result>" && !shared {
			continue // a local or parameter: only f's own calls see it
		}
		field("binding", bd.Scope, bd.Target, bd.Value, bd.Type, strconv.Itoa(bd.Index), line(bd.Line), line(bd.EndLine))
	}
	return b.String()
}

// surfaceHeader is the part of f's surface every name depends on: its
// path, language and module, and its imports, paired with the exports
// that re-export them.
func surfaceHeader(f *extract.File, shared bool) string {
	var b strings.Builder
	field := func(ss ...string) {
		for _, s := range ss {
			b.WriteString(s)
			b.WriteByte(0)
		}
		b.WriteByte('\n')
	}
	field("file", f.Path, f.Language, f.Module, strconv.FormatBool(shared))
	for i, im := range f.Imports {
		line := ""
		if shared {
			line = strconv.Itoa(im.Line)
		}
		field("import", im.Path, im.Alias, im.Resolved, line)
		for _, n := range im.Names {
			field("name", n.Name, n.Alias)
		}
		// A re-export pairs with the import on its line (isReexport).
		for _, e := range f.Exports {
			if e.Line == im.Line {
				field("pair", strconv.Itoa(i), e.Name)
			}
		}
	}
	return b.String()
}

// shares reports whether a file other than f's own path, and other than
// those skip holds, defines one of f's qualified names or declarations
// in g; extra are files about to join g, checked too.
func (g *Graph) shares(f *extract.File, skip map[string]bool, extra []extract.File) bool {
	other := func(path string) bool { return path != f.Path && !skip[path] }
	for _, s := range f.Symbols {
		for _, id := range g.byQualified[s.Qualified] {
			if other(g.nodes[id].File) {
				return true
			}
		}
	}
	for _, bd := range f.Bindings {
		for _, gb := range g.bindings[gscopeKey{bd.Scope, bd.Target}] {
			if other(gb.file.Path) {
				return true
			}
		}
	}
	if len(extra) == 0 {
		return false
	}
	mine := map[string]bool{}
	for _, s := range f.Symbols {
		mine[s.Qualified] = true
	}
	for _, bd := range f.Bindings {
		mine[bd.Scope+"\x00"+bd.Target] = true
	}
	for i := range extra {
		e := &extra[i]
		if e.Path == f.Path {
			continue
		}
		for _, s := range e.Symbols {
			if mine[s.Qualified] {
				return true
			}
		}
		for _, bd := range e.Bindings {
			if mine[bd.Scope+"\x00"+bd.Target] {
				return true
			}
		}
	}
	return false
}

// defFilter narrows what defNames follows of one changed file to the
// names whose definitions changed (see diffDefs) and the classes whose
// members may have.
type defFilter struct {
	names, classes map[string]bool
}

// diffDefs compares two versions of one file name by name: the names
// whose definitions differ, and the classes those belong to or are.
// Unchanged names need not be followed to their readers: the definitions
// those readers resolve against are the same. It returns nil, follow
// everything, when the files' headers (module, imports) differ, as every
// declared type may then mean something else.
func diffDefs(old, new *extract.File, sharedOld, sharedNew bool) *defFilter {
	hOld, rOld := defRecords(old, sharedOld)
	hNew, rNew := defRecords(new, sharedNew)
	if hOld != hNew {
		return nil
	}
	flt := &defFilter{names: map[string]bool{}, classes: map[string]bool{}}
	for name, rec := range rOld {
		if rNew[name] != rec {
			flt.names[name] = true
		}
	}
	for name, rec := range rNew {
		if rOld[name] != rec {
			flt.names[name] = true
		}
	}
	for _, f := range []*extract.File{old, new} {
		funcs := functionScopes(f)
		for _, s := range f.Symbols {
			if !flt.names[s.Name] {
				continue
			}
			if s.Parent != "" {
				flt.classes[s.Parent] = true
			}
			if !funcs[s.Qualified] {
				flt.classes[s.Name] = true // a type: its members' meaning may change
			}
		}
		for _, b := range f.Bindings {
			if flt.names[b.Target] && b.Scope != f.Module && !funcs[b.Scope] {
				flt.classes[lastSegment(b.Scope)] = true // a field
			}
		}
	}
	return flt
}

// defRecords describes what f defines, name by name, as surface does for
// the whole file, and returns its header (path, module, imports) apart.
func defRecords(f *extract.File, shared bool) (header string, recs map[string]string) {
	recs = map[string]string{}
	add := func(name string, ss ...string) {
		recs[name] += strings.Join(ss, "\x00") + "\n"
	}
	line := func(n int) string {
		if !shared {
			return ""
		}
		return strconv.Itoa(n)
	}
	for _, e := range f.Exports {
		for _, t := range identifiers(e.Name + " " + e.Local) {
			add(t, "export", e.Name, e.Local, e.From, e.Resolved, line(e.Line))
		}
	}
	funcs := functionScopes(f)
	for _, s := range f.Symbols {
		add(s.Name, "symbol", s.Qualified, string(s.Kind), s.Parent, s.Signature, strconv.FormatBool(s.Exported), strings.Join(s.Bases, ","), line(s.StartLine), line(s.EndLine))
	}
	for _, b := range f.Bindings {
		name := b.Target
		switch {
		case b.Target == "<result>":
			name = lastSegment(b.Scope) // a function's results type its calls
		case funcs[b.Scope] && !shared:
			continue
		}
		add(name, "binding", b.Scope, b.Target, b.Value, b.Type, strconv.Itoa(b.Index), line(b.Line), line(b.EndLine))
	}
	return surfaceHeader(f, shared), recs
}

// functionScopes returns the qualified names of f's functions and
// methods: the scopes of locals and parameters.
func functionScopes(f *extract.File) map[string]bool {
	funcs := map[string]bool{}
	for _, s := range f.Symbols {
		if s.Kind == extract.KindFunction || s.Kind == extract.KindMethod {
			funcs[s.Qualified] = true
		}
	}
	return funcs
}
