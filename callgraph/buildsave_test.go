package callgraph

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/extract"
)

// saveDiff describes how the answers of got, built by BuildToSave,
// differ from those of want, built by Build over the same files: every
// read but those that read the files' extractions (Signature,
// References), which BuildToSave lets go of.
func saveDiff(got, want *Graph) string {
	var b strings.Builder
	b.WriteString(indexDiff(got, want))
	if !reflect.DeepEqual(got.Save(), want.Save()) {
		b.WriteString("Save differs\n")
	}
	for _, p := range want.Files() {
		if !reflect.DeepEqual(got.UnresolvedIn(p), want.UnresolvedIn(p)) {
			fmt.Fprintf(&b, "UnresolvedIn(%s) differs\n", p)
		}
	}
	return b.String()
}

// buildToSave builds files with BuildToSave, the files' calls in them
// and then from a source that checks they are never all held, and with
// Build; checks they answer alike and that BuildToSave let go of the
// calls and symbols of the files it took over (a copy of files); and
// returns its graph.
func buildToSave(t *testing.T, files []extract.File) *Graph {
	t.Helper()
	want := Build(files)
	var got *Graph
	for _, source := range []bool{false, true} {
		taken := slices.Clone(files)
		var calls func(string) ([]extract.Call, error)
		if source {
			calls = callSource(t, files, taken)
		}
		g, err := BuildToSave(context.Background(), taken, calls)
		if err != nil {
			t.Fatal(err)
		}
		checkBuiltToSave(t, g, want, files, taken)
		got = g
	}
	return got
}

// callSource returns a source of the calls of files, whose copies taken
// BuildToSave holds without their calls. It fails t when a file is
// asked for twice, or when more files hold their calls than the
// flow-tracked ones and the one asked for.
func callSource(t *testing.T, files, taken []extract.File) func(string) ([]extract.Call, error) {
	byPath := map[string][]extract.Call{}
	flowFiles := 0
	for i, f := range files {
		byPath[f.Path] = f.Calls
		taken[i].Calls = nil
		if languageTraits[f.Language].flow {
			flowFiles++
		}
	}
	asked := map[string]bool{}
	return func(path string) ([]extract.Call, error) {
		if asked[path] {
			t.Errorf("calls of %s asked for twice", path)
		}
		asked[path] = true
		held := 0
		for _, f := range taken {
			if f.Calls != nil {
				held++
			}
		}
		if held > flowFiles {
			t.Errorf("asked for %s: %d files hold their calls, %d flow-tracked", path, held, flowFiles)
		}
		return byPath[path], nil
	}
}

// checkBuiltToSave checks got, built by BuildToSave over taken, a copy
// of files, against want, built by Build over files.
func checkBuiltToSave(t *testing.T, got, want *Graph, files, taken []extract.File) {
	t.Helper()
	if d := saveDiff(got, want); d != "" {
		t.Fatalf("the graph built to save differs from Build's:\n%s", d)
	}
	for i, f := range taken {
		if f.Calls != nil || f.Symbols != nil || f.Imports != nil || f.Bindings != nil {
			t.Fatalf("%s: BuildToSave kept its calls, symbols, imports or bindings", f.Path)
		}
		if o := files[i]; f.Path != o.Path || f.Language != o.Language || f.Module != o.Module || f.Test != o.Test {
			t.Fatalf("%s: BuildToSave changed its identity", f.Path)
		}
	}
	if got.ix != nil || got.bindings != nil || got.parsed != nil || got.importers != nil {
		t.Error("BuildToSave kept the resolution index or the Go bindings")
	}
	for p, res := range got.results {
		if res.calls != nil || res.unique != nil {
			t.Fatalf("%s: BuildToSave kept the calls' indexes or the names looked up", p)
		}
	}
}

// TestBuildToSaveCallsFail: a source of calls that fails ends the build
// with its error.
func TestBuildToSaveCallsFail(t *testing.T) {
	files := extractAll(t, newExtractor(t, writeArchive(t, updateCorpus)))
	bad := errors.New("segment 3: checksum mismatch")
	taken := slices.Clone(files)
	for i := range taken {
		taken[i].Calls = nil
	}
	n := 0
	g, err := BuildToSave(context.Background(), taken, func(string) ([]extract.Call, error) {
		if n++; n == 3 {
			return nil, bad
		}
		return nil, nil
	})
	if g != nil || !errors.Is(err, bad) {
		t.Fatalf("graph %v, error %v; want %v", g != nil, err, bad)
	}
	if n != 3 {
		t.Errorf("asked %d times; want 3, the last failing", n)
	}
}

// TestBuildToSaveAnswersAsBuild builds the update corpus (Go, Python,
// JavaScript, Java, C#, Kotlin, Rust, C) both ways and compares every
// read; the unresolved calls, kept as records once their file is
// resolved, are the same.
func TestBuildToSaveAnswersAsBuild(t *testing.T) {
	files := extractAll(t, newExtractor(t, writeArchive(t, updateCorpus)))
	g := buildToSave(t, files)
	if g.NumUnresolved() == 0 || len(g.Edges()) == 0 {
		t.Fatalf("%d edges, %d unresolved: the corpus exercises neither", len(g.Edges()), g.NumUnresolved())
	}
}

func TestBuildToSaveXTools(t *testing.T) {
	if testing.Short() {
		t.Skip("extracts golang.org/x/tools")
	}
	buildToSave(t, xtoolsFiles(t))
}

// TestBuildToSaveNoUpdate: a graph built to save keeps no resolution
// state; an Update of it is a bug, said so, not a wrong graph.
func TestBuildToSaveNoUpdate(t *testing.T) {
	files := extractAll(t, newExtractor(t, writeArchive(t, updateCorpus)))
	g, err := BuildToSave(context.Background(), slices.Clone(files), nil)
	if err != nil {
		t.Fatal(err)
	}
	g.PrepareUpdates() // nothing to prepare, no panic
	defer func() {
		if v := recover(); v == nil || !strings.Contains(fmt.Sprint(v), "BuildToSave") {
			t.Errorf("Update of a graph built to save: recovered %v", v)
		}
	}()
	g.Update(files[:1], nil)
}

// TestBuildToSaveCancels: a cancelled build returns the context's error.
func TestBuildToSaveCancels(t *testing.T) {
	files := extractAll(t, newExtractor(t, writeArchive(t, updateCorpus)))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if g, err := BuildToSave(ctx, slices.Clone(files), nil); err == nil || g != nil {
		t.Fatalf("cancelled: graph %v, error %v", g != nil, err)
	}
}

// heldBy returns the heap bytes live after build returns, with the files
// it was given (a caller's copy of files, made deep enough that letting
// go of one's calls and symbols frees them) still held.
func heldBy(files []extract.File, build func([]extract.File) *Graph) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	taken := make([]extract.File, len(files))
	for i, f := range files {
		f.Calls = slices.Clone(f.Calls)
		f.Symbols = slices.Clone(f.Symbols)
		f.Imports = slices.Clone(f.Imports)
		f.Bindings = slices.Clone(f.Bindings)
		taken[i] = f
	}
	g := build(taken)
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(g)
	runtime.KeepAlive(taken)
	return after.HeapAlloc - before.HeapAlloc
}

// TestBuildToSaveHoldsLess: with its caller's files still held, a graph
// built to save keeps less of the heap live than Build's, which keeps
// the files' calls and symbols and the resolution state.
// golang.org/x/tools: Build 33.6 MB, BuildToSave 7.5 MB (the graph's
// strings are the files').
func TestBuildToSaveHoldsLess(t *testing.T) {
	if testing.Short() {
		t.Skip("extracts golang.org/x/tools")
	}
	files := xtoolsFiles(t)
	built := heldBy(files, Build)
	toSave := heldBy(files, func(fs []extract.File) *Graph {
		g, err := BuildToSave(context.Background(), fs, nil)
		if err != nil {
			t.Fatal(err)
		}
		return g
	})
	t.Logf("held: Build %.1f MB, BuildToSave %.1f MB", float64(built)/(1<<20), float64(toSave)/(1<<20))
	if toSave*2 > built {
		t.Errorf("BuildToSave held %d bytes, Build %d: want under half", toSave, built)
	}
}
