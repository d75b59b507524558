package docsearch

import "strings"

// Mirrors. typeorm 0.3 ships its CommonJS at the package's root and the
// same modules as ES modules under browser/, file for file: a directory
// named for a platform, which formatRanks leaves alone (axios's
// lib/platform/browser/ holds code of its own). Every answer came from
// browser/, whose files carry no compiler's mark, over the root's, which
// do, and which Node loads. A directory whose scripts nearly all lie at
// the same paths in its parent is a copy of the parent's, whatever its
// name; the parent's files are the sources. But not a directory named as
// the source (src/, modules/: a package that ships its sources beside the
// build at its root), nor one whose files say more of a source than the
// parent's (.ts beside the parent's .js).

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
		if rank, ok := formatRank(parts[i]); ok && rank == 0 {
			continue // src/ is no copy of what is beside it
		}
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
			if src := ix.script(parent + strings.TrimPrefix(stem, dir)); src != "" && !moreOfASource(f, src) {
				found++
			}
			if n == mirrorSample {
				break
			}
		}
		return n >= minMirrorScripts && found*10 >= n*mirrorShare
	})
}

// moreOfASource reports whether the script a says more of a source by its
// extension than b (sameDirRanks): a .ts beside the .js compiled from it.
func moreOfASource(a, b string) bool {
	ra, okA := sameDirRank(a)
	rb, okB := sameDirRank(b)
	return okA && okB && ra < rb
}
