package extract

import (
	"io/fs"
	"os"
	"path"
	"strings"
	"sync"

	"golang.org/x/mod/modfile"
)

// project holds what module naming needs to know about the root: the Go
// modules (go.mod files) that own each directory, the Python import roots. Safe for concurrent use.
type project struct {
	root string
	dir  *os.Root // root, through which go.mod files are read

	mu      sync.Mutex
	goMod   map[string]goModule // by slash dir relative to root
	goRepl  map[string]string   // replace targets inside the root: slash dir → module path; nil until read
	goDirs  map[string]bool     // whether a slash dir exists, for std's vendored imports
	pyRoots map[string][]pyRoot // Python import roots declared by dir; see python_roots.go
	rootPkg *string             // the root's package name, once known; see python_roots.go
	cargo   map[string]string   // Rust crate names by slash dir of their Cargo.toml; see lang_rust_cargo.go
}

// goModule is the module that owns a directory.
type goModule struct {
	dir  string // slash dir of the module's root relative to root; "." for the root
	path string // module path; "" when there is no go.mod up to the root
}

// goStd is the module path of the standard library's go.mod (GOROOT/src):
// its packages' import paths are their directories, without the module
// path ("strings", "vendor/golang.org/x/net/dns/dnsmessage").
const goStd = "std"

func newProject(root string, dir *os.Root) *project {
	return &project{root: root, dir: dir, goMod: map[string]goModule{}, pyRoots: map[string][]pyRoot{}}
}

// goImportPath returns the Go import path of the package in slash dir
// (relative to root), as the go command maps import paths to directories:
//
//   - the module path of the module that owns dir plus the rest of dir:
//     the nearest go.mod at or above dir, or a directory that a replace
//     directive of the root's go.work or go.mod (or of a module the
//     go.work uses) names, which stands for the module it replaces,
//     whatever its own go.mod says;
//   - in the standard library (GOROOT/src, whose go.mod says "module
//     std") the directory itself: "strings", "cmd/..." under cmd's own
//     go.mod, "vendor/golang.org/x/..." for std's vendored packages;
//   - a package under a vendor directory keeps the import path it is
//     vendored as: the rest of dir after the last "vendor" element;
//   - without a go.mod, dir itself (a GOPATH src tree).
func (p *project) goImportPath(dir string) string {
	m := p.goModuleOf(dir)
	rel := dir
	if m.dir != "." {
		rel = strings.TrimPrefix(strings.TrimPrefix(dir, m.dir), "/")
	}
	if rel == "." {
		rel = ""
	}
	if m.path == goStd {
		return rel
	}
	if i := strings.LastIndex("/"+rel, "/vendor/"); i >= 0 {
		return rel[i+len("vendor/"):]
	}
	switch {
	case m.path == "":
		return rel
	case rel == "":
		return m.path
	}
	return m.path + "/" + rel
}

// goVendored returns the import path under which the standard library
// file in slash dir finds the package imported as ip: std resolves the
// modules it vendors (golang.org/x/...) to GOROOT/src/vendor, whose
// packages have import paths starting with "vendor/". Outside std, and for
// packages not vendored there, it is ip.
func (p *project) goVendored(dir, ip string) string {
	m := p.goModuleOf(dir)
	if m.path != goStd || ip == "" {
		return ip
	}
	first, _, _ := strings.Cut(ip, "/")
	if !strings.Contains(first, ".") { // a package of std itself
		return ip
	}
	v := path.Join(m.dir, "vendor", ip)
	p.mu.Lock()
	defer p.mu.Unlock()
	ok, seen := p.goDirs[v]
	if !seen {
		st, err := p.dir.Stat(v)
		ok = err == nil && st.IsDir()
		if p.goDirs == nil {
			p.goDirs = map[string]bool{}
		}
		p.goDirs[v] = ok
	}
	if ok {
		return "vendor/" + ip
	}
	return ip
}

func (p *project) goModuleOf(dir string) goModule {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.goModuleLocked(dir)
}

func (p *project) goModuleLocked(dir string) goModule {
	if m, ok := p.goMod[dir]; ok {
		return m
	}
	if p.goRepl == nil {
		p.goRepl = readGoReplaces(p.dir)
	}
	var m goModule
	if mp, ok := p.goRepl[dir]; ok {
		m = goModule{dir: dir, path: mp}
	} else if mp := readModulePath(p.dir, path.Join(dir, "go.mod")); mp != "" {
		m = goModule{dir: dir, path: mp}
	} else if dir != "." && dir != "" && dir != "/" {
		m = p.goModuleLocked(path.Dir(dir))
	}
	p.goMod[dir] = m
	return m
}

// readModulePath returns the module path declared in the go.mod at slash
// path file inside dir, or "" if there is none.
func readModulePath(dir *os.Root, file string) string {
	data, err := readSide(dir, file)
	if err != nil {
		return ""
	}
	return modfile.ModulePath(data)
}

// readGoReplaces returns the directories inside the root that replace
// directives name (`replace example.com/lib => ./forks/lib`), by slash dir,
// with the module path each stands for. It reads the root's go.work, the
// go.mod of each module the go.work uses, and the root's go.mod, in that
// order; the first directive naming a directory wins (go.work's override
// the modules'). Targets outside the root, and module versions, are not
// directories of the root and are left out. Never nil.
func readGoReplaces(root *os.Root) map[string]string {
	out := map[string]string{}
	add := func(base string, rs []*modfile.Replace) {
		for _, r := range rs {
			if r.New.Version != "" || !modfile.IsDirectoryPath(r.New.Path) || path.IsAbs(r.New.Path) {
				continue
			}
			d := path.Join(base, r.New.Path)
			if !fs.ValidPath(d) {
				continue // outside the root
			}
			if _, ok := out[d]; !ok {
				out[d] = r.Old.Path
			}
		}
	}
	mods := []string{"."}
	if data, err := readSide(root, "go.work"); err == nil {
		if wf, err := modfile.ParseWork("go.work", data, nil); err == nil {
			add(".", wf.Replace)
			mods = mods[:0]
			for _, u := range wf.Use {
				if d := path.Join(".", u.Path); fs.ValidPath(d) && !path.IsAbs(u.Path) {
					mods = append(mods, d)
				}
			}
		}
	}
	for _, d := range mods {
		data, err := readSide(root, path.Join(d, "go.mod"))
		if err != nil {
			continue
		}
		if mf, err := modfile.Parse(path.Join(d, "go.mod"), data, nil); err == nil { // ParseLax skips replace directives
			add(d, mf.Replace)
		}
	}
	return out
}
