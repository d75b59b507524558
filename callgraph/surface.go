package callgraph

import (
	"strconv"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// surface returns, as one comparable string, what resolving other files
// can read of f: its module and imports, its symbols' names, kinds,
// parents, signatures, bases and whether they are declarations (C
// prototypes), in order, its exports, and the declarations other files
// look up (package variables, fields, results) — not function bodies, locals or line numbers. Most saves edit a body:
// the file's surface stays the same, and Update then re-resolves that
// file alone, however many files read its names.
//
// Line numbers matter only where another file declares the same name
// (duplicate definitions are ordered by line); shared says so, and the
// surface then holds every declaration with its line.
func surface(f *extract.File, shared bool) string {
	var b strings.Builder
	b.WriteString(surfaceHeader(f, shared))
	for _, e := range f.Exports {
		writeExport(&b, e, shared)
	}
	for _, s := range f.Symbols {
		writeSymbol(&b, s, shared)
	}
	funcs := functionScopes(f)
	for _, bd := range f.Bindings {
		if readable(bd, funcs, shared) {
			writeBinding(&b, bd, shared)
		}
	}
	return b.String()
}

// surfaceHeader is the part of f's surface every name depends on: its
// path, language and module, and its imports, paired with the exports
// that re-export them.
func surfaceHeader(f *extract.File, shared bool) string {
	var b strings.Builder
	writeRecord(&b, "file", f.Path, f.Language, f.Module, strconv.FormatBool(shared))
	for i, im := range f.Imports {
		writeRecord(&b, "import", im.Path, im.Alias, im.Resolved, lineField(im.Line, shared))
		for _, n := range im.Names {
			writeRecord(&b, "name", n.Name, n.Alias)
		}
		// A re-export pairs with the import on its line (isReexport).
		for _, e := range f.Exports {
			if e.Line == im.Line {
				writeRecord(&b, "pair", strconv.Itoa(i), e.Name)
			}
		}
	}
	return b.String()
}

// The records of surface and defRecords: one line per declaration, its
// fields apart. Line numbers count only when shared (see surface).

func writeRecord(b *strings.Builder, fields ...string) {
	for _, f := range fields {
		b.WriteString(f)
		b.WriteByte(0)
	}
	b.WriteByte('\n')
}

func lineField(n int, shared bool) string {
	if !shared {
		return ""
	}
	return strconv.Itoa(n)
}

func writeExport(b *strings.Builder, e extract.Export, shared bool) {
	writeRecord(b, "export", e.Name, e.Local, e.From, e.Resolved, lineField(e.Line, shared))
}

func writeSymbol(b *strings.Builder, s extract.Symbol, shared bool) {
	writeRecord(b, "symbol", s.Qualified, s.Name, string(s.Kind), s.Parent, s.Signature, strconv.FormatBool(s.Exported),
		strconv.FormatBool(s.Declaration), strings.Join(s.Bases, ","), lineField(s.StartLine, shared), lineField(s.EndLine, shared))
}

func writeBinding(w *strings.Builder, b extract.Binding, shared bool) {
	writeRecord(w, "binding", b.Scope, b.Target, b.Value, b.Type, strconv.Itoa(b.Index), lineField(b.Line, shared), lineField(b.EndLine, shared))
}

// readable reports whether other files can read binding b: not a local
// or parameter of one of f's functions (funcs), whose results count;
// every binding when f's names are shared.
func readable(b extract.Binding, funcs map[string]bool, shared bool) bool {
	return shared || !funcs[b.Scope] || b.Target == "<result>"
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

// defRecords describes what f defines, name by name, with the records
// of surface, and returns its header (path, module, imports) apart.
func defRecords(f *extract.File, shared bool) (header string, recs map[string]string) {
	bs := map[string]*strings.Builder{}
	of := func(name string) *strings.Builder {
		if bs[name] == nil {
			bs[name] = &strings.Builder{}
		}
		return bs[name]
	}
	for _, e := range f.Exports {
		for _, t := range identifiers(e.Name + " " + e.Local) {
			writeExport(of(t), e, shared)
		}
	}
	for _, s := range f.Symbols {
		writeSymbol(of(s.Name), s, shared)
	}
	funcs := functionScopes(f)
	for _, b := range f.Bindings {
		if !readable(b, funcs, shared) {
			continue
		}
		name := b.Target
		if b.Target == "<result>" {
			name = lastSegment(b.Scope) // a function's results type its calls
		}
		writeBinding(of(name), b, shared)
	}
	recs = make(map[string]string, len(bs))
	for name, b := range bs {
		recs[name] = b.String()
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
