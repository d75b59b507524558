package callgraph

import (
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// family groups the languages whose code calls each other's definitions
// by name within one program: C and C++; JavaScript and TypeScript; the
// JVM languages. A unique-name match is looked for only in the caller's
// family, so a Swift method does not answer a Scala call.
func family(lang string) string {
	switch lang {
	case "c", "cpp":
		return "c"
	case "javascript", "typescript", "tsx":
		return "javascript"
	case "java", "kotlin", "scala":
		return "jvm"
	}
	return lang
}

// companionObject reports whether id is a Scala companion object among
// ids that also hold its class (they share a qualified name):
// instantiating the name makes an instance of the class.
func (r *resolver) companionObject(id SymbolID, ids []SymbolID) bool {
	if r.g.nodes[id].Kind != extract.KindObject {
		return false
	}
	for _, other := range ids {
		if other != id && r.g.nodes[other].Kind != extract.KindObject && r.isClass(other) {
			return true
		}
	}
	return false
}

// isFileModule reports whether id is the node of a file's module, not a
// module symbol declared in a file (Ruby, Rust).
func (r *resolver) isFileModule(id SymbolID) bool {
	m, ok := r.ix.module[r.g.nodes[id].Qualified]
	return ok && m == id
}

// qualifiedPrefixes returns the set of proper prefixes of the qualified
// names of all nodes: the tables, namespaces and packages that hold
// symbols without being one.
func (r *resolver) qualifiedPrefixes() map[string]bool {
	g := r.g
	if g.prefixes == nil {
		g.prefixes = map[string]bool{}
		for q := range g.byQualified {
			for i := strings.LastIndexByte(q, '.'); i > 0; i = strings.LastIndexByte(q[:i], '.') {
				if g.prefixes[q[:i]] {
					break
				}
				g.prefixes[q[:i]] = true
			}
		}
	}
	return g.prefixes
}

// symbolFirst returns the first of ids that is not a module node, else
// the first: a file's path module can share its name with the type it
// declares (C# block namespaces in a directory named like the namespace:
// A.B/Foo.cs declaring A.B.Foo).
func (r *resolver) symbolFirst(ids []SymbolID) SymbolID {
	for _, id := range ids {
		if r.g.nodes[id].Kind != KindModule || !r.isFileModule(id) {
			return id
		}
	}
	return ids[0]
}
