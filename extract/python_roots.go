package extract

// Python import roots: the directories Python would have on sys.path for
// the files of a repository, so that a module is named by its import name
// (src/flask/app.py is flask.app).
//
// The extraction root is a root. A directory that holds a project's
// metadata (pyproject.toml, setup.cfg or setup.py) is the root of the
// packages directly in it (flat layout: a subdirectory with __init__.py,
// but not tests/ or docs/, whose modules keep their path so that two
// projects' tests/test_api.py stay apart). A project's package
// directories are roots:
//
//   - pyproject.toml: [tool.setuptools.packages.find] where = [...],
//     [tool.setuptools] package-dir = {"" = "..."} (or the table
//     [tool.setuptools.package-dir]), poetry's packages = [{from = "..."}],
//     hatch's packages = ["src/pkg"] (the parent of each);
//   - setup.cfg: [options] package_dir = =lib, [options.packages.find]
//     where = lib;
//   - setup.py: package_dir={"": "lib"}, find_packages("lib") or
//     find_packages(where="lib") (and find_namespace_packages);
//   - else a src/ directory beside the metadata, or at the extraction
//     root, that is not a package itself (setuptools' automatic discovery
//     of the src layout; flit and hatch do the same).
//
// A file belongs to the deepest root that holds it; its module is its
// path from there. An extraction root that is a package itself (it has
// __init__.py: a package directory such as site-packages/flask) is named
// by its directory: its modules are flask.app, flask.helpers. Directories without __init__.py (namespace packages)
// are part of the module name like any other.

import (
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// pythonMeta are the files that mark a Python project's directory.
var pythonMeta = []string{"pyproject.toml", "setup.cfg", "setup.py"}

var (
	// where = ["src"], packages = ["src/pkg"]: the strings of an array.
	tomlWhere    = regexp.MustCompile(`(?m)^\s*where\s*=\s*\[([^\]]*)\]`)
	tomlHatch    = regexp.MustCompile(`(?m)^\s*packages\s*=\s*\[([^\]]*)\]`)
	tomlFrom     = regexp.MustCompile(`\bfrom\s*=\s*["']([^"']+)["']`)
	tomlEmptyKey = regexp.MustCompile(`(?m)(?:^|[{,])\s*""\s*=\s*["']([^"']+)["']`)
	quoted       = regexp.MustCompile(`["']([^"']*)["']`)
	cfgWhere     = regexp.MustCompile(`(?m)^\s*where\s*=\s*(\S+)\s*$`)
	cfgPkgDir    = regexp.MustCompile(`(?m)^\s*package_dir\s*=\s*(?:\n\s+)?=\s*(\S+)\s*$`)
	pyPkgDir     = regexp.MustCompile(`package_dir\s*=\s*\{\s*["']{2}\s*:\s*["']([^"']+)["']`)
	pyFind       = regexp.MustCompile(`find_(?:namespace_)?packages\(\s*(?:where\s*=\s*)?["']([^"']+)["']`)
)

// pythonRootsIn returns the package directories (slash, relative to the
// extraction root) that the metadata in dir names, without dir itself.
func (p *project) pythonRootsIn(dir string) []string {
	var rels []string
	hasMeta := false
	for _, name := range pythonMeta {
		data, err := readSide(p.dir, path.Join(dir, name))
		if err != nil {
			continue
		}
		hasMeta = true
		text := string(data)
		switch name {
		case "pyproject.toml":
			for _, m := range tomlWhere.FindAllStringSubmatch(text, -1) {
				for _, q := range quoted.FindAllStringSubmatch(m[1], -1) {
					rels = append(rels, q[1])
				}
			}
			for _, m := range tomlFrom.FindAllStringSubmatch(text, -1) {
				rels = append(rels, m[1])
			}
			for _, m := range tomlEmptyKey.FindAllStringSubmatch(text, -1) {
				rels = append(rels, m[1])
			}
			for _, m := range tomlHatch.FindAllStringSubmatch(text, -1) {
				for _, q := range quoted.FindAllStringSubmatch(m[1], -1) {
					if d := path.Dir(q[1]); d != "." && !strings.HasPrefix(q[1], "{") {
						rels = append(rels, d)
					}
				}
			}
		case "setup.cfg":
			for _, re := range []*regexp.Regexp{cfgWhere, cfgPkgDir} {
				for _, m := range re.FindAllStringSubmatch(text, -1) {
					rels = append(rels, m[1])
				}
			}
		case "setup.py":
			for _, re := range []*regexp.Regexp{pyPkgDir, pyFind} {
				for _, m := range re.FindAllStringSubmatch(text, -1) {
					rels = append(rels, m[1])
				}
			}
		}
	}
	if (hasMeta || dir == ".") && len(rels) == 0 && p.isDir(path.Join(dir, "src")) && !p.isFile(path.Join(dir, "src", "__init__.py")) {
		rels = append(rels, "src")
	}
	var out []string
	for _, r := range rels {
		r = path.Clean(path.Join(dir, r))
		if r == dir || r == ".." || strings.HasPrefix(r, "../") || path.IsAbs(r) || dir != "." && !strings.HasPrefix(r, dir+"/") {
			continue // a project's packages lie inside it
		}
		out = append(out, r)
	}
	return out
}

func (p *project) isDir(rel string) bool {
	st, err := p.dir.Stat(rel)
	return err == nil && st.IsDir()
}

func (p *project) isFile(rel string) bool {
	st, err := p.dir.Stat(rel)
	return err == nil && st.Mode().IsRegular()
}

// pyRoot is an import root; a flat one holds only the packages directly
// in it (see the file comment).
type pyRoot struct {
	dir  string
	flat bool
}

// pythonDirRoots returns the roots declared in dir (its package
// directories, and dir itself as a flat root when it holds a project's
// metadata), cached.
func (p *project) pythonDirRoots(dir string) []pyRoot {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r, ok := p.pyRoots[dir]; ok {
		return r
	}
	var roots []pyRoot
	for _, name := range pythonMeta {
		if dir != "." && p.isFile(path.Join(dir, name)) {
			roots = append(roots, pyRoot{dir: dir, flat: true})
			break
		}
	}
	for _, r := range p.pythonRootsIn(dir) {
		roots = append(roots, pyRoot{dir: r})
	}
	p.pyRoots[dir] = roots
	return roots
}

// notFlatPackages are directories beside a project's metadata that
// setuptools' flat-layout discovery leaves out.
var notFlatPackages = map[string]bool{"tests": true, "test": true, "docs": true, "doc": true, "examples": true, "example": true, "scripts": true, "benchmarks": true}

// holds reports whether root r holds the file at slash path file.
func (p *project) holds(r pyRoot, file string) bool {
	rest, ok := strings.CutPrefix(file, r.dir+"/")
	if !ok {
		return false
	}
	if !r.flat {
		return true
	}
	first, _, nested := strings.Cut(rest, "/")
	return nested && !notFlatPackages[first] && p.isFile(path.Join(r.dir, first, "__init__.py"))
}

// pythonRoot returns the import root of the Python file at slash path
// file: the deepest root that holds it, "." when no other does.
func (p *project) pythonRoot(file string) string {
	best := "."
	for dir := path.Dir(file); ; dir = path.Dir(dir) {
		for _, r := range p.pythonDirRoots(dir) {
			if len(r.dir) > len(best) && p.holds(r, file) {
				best = r.dir
			}
		}
		if dir == "." || dir == "/" || dir == "" {
			return best
		}
	}
}

// pythonRootPackage returns the package name of the extraction root when
// it is a package (it holds __init__.py and its directory's name is an
// identifier), else "".
func (p *project) pythonRootPackage() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.rootPkg == nil {
		name := ""
		if base := filepath.Base(p.root); isPythonIdent(base) && p.isFile("__init__.py") {
			name = base
		}
		p.rootPkg = &name
	}
	return *p.rootPkg
}

// isPythonIdent reports whether s is an ASCII identifier.
func isPythonIdent(s string) bool {
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}
