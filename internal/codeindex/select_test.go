package codeindex

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/internal/fixture"
)

// bucketGo is a vendored library's file: over minCopyBytes, so that a
// copy of it is one.
const bucketGo = `package ratelimit

// Allow takes a token from the token bucket of key: a token bucket
// refills at a fixed rate, and a request is allowed while it holds one.
func Allow(key string) bool {
	b := buckets[key]
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
`

// writeFiles writes files (slash path -> text) under root.
func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// vendoredRepo is a Go module that vendors a library, vendors C code
// under third_party with its licence, has a directory named external of
// its own, an unmarked vendor directory deeper down, a minified bundle
// and a copy of one of its files.
func vendoredRepo(t *testing.T) string {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod":             "module example.com/shop\n\ngo 1.22\n",
		"main.go":            "package main\n\n// main serves the shop.\nfunc main() { serve() }\n",
		"vendor/modules.txt": "# github.com/acme/ratelimit v1.0.0\n## explicit\ngithub.com/acme/ratelimit\n",
		"vendor/github.com/acme/ratelimit/bucket.go": bucketGo,
		"vendor/github.com/acme/ratelimit/refill.go": "package ratelimit\n\n// Refill adds the tokens of the time passed.\nfunc Refill(b *Bucket) { b.tokens += rate }\n",
		"third_party/zlib/LICENSE":                   "zlib licence\n",
		"third_party/zlib/inflate.c":                 "/* inflate decompresses a deflate stream. */\nint inflate(void *strm, int flush) { return 0; }\n",
		"external/tool.go":                           "package external\n\n// Run runs the external tool.\nfunc Run() {}\n",
		"web/vendor/jquery/helper.js":                "function helper() { return 1; }\n",
		"internal/limit/bucket.go":                   bucketGo,
		"web/dist/app.min.js":                        string(fixture.MinifiedJS(20 << 10)),
	})
	return root
}

func TestSelect(t *testing.T) {
	root := vendoredRepo(t)
	sel, err := Select(context.Background(), root, SelectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantCode := []string{"external/tool.go", "internal/limit/bucket.go", "main.go", "web/dist/app.min.js"}
	if !slices.Equal(sel.Code, wantCode) {
		t.Errorf("code %q, want %q", sel.Code, wantCode)
	}
	wantVendor := []string{"third_party/zlib/inflate.c", "vendor/github.com/acme/ratelimit/refill.go"}
	if !slices.Equal(sel.Vendor, wantVendor) {
		t.Errorf("vendor %q, want %q", sel.Vendor, wantVendor)
	}
	wantRoots := []VendorRoot{{"third_party", "a licence (LICENSE)", 1}, {"vendor", "Go's vendor/modules.txt", 1}}
	if !slices.Equal(sel.Roots, wantRoots) {
		t.Errorf("roots %+v, want %+v", sel.Roots, wantRoots)
	}
	wantLeft := []docsearch.Skipped{{Path: "vendor/github.com/acme/ratelimit/bucket.go", Reason: "exact copy of internal/limit/bucket.go: read once, as internal/limit/bucket.go"}}
	if !slices.Equal(sel.Left, wantLeft) {
		t.Errorf("left %+v, want %+v", sel.Left, wantLeft)
	}
}

// TestSelectYieldsBeforeReads: Select calls Yield before each file it
// reads to compare copies (the two of bucketGo's size), and the
// selection is the same as without it.
func TestSelectYieldsBeforeReads(t *testing.T) {
	root := vendoredRepo(t)
	want, err := Select(context.Background(), root, SelectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	yields := 0
	got, err := Select(context.Background(), root, SelectOptions{Yield: func() { yields++ }})
	if err != nil {
		t.Fatal(err)
	}
	if yields != 2 {
		t.Errorf("Yield called %d times; want 2, once before each read", yields)
	}
	if !slices.Equal(got.Code, want.Code) || !slices.Equal(got.Vendor, want.Vendor) || !slices.Equal(got.Left, want.Left) {
		t.Errorf("with Yield: %+v; without: %+v", got, want)
	}
}

// TestVendorRoots checks what makes a directory vendored.
func TestVendorRoots(t *testing.T) {
	for _, tc := range []struct {
		name  string
		paths []string
		want  map[string]string
	}{
		{"go modules", []string{"vendor/modules.txt", "vendor/golang.org/x/net/http2/frame.go"}, map[string]string{"vendor": "Go's vendor/modules.txt"}},
		{"pip _vendor", []string{"src/pip/_vendor/vendor.txt", "src/pip/_vendor/six.py"}, map[string]string{"src/pip/_vendor": "a vendor.txt list"}},
		{"licence a level down", []string{"deps/third_party/abseil/LICENSE", "deps/third_party/abseil/str.cc"}, map[string]string{"deps/third_party": "a licence (LICENSE)"}},
		{"manifest a level down", []string{"extern/glfw/CMakeLists.txt", "extern/mylib/package.json"}, map[string]string{"extern": "a manifest (package.json)"}},
		{"outermost", []string{"third_party/LICENSE", "third_party/x/vendor/modules.txt"}, map[string]string{"third_party": "a licence (LICENSE)"}},
		{"too deep", []string{"vendor/github.com/acme/lib/LICENSE"}, map[string]string{}},
		{"no mark", []string{"external/tool.go", "external/README.md"}, map[string]string{}},
		{"not a vendor name", []string{"lib/zlib/LICENSE"}, map[string]string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := vendorRoots(tc.paths)
			if len(got) != len(tc.want) {
				t.Fatalf("roots %v, want %v", got, tc.want)
			}
			for d, why := range tc.want {
				if got[d] != why {
					t.Errorf("root %s: %q, want %q", d, got[d], why)
				}
			}
		})
	}
}

// TestSyncVendor checks that Sync puts vendored code in the vendor scope,
// searchable there and under the project's code in a search of every
// scope, leaves out copies and minified bundles with a reason, reads
// nothing unchanged again, and moves files between the scopes as their
// directory's marks come and go; through both ways in, Sync (search,
// serve) and SyncGraph (`fileinfo index`).
func TestSyncVendor(t *testing.T) {
	syncs := map[string]func(context.Context, *docsearch.Index, string, string) (SyncStats, error){
		"Sync": func(ctx context.Context, ix *docsearch.Index, root, dir string) (SyncStats, error) {
			return Sync(ctx, ix, root, dir, nil)
		},
		"SyncGraph": func(ctx context.Context, ix *docsearch.Index, root, dir string) (SyncStats, error) {
			st, _, err := SyncGraph(ctx, ix, root, GraphOptions{Dir: dir})
			return st, err
		},
	}
	for name, sync := range syncs {
		t.Run(name, func(t *testing.T) { testSyncVendor(t, sync) })
	}
}

func testSyncVendor(t *testing.T, sync func(context.Context, *docsearch.Index, string, string) (SyncStats, error)) {
	root := vendoredRepo(t)
	dir := filepath.Join(root, ".artifacts", ".index")
	ctx := context.Background()
	ix, err := docsearch.Open(ctx, fstest.MapFS{}, docsearch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := sync(ctx, ix, root, dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ix.VendorFiles(), []string{"third_party/zlib/inflate.c", "vendor/github.com/acme/ratelimit/refill.go"}; !slices.Equal(got, want) {
		t.Errorf("vendor files %q, want %q", got, want)
	}
	if got, want := ix.CodeFiles(), []string{"external/tool.go", "internal/limit/bucket.go", "main.go"}; !slices.Equal(got, want) {
		t.Errorf("code files %q, want %q", got, want)
	}
	if st.Vendor.Files != 2 || st.Vendor.Read != 2 || len(st.Vendor.Roots) != 2 {
		t.Errorf("vendor stats %+v", st.Vendor)
	}
	reasons := map[string]string{}
	for _, sk := range st.Left {
		reasons[sk.Path] = sk.Reason
	}
	if r := reasons["web/dist/app.min.js"]; !strings.HasPrefix(r, "minified") {
		t.Errorf("minified bundle left out for %q; all: %v", r, st.Left)
	}
	if r := reasons["vendor/github.com/acme/ratelimit/bucket.go"]; !strings.HasPrefix(r, "exact copy of internal/limit/bucket.go") {
		t.Errorf("copy left out for %q; all: %v", r, st.Left)
	}
	// The two files of a size were compared, and their digests kept.
	digests, _ := readDigests(dir, nil)
	if _, ok := digests["internal/limit/bucket.go"]; !ok || len(digests) != 2 {
		t.Errorf("digests kept: %v", digests)
	}
	zero := 0.0
	res, err := ix.Search(ctx, docsearch.Query{Text: "refill tokens", Scopes: []string{docsearch.ScopeVendor}, MinScore: &zero})
	if err != nil || len(res.Results) == 0 || !strings.HasSuffix(res.Results[0].Symbol, "ratelimit.Refill") || res.Results[0].Scope != docsearch.ScopeVendor {
		t.Errorf("vendor search: %+v, %v", res.Results, err)
	}

	if st, err = sync(ctx, ix, root, dir); err != nil || st.Read != 0 || st.Vendor.Read != 0 {
		t.Errorf("unchanged sync: %+v, %v", st, err)
	}

	// Without modules.txt, vendor/ is not vendored code: it leaves. Without
	// its licence, third_party/zlib is the project's own code.
	os.Remove(filepath.Join(root, "vendor", "modules.txt"))
	os.Remove(filepath.Join(root, "third_party", "zlib", "LICENSE"))
	if st, err = sync(ctx, ix, root, dir); err != nil || st.Vendor.Files != 0 || len(st.Vendor.Roots) != 0 {
		t.Errorf("sync without the marks: %+v, %v", st, err)
	}
	if got := ix.VendorFiles(); len(got) != 0 {
		t.Errorf("vendor files without the marks %q", got)
	}
	if got := ix.CodeFiles(); !slices.Contains(got, "third_party/zlib/inflate.c") || slices.ContainsFunc(got, underVendorDir) {
		t.Errorf("code files without the marks %q", got)
	}
}

// TestScanListsBeforeCopies: a Scan's listing, and the count of files it
// walked, are there before the copies among the files are compared (on
// the Linux kernel 2.4 s of reads), so that the doc walk runs beside
// that; the selection waits for it and leaves the copies out.
func TestScanListsBeforeCopies(t *testing.T) {
	root := vendoredRepo(t)
	want, err := Select(context.Background(), root, SelectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	yield := sync.OnceFunc(func() { <-release })
	scan := StartScan(context.Background(), root, SelectOptions{Yield: yield})
	listed := make(chan int)
	go func() {
		scan.Listing()
		listed <- scan.Files()
	}()
	select {
	case n := <-listed:
		if n != len(want.Code)+len(want.Vendor)+len(want.Left) {
			t.Errorf("walked %d files; want %d, the copies in", n, len(want.Code)+len(want.Vendor)+len(want.Left))
		}
	case <-time.After(10 * time.Second):
		t.Error("the listing waited for the copies to be compared")
	}
	close(release)
	got, err := scan.Selection()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Code, want.Code) || !slices.Equal(got.Vendor, want.Vendor) || !slices.Equal(got.Left, want.Left) {
		t.Errorf("scanned: %+v; selected: %+v", got, want)
	}
}
