package docsearch

import "strings"

// Mirrors. typeorm 0.3 ships its CommonJS at the package's root and the
// same modules as ES modules under browser/, file for file: a directory
// named for a platform, which formatRanks leaves alone (axios's
// lib/platform/browser/ holds code of its own). Every answer came from
// browser/, whose files carry no compiler's mark, over the root's, which
// do, and which Node loads. A directory whose scripts nearly all lie at
// the same paths in its parent is a copy of the parent's, whatever its
// name; the parent's files are the sources.

const (
	// minMirrorScripts is the fewest scripts a mirror holds: two or three
	// files of the same names (index.js, utils.js) are no copy of a tree.
	minMirrorScripts = 10
	// mirrorSample is how many of a directory's scripts are looked at.
	mirrorSample = 200
	// mirrorShare is the share of them, in tenths, found in the parent.
	mirrorShare = 9
)

// mirrorSource returns the script of the path past a directory of stem's
// path, in that directory's parent, when the directory mirrors the
// parent (mirrors); "" when there is none.
func (ix *Index) mirrorSource(stem string) string {
	parts := strings.Split(stem, "/")
	for i := range parts[:len(parts)-1] {
		parent := strings.Join(parts[:i], "/")
		if parent != "" {
			parent += "/"
		}
		dir := parent + parts[i] + "/"
		if !ix.mirrors(dir, parent) {
			continue
		}
		if src := ix.script(parent + strings.Join(parts[i+1:], "/")); src != "" {
			return src
		}
	}
	return ""
}

// mirrors reports whether at least mirrorShare tenths of the scripts
// under dir (a slash path ending in "/", its first mirrorSample) lie at
// the same paths, less extension, under parent, and there are at least
// minMirrorScripts of them. The answer is kept until the code changes
// (builds). ix.mu is held for reading.
func (ix *Index) mirrors(dir, parent string) bool {
	return ix.builds.memo(&ix.builds.mirrors, dir, func() bool {
		seen := map[string]bool{}
		n, found := 0, 0
		for key, id := range ix.pathsUnder(dir) {
			f := codeFileOf(key)
			if seen[f] || !isCodeScope(ix.docScope(id)) {
				continue
			}
			seen[strings.Clone(f)] = true // a loaded key aliases the mapping
			stem, ok := scriptStem(f)
			if !ok {
				continue
			}
			n++
			if ix.script(parent+strings.TrimPrefix(stem, dir)) != "" {
				found++
			}
			if n == mirrorSample {
				break
			}
		}
		return n >= minMirrorScripts && found*10 >= n*mirrorShare
	})
}
