package docsearch

import "strings"

// enclosersFirst lets a function or method take the place of a function
// nested in it that ranked before it, among the first copyWindow of
// ranked (in rank order), and reports whether any two changed places.
// The nested one spans at least half of its encloser's lines (mobx's
// flow, whose body is "const res = function () {…}"), or is an anonymous
// function (a callback, a returned function: "<callback of
// routerList.reduce>") in an encloser of at most maxEncloserLines. Such
// a function is part of what the encloser does, and matched the query
// by words that are the encloser's too; the encloser is what a caller
// calls and what a question about it names. A named function nested in
// a longer one (a Python closure, an inner helper) keeps its place: it
// may be the answer itself. So does a callback in a long function (a
// plugin's apply that registers a dozen hooks), which would hand the
// reader hundreds of lines for the few asked about. Each encloser
// changes places once, with the first function nested in it.
func (ix *Index) enclosersFirst(ranked []hit) bool {
	type fn struct {
		i         int
		file      string
		line, end uint32
		anonymous bool
	}
	var fns []fn
	for i := range ranked[:min(len(ranked), copyWindow)] {
		d := ix.doc(ix.chunkDoc(ranked[i].chunk))
		if d == nil || !isCodeScope(d.scope) {
			continue
		}
		if kind, _ := codeMeta(d.text); kind != "function" && kind != "method" {
			continue
		}
		rec := ix.chunk(ranked[i].chunk)
		fns = append(fns, fn{i, codeFileOf(d.path), rec.line, rec.end, strings.HasPrefix(localName(d.title), "<")})
	}
	changed := false
	swapped := make(map[int]bool)
	for k, outer := range fns {
		for _, in := range fns[:k] {
			if swapped[in.i] || in.file != outer.file || in.line < outer.line || in.end > outer.end || in.line == outer.line && in.end == outer.end {
				continue
			}
			if !spansHalf(in.line, in.end, outer.line, outer.end) && (!in.anonymous || outer.end-outer.line+1 > maxEncloserLines) {
				continue
			}
			a, b := &ranked[in.i], &ranked[outer.i]
			if a.fused > b.fused {
				a.fused, b.fused = b.fused, a.fused
				swapped[in.i], swapped[outer.i] = true, true
				changed = true
			}
			break
		}
	}
	return changed
}

// maxEncloserLines is the longest encloser that takes the place of a
// short anonymous function nested in it (enclosersFirst).
const maxEncloserLines = 120

// spansHalf reports whether lines [line, end], nested in lines [oline,
// oend], are at least half of them: most of the encloser's text.
func spansHalf(line, end, oline, oend uint32) bool { return 2*(end-line+1) >= oend-oline+1 }
