package callgraph

import (
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// jsProtoMembers returns the functions that `Hash.prototype.clear =
// hashClear` makes member name of cls, an ES5 constructor (or a class)
// declared at the top level of a JavaScript or TypeScript file: the
// module-level bindings of "<cls>.prototype.<name>" in cls's file, each
// value a name or path resolved at the top level of that file (an import
// included; of a chain `A.prototype.add = A.prototype.push = f`, the
// last). Lodash builds its Hash, ListCache, MapCache and Stack so.
// Those bindings are module-level, hence in the file's surface: a change
// to them re-resolves the files that read them.
func (r *resolver) jsProtoMembers(cls SymbolID, name string) []SymbolID {
	n := r.g.nodes[cls]
	if !jsLike(n.Language) || n.Kind != extract.KindFunction && n.Kind != extract.KindClass {
		return nil
	}
	f := r.g.files[n.File]
	if f == nil || n.Qualified != joinQ(f.Module, n.Name) {
		return nil
	}
	idx := r.jsBindingsOf(f)[[2]string{f.Module, n.Name + ".prototype." + name}]
	var out []SymbolID
	for _, i := range idx {
		value := f.Bindings[i].Value
		// A.prototype.add = A.prototype.push = f: the last value.
		if j := strings.LastIndexByte(value, '='); j >= 0 {
			value = strings.TrimSpace(value[j+1:])
		}
		if !jsNamePathText(value) || value == "this" || strings.HasPrefix(value, "this.") {
			continue
		}
		v := r.jsPath(f, value)
		if !v.found() || v.module {
			continue
		}
		for _, id := range r.jsSources(r.g.byQualified[v.q]) {
			if k := r.g.nodes[id].Kind; (k == extract.KindFunction || k == extract.KindMethod) && !containsID(out, id) {
				out = append(out, id)
			}
		}
	}
	sortIDs(out)
	return out
}
