package enrich

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// fullReport documents every symbol of f with placeholder prose, as a
// model answering the full prompt would.
func fullReport(f *extract.File) *Report {
	fs := newFacts(f, nil)
	docs := map[string]doc{}
	for _, s := range fs.syms {
		if s.role != roleContainer {
			docs[s.Qualified] = doc{purpose: "Does what " + s.local + " does.", implementation: "1. Work.\n2. Return."}
		}
	}
	r := canonical(fs, &Report{Overview: "A file."}, docs)
	return r
}

// extractOne extracts the Go file at rel in root, with its graph.
func extractGo(t testing.TB, root, rel string) (*extract.File, *callgraph.Graph) {
	t.Helper()
	ex, err := extract.New(root, extract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	files, _, err := ex.Files(context.Background(), []string{rel})
	if err != nil || len(files) != 1 {
		t.Fatalf("extract %s: %v", rel, err)
	}
	return &files[0], callgraph.Build(files)
}

// editBody inserts a statement as the first line of the body of the
// callable whose declaration line is decl (1-based).
func editBody(src []byte, decl int) []byte {
	lines := strings.SplitAfter(string(src), "\n")
	out := slices.Concat(lines[:decl], []string{"\t_ = 0 // edited\n"}, lines[decl:])
	return []byte(strings.Join(out, ""))
}

// TestIncrementalAsksOnlyChanged documents a file, edits one method,
// and checks that what changed is that method alone (the symbols after
// it moved down a line, which is not a change) and that the prompt asks
// about it with its source while the rest is listed with its purpose.
func TestIncrementalAsksOnlyChanged(t *testing.T) {
	r := loadArchive(t, "split.txtar")
	f, src := r.file(t, "store/store.go")
	rep := fullReport(f)
	then := Stamp(f, r.graph, src, Digests{}, rep)
	if c := Compare(f, then, SymbolDigests(f, r.graph, src)); !c.None() {
		t.Fatalf("changes without an edit: %+v", c)
	}
	var decl int
	for _, s := range f.Symbols {
		if s.Name == "New" {
			decl = s.StartLine
		}
	}
	root := t.TempDir()
	edited := editBody(src, decl)
	for p, data := range r.src {
		if p == "store/store.go" {
			data = edited
		}
		os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(root, p), data, 0o644)
	}
	f2, g2 := extractGo(t, root, "store/store.go")
	c := Compare(f2, then, SymbolDigests(f2, g2, edited))
	if !slices.Equal(c.Source, []string{"New"}) || c.FileLevel {
		t.Fatalf("changes = %+v; want New alone", c)
	}
	p, err := sharedBuilder().Incremental(f2, g2, edited, rep, c.Source, c.FileLevel, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p == nil {
		full, _ := sharedBuilder().Prompt(f2, g2, edited, Options{})
		t.Fatalf("no incremental prompt; the full one is %d tokens", full.Tokens)
	}
	for _, want := range []string{"_ = 0 // edited", "Does what Store.Len does.", "report_file_info", `"store/store.go"`} {
		if !strings.Contains(p.Text, want) {
			t.Errorf("incremental prompt lacks %q:\n%s", want, p.Text)
		}
	}
	if strings.Contains(p.Text, "return len(s.m)") || !slices.Equal(p.Symbols, []string{"New"}) {
		t.Errorf("incremental prompt shows unchanged source or asks about %q:\n%s", p.Symbols, p.Text)
	}
	// Reporting New alone stamps it: nothing is changed any more, and
	// the others kept the digests of the prose they have.
	now := Stamp(f2, g2, edited, then, &Report{Path: f2.Path, Functions: []Function{{Name: "New", Purpose: "Makes one.", Implementation: "1. Make."}}})
	if c := Compare(f2, now, SymbolDigests(f2, g2, edited)); !c.None() {
		t.Errorf("changes after the report: %+v", c)
	}
	// A report that leaves New out leaves it changed.
	now = Stamp(f2, g2, edited, then, &Report{Path: f2.Path, Overview: "Still a store."})
	if c := Compare(f2, now, SymbolDigests(f2, g2, edited)); !slices.Equal(c.Source, []string{"New"}) {
		t.Errorf("changes after a report without New: %+v", c)
	}
}

// incrementalRatio documents a real file, edits one function in its
// middle, and returns the incremental prompt's tokens over the full
// prompt's.
func incrementalRatio(t testing.TB, path string) float64 {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Skip(err)
	}
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "f.go"), src, 0o644)
	f, g := extractGo(t, root, "f.go")
	rep := fullReport(f)
	then := Stamp(f, g, src, Digests{}, rep)
	lines := strings.Split(string(src), "\n")
	var funcs []extract.Symbol
	for _, s := range f.Symbols {
		if s.Kind == extract.KindFunction && s.EndLine > s.StartLine+2 && strings.HasSuffix(lines[s.StartLine-1], "{") {
			funcs = append(funcs, s)
		}
	}
	if len(funcs) == 0 {
		t.Fatalf("%s: no function to edit", path)
	}
	fn := funcs[len(funcs)/2]
	edited := editBody(src, fn.StartLine)
	os.WriteFile(filepath.Join(root, "f.go"), edited, 0o644)
	f2, g2 := extractGo(t, root, "f.go")
	c := Compare(f2, then, SymbolDigests(f2, g2, edited))
	if !slices.Equal(c.Source, []string{fn.Name}) {
		t.Fatalf("%s: changes %+v; want %s alone", path, c, fn.Name)
	}
	b := sharedBuilder()
	pl, err := b.plan(f2, g2, edited, Options{}.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	p, err := b.Incremental(f2, g2, edited, rep, c.Source, c.FileLevel, Options{})
	if err != nil || p == nil {
		t.Fatalf("%s: Incremental = %v, %v", path, p, err)
	}
	return float64(p.Tokens) / float64(pl.total)
}

// realFiles are three files of the Go distribution, of 470 to 1,300
// lines, to measure incremental prompts on.
var realFiles = []string{"strings/strings.go", "net/http/cookie.go", "encoding/csv/reader.go"}

// TestIncrementalRealFiles: after a one-function edit, the prompt is at
// most a quarter of the full one (counted in tokens, deterministic).
func TestIncrementalRealFiles(t *testing.T) {
	for _, rel := range realFiles {
		ratio := incrementalRatio(t, filepath.Join(runtime.GOROOT(), "src", rel))
		t.Logf("%s: incremental prompt is %.1f%% of the full one", rel, 100*ratio)
		if ratio > 0.25 {
			t.Errorf("%s: incremental prompt is %.1f%% of the full one; want at most 25%%", rel, 100*ratio)
		}
	}
}

func BenchmarkIncremental(b *testing.B) {
	for _, rel := range realFiles {
		b.Run(filepath.Base(rel), func(b *testing.B) {
			var ratio float64
			for b.Loop() {
				ratio = incrementalRatio(b, filepath.Join(runtime.GOROOT(), "src", rel))
			}
			b.ReportMetric(100*ratio, "%-of-full")
		})
	}
}
