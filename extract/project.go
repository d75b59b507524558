package extract

import (
	"bufio"
	"bytes"
	"os"
	"path"
	"strings"
	"sync"
)

// project holds what module naming needs to know about the root: the Go
// modules (go.mod files) that own each directory, the Python import roots. Safe for concurrent use.
type project struct {
	root string
	dir  *os.Root // root, through which go.mod files are read

	mu      sync.Mutex
	goMod   map[string]goModule // by slash dir relative to root
	pyRoots map[string][]pyRoot // Python import roots declared by dir; see python_roots.go
	rootPkg *string             // the root's package name, once known; see python_roots.go
}

type goModule struct {
	dir  string // slash dir of the go.mod relative to root; "." for the root
	path string // module path; "" when there is no go.mod up to the root
}

func newProject(root string, dir *os.Root) *project {
	return &project{root: root, dir: dir, goMod: map[string]goModule{}, pyRoots: map[string][]pyRoot{}}
}

// goImportPath returns the Go import path of the package in slash dir
// (relative to root): the module path of the nearest go.mod at or above dir
// plus the rest of dir. Without a go.mod it is dir itself.
func (p *project) goImportPath(dir string) string {
	m := p.goModuleOf(dir)
	if m.path == "" {
		if dir == "." {
			return ""
		}
		return dir
	}
	rel := strings.TrimPrefix(strings.TrimPrefix(dir, m.dir), "/")
	if m.dir == "." {
		rel = dir
		if dir == "." {
			rel = ""
		}
	}
	if rel == "" {
		return m.path
	}
	return m.path + "/" + rel
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
	var m goModule
	if mp := readModulePath(p.dir, path.Join(dir, "go.mod")); mp != "" {
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
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '"') {
			rest = strings.TrimSpace(rest)
			if i := strings.Index(rest, "//"); i >= 0 {
				rest = strings.TrimSpace(rest[:i])
			}
			return strings.Trim(rest, "\"`")
		}
	}
	return ""
}
