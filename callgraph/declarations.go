package callgraph

import (
	"sort"

	"github.com/fileinfo/fileinfo/extract"
)

// The declarations of Go, Java, C# and Kotlin files (extract.Binding with
// a type or an initializer), indexed by scope and name for the typed
// resolvers and kept current file by file by Update.

// gbinding is a binding with the file it is written in.
type gbinding struct {
	b    *extract.Binding
	file *extract.File
	i    int // index in file.Bindings
}

// gscopeKey names the bindings of one name in one scope.
type gscopeKey struct{ scope, name string }

// addBindings indexes the declarations of f into m, for Go and the
// languages with declared types, and returns the keys it added to;
// sortBindings must follow.
func addBindings(m map[gscopeKey][]gbinding, f *extract.File) []gscopeKey {
	if f.Language != "go" && !languageTraits[f.Language].declaredTypes {
		return nil
	}
	keys := make([]gscopeKey, 0, len(f.Bindings))
	for i := range f.Bindings {
		b := &f.Bindings[i]
		k := gscopeKey{b.Scope, b.Target}
		m[k] = append(m[k], gbinding{b, f, i})
		keys = append(keys, k)
	}
	return keys
}

// sortBindings orders the lists of keys by line, file and position, the
// order that does not depend on how the map was built.
func sortBindings(m map[gscopeKey][]gbinding, keys []gscopeKey) {
	for _, k := range keys {
		bs := m[k]
		sort.Slice(bs, func(i, j int) bool {
			a, b := bs[i], bs[j]
			if a.b.Line != b.b.Line {
				return a.b.Line < b.b.Line
			}
			if a.file.Path != b.file.Path {
				return a.file.Path < b.file.Path
			}
			return a.i < b.i
		})
	}
}

// removeBindings drops the bindings of f from m.
func removeBindings(m map[gscopeKey][]gbinding, f *extract.File) {
	for i := range f.Bindings {
		k := gscopeKey{f.Bindings[i].Scope, f.Bindings[i].Target}
		bs := m[k][:0:0]
		for _, gb := range m[k] {
			if gb.file != f {
				bs = append(bs, gb)
			}
		}
		if len(bs) == 0 {
			delete(m, k)
		} else {
			m[k] = bs
		}
	}
}
