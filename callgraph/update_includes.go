package callgraph

import (
	"path"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// includesChanged reports what of the C and C++ include graph (see
// lang_c_includes.go) may differ after a change, before g takes it: all,
// when the files a C file includes, directly or not, may differ (a file
// whose includes changed, or a file that comes or goes where an include
// may mean it); else near, the files whose includers alone may differ.
//
// A C file that comes or goes and that no include can mean (a new .c
// file, the common case) is in no other file's closure; it only joins or
// leaves the includers of the files its own includes may mean, which
// those files read (around, includedBy) and no other file does. On the
// Linux kernel re-resolving every file that read the include graph was
// re-resolving nearly every file for each added .c file.
func (g *Graph) includesChanged(changed []extract.File, defining map[string]*defFilter) (all bool, near []string) {
	var comes, goes []*extract.File
	for i := range changed {
		f := &changed[i]
		if family(f.Language) == "c" && g.files[f.Path] == nil {
			comes = append(comes, f)
		}
	}
	for p, flt := range defining {
		if flt != nil {
			continue
		}
		f := g.files[p]
		if f == nil || family(f.Language) != "c" {
			continue
		}
		if !changedHas(changed, p) {
			goes = append(goes, f)
			continue
		}
		return true, nil // its includes (or module) changed
	}
	if len(comes) == 0 && len(goes) == 0 {
		return false, nil
	}
	// Every C file, as before the change and after it.
	var cfiles []*extract.File
	for _, f := range g.files {
		if family(f.Language) == "c" {
			cfiles = append(cfiles, f)
		}
	}
	for i := range changed {
		if family(changed[i].Language) == "c" {
			cfiles = append(cfiles, &changed[i])
		}
	}
	moving := append(comes, goes...)
	for _, x := range cfiles {
		for _, im := range x.Imports {
			for _, m := range moving {
				if m.Path != x.Path && mayInclude(x.Path, im.Path, m.Path) {
					return true, nil
				}
			}
		}
	}
	seen := map[string]bool{}
	for _, m := range moving {
		for _, im := range m.Imports {
			for _, x := range cfiles {
				if !seen[x.Path] && x.Path != m.Path && mayInclude(m.Path, im.Path, x.Path) {
					seen[x.Path] = true
					near = append(near, x.Path)
				}
			}
		}
	}
	return false, near
}

// changedHas reports whether changed holds a file at p.
func changedHas(changed []extract.File, p string) bool {
	for i := range changed {
		if changed[i].Path == p {
			return true
		}
	}
	return false
}

// mayInclude reports whether an #include of name in file from may mean
// the file at p: whether p is among the files cIncludes.resolve ranks,
// the ranking aside.
func mayInclude(from, name, p string) bool {
	name = strings.TrimSpace(name)
	if name == "" || strings.ContainsAny(name, "<>\"\\") {
		return false
	}
	if path.Join(path.Dir(from), name) == p {
		return true
	}
	clean := path.Clean(name)
	for strings.HasPrefix(clean, "../") {
		clean = clean[3:]
	}
	if clean == "." || clean == ".." || strings.HasPrefix(clean, "/") {
		return false
	}
	return p == clean || strings.HasSuffix(p, "/"+clean)
}
