package docsearch

import (
	"path"
	"slices"
	"strings"
)

// BuiltCopies returns the files of code that search ranks as a build's
// copy of code kept elsewhere in the repository, by path, each with why:
// a build directory's beside its package's sources (buildOnly), a module
// format's twin of a source directory (twinCopy). Files that say they
// are generated are not listed here; their extraction tells them. The
// list is worked out at the first call after the code changes.
func (ix *Index) BuiltCopies() []Skipped {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	b := &ix.builds
	b.mu.Lock()
	known, copies := b.copiesKnown, b.copies
	b.mu.Unlock()
	if known {
		return slices.Clone(copies)
	}
	copies = ix.builtCopies()
	b.mu.Lock()
	b.copies, b.copiesKnown = copies, true
	b.mu.Unlock()
	return slices.Clone(copies)
}

// builtCopies walks the code documents' files for BuiltCopies. ix.mu is
// held for reading.
func (ix *Index) builtCopies() []Skipped {
	var out []Skipped
	last := ""
	for key, id := range ix.pathsUnder("") {
		f := codeFileOf(key)
		if f == last || !isCodeScope(ix.docScope(id)) {
			continue
		}
		last = f
		if reason := ix.copyReason(f); reason != "" {
			out = append(out, Skipped{Path: strings.Clone(f), Reason: reason})
		}
	}
	slices.SortFunc(out, func(a, b Skipped) int { return strings.Compare(a.Path, b.Path) })
	return slices.CompactFunc(out, func(a, b Skipped) bool { return a.Path == b.Path })
}

// copyReason says why search ranks file's code as a build's copy, or "".
func (ix *Index) copyReason(file string) string {
	if root, ok := buildRoot(file); ok && !ix.buildOnly(file) {
		pkg := root
		if pkg == "" {
			pkg = "the repository"
		}
		return "in a build directory beside the sources of " + pkg + ": ranked under them in search"
	}
	stem, ok := scriptStem(file)
	if !ok {
		return ""
	}
	if ix.bundle(file) {
		return "a bundle of other scripts: most of its functions and classes are theirs, by name; ranked under them in search"
	}
	switch src := ix.twinSource(file, stem); {
	case strings.HasSuffix(src, "/"):
		return "a module format's build (" + path.Dir(file) + "/) beside the sources in " + src + ": ranked under them in search"
	case src != "" && path.Dir(src) == path.Dir(file):
		return "a module format's copy of " + src + " beside it: ranked under it in search"
	case src != "":
		return "a module format's copy of " + src + " (" + path.Dir(file) + "/ beside " + path.Dir(src) + "/): ranked under it in search"
	}
	return ""
}
