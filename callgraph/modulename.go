package callgraph

import "github.com/fileinfo/fileinfo/extract"

// ModuleName returns the qualified name of the module node that f's
// symbols are under (InFile(f.Path) begins with it): f.Module, or its
// path without the extension and with dots for slashes. The files of one
// module share its node, the one of the first of them by path.
func ModuleName(f *extract.File) string { return moduleName(f) }
