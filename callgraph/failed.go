package callgraph

import (
	"fmt"
	"runtime"
	"sort"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// Skipped returns the files whose calls could not be resolved, with the
// reason, sorted by path: a bug that panicked while resolving one file
// costs that file's edges, never the graph. It never returns nil.
func (g *Graph) Skipped() []extract.Skipped {
	out := make([]extract.Skipped, 0, len(g.failed))
	for p, reason := range g.failed {
		out = append(out, extract.Skipped{Path: p, Reason: reason})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// testHookFile, when set by a test, runs before each file is resolved or
// tracked: a test makes it panic to stand for a bug.
var testHookFile func(path string)

// resolveSafe resolves f's calls; a panic leaves f without edges and
// records why in g.failed.
func (g *Graph) resolveSafe(r *resolver, f *extract.File) (res *fileResult) {
	defer func() {
		if v := recover(); v != nil {
			g.failed[f.Path] = panicReason("resolving calls", v)
			res = &fileResult{unique: map[string]bool{}}
		}
	}()
	if testHookFile != nil {
		testHookFile(f.Path)
	}
	return r.resolveFile(f)
}

// panicReason describes a recovered panic for a Skipped reason: what was
// under way, the value, and where in fileinfo it happened, for a bug
// report.
func panicReason(doing string, v any) string {
	reason := fmt.Sprintf("internal error while %s: %v", doing, v)
	pcs := make([]uintptr, 32)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	for {
		fr, more := frames.Next()
		if !strings.HasPrefix(fr.Function, "runtime.") && fr.File != "" {
			file := fr.File
			if i := strings.LastIndex(file, "/fileinfo/"); i >= 0 {
				file = file[i+len("/fileinfo/"):]
			}
			return fmt.Sprintf("%s (at %s:%d)", reason, file, fr.Line)
		}
		if !more {
			return reason
		}
	}
}
