package callgraph

import (
	"context"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/extract"
)

// TestCompleteResolvesNothing: the first Update of a restored graph
// re-resolves the files the change affects, not every file (complete
// rebuilds the index and keeps the saved results).
func TestCompleteResolvesNothing(t *testing.T) {
	root := writeArchive(t, updateCorpus)
	ex := newExtractor(t, root)
	files := extractAll(t, ex)
	r, err := Restore(files, Build(files).Save())
	if err != nil {
		t.Fatal(err)
	}
	r.PrepareUpdates()
	if r.Restored() || r.resolvedAll != 0 {
		t.Fatalf("PrepareUpdates of a restored graph: restored %v, resolved %d files; want false, 0", r.Restored(), r.resolvedAll)
	}
	const path = "js/c.js"
	full := filepath.Join(root, path)
	if err := os.WriteFile(full, []byte("export function c() { return 3 + 4; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := ex.File(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	r.Update([]extract.File{*f}, nil)
	if r.resolvedAll != 1 {
		t.Errorf("a body edit of a restored graph resolved %d files, want 1", r.resolvedAll)
	}
	if d := graphDiff(r, Build(extractAll(t, ex))); d != "" {
		t.Fatalf("restored graph's Update differs from Build:\n%s", d)
	}
}

// TestRestoredUpdatesEqualBuild edits, adds and removes files at random
// in graphs restored from what Build saved (every language of the update
// corpus; the C and Python cases: headers, prototypes, includes, flow),
// restoring anew now and then so that first Updates of a restored graph
// and later ones both run, and checks every step against a fresh Build.
func TestRestoredUpdatesEqualBuild(t *testing.T) { restoredUpdatesEqualBuild(t, keepCalls) }

// TestUpdatesLettingGoOfCallsEqualBuild is TestRestoredUpdatesEqualBuild
// on graphs that let go of their files' calls once ready for updates
// (LetGoOfCalls), given them back by a source of the current files'.
func TestUpdatesLettingGoOfCallsEqualBuild(t *testing.T) { restoredUpdatesEqualBuild(t, letGoOfCalls) }

// TestUpdatesRestoredWithoutCallsEqualBuild is TestRestoredUpdatesEqualBuild
// on graphs restored over files given without their calls (but the
// flow-tracked ones'), with their CallTokens, and prepared by
// PrepareUpdatesWithoutCalls, as a server's first edit streams the saved
// extractions.
func TestUpdatesRestoredWithoutCallsEqualBuild(t *testing.T) {
	restoredUpdatesEqualBuild(t, restoredWithoutCalls)
}

// How randomRestoredUpdates restores its graphs.
const (
	keepCalls            = iota // Restore over the full files
	letGoOfCalls                // then PrepareUpdates and LetGoOfCalls
	restoredWithoutCalls        // Restore over files without calls, PrepareUpdatesWithoutCalls
)

func restoredUpdatesEqualBuild(t *testing.T, letGo int) {
	corpora := map[string]string{"update": updateCorpus}
	for _, glob := range []string{"testdata/c/*.txtar", "testdata/python/*.txtar"} {
		paths, _ := filepath.Glob(glob)
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			corpora[strings.TrimSuffix(strings.TrimPrefix(p, "testdata/"), ".txtar")] = string(data)
		}
	}
	steps := 60
	if testing.Short() {
		steps = 12
	}
	names := slices.Sorted(maps.Keys(corpora))
	for i, name := range names {
		seed := uint64(i)
		if v, err := strconv.ParseUint(os.Getenv("FILEINFO_UPDATE_SEED"), 10, 64); err == nil {
			seed += v
		}
		t.Run(name, func(t *testing.T) { randomRestoredUpdates(t, corpora[name], steps, seed, letGo) })
	}
}

// randomRestoredUpdates runs steps random edits of the files of corpus
// on a graph restored from Build's save, checking each Update against a
// Build of the files it was given (the extractions of the other files
// are kept as they were: removing an __init__.py changes the module of
// its siblings' fresh extractions, which no Update was told of). With
// letGo, each graph restored lets go of its calls (LetGoOfCalls): only
// the files of flow-tracked languages hold theirs after every step.
func randomRestoredUpdates(t *testing.T, corpus string, steps int, seed uint64, letGo int) {
	root := writeArchive(t, corpus)
	ex := newExtractor(t, root)
	idents := identRE.FindAllString(corpus, -1)
	rng := rand.New(rand.NewPCG(seed, 4))
	current := map[string]extract.File{}
	for _, f := range extractAll(t, ex) {
		current[f.Path] = f
	}
	files := func() []extract.File { return slices.Collect(maps.Values(current)) }
	restore := func() *Graph {
		fs := files()
		saved := Build(fs).Save()
		tokens := map[string][]string{}
		if letGo == restoredWithoutCalls {
			for i := range fs {
				if !HoldsCalls(fs[i].Language) {
					tokens[fs[i].Path] = CallTokens(&fs[i])
					fs[i].Calls = nil
				}
			}
		}
		r, err := Restore(fs, saved)
		if err != nil {
			t.Fatal(err)
		}
		fetch := func(out []*extract.File) {
			for _, f := range out {
				if len(f.Calls) > 0 {
					t.Fatalf("%s given to fetch with its calls", f.Path)
				}
				f.Calls = slices.Clone(current[f.Path].Calls)
			}
		}
		switch letGo {
		case letGoOfCalls:
			r.PrepareUpdates()
			r.LetGoOfCalls(fetch)
		case restoredWithoutCalls:
			r.PrepareUpdatesWithoutCalls(tokens, fetch)
		}
		return r
	}
	flowFiles := func() int {
		n := 0
		for _, f := range current {
			if languageTraits[f.Language].flow && len(f.Calls) > 0 {
				n++
			}
		}
		return n
	}
	g := restore()
	for step := range steps {
		if rng.IntN(4) == 0 {
			g = restore()
		}
		p, what, removed := randomEdit(t, rng, root, g.Files(), idents, step, 2)
		var changed []extract.File
		if len(removed) == 0 {
			f, err := ex.File(context.Background(), p)
			if err != nil {
				t.Fatalf("step %d (%s): %v", step, what, err)
			}
			changed = append(changed, *f)
			current[p] = *f
		} else {
			delete(current, p)
		}
		g.Update(changed, removed)
		if diff := graphDiff(g, Build(files())); diff != "" {
			t.Fatalf("step %d (%s): Update of a restored graph differs from Build:\n%s", step, what, diff)
		}
		if held := g.CallsHeld(); letGo != keepCalls && held > flowFiles() {
			t.Fatalf("step %d (%s): %d files hold their calls, %d flow-tracked", step, what, held, flowFiles())
		}
	}
}
