package callgraph

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/fileinfo/fileinfo/extract"
)

// Interfaces declared outside the repository (io.Writer, fmt.Stringer,
// http.Handler, a dependency's interface) are read from Go source on disk:
// the standard library under GOROOT/src, other modules in the module cache
// (GOMODCACHE). Only the files of the needed package that may declare the
// type are parsed, once per process; nothing is fetched. The roots come
// from $GOROOT, $GOMODCACHE and $GOPATH, else from one `go env` run.
//
// A module in the cache is found by its import path; with several
// versions on disk the highest is read (method sets of published
// interfaces rarely change between versions).

// maxExternalFile bounds the Go files read outside the repository, as
// extract.ReadRegular reads them (a regular file, no FIFO or device): the
// largest files of GOROOT are under 1 MB, generated API files of the
// module cache a few MB.
const maxExternalFile = 32 << 20

// goMethodReq is one method of an interface's method set. An unexported
// method can only be implemented by types of the package that declares it
// (pkg); pkg is "" for exported methods.
// params and results count a signature's parameters and results, -1
// when unknown: methods are matched by name and these counts, not by
// types.
type goMethodReq struct {
	name, pkg       string
	params, results int
}

// goIface is the method set of an interface, or why it is unknown.
type goIface struct {
	methods []goMethodReq // sorted by name; nil for an empty interface
	// notIface says the type is known and is no interface (a struct, a
	// func type): calls on it are calls of the external package.
	notIface bool
	// unknown is why the type could not be read ("" when it was).
	unknown string
}

// goExternal is the process-wide reader of external Go source.
var goExternal = &goSource{}

// goSource reads interface method sets from Go source on disk, memoised.
type goSource struct {
	once             sync.Once
	goroot, modcache string

	mu     sync.Mutex
	dirs   map[string]string            // import path → package directory, "" when not on disk
	pkgs   map[string]map[string]goDecl // package directory → its type declarations by name
	ifaces map[goTypeKey]*goIface       // method sets by type
}

// roots finds GOROOT and the module cache.
func (s *goSource) roots() {
	s.once.Do(func() {
		s.goroot = os.Getenv("GOROOT")
		s.modcache = os.Getenv("GOMODCACHE")
		if s.modcache == "" {
			if gp := filepath.SplitList(os.Getenv("GOPATH")); len(gp) > 0 && gp[0] != "" {
				s.modcache = filepath.Join(gp[0], "pkg", "mod")
			}
		}
		if s.goroot == "" || s.modcache == "" {
			// go env reads configuration only; it never uses the network.
			if out, err := exec.Command("go", "env", "GOROOT", "GOMODCACHE").Output(); err == nil {
				lines := strings.Split(strings.TrimSpace(string(out)), "\n")
				if len(lines) == 2 {
					if s.goroot == "" {
						s.goroot = strings.TrimSpace(lines[0])
					}
					if s.modcache == "" {
						s.modcache = strings.TrimSpace(lines[1])
					}
				}
			}
		}
	})
}

// iface returns the method set of the external type path.name.
func (s *goSource) iface(path, name string) *goIface {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ifaceLocked(path, name, 0)
}

// errorIface is the predeclared interface error.
var errorIface = &goIface{methods: []goMethodReq{{name: "Error", params: 0, results: 1}}}

// goTypeKey names a type declared outside the repository.
type goTypeKey struct{ path, name string }

func (s *goSource) ifaceLocked(path, name string, depth int) *goIface {
	key := goTypeKey{path, name}
	if t, ok := s.ifaces[key]; ok {
		return t
	}
	if s.ifaces == nil {
		s.ifaces = map[goTypeKey]*goIface{}
	}
	s.ifaces[key] = &goIface{unknown: "cycle in the embedded interfaces of " + path + "." + name} // cycle guard
	t := s.read(path, name, depth)
	s.ifaces[key] = t
	return t
}

// read finds, parses and evaluates the declaration of path.name.
func (s *goSource) read(path, name string, depth int) *goIface {
	if depth > 16 {
		return &goIface{unknown: "interfaces embedded too deep at " + path + "." + name}
	}
	dir := s.dir(path)
	if dir == "" {
		return &goIface{unknown: "external interface unknown: the source of " + path + " is not in GOROOT or the module cache"}
	}
	spec, imports := s.decl(dir, name)
	if spec == nil {
		return &goIface{unknown: "external interface unknown: no type " + name + " in " + dir}
	}
	typ := spec.Type
	for {
		if p, ok := typ.(*ast.ParenExpr); ok {
			typ = p.X
			continue
		}
		break
	}
	it, ok := typ.(*ast.InterfaceType)
	if !ok {
		if spec.Assign.IsValid() { // type A = B: B's method set
			return s.typeIface(typ, path, imports, depth)
		}
		return &goIface{notIface: true}
	}
	var ms []goMethodReq
	seen := map[string]bool{}
	add := func(m goMethodReq) {
		if !seen[m.name] {
			seen[m.name] = true
			ms = append(ms, m)
		}
	}
	for _, f := range it.Methods.List {
		if len(f.Names) > 0 {
			params, results := -1, -1
			if ft, ok := f.Type.(*ast.FuncType); ok {
				params, results = funcArity(ft)
			}
			for _, n := range f.Names {
				m := goMethodReq{name: n.Name, params: params, results: results}
				if !isExportedName(n.Name) {
					m.pkg = path
				}
				add(m)
			}
			continue
		}
		emb := s.typeIface(f.Type, path, imports, depth)
		if emb.unknown != "" || emb.notIface {
			// A union or ~T term makes a constraint, which no call goes
			// through; an embedded interface we cannot read makes the
			// method set unknown.
			return &goIface{unknown: emb.unknown, notIface: emb.notIface}
		}
		for _, m := range emb.methods {
			add(m)
		}
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].name < ms[j].name })
	return &goIface{methods: ms}
}

// typeIface evaluates a type written in package path (imports: the file's
// import names) to an interface method set.
func (s *goSource) typeIface(e ast.Expr, path string, imports map[string]string, depth int) *goIface {
	switch e := e.(type) {
	case *ast.Ident:
		switch e.Name {
		case "error":
			return errorIface
		case "any":
			return &goIface{}
		case "comparable":
			return &goIface{notIface: true}
		}
		return s.ifaceLocked(path, e.Name, depth+1)
	case *ast.SelectorExpr:
		if pkg, ok := e.X.(*ast.Ident); ok {
			if p, ok := imports[pkg.Name]; ok {
				return s.ifaceLocked(p, e.Sel.Name, depth+1)
			}
		}
	case *ast.IndexExpr: // I[T]
		return s.typeIface(e.X, path, imports, depth)
	case *ast.IndexListExpr:
		return s.typeIface(e.X, path, imports, depth)
	case *ast.ParenExpr:
		return s.typeIface(e.X, path, imports, depth)
	case *ast.InterfaceType:
		if len(e.Methods.List) == 0 {
			return &goIface{}
		}
	}
	return &goIface{notIface: true}
}

// dir returns the directory of the package path on disk, or "".
func (s *goSource) dir(path string) string {
	if d, ok := s.dirs[path]; ok {
		return d
	}
	if s.dirs == nil {
		s.dirs = map[string]string{}
	}
	s.roots()
	d := s.findDir(path)
	s.dirs[path] = d
	return d
}

func (s *goSource) findDir(path string) string {
	if !fs.ValidPath(path) || path == "." {
		return "" // "a/../../b": no import path, and none leads out of GOROOT or the cache
	}
	first, _, _ := strings.Cut(path, "/")
	if !strings.Contains(first, ".") { // the standard library
		if s.goroot == "" {
			return ""
		}
		return isDir(filepath.Join(s.goroot, "src", filepath.FromSlash(path)))
	}
	if s.modcache == "" {
		return ""
	}
	// The module is the longest prefix of path with a version on disk.
	elems := strings.Split(path, "/")
	for n := len(elems); n >= 2; n-- {
		mod := strings.Join(elems[:n], "/")
		esc, ok := escapeModulePath(mod)
		if !ok {
			return ""
		}
		parent, base := filepath.Split(filepath.Join(s.modcache, filepath.FromSlash(esc)))
		ents, err := os.ReadDir(parent)
		if err != nil {
			continue
		}
		best := ""
		for _, e := range ents {
			v, ok := strings.CutPrefix(e.Name(), base+"@")
			if ok && e.IsDir() && (best == "" || semverLess(best, v)) {
				best = v
			}
		}
		if best == "" {
			continue
		}
		rest := filepath.FromSlash(strings.Join(elems[n:], "/"))
		return isDir(filepath.Join(parent, base+"@"+best, rest))
	}
	return ""
}

func isDir(p string) string {
	if fi, err := os.Stat(p); err == nil && fi.IsDir() {
		return p
	}
	return ""
}

// decl returns the declaration of type name in the package in dir with
// the import names of its file, or nil.
func (s *goSource) decl(dir, name string) (*ast.TypeSpec, map[string]string) {
	d := s.pkgDecls(dir)[name]
	return d.spec, d.imports
}

// pkgDecls reads the package in dir once: the import, type and function
// declarations of its files, bodies left out (typeDecls), by name ("F",
// "T.M" for methods).
func (s *goSource) pkgDecls(dir string) map[string]goDecl {
	pkg, ok := s.pkgs[dir]
	if !ok {
		pkg = map[string]goDecl{}
		ents, _ := os.ReadDir(dir)
		r, err := os.OpenRoot(dir)
		if err != nil {
			ents = nil
		} else {
			defer r.Close()
		}
		for _, e := range ents {
			n := e.Name()
			if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
				continue
			}
			p := filepath.Join(dir, n)
			src, err := extract.ReadRegular(r, n, maxExternalFile)
			if err != nil {
				continue
			}
			af, _ := parser.ParseFile(token.NewFileSet(), p, typeDecls(src), parser.SkipObjectResolution)
			if af == nil {
				continue
			}
			imports := fileImports(af)
			for _, d := range af.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					key := fd.Name.Name
					if fd.Recv != nil && len(fd.Recv.List) == 1 {
						key = recvTypeName(fd.Recv.List[0].Type) + "." + key
					}
					if _, dup := pkg[key]; !dup {
						pkg[key] = goDecl{fn: fd.Type, imports: imports}
					}
					continue
				}
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.TYPE {
					continue
				}
				for _, sp := range gd.Specs {
					ts, ok := sp.(*ast.TypeSpec)
					if !ok {
						continue
					}
					if _, dup := pkg[ts.Name.Name]; dup {
						continue // declared per build configuration: the first file's
					}
					pkg[ts.Name.Name] = goDecl{spec: ts, imports: imports}
				}
			}
		}
		if s.pkgs == nil {
			s.pkgs = map[string]map[string]goDecl{}
		}
		s.pkgs[dir] = pkg
	}
	return pkg
}

// goDecl is a type or function declaration read from outside the
// repository, with the import names of its file.
type goDecl struct {
	spec    *ast.TypeSpec
	fn      *ast.FuncType
	imports map[string]string
}

// recvTypeName is the type name of a method receiver: "T" of "*T[K]".
func recvTypeName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// goResultType is the index-th result of an external function or method,
// named: "<import path>.<Name>" or a predeclared name; "" when it is no
// named type (a slice, a map, a type parameter) or is not known.
func (s *goSource) resultType(path, recv, name string, index int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	dir := s.dir(path)
	if dir == "" {
		return ""
	}
	key := name
	if recv != "" {
		key = recv + "." + name
	}
	d := s.pkgDecls(dir)[key]
	if d.fn == nil || d.fn.Results == nil {
		return ""
	}
	i := 0
	for _, f := range d.fn.Results.List {
		for range max(len(f.Names), 1) {
			if i == index {
				return namedType(f.Type, path, d.imports)
			}
			i++
		}
	}
	return ""
}

// namedType is the qualified name of a named type written in package path.
func namedType(e ast.Expr, path string, imports map[string]string) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return namedType(e.X, path, imports)
	case *ast.ParenExpr:
		return namedType(e.X, path, imports)
	case *ast.IndexExpr:
		return namedType(e.X, path, imports)
	case *ast.IndexListExpr:
		return namedType(e.X, path, imports)
	case *ast.Ident:
		if predeclaredTypes[e.Name] {
			return e.Name
		}
		if !isExportedName(e.Name) && len(e.Name) == 1 {
			return "" // most likely a type parameter
		}
		return path + "." + e.Name
	case *ast.SelectorExpr:
		if pkg, ok := e.X.(*ast.Ident); ok {
			if p, ok := imports[pkg.Name]; ok {
				return p + "." + e.Sel.Name
			}
		}
	}
	return ""
}

// fileImports maps a file's import names to import paths; the name of an
// import without one is the last element of its path (the module cache
// and GOROOT follow that convention closely enough; a "/vN" suffix is
// skipped).
func fileImports(af *ast.File) map[string]string {
	out := map[string]string{}
	for _, im := range af.Imports {
		p, err := strconv.Unquote(im.Path.Value)
		if err != nil {
			continue
		}
		name := ""
		if im.Name != nil {
			name = im.Name.Name
		} else {
			elems := strings.Split(p, "/")
			name = elems[len(elems)-1]
			if len(elems) > 1 && len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" {
				name = elems[len(elems)-2]
			}
			name = strings.TrimPrefix(strings.TrimSuffix(name, "-go"), "go-")
		}
		out[name] = p
	}
	return out
}

// isExportedName reports whether a Go identifier is exported.
func isExportedName(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	return unicode.IsUpper(r)
}

// funcArity counts the parameters and results of a function type.
func funcArity(ft *ast.FuncType) (params, results int) {
	return fieldCount(ft.Params), fieldCount(ft.Results)
}

func fieldCount(fl *ast.FieldList) int {
	if fl == nil {
		return 0
	}
	n := 0
	for _, f := range fl.List {
		n += max(len(f.Names), 1)
	}
	return n
}
