package docsearch

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// Built-in scopes.
const (
	ScopeArtifacts = "artifacts" // .artifacts/**/*.md, written by report_file_info
	ScopeDocs      = "docs"      // README*, docs/, other markdown and text outside .artifacts
)

// Scope is a named set of documents beyond the built-in ones: the files
// with a document extension under Dir. Dir is a slash path in FS, or in the
// index's root when FS is nil; the documents of a scope with an FS of its
// own are named "NAME:path" (path relative to Dir), the others by their
// path from the root. A file under an extra scope's Dir in the root belongs
// to that scope, not to docs.
type Scope struct {
	Name string
	Dir  string
	FS   fs.FS
}

// Skipped is a file that was not indexed, and why.
type Skipped struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// artifactsDir is the artifact store's directory, and indexDir the index's
// place inside it, which is never indexed.
const (
	artifactsDir = ".artifacts"
	indexDir     = ".artifacts/.index"
)

// skipDirs are directories of the root that hold no project docs:
// version control, dependencies, virtual environments and build output.
var skipDirs = map[string]bool{
	".git": true, ".hg": true, ".svn": true, "node_modules": true, "vendor": true,
	"testdata": true, "__pycache__": true, ".venv": true, "venv": true, ".tox": true,
	"dist": true, "build": true, "target": true, "out": true, "site-packages": true,
}

// docFormat returns how a file is read from its name, and whether it is
// a document at all.
func docFormat(name string) (format, bool) {
	base := path.Base(name)
	ext := strings.ToLower(path.Ext(base))
	switch ext {
	case ".md", ".markdown", ".mdx", ".mdown":
		return formatMarkdown, true
	case ".rst":
		return formatRST, true
	case ".txt", ".text", ".adoc":
		lower := strings.ToLower(base)
		if strings.HasPrefix(lower, "requirements") || lower == "cmakelists.txt" || lower == "robots.txt" {
			return 0, false
		}
		return formatText, true
	case ".html", ".htm":
		return formatHTML, true
	}
	if ext == "" && strings.HasPrefix(strings.ToUpper(base), "README") {
		return formatText, true
	}
	return 0, false
}

// formatHTML is converted to markdown before parsing.
const formatHTML format = 100

// source is one file to index.
type source struct {
	path   string // document path (the key)
	scope  string
	fsys   fs.FS
	name   string // path in fsys
	size   int64
	mtime  int64
	format format
}

// scopeSet is the scopes of an index, built-in and extra.
type scopeSet struct {
	root  fs.FS
	extra []Scope
}

func newScopeSet(root fs.FS, extra []Scope) (*scopeSet, error) {
	seen := map[string]bool{ScopeArtifacts: true, ScopeDocs: true}
	for _, s := range extra {
		switch {
		case s.Name == "" || strings.ContainsAny(s.Name, ":/ \t\n"):
			return nil, fmt.Errorf("scope name %q: want a non-empty name without ':', '/' or spaces", s.Name)
		case seen[s.Name]:
			return nil, fmt.Errorf("scope %q defined twice (artifacts and docs are built in)", s.Name)
		case s.FS == nil && !fs.ValidPath(s.Dir):
			return nil, fmt.Errorf("scope %s: dir %q is not a slash path inside the root", s.Name, s.Dir)
		}
		seen[s.Name] = true
	}
	return &scopeSet{root: root, extra: slices.Clone(extra)}, nil
}

// names returns every scope name, sorted.
func (ss *scopeSet) names() []string {
	out := []string{ScopeArtifacts, ScopeDocs}
	for _, s := range ss.extra {
		out = append(out, s.Name)
	}
	slices.Sort(out)
	return out
}

func (ss *scopeSet) has(name string) bool {
	return slices.Contains(ss.names(), name)
}

// errUnknownScope lists the valid scopes, for a caller to pick one.
func (ss *scopeSet) errUnknownScope(name string) error {
	return fmt.Errorf("unknown scope %q; valid scopes: %s", name, strings.Join(ss.names(), ", "))
}

// resolve maps a document path to its scope, file system and name in it.
// It refuses paths that are not clean relative slash paths, or lead out of
// the root. ok is false for a path that no scope would index.
func (ss *scopeSet) resolve(p string) (src source, err error) {
	if name, rest, ok := strings.Cut(p, ":"); ok && !strings.Contains(name, "/") {
		for _, s := range ss.extra {
			if s.Name == name && s.FS != nil {
				rel := path.Join(s.Dir, rest)
				if !fs.ValidPath(rest) || !fs.ValidPath(rel) {
					return src, fmt.Errorf("path %q leaves scope %s", p, name)
				}
				f, ok := docFormat(rest)
				if !ok {
					return src, fmt.Errorf("%s is not a document (markdown, text, reStructuredText or HTML)", p)
				}
				return source{path: p, scope: name, fsys: s.FS, name: rel, format: f}, nil
			}
		}
	}
	if !fs.ValidPath(p) || p == "." {
		return src, fmt.Errorf("path %q is not a slash path inside the root", p)
	}
	f, ok := docFormat(p)
	if !ok {
		return src, fmt.Errorf("%s is not a document (markdown, text, reStructuredText or HTML)", p)
	}
	src = source{path: p, fsys: ss.root, name: p, format: f}
	switch {
	case p == indexDir || strings.HasPrefix(p, indexDir+"/"):
		return src, fmt.Errorf("%s is inside the index directory", p)
	case strings.HasPrefix(p, artifactsDir+"/"):
		if src.format != formatMarkdown {
			return src, fmt.Errorf("%s: artifacts are markdown", p)
		}
		src.scope = ScopeArtifacts
		return src, nil
	}
	for _, s := range ss.extra {
		if s.FS == nil && (s.Dir == "." || p == s.Dir || strings.HasPrefix(p, s.Dir+"/")) {
			src.scope = s.Name
			return src, nil
		}
	}
	for _, dir := range strings.Split(path.Dir(p), "/") {
		if skipDirs[dir] || strings.HasPrefix(dir, ".") && dir != "." {
			return src, fmt.Errorf("%s is in a directory that is not indexed (%s)", p, dir)
		}
	}
	src.scope = ScopeDocs
	return src, nil
}

// walk lists every document of every scope, sorted by path, and the files
// passed over with a reason.
func (ss *scopeSet) walk(maxBytes int64) ([]source, []Skipped, error) {
	var out []source
	var skipped []Skipped
	add := func(fsys fs.FS, name, docPath, scope string, d fs.DirEntry) {
		f, ok := docFormat(name)
		if !ok {
			return
		}
		if d.Type()&fs.ModeSymlink != 0 {
			skipped = append(skipped, Skipped{docPath, "symbolic link"})
			return
		}
		if !d.Type().IsRegular() {
			return
		}
		info, err := d.Info()
		if err != nil {
			skipped = append(skipped, Skipped{docPath, err.Error()})
			return
		}
		if info.Size() > maxBytes {
			skipped = append(skipped, Skipped{docPath, fmt.Sprintf("%d bytes, over the %d limit", info.Size(), maxBytes)})
			return
		}
		out = append(out, source{path: docPath, scope: scope, fsys: fsys, name: name,
			size: info.Size(), mtime: info.ModTime().UnixNano(), format: f})
	}
	// The root: artifacts, docs, and extra scopes inside it.
	err := fs.WalkDir(listing(ss.root), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == "." {
				return err
			}
			skipped = append(skipped, Skipped{p, err.Error()})
			return nil
		}
		if d.IsDir() {
			if p == indexDir {
				return fs.SkipDir
			}
			name := d.Name()
			if p != "." && p != artifactsDir && (skipDirs[name] || strings.HasPrefix(name, ".")) && !ss.holdsExtra(p) {
				return fs.SkipDir
			}
			return nil
		}
		src, err := ss.resolve(p)
		if err != nil || src.scope == "" {
			return nil
		}
		if src.scope == ScopeArtifacts && !strings.HasSuffix(p, ".md") {
			return nil
		}
		add(ss.root, p, p, src.scope, d)
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("walk root: %w", err)
	}
	for _, s := range ss.extra {
		if s.FS == nil {
			continue
		}
		err := fs.WalkDir(listing(s.FS), s.Dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p == s.Dir {
					return err
				}
				skipped = append(skipped, Skipped{s.Name + ":" + p, err.Error()})
				return nil
			}
			if d.IsDir() {
				if p != s.Dir && (d.Name() == ".git" || d.Name() == ".hg" || d.Name() == ".svn") {
					return fs.SkipDir
				}
				return nil
			}
			rel := strings.TrimPrefix(strings.TrimPrefix(p, s.Dir), "/")
			if s.Dir == "." {
				rel = p
			}
			add(s.FS, p, s.Name+":"+rel, s.Name, d)
			return nil
		})
		if err != nil {
			return nil, nil, fmt.Errorf("walk scope %s: %w", s.Name, err)
		}
	}
	slices.SortFunc(out, func(a, b source) int { return strings.Compare(a.path, b.path) })
	slices.SortFunc(skipped, func(a, b Skipped) int { return strings.Compare(a.Path, b.Path) })
	return out, skipped, nil
}

// holdsExtra reports whether dir is, or holds, the directory of an extra
// scope in the root.
func (ss *scopeSet) holdsExtra(dir string) bool {
	for _, s := range ss.extra {
		if s.FS == nil && (s.Dir == dir || strings.HasPrefix(s.Dir, dir+"/") || strings.HasPrefix(dir, s.Dir+"/")) {
			return true
		}
	}
	return false
}

// errBinary marks a file that is not text.
var errBinary = errors.New("binary or undecodable")

// decodeText returns data as UTF-8 text: UTF-8 (a byte order mark is
// dropped) or UTF-16 with a byte order mark. A NUL byte or invalid UTF-8
// make it errBinary. UTF-8 text is data itself, not a copy: data must not
// change afterwards.
func decodeText(data []byte) (string, error) {
	switch {
	case bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}):
		data = data[3:]
	case len(data) >= 2 && (data[0] == 0xFF && data[1] == 0xFE || data[0] == 0xFE && data[1] == 0xFF):
		be := data[0] == 0xFE
		data = data[2:]
		u := make([]uint16, len(data)/2)
		for i := range u {
			if be {
				u[i] = uint16(data[2*i])<<8 | uint16(data[2*i+1])
			} else {
				u[i] = uint16(data[2*i+1])<<8 | uint16(data[2*i])
			}
		}
		return string(utf16.Decode(u)), nil
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return "", fmt.Errorf("%w: contains NUL bytes", errBinary)
	}
	if !utf8.Valid(data) {
		return "", fmt.Errorf("%w: not UTF-8", errBinary)
	}
	if len(data) == 0 {
		return "", nil
	}
	return unsafe.String(&data[0], len(data)), nil
}
