package callgraph

import (
	"path"
	"slices"
	"strings"
)

// Module formats side by side. A package may ship each module twice in
// one directory, as an ES module and as CommonJS (graphql 16's
// language/parser.mjs and parser.js, date-fns 3's addDays.mjs and
// addDays.js), and both take the module's name from their path without
// its extension: one qualified name, two definitions. A call resolved by
// that name went to both, so each of graphql.mjs's calls of parse was an
// edge into parser.js too, and `callers` of either listed the other's
// callers. An ES module imports the .mjs and a CommonJS module requires
// the .js: a call reaches the twin of its own file's extension.

// jsSameFormat narrows ids, definitions a call in r.f reaches, to those
// in files of r.f's extension, when r.f is a JavaScript module format's
// file and every definition it drops is in a twin of a file it keeps: the
// same path in another format, or its declaration file (parser.d.ts);
// otherwise ids is returned whole. A TypeScript file's calls are left as
// they are: its checker reads the declaration files.
func (r *resolver) jsSameFormat(ids []SymbolID) []SymbolID {
	if len(ids) < 2 || r.f == nil || !jsFormatExt(path.Ext(r.f.Path)) {
		return ids
	}
	ext := path.Ext(r.f.Path)
	kept := map[string]bool{} // the stems of the files of the ids kept
	var same []SymbolID
	for _, id := range ids {
		if f := r.g.nodes[id].File; path.Ext(f) == ext {
			same = append(same, id)
			kept[strings.TrimSuffix(f, ext)] = true
		}
	}
	if len(same) == 0 || len(same) == len(ids) {
		return ids
	}
	for _, id := range ids {
		if stem, ok := jsFormatStem(r.g.nodes[id].File); !ok || !kept[stem] {
			return ids
		}
	}
	return same
}

// jsDefinitions drops from ids the TypeScript declarations (an
// overload's signature) of a function also among them with its body:
// rxjs's merge has four overload signatures and one implementation, and
// a call of it reaches the implementation. A declaration alone (a
// declaration file's, an interface's method) is kept.
func (r *resolver) jsDefinitions(ids []SymbolID) []SymbolID {
	if len(ids) < 2 || !slices.ContainsFunc(ids, func(id SymbolID) bool { return r.g.nodes[id].Declaration }) {
		return ids
	}
	defined := map[string]bool{}
	for _, id := range ids {
		if n := r.g.nodes[id]; !n.Declaration {
			defined[n.Qualified] = true
		}
	}
	if len(defined) == 0 {
		return ids
	}
	return slices.DeleteFunc(slices.Clone(ids), func(id SymbolID) bool {
		n := r.g.nodes[id]
		return n.Declaration && defined[n.Qualified]
	})
}

// jsFormatStem returns a module format's file's path less its extension
// (.js, .mjs, .cjs, or a declaration file's .d.ts, .d.mts, .d.cts), and
// whether it is one.
func jsFormatStem(file string) (string, bool) {
	for _, ext := range []string{".d.ts", ".d.mts", ".d.cts", ".js", ".mjs", ".cjs"} {
		if stem, ok := strings.CutSuffix(file, ext); ok {
			return stem, true
		}
	}
	return "", false
}

// jsFormatExt reports whether ext is the extension of a JavaScript module
// format's file.
func jsFormatExt(ext string) bool {
	switch ext {
	case ".js", ".mjs", ".cjs":
		return true
	}
	return false
}
