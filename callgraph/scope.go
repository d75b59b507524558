package callgraph

import (
	"strings"
	"unicode"

	"github.com/fileinfo/fileinfo/extract"
)

// traits are what resolution needs to know of a language.
type traits struct {
	self  []string // receivers meaning the current object
	super []string // receivers meaning the base class
	// classScope: an unqualified name inside a method sees the class's
	// members (Java, C#, C++, Kotlin, Scala, Swift, Ruby).
	classScope bool
	// globalNames: unqualified names may be defined in any file (C, C++,
	// PHP and Ruby functions, Lua and Bash globals), so a unique name
	// anywhere resolves them.
	globalNames bool
	// ctor names a class's constructor methods, given the class name.
	ctor func(class string) []string
	// flow: names bound to functions and classes are tracked through
	// assignments, arguments and returns (Python, PyCG-style; flow.go).
	flow bool
	// newMethod is the method name that instantiates its receiver class
	// (Ruby's Foo.new).
	newMethod string
	// openImports: an import of a whole module without an alias brings
	// in the module's names instead of binding its last segment (C#'s
	// `using A.B;`, C's #include of a header in the repository, Swift's
	// `import Module`).
	openImports bool
	// declaredTypes: the file's bindings are declarations with types,
	// read by the call hook, not assignments for flow tracking.
	declaredTypes bool
	// call resolves what the language's own rules settle before the
	// generic ones (declared types of receivers, constructor chaining);
	// ok false leaves the call to the generic rules.
	call func(r *resolver, caller SymbolID, c extract.Call) (ids []SymbolID, how Resolution, reason string, ok bool)
}

func sameName(class string) []string { return []string{class} }

var languageTraits = map[string]traits{
	"python":     {self: []string{"self", "cls"}, super: []string{"super()"}, ctor: fixed("__init__"), flow: true},
	"go":         {},
	"javascript": {self: []string{"this"}, super: []string{"super"}, ctor: fixed("constructor")},
	"typescript": {self: []string{"this"}, super: []string{"super"}, ctor: fixed("constructor")},
	"tsx":        {self: []string{"this"}, super: []string{"super"}, ctor: fixed("constructor")},
	"java":       {self: []string{"this"}, super: []string{"super"}, classScope: true, ctor: sameName, declaredTypes: true},
	"csharp":     {self: []string{"this"}, super: []string{"base"}, classScope: true, ctor: sameName, openImports: true, declaredTypes: true},
	"kotlin":     {self: []string{"this"}, super: []string{"super"}, classScope: true, ctor: sameName, declaredTypes: true},
	"scala":      {self: []string{"this"}, super: []string{"super"}, classScope: true, ctor: sameName},
	"cpp":        {self: []string{"this"}, classScope: true, globalNames: true, ctor: sameName, openImports: true},
	"c":          {globalNames: true, openImports: true, call: cCall},
	"rust":       {self: []string{"self", "Self"}, ctor: fixed("new")},
	"swift":      {self: []string{"self"}, super: []string{"super"}, classScope: true, ctor: fixed("init"), openImports: true},
	"ruby":       {self: []string{"self"}, super: []string{"super"}, classScope: true, globalNames: true, ctor: fixed("initialize"), newMethod: "new"},
	"php":        {self: []string{"$this", "self", "static"}, super: []string{"parent"}, globalNames: true, ctor: fixed("__construct")},
	"lua":        {self: []string{"self"}, globalNames: true},
	"bash":       {globalNames: true},
}

func fixed(name string) func(string) []string {
	return func(string) []string { return []string{name} }
}

// fileScope is what the imports of one file bind.
type fileScope struct {
	bind      map[string]string // local name → qualified target
	wildcards []string          // modules imported with *
	external  map[string]string // local name → imported module outside the repository
	// local are the bindings of imports in a function's or class's body,
	// by its qualified name (Python); byID holds them by the node of the
	// function, and shadow the names a function binds itself (parameters,
	// assignments), which hide the module's (python_imports.go).
	local  map[string]*fileScope
	byID   map[SymbolID]*fileScope
	shadow map[SymbolID]map[string]bool
	// imports memoises importsModuleOf: whether the file imports a module
	// (tests.go).
	imports map[string]bool
}

// scopeOf decodes the imports of f into bindings.
func scopeOf(f *extract.File, known func(string) bool) *fileScope {
	top := &fileScope{bind: map[string]string{}, external: map[string]string{}}
	open := languageTraits[f.Language].openImports
	for _, im := range f.Imports {
		s := top.in(im.Scope)
		target := im.Path
		if im.Resolved != "" {
			target = im.Resolved
		}
		target = strings.TrimSuffix(target, "/")
		if f.Language != "go" {
			target = strings.NewReplacer("/", ".", "\\", ".", "::", ".").Replace(target)
		}
		if len(im.Names) == 0 {
			switch im.Alias {
			case "_":
				continue
			case ".":
				s.wildcards = append(s.wildcards, target)
				continue
			case "":
				if open {
					s.wildcards = append(s.wildcards, target)
					continue
				}
			}
			local := im.Alias
			if local == "" {
				local = importedName(f.Language, im.Path)
			}
			if f.Language == "python" && im.Alias == "" {
				// `import a.b.c` binds a; a.b.c is reached through it.
				head, _, _ := strings.Cut(im.Path, ".")
				local, target = head, head
			}
			s.add(local, target, known)
			continue
		}
		for _, n := range im.Names {
			if n.Name == "*" {
				s.wildcards = append(s.wildcards, target)
				continue
			}
			local := n.Alias
			if local == "" {
				local = lastSegment(n.Name)
			}
			s.add(local, target+"."+n.Name, known)
		}
	}
	return top
}

// in returns the scope of the imports in the body of the function or
// class named scope, s itself for "".
func (s *fileScope) in(scope string) *fileScope {
	if scope == "" {
		return s
	}
	if s.local == nil {
		s.local = map[string]*fileScope{}
	}
	l, ok := s.local[scope]
	if !ok {
		l = &fileScope{bind: map[string]string{}, external: map[string]string{}}
		s.local[scope] = l
	}
	return l
}

func (s *fileScope) add(local, target string, known func(string) bool) {
	if local == "" {
		return
	}
	s.bind[local] = target
	if !known(target) && !known(moduleOf(target)) {
		s.external[local] = target
	}
}

// moduleOf drops the last segment of a qualified name.
func moduleOf(q string) string {
	if i := strings.LastIndexByte(q, '.'); i >= 0 {
		return q[:i]
	}
	return ""
}

// importedName is the name a whole-module import binds: the last element
// of the path, without Go's version suffix or a file extension.
func importedName(lang, p string) string {
	p = strings.TrimSuffix(p, "/")
	if lang != "go" {
		return p[strings.LastIndexAny(p, "/.\\:")+1:]
	}
	name := p[strings.LastIndexByte(p, '/')+1:]
	if strings.HasPrefix(name, "v") && len(name) > 1 && strings.Trim(name[1:], "0123456789") == "" {
		// example.com/mod/v2 is package mod.
		rest := strings.TrimSuffix(p, "/"+name)
		name = rest[strings.LastIndexByte(rest, '/')+1:]
	}
	// The go command's guess, as gopls makes it: without a "go-" prefix,
	// up to the first character that cannot be in an identifier
	// (gopkg.in/yaml.v3 is package yaml, tiktoken-go is tiktoken).
	name = strings.TrimPrefix(name, "go-")
	if i := strings.IndexFunc(name, func(r rune) bool {
		return r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}); i >= 0 {
		name = name[:i]
	}
	return name
}
