package codeindex

import (
	"runtime"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/internal/par"
)

// renderWorkers bounds the goroutines that render a batch's code
// documents: rendering is CPU-bound (splitting a file into lines,
// cutting each symbol's body), so one a core. A var for tests.
var renderWorkers = runtime.GOMAXPROCS(0)

// renderAll returns render(0), ..., render(n-1), in that order, made by
// up to renderWorkers goroutines; with one worker, or one item, on the
// caller's goroutine (the serial path, for profiling). The batch's
// documents were rendered on one goroutine while the other core idled:
// 0.7-1.0 of 44 CPU-s of a cold index of Linux 6.1's fs, include,
// kernel, lib and mm (docs/bigrepos.md, eleventh session). What is held
// is the batch's documents, as before: nothing is rendered ahead of the
// batch being indexed.
func renderAll(n int, render func(i int) docsearch.CodeFile) []docsearch.CodeFile {
	out := make([]docsearch.CodeFile, n)
	par.For(renderWorkers, n, func(i int) { out[i] = render(i) })
	return out
}
