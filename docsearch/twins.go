package docsearch

import (
	"path"
	"slices"
	"strings"
)

// Twin trees. An npm package often ships its modules several times, one
// directory per module format, each file at the same place in each:
// underscore 1.13 has modules/debounce.js (the ES source), amd/debounce.js
// and cjs/debounce.js; ejs 7 has lib/esm/ejs.js and lib/cjs/ejs.js; a
// Babel package has src/ and lib/. No source map says which is the copy,
// the directories are not named as builds (buildRoot), and the copies
// start near the same line, so demoteCopies kept whichever ranked first
// and sourceOf answered the source by the copy one line nearer the top.
// So a JavaScript or TypeScript file in a directory named for a module
// format is a built copy (builtCopy) when a sibling directory named as
// more of a source holds the same file, by its path past the two, or,
// but for lib/, when a sibling named as the source (src/, modules/) holds
// scripts at all: redux 4 ships src/*.js and their bundle es/redux.js,
// which no path pairs.
//
// A package may also ship its formats side by side, in one directory:
// date-fns 3 has addDays.mjs (its ES module) and addDays.js (the same
// compiled to CommonJS) for each of its functions, a package of "type":
// "module" index.js beside index.cjs, a tsc build in place parser.ts
// beside parser.js. Each function came twice in the first results, the
// two texts differing in what the compiler rewrote (`(0,
// _index.toDate)(date)` for `toDate(date)`), so no copy rule met them.
// So a script is a copy of the file of the same name in its directory
// whose extension says more of a source (sameDirRanks), when that file
// holds at least half as many code documents: an ES wrapper's
// index.mjs, which imports index.js and exports its names again, is no
// source of it.

// formatRanks are the directory names that say a module format, by how
// much of a source a directory of that name holds: rank 0 (the first
// row) the source; the higher, the more a build's output. A name not
// here says nothing of a format (a package's or a feature's, or a
// platform's: axios's lib/platform/node/ and browser/ hold two
// implementations, not one twice), and is never a copy by its name nor
// a source by it; lib is here, as Babel and tsc write their CommonJS
// into it beside src/.
var formatRanks = [][]string{
	{"src", "source", "sources", "modules"},
	{"esm", "es", "es6", "es2015", "es2017", "es2018", "es2020", "esnext", "mjs", "module"},
	{"lib"},
	{"cjs", "commonjs", "cjs5"},
	{"amd", "umd", "system", "systemjs", "iife", "es5", "esm5"},
}

// formatRank returns the rank of a directory name in formatRanks, and
// false when it names no format.
func formatRank(dir string) (rank int, ok bool) {
	lower := strings.ToLower(dir)
	for r, names := range formatRanks {
		if slices.Contains(names, lower) {
			return r, true
		}
	}
	return 0, false
}

// sameDirRanks are script extensions by how much of a source a file of
// that extension is beside one of the same name in the same directory:
// rank 0 the source (TypeScript), then the ES module (.mjs; .js beside a
// .cjs), then CommonJS. A .jsx is not ranked: beside a .js of its name
// it is more likely the source, and nothing here says so.
var sameDirRanks = [][]string{{".ts", ".tsx", ".mts", ".cts"}, {".mjs"}, {".js"}, {".cjs"}}

// sameDirRank returns the rank of a script's extension in sameDirRanks,
// and false when it has none.
func sameDirRank(file string) (int, bool) {
	ext := strings.ToLower(path.Ext(file))
	for r, exts := range sameDirRanks {
		if slices.Contains(exts, ext) {
			return r, true
		}
	}
	return 0, false
}

// scriptExts are the extensions of the files a twin is looked for among:
// a format's copy may be .js, .mjs or .cjs of a .ts source.
var scriptExts = []string{".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".cts"}

// scriptStem returns file without its script extension, and whether it
// has one.
func scriptStem(file string) (string, bool) {
	ext := strings.ToLower(path.Ext(file))
	for _, e := range scriptExts {
		if ext == e && !strings.HasSuffix(strings.ToLower(file), ".d"+e) {
			return file[:len(file)-len(ext)], true
		}
	}
	return "", false
}

// twinCopy reports whether file is a module format's copy of a file kept
// beside it or in a sibling directory named as more of a source (see
// above). ix.mu is held for reading.
func (ix *Index) twinCopy(file string) bool { return ix.twinSourceOf(file) != "" }

// twinSourceOf returns twinSource's answer for file, kept until the code
// changes (builds): a search asks it of each candidate, and sourceOf of
// each build's copy among the first results. ix.mu is held for reading.
func (ix *Index) twinSourceOf(file string) string {
	b := &ix.builds
	b.mu.Lock()
	src, known := b.sources[file]
	b.mu.Unlock()
	if known {
		return src
	}
	if stem, ok := scriptStem(file); ok {
		src = ix.twinSource(file, stem)
	}
	b.mu.Lock()
	if b.sources == nil {
		b.sources = map[string]string{}
	}
	b.sources[strings.Clone(file)] = src
	b.mu.Unlock()
	return src
}

// memo returns (*m)[key], worked out by compute and kept first when it is
// not known. compute runs without b.mu held, so it may ask b again.
func (b *builds) memo(m *map[string]bool, key string, compute func() bool) bool {
	b.mu.Lock()
	v, known := (*m)[key]
	b.mu.Unlock()
	if known {
		return v
	}
	v = compute()
	b.mu.Lock()
	if *m == nil {
		*m = map[string]bool{}
	}
	(*m)[strings.Clone(key)] = v
	b.mu.Unlock()
	return v
}

// twinSource returns the source of file, a script whose path less
// extension is stem, when it is a twin's copy (see twinCopy): the script
// of its name beside it that sameDirSource gives, or the path of the same
// script past a sibling of a lower formatRank of some directory of its
// path named for a format, or else, for a directory other than lib/, such
// a sibling named as the source (src/, ending in "/") that holds scripts,
// or else the script a mirror of its directory's parent copies
// (mirrorSource); "" when there is none.
func (ix *Index) twinSource(file, stem string) string {
	if src := ix.sameDirSource(file, stem); src != "" {
		return src
	}
	parts := strings.Split(stem, "/")
	for i, dir := range parts[:len(parts)-1] {
		rank, ok := formatRank(dir)
		if !ok || rank == 0 {
			continue
		}
		parent := strings.Join(parts[:i], "/")
		if parent != "" {
			parent += "/"
		}
		rest := strings.Join(parts[i+1:], "/")
		for _, names := range formatRanks[:rank] {
			for _, sib := range names {
				if src := ix.script(parent + sib + "/" + rest); src != "" {
					return src
				}
			}
		}
		// A bundle of the sources (redux's es/redux.js of src/*.js) has
		// no twin by path; a directory named as the source beside it
		// says what it is. Not for lib/, which many a repository writes
		// by hand beside its src/.
		if strings.EqualFold(dir, "lib") {
			continue
		}
		for _, sib := range formatRanks[0] {
			if ix.hasScripts(parent + sib + "/") {
				return parent + sib + "/"
			}
		}
	}
	return ix.mirrorSource(stem)
}

// sameDirSource returns the source of file, whose path less extension
// is stem, in its own directory: the script of stem's name with an
// extension of the lowest rank in sameDirRanks below file's own that
// holds at least half as many code documents; "" when there is none.
func (ix *Index) sameDirSource(file, stem string) string {
	rank, ok := sameDirRank(file)
	if !ok || rank == 0 {
		return ""
	}
	docs := map[string]int{} // by script of stem's name
	for key, id := range ix.pathsUnder(stem + ".") {
		if f := codeFileOf(key); isCodeScope(ix.docScope(id)) {
			if s, ok := scriptStem(f); ok && s == stem {
				docs[f]++
			}
		}
	}
	src, srcRank := "", rank
	for f, n := range docs {
		if r, ok := sameDirRank(f); ok && r < rank && 2*n >= docs[file] && (r < srcRank || r == srcRank && f < src) {
			src, srcRank = f, r
		}
	}
	return src
}

// hasScripts reports whether the index holds code of a script under the
// directory dir (a slash path ending in "/"). The answer is kept until
// the code changes (builds): every file of a format's directory asks it
// of the same sibling, whose walk may be long when it holds no script.
func (ix *Index) hasScripts(dir string) bool {
	return ix.builds.memo(&ix.builds.scripts, dir, func() bool {
		for key, id := range ix.pathsUnder(dir) {
			if _, ok := scriptStem(codeFileOf(key)); ok && isCodeScope(ix.docScope(id)) {
				return true
			}
		}
		return false
	})
}

// script returns the file of code the index holds whose path less
// extension is stem, or "".
func (ix *Index) script(stem string) string {
	for key, id := range ix.pathsUnder(stem + ".") {
		if f := codeFileOf(key); isCodeScope(ix.docScope(id)) {
			if s, ok := scriptStem(f); ok && s == stem {
				return f
			}
		}
	}
	return ""
}
