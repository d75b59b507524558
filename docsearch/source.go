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
		// Sphinx copies each page's source next to the HTML as
		// _sources/page.rst.txt (page.md.txt with MyST): read as what
		// it is, its headings are the page's.
		switch {
		case strings.HasSuffix(lower, ".rst.txt"):
			return formatRST, true
		case strings.HasSuffix(lower, ".md.txt"):
			return formatMarkdown, true
		}
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
	if root == nil {
		return nil, errors.New("docsearch: no root file system (an empty one is fstest.MapFS{})")
	}
	seen := map[string]bool{ScopeArtifacts: true, ScopeDocs: true, ScopeCode: true, ScopeVendor: true}
	for _, s := range extra {
		switch {
		case s.Name == "" || strings.ContainsAny(s.Name, ":/ \t\n"):
			return nil, fmt.Errorf("scope name %q: want a non-empty name without ':', '/' or spaces", s.Name)
		case seen[s.Name]:
			return nil, fmt.Errorf("scope %q defined twice (artifacts, code, docs and vendor are built in)", s.Name)
		case s.FS == nil && !fs.ValidPath(s.Dir):
			return nil, fmt.Errorf("scope %s: dir %q is not a slash path inside the root", s.Name, s.Dir)
		}
		seen[s.Name] = true
	}
	return &scopeSet{root: root, extra: slices.Clone(extra)}, nil
}

// names returns every scope name, sorted.
func (ss *scopeSet) names() []string {
	out := []string{ScopeArtifacts, ScopeCode, ScopeDocs, ScopeVendor}
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

// resolve maps a document path to its scope, file system and name in
// it. It refuses paths that are not clean relative slash paths, or lead
// out of the root or a scope. ok is false, without an error, for a path
// that no scope would index: not a document, inside the index directory
// or in a directory the walk never enters whatever it holds (skipDirs,
// hidden ones). Whether git ignores it, or it is in build output, is for
// excluded to say.
func (ss *scopeSet) resolve(p string) (src source, ok bool, err error) {
	if name, rest, found := strings.Cut(p, ":"); found && !strings.Contains(name, "/") {
		for _, s := range ss.extra {
			if s.Name == name && s.FS != nil {
				rel := path.Join(s.Dir, rest)
				if !fs.ValidPath(rest) || !fs.ValidPath(rel) {
					return src, false, fmt.Errorf("path %q leaves scope %s", p, name)
				}
				f, ok := docFormat(rest)
				return source{path: p, scope: name, fsys: s.FS, name: rel, format: f}, ok, nil
			}
		}
	}
	if !fs.ValidPath(p) || p == "." {
		return src, false, fmt.Errorf("path %q is not a slash path inside the root", p)
	}
	f, ok := docFormat(p)
	if !ok {
		return src, false, nil
	}
	src = source{path: p, fsys: ss.root, name: p, format: f}
	switch {
	case p == indexDir || strings.HasPrefix(p, indexDir+"/"):
		return src, false, nil
	case strings.HasPrefix(p, artifactsDir+"/"):
		src.scope = ScopeArtifacts
		return src, src.format == formatMarkdown, nil
	}
	for _, s := range ss.extra {
		if s.FS == nil && (s.Dir == "." || p == s.Dir || strings.HasPrefix(p, s.Dir+"/")) {
			src.scope = s.Name
			return src, true, nil
		}
	}
	for _, dir := range strings.Split(path.Dir(p), "/") {
		if skipDirs[dir] != "" || strings.HasPrefix(dir, ".") && dir != "." {
			return src, false, nil
		}
	}
	src.scope = ScopeDocs
	return src, true, nil
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
