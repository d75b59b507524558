package codeindex

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/fileinfo/fileinfo/artifacts"
	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/fixture"
	"github.com/fileinfo/fileinfo/internal/graphstore"
)

// readCounter counts the files extraction read, by path: the extractor's
// Read hook is called once per file it extracts.
type readCounter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *readCounter) read(rel string, _ []byte) {
	c.mu.Lock()
	c.n[rel]++
	c.mu.Unlock()
}

func (c *readCounter) take() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.n
	c.n = map[string]int{}
	return n
}

// writeTree writes n Go files under root, each calling the one before.
func writeTree(t testing.TB, root string, n int) []string {
	t.Helper()
	var paths []string
	for i := range n {
		p := fmt.Sprintf("f%03d.go", i)
		src := fmt.Sprintf("package p\n\n// F%d is number %d.\nfunc F%d() int {\n", i, i, i)
		if i > 0 {
			src += fmt.Sprintf("\treturn F%d() + 1\n}\n", i-1)
		} else {
			src += "\treturn 0\n}\n"
		}
		writeOld(t, filepath.Join(root, p), src)
		paths = append(paths, p)
	}
	return paths
}

// writeOld writes a file dated an hour back, as a checkout's: a file
// modified within the last seconds is hashed again (racily clean).
func writeOld(t testing.TB, file, src string) {
	t.Helper()
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(file, old, old); err != nil {
		t.Fatal(err)
	}
}

// TestSyncGraphExtractsOnce: `fileinfo index` needs every file's code
// documents and its record in the saved graph; SyncGraph extracts each
// file once for both (the code index and graph.bin used to extract it
// each on its own), and extracts again only what changed.
func TestSyncGraphExtractsOnce(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".artifacts", ".index")
	paths := writeTree(t, root, 20)
	ctx := context.Background()
	ix, err := docsearch.Open(ctx, fstest.MapFS{}, docsearch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	reads := &readCounter{n: map[string]int{}}
	gopt := graphstore.Options{Extract: extract.Options{Read: reads.read}, Batch: 3}
	// The code index is saved and handed over before the graph is
	// built: their peaks do not add up.
	indexed := 0
	st, snap, err := SyncGraph(ctx, ix, root, GraphOptions{Dir: dir, Graph: gopt, Indexed: func(got *docsearch.Index) {
		indexed++
		if got != ix || len(got.CodeFiles()) != 20 {
			t.Errorf("Indexed with %p of %d code files; want %p with all 20", got, len(got.CodeFiles()), ix)
		}
		if _, err := os.Stat(filepath.Join(dir, graphstore.FileName)); err == nil {
			t.Errorf("Indexed called after the graph was saved")
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if indexed != 1 {
		t.Errorf("Indexed called %d times; want once", indexed)
	}
	once := map[string]int{}
	for _, p := range paths {
		once[p] = 1
	}
	if got := reads.take(); !reflect.DeepEqual(got, once) {
		t.Errorf("files extracted: %v; want each once", got)
	}
	if st.Files != 20 || st.Read != 20 || st.Extracted != 20 {
		t.Errorf("stats %+v; want 20 files, all read and extracted", st)
	}
	if got := ix.CodeFiles(); !reflect.DeepEqual(got, paths) {
		t.Errorf("code files %q; want %q", got, paths)
	}
	if len(snap.Files) != 20 || len(snap.Graph().Edges()) < 19 {
		t.Errorf("graph of %d files, %d edges; want 20 files and every call", len(snap.Files), len(snap.Graph().Edges()))
	}
	for _, f := range []string{graphstore.FileName, graphstore.SymbolsFile, stampsFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("not left behind: %v", err)
		}
	}
	// A lookup after it reads the symbols index as it is.
	if s, err := graphstore.OpenSymbols(ctx, graphstore.Options{Root: root}); err != nil {
		t.Errorf("symbols index not current after SyncGraph: %v", err)
	} else {
		s.Close()
	}

	// Nothing changed: nothing is extracted.
	if st, _, err := SyncGraph(ctx, ix, root, GraphOptions{Dir: dir, Graph: gopt}); err != nil || st.Read != 0 {
		t.Errorf("again: %+v, %v; want nothing read", st, err)
	}
	if got := reads.take(); len(got) != 0 {
		t.Errorf("again, extracted %v; want nothing", got)
	}

	// One file changes: it alone is extracted, once, for both.
	writeOld(t, filepath.Join(root, paths[7]), "package p\n\nfunc Gauge() int { return F3() }\n")
	st, snap, err = SyncGraph(ctx, ix, root, GraphOptions{Dir: dir, Graph: gopt})
	if err != nil {
		t.Fatal(err)
	}
	if got := reads.take(); !reflect.DeepEqual(got, map[string]int{paths[7]: 1}) {
		t.Errorf("after an edit, extracted %v; want %s once", got, paths[7])
	}
	if st.Read != 1 {
		t.Errorf("after an edit: %+v; want 1 read", st)
	}
	res, err := ix.Search(ctx, docsearch.Query{Text: "Gauge", Scopes: []string{docsearch.ScopeCode}, Mode: docsearch.Lexical})
	if err != nil || !slices.ContainsFunc(res.Results, func(r docsearch.Result) bool { return r.Symbol == "Gauge" && r.Path == paths[7] }) {
		t.Errorf("the edited file's new function is not in the code index: %+v, %v", res.Results, err)
	}
}

// TestSyncGraphCodeOnlyChange: the code index wants a file the graph
// does not (its code documents are gone, the graph is current): its
// saved extraction feeds the code index, and nothing is extracted.
func TestSyncGraphCodeOnlyChange(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".artifacts", ".index")
	paths := writeTree(t, root, 5)
	ctx := context.Background()
	reads := &readCounter{n: map[string]int{}}
	gopt := graphstore.Options{Extract: extract.Options{Read: reads.read}}
	// The graph first, alone.
	if _, err := graphstore.Sync(ctx, graphstore.Options{Root: root, Extract: gopt.Extract}); err != nil {
		t.Fatal(err)
	}
	reads.take()
	ix, err := docsearch.Open(ctx, fstest.MapFS{}, docsearch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := SyncGraph(ctx, ix, root, GraphOptions{Dir: dir, Graph: gopt})
	if err != nil {
		t.Fatal(err)
	}
	if got := reads.take(); len(got) != 0 {
		t.Errorf("extracted %v; want nothing: the saved extractions serve", got)
	}
	if st.Read != 5 || !reflect.DeepEqual(ix.CodeFiles(), paths) {
		t.Errorf("stats %+v, code files %q; want all 5 indexed", st, ix.CodeFiles())
	}
}

// TestSyncGraphBoundedInFlight: what SyncGraph holds between extraction
// and the code index is one batch, whatever the tree's size: the most
// files rendered and not yet indexed is at most a batch on a tree of 16
// batches as on one of 4 (counts, not time or bytes).
func TestSyncGraphBoundedInFlight(t *testing.T) {
	const batch = 8
	peaks := map[int]int{}
	for _, n := range []int{4 * batch, 16 * batch} {
		root := t.TempDir()
		writeTree(t, root, n)
		ctx := context.Background()
		ix, err := docsearch.Open(ctx, fstest.MapFS{}, docsearch.Options{})
		if err != nil {
			t.Fatal(err)
		}
		peak := -1
		inFlightHook = func(files int) { peak = files }
		st, _, err := SyncGraph(ctx, ix, root, GraphOptions{Graph: graphstore.Options{Batch: batch, Dir: t.TempDir()}})
		inFlightHook = nil
		if err != nil {
			t.Fatal(err)
		}
		if st.Extracted != n || len(ix.CodeFiles()) != n {
			t.Fatalf("%d files: %+v, %d indexed", n, st, len(ix.CodeFiles()))
		}
		if peak < 1 || peak > batch {
			t.Errorf("%d files: at most %d in flight; want 1 to %d (a batch)", n, peak, batch)
		}
		peaks[n] = peak
	}
	t.Logf("most files in flight, by tree size: %v", peaks)
}

// TestStampsAsServe: the code documents `fileinfo index` and search
// make carry the stamp serve gives them (Stamp: the build, the source's
// digest, the artifact), so that serve started after them takes them as
// they are instead of rendering every file again (they carried 0).
func TestStampsAsServe(t *testing.T) {
	for _, graph := range []bool{false, true} {
		t.Run(fmt.Sprint("graph=", graph), func(t *testing.T) {
			root := t.TempDir()
			paths := writeTree(t, root, 3)
			ctx := context.Background()
			ix, err := docsearch.Open(ctx, fstest.MapFS{}, docsearch.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if graph {
				_, _, err = SyncGraph(ctx, ix, root, GraphOptions{Graph: graphstore.Options{Dir: t.TempDir()}})
			} else {
				_, err = Sync(ctx, ix, root, "", nil)
			}
			if err != nil {
				t.Fatal(err)
			}
			stamps := ix.CodeStamps()
			for _, p := range paths {
				src, err := os.ReadFile(filepath.Join(root, p))
				if err != nil {
					t.Fatal(err)
				}
				if want := Stamp(nil, p, artifacts.SourceDigest(src)); stamps[p] != want {
					t.Errorf("%s: stamp %d; want %d, as serve stamps it", p, stamps[p], want)
				}
			}
		})
	}
}

// BenchmarkSyncGraph measures `fileinfo index`'s pass from nothing on
// 200 small Go files: extraction, code documents, the code index, the
// graph and its two saved files.
func BenchmarkSyncGraph(b *testing.B) {
	root := b.TempDir()
	for i := range 200 {
		src := fmt.Sprintf("package p\n\n// F%d is number %d.\nfunc F%d() int { return %d }\n", i, i, i, i)
		if i > 0 {
			src = fmt.Sprintf("package p\n\n// F%d calls F%d.\nfunc F%d() int { return F%d() + 1 }\n", i, i-1, i, i-1)
		}
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("f%03d.go", i)), []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		ix, err := docsearch.Open(ctx, fstest.MapFS{}, docsearch.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := SyncGraph(ctx, ix, root, GraphOptions{Graph: graphstore.Options{Dir: b.TempDir()}}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSyncGraphThenSync: a search after `fileinfo index` (Sync after
// SyncGraph) finds the code scope as it left it, symbolic links to
// source files included (the graph follows them, the code scope does
// not): it reads nothing again and removes nothing.
func TestSyncGraphThenSync(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".artifacts", ".index")
	writeTree(t, root, 4)
	if err := os.Symlink("f001.go", filepath.Join(root, "link.go")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	ctx := context.Background()
	ix, err := docsearch.Open(ctx, fstest.MapFS{}, docsearch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := SyncGraph(ctx, ix, root, GraphOptions{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	files := ix.CodeFiles()
	st, err := Sync(ctx, ix, root, dir, nil)
	if err != nil || st.Read != 0 || st.Removed != 0 {
		t.Errorf("Sync after SyncGraph: %+v, %v; want nothing read or removed", st, err)
	}
	if got := ix.CodeFiles(); !reflect.DeepEqual(got, files) {
		t.Errorf("code files %q after Sync; SyncGraph left %q", got, files)
	}
}

// TestSyncGraphVendorExtractsOnce: the graph reads a vendor root it
// enters (third_party/ with a licence; vendor/ it leaves out), and the
// vendor scope's documents of those files come from that extraction, as
// the code scope's do, not from a second one by SyncVendor.
func TestSyncGraphVendorExtractsOnce(t *testing.T) {
	root := vendoredRepo(t)
	writeFiles(t, root, map[string]string{"third_party/zlib/dist/z.min.js": string(fixture.MinifiedJS(30 << 10))})
	dir := filepath.Join(root, ".artifacts", ".index")
	ctx := context.Background()
	ix, err := docsearch.Open(ctx, fstest.MapFS{}, docsearch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	reads := &readCounter{n: map[string]int{}}
	readHook = reads.read
	t.Cleanup(func() { readHook = nil })
	opt := GraphOptions{Dir: dir, Graph: graphstore.Options{Extract: extract.Options{Read: reads.read}}}
	st, _, err := SyncGraph(ctx, ix, root, opt)
	if err != nil {
		t.Fatal(err)
	}
	for p, n := range reads.take() {
		if n != 1 {
			t.Errorf("%s extracted %d times; want once", p, n)
		}
	}
	if got, want := ix.VendorFiles(), []string{"third_party/zlib/inflate.c", "vendor/github.com/acme/ratelimit/refill.go"}; !slices.Equal(got, want) {
		t.Errorf("vendor files %q, want %q", got, want)
	}
	if st.Vendor.Files != 3 || st.Vendor.Read != 3 || len(st.Vendor.Left) != 1 || st.Vendor.Left[0].Path != "third_party/zlib/dist/z.min.js" {
		t.Errorf("vendor stats %+v; want 3 files read, the minified one left out", st.Vendor)
	}
	zero := 0.0
	res, err := ix.Search(ctx, docsearch.Query{Text: "inflate deflate stream", Scopes: []string{docsearch.ScopeVendor}, MinScore: &zero})
	if err != nil || len(res.Results) == 0 || res.Results[0].Path != "third_party/zlib/inflate.c" {
		t.Errorf("vendor search: %+v, %v", res.Results, err)
	}

	// Nothing changed: nothing extracted (the minified file, which keeps
	// no stamp, as SyncVendor's did not, is judged by its name again).
	// The vendored file changes: it alone is extracted, once.
	if st, _, err = SyncGraph(ctx, ix, root, opt); err != nil || st.Vendor.Read != 1 {
		t.Errorf("unchanged: %+v, %v", st.Vendor, err)
	}
	if got := reads.take(); len(got) != 0 {
		t.Errorf("unchanged: extracted %v", got)
	}
	writeOld(t, filepath.Join(root, "third_party/zlib/inflate.c"), "/* inflate inflates a stream. */\nint inflate(void *strm) { return 1; }\n")
	if st, _, err = SyncGraph(ctx, ix, root, opt); err != nil || st.Vendor.Read != 2 {
		t.Errorf("after an edit: %+v, %v", st.Vendor, err)
	}
	if got, want := reads.take(), map[string]int{"third_party/zlib/inflate.c": 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("after an edit, extracted %v; want %v", got, want)
	}
}

// TestSyncGraphSearchableBeforeSaved: Searchable hears of the index once
// every code document is in it, before it is saved and Indexed is called,
// and a search then finds the code; in a tree with vendored code, whose
// scope is brought up to date after the save, it is not called.
func TestSyncGraphSearchableBeforeSaved(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".artifacts", ".index")
	writeTree(t, root, 20)
	ctx := context.Background()
	ix, err := docsearch.Open(ctx, fstest.MapFS{}, docsearch.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	opt := GraphOptions{Dir: dir,
		Searchable: func(got *docsearch.Index) {
			order = append(order, "searchable")
			if got != ix || len(got.CodeFiles()) != 20 {
				t.Errorf("Searchable with %p of %d code files; want %p with all 20", got, len(got.CodeFiles()), ix)
			}
			if _, err := os.Stat(filepath.Join(dir, "docsearch.idx")); err == nil {
				t.Error("Searchable called after the index was saved")
			}
			res, err := got.Search(ctx, docsearch.Query{Text: "F17", Scopes: []string{docsearch.ScopeCode}})
			if err != nil || len(res.Results) == 0 || !strings.Contains(res.Results[0].Title, "F17") {
				t.Errorf("search for F17 when searchable: %+v, %v; want F17 first", res.Results, err)
			}
		},
		Indexed: func(*docsearch.Index) { order = append(order, "indexed") },
	}
	if _, _, err := SyncGraph(ctx, ix, root, opt); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(order, []string{"searchable", "indexed"}) {
		t.Errorf("calls %v; want searchable, then indexed", order)
	}

	vroot := vendoredRepo(t)
	vix, err := docsearch.Open(ctx, fstest.MapFS{}, docsearch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	called := false
	vopt := GraphOptions{Dir: filepath.Join(vroot, ".artifacts", ".index"), Searchable: func(*docsearch.Index) { called = true }}
	if _, _, err := SyncGraph(ctx, vix, vroot, vopt); err != nil {
		t.Fatal(err)
	}
	if called {
		t.Error("Searchable called in a tree with vendored code")
	}
}
