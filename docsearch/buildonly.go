package docsearch

import (
	"path"
	"strings"
	"sync"
)

// A build directory (dist/, build/) usually holds a second copy of code
// kept elsewhere in the repository (moment's dist/ of its src/, a tsc
// build beside its .ts), so its code ranks as auxiliary, under the
// sources. But a package from npm often ships only its build:
// socket.io's server is dist/*.js and nothing else, yargs's build/lib/.
// There the build is the package's code, and lowering it lifted
// whatever else the package holds above it (a client bundle, a shim).
// So the build of a directory whose code is mostly in it, rather than
// beside it, is no auxiliary code.

// builtDirs names the directories auxiliaryCode takes for a build's.
var builtDirs = []string{"dist", "build"}

// buildRoot returns the directory that holds file's outermost build
// directory ("" for the repository's root) and true, or false when file
// is in no build directory. Only scripts and the declaration files tsc
// writes beside them are a build's output: a compiler of Go, C or Python
// writes no source, and a directory of that name holds source of its own
// (Go's go/build and cmd/dist, Linux's tools/build).
func buildRoot(file string) (string, bool) {
	dir := path.Dir(file)
	if _, script := scriptStem(file); dir == "." || !script && !DeclarationFile(file) {
		return "", false
	}
	at := 0
	for part := range strings.SplitSeq(dir, "/") {
		for _, b := range builtDirs {
			if strings.EqualFold(part, b) {
				return strings.TrimSuffix(dir[:at], "/"), true
			}
		}
		at += len(part) + 1
	}
	return "", false
}

// builds knows which build directories hold their package's code, each
// worked out from its package's code documents at the first question
// after the code documents change (reset).
type builds struct {
	mu      sync.Mutex
	only    map[string]bool   // by buildRoot: its build holds more files of code than it does beside
	sources map[string]string // by file: what it is a module format's copy of, or "" (twinSource)
	mirrors map[string]bool   // by directory: a copy of its parent's scripts (mirrors)
	bundles map[string]bool   // by file: a bundle of other scripts, by its names (bundles.go)
	scripts map[string]bool   // by directory: holds a script (hasScripts)
	// copies is what BuiltCopies returns, when copiesKnown.
	copies      []Skipped
	copiesKnown bool
}

func (b *builds) reset() {
	b.mu.Lock()
	b.only, b.sources, b.mirrors, b.bundles, b.scripts, b.copies, b.copiesKnown = nil, nil, nil, nil, nil, nil, false
	b.mu.Unlock()
}

// buildOnly reports whether file is in a build directory whose package
// (the directory holding it) has more files of code in its build
// directories than beside them, outside tests and other auxiliary code:
// the build is the package's code. ix.mu is held for reading.
func (ix *Index) buildOnly(file string) bool {
	root, ok := buildRoot(file)
	if !ok {
		return false
	}
	b := &ix.builds
	b.mu.Lock()
	defer b.mu.Unlock()
	only, ok := b.only[root]
	if !ok {
		only = ix.builtOnly(root)
		if b.only == nil {
			b.only = map[string]bool{}
		}
		b.only[root] = only
	}
	return only
}

// builtOnly reports whether the package at root (a slash path, "" for the
// repository's) has more files of code in its build directories than
// beside them, by a walk of the code documents under it, less the build's
// files named as one beside it, and beside it counting each name once.
// A file in a nested package's build counts for neither.
func (ix *Index) builtOnly(root string) bool {
	prefix := root + "/"
	if root == "" {
		prefix = ""
	}
	files := map[string]bool{}
	var built []string           // the build's files' names, less extension
	besides := map[string]bool{} // the names of the files beside it
	for key, id := range ix.pathsUnder(prefix) {
		f := codeFileOf(key)
		if files[f] || !isCodeScope(ix.docScope(id)) {
			continue
		}
		files[strings.Clone(f)] = true // a loaded key aliases the mapping
		switch r, ok := buildRoot(f); {
		case ok && r == root:
			built = append(built, fileStem(f))
		case !ok && !auxiliaryCode(f) && !testCode(f) && !exampleCode(f):
			besides[fileStem(f)] = true
		}
	}
	// A build's file named as one beside it is that file built, however
	// many builds there are (handlebars's dist/cjs/ and dist/amd/ of
	// lib/): it is no sign that the build is the package's code.
	own := 0
	for _, b := range built {
		if !besides[b] {
			own++
		}
	}
	return own > len(besides)
}

// fileStem is a file's name without its directory and extension.
func fileStem(file string) string {
	base := path.Base(file)
	return strings.TrimSuffix(base, path.Ext(base))
}

// builtCopy reports whether d, a code document of file, is in a build
// directory or a generated file that is not its package's only code, or
// in a module format's twin of a source directory (twinCopy), or a bundle
// of other scripts (bundle): a second copy of code kept elsewhere,
// auxiliary.
func (ix *Index) builtCopy(d *doc, file string) bool {
	_, built := buildRoot(file)
	return (d.generated || built) && !ix.buildOnly(file) || ix.twinCopy(file) || ix.bundle(file)
}
