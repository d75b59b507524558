package callgraph

import "github.com/fileinfo/fileinfo/extract"

// Letting go of calls: a graph kept for updates holds every file's
// extraction, and the calls are most of it (on the Linux kernel most of
// the 830 MB of extractions a server held after its first edit, see
// docs/bigrepos.md), yet an update reads the calls of the files it
// re-resolves only. A graph given a source of calls (LetGoOfCalls)
// keeps each file's calls only while it resolves them.

// LetGoOfCalls drops the calls of g's files, which the files given to
// Build or Restore lose too, and has fetch put them back into the files
// an update re-resolves, before it resolves them; once resolved, their
// calls are let go of again. fetch is given the files at once, with no
// calls, and must put in each the calls of its extraction as g holds it
// (the same content); it runs under the Update that calls it. Files of a
// flow-tracked language (Python: every one is read when one is
// re-resolved) keep theirs, as do files set by later updates until they
// are resolved. The token index is built first (PrepareUpdates), as it
// reads every file's calls. A graph restored and not completed, or built
// to be saved, is left as it is.
func (g *Graph) LetGoOfCalls(fetch func([]*extract.File)) {
	if g.toSave || g.Restored() {
		return
	}
	g.indexTokens()
	g.dropCalls(nil, fetch)
}

// dropCalls lets go of the calls of g's files (but those of a
// flow-tracked language), settling the resolved ones' unresolved calls
// first (see settle), and has fetch put them back when re-resolved. A
// file named in dropped lost its calls before g was given it.
func (g *Graph) dropCalls(dropped map[string][]string, fetch func([]*extract.File)) {
	if g.callsOut == nil {
		g.callsOut = map[string]bool{}
	}
	for p, f := range g.files {
		_, out := dropped[p]
		if languageTraits[f.Language].flow || !out && len(f.Calls) == 0 {
			continue
		}
		if res := g.results[p]; res != nil && len(f.Calls) > 0 {
			g.settle(f, res)
		}
		f.Calls = nil
		g.callsOut[p] = true
	}
	g.fetchCalls = fetch
}

// CallsHeld returns how many files of g hold their calls, for tests.
func (g *Graph) CallsHeld() int {
	n := 0
	for _, f := range g.files {
		if len(f.Calls) > 0 {
			n++
		}
	}
	return n
}

// refetch puts back, through fetchCalls, the calls of the files at paths
// that LetGoOfCalls or an earlier resolution let go of.
func (g *Graph) refetch(paths []string) {
	if g.fetchCalls == nil {
		return
	}
	var out []*extract.File
	for _, p := range paths {
		if g.callsOut[p] {
			out = append(out, g.files[p])
			delete(g.callsOut, p)
		}
	}
	if len(out) > 0 {
		g.fetchCalls(out)
	}
}

// letGo drops the calls of the file at p once resolved, keeping its
// unresolved calls as records (see settle), when g has a source of calls.
func (g *Graph) letGo(p string) {
	f := g.files[p]
	if g.fetchCalls == nil || languageTraits[f.Language].flow || len(f.Calls) == 0 {
		return
	}
	g.settle(f, g.results[p])
	g.callsOut[p] = true
}

// CallTokens returns what the token index holds of f (the identifiers
// resolving its calls can look up), for a file whose calls are dropped
// before it is given to Restore (see PrepareUpdatesWithoutCalls).
func CallTokens(f *extract.File) []string { return fileTokens(f) }

// HoldsCalls reports whether a graph that lets go of its files' calls
// keeps those of a file of language: a flow-tracked one, every file of
// which is read when one is re-resolved.
func HoldsCalls(language string) bool { return languageTraits[language].flow }

// PrepareUpdatesWithoutCalls is PrepareUpdates then LetGoOfCalls(fetch)
// for a graph restored over files given without their calls (but those
// of the files whose language HoldsCalls), so that no caller holds every
// file's calls at once: on the Linux kernel decoding every extraction
// whole before letting go of the calls was most of 0.8 GB of the first
// edit's peak (docs/bigrepos.md). tokens holds CallTokens of each such
// file's full extraction, by path; a file it does not name is indexed
// from what it holds, and lets go of its calls as LetGoOfCalls does.
// The files named in tokens are given to fetch when re-resolved.
func (g *Graph) PrepareUpdatesWithoutCalls(tokens map[string][]string, fetch func([]*extract.File)) {
	if g.toSave {
		return
	}
	if g.Restored() {
		g.complete()
	}
	g.indexTokensGiven(tokens)
	g.dropCalls(tokens, fetch)
}
