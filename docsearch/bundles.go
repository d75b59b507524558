package docsearch

import "strings"

// Bundles told by their names. zod 3 ships lib/types.js and its other
// modules as tsc writes them, and beside them lib/index.mjs (a rollup
// bundle of every module) and lib/index.umd.js (the same as UMD). No
// source map, mark or directory says so, and their text is not the
// modules' (tsc rewrites each call of an import, rollup does not), so no
// copy rule met them; tsc's modules carry its mark and rank as generated,
// the bundles did not, and they came first for every question. A script
// most of whose functions and classes are defined, under the same names,
// in several other scripts is a bundle of them: a copy, answered by the
// module's symbol where exactly one module defines it.

const (
	// minBundleNames is the fewest distinct names a bundle defines: a
	// small file that shares a few names (index, init) is no bundle.
	minBundleNames = 20
	// bundleSample is how many of a file's names are looked up.
	bundleSample = 120
	// bundleShare is the share of them, in tenths, defined elsewhere.
	bundleShare = 8
	// minBundleSources is the fewest other scripts those names are in.
	minBundleSources = 3
)

// bundle reports whether file, a script, bundles other scripts of the
// index by its names: of its first bundleSample names (functions,
// methods, classes), at least bundleShare tenths are defined in other
// scripts that define fewer than nine in ten of them, and those scripts
// are at least minBundleSources. A script that defines nearly all of a
// file's names is a copy of it, not a source: zod's index.umd.js of its
// index.mjs, and each of them of lib/types.js, whose own names the two
// bundles define every one of. The answer is kept until the code changes
// (builds). ix.mu is held for reading.
func (ix *Index) bundle(file string) bool {
	if _, ok := scriptStem(file); !ok {
		return false
	}
	return ix.builds.memo(&ix.builds.bundles, file, func() bool {
		an := newAnalyzer()
		var defs [][]string // by name: the other scripts defining it
		cover := map[string]int{}
		seen := map[string]bool{}
		for key, id := range ix.pathsUnder(file + "#") {
			d := ix.doc(id)
			if d == nil || codeFileOf(key) != file || !isCodeScope(d.scope) {
				continue
			}
			name := unrenamed(localName(d.title))
			if kind, _ := codeMeta(d.text); kind == "module" || name == "" || strings.HasPrefix(name, "<") || seen[name] {
				continue
			}
			seen[name] = true
			others := ix.definersOf(an, name, file)
			for _, o := range others {
				cover[o]++
			}
			defs = append(defs, others)
			if len(defs) == bundleSample {
				break
			}
		}
		names := len(defs)
		if names < minBundleNames {
			return false
		}
		found := 0
		sources := map[string]bool{}
		for _, others := range defs {
			any := false
			for _, o := range others {
				if cover[o]*10 < names*9 { // not a copy of file
					sources[o], any = true, true
				}
			}
			if any {
				found++
			}
		}
		return found*10 >= names*bundleShare && len(sources) >= minBundleSources
	})
}

// maxDefiners bounds the scripts definersOf returns for one name.
const maxDefiners = 16

// definersOf returns the scripts other than file that define a symbol of
// the local name name, at most maxDefiners of them.
func (ix *Index) definersOf(an *analyzer, name, file string) []string {
	tid, ok := ix.nameTerm(an, name)
	if !ok {
		return nil
	}
	var out []string
	ix.symbolPostings(tid, ix.deadChunks, func(_, _ uint32, ofile, oname string) bool {
		if ofile == file || unrenamed(localName(oname)) != name {
			return true
		}
		if _, script := scriptStem(ofile); !script {
			return true
		}
		for _, o := range out {
			if o == ofile {
				return true
			}
		}
		out = append(out, strings.Clone(ofile)) // a loaded key aliases the mapping
		return len(out) < maxDefiners
	})
	return out
}

// bundleAnswer returns the chunk of the symbol that d, a code document
// of file, a bundle, copies: the one symbol of the same kind whose name
// past its module is d's past the bundle's module and its wrapper's
// places (a UMD factory's `<callback of (…)>`), in a script that is no
// bundle; false when none is, or more than one file has one.
func (ix *Index) bundleAnswer(an *analyzer, d *doc, file string) (uint32, bool) {
	name := unrenamed(localName(d.title))
	if name == "" || strings.HasPrefix(name, "<") {
		return 0, false
	}
	inner := unwrapped(innerName(d.title, file))
	tid, ok := ix.nameTerm(an, name)
	if !ok {
		return 0, false
	}
	var best uint32
	bestFile := ""
	ambiguous := false
	ix.symbolPostings(tid, ix.deadChunks, func(oc, oid uint32, ofile, oname string) bool {
		if ofile == file || unrenamed(localName(oname)) != name {
			return true
		}
		od := ix.doc(oid)
		if od == nil || od.scope != d.scope || !sameKind(d, od) || unwrapped(innerName(od.title, ofile)) != inner || ix.bundle(ofile) {
			return true
		}
		if bestFile != "" && ofile != bestFile {
			ambiguous = true
			return false
		}
		if bestFile == "" {
			best, bestFile = oc, strings.Clone(ofile)
		}
		return true
	})
	return best, bestFile != "" && !ambiguous
}

// unwrapped is a qualified name without the places it starts with: a UMD
// bundle defines its modules inside its factory, `<callback of (…)>`.
func unwrapped(q string) string {
	for strings.HasPrefix(q, "<") {
		i := strings.Index(q, ">.")
		if i < 0 {
			break
		}
		q = q[i+2:]
	}
	return q
}
