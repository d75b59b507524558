package codeindex

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/fileinfo/fileinfo/docsearch"
)

// BenchmarkFreshness is the freshness check of a CLI search on a tree of
// 20,000 C files in 1,000 directories and 100 READMEs, indexed before
// and unchanged since: the walks of the tree, an lstat of every source
// file against the code stamps, and opening the saved doc index (the
// same work in both). "shared" is a search's (cmd/fileinfo openIndex):
// the code walk begun first, the doc walk taking the directories it
// read; "separate" walks the tree twice, as before (docsearch.Open's
// walk, then Sync's); "scan" is the code walk and lstats alone.
func BenchmarkFreshness(b *testing.B) {
	root := b.TempDir()
	for d := range 1000 {
		dir := filepath.Join(root, "src", fmt.Sprintf("d%03d", d/50), fmt.Sprintf("m%04d", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 20 {
			src := fmt.Sprintf("int f%d_%d(int x) { return x + %d; }\n", d, f, f)
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.c", f)), []byte(src), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		if d%10 == 0 {
			if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("# Module\n\nWhat it does.\n"), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	ctx := context.Background()
	dir := filepath.Join(root, ".artifacts", ".index")
	r, err := os.OpenRoot(root)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	open := func(b *testing.B, shared bool) {
		var scan *Scan
		opts := docsearch.Options{Dir: dir}
		if shared {
			scan = StartScan(ctx, root, SelectOptions{Dir: dir})
			opts.Walked = scan.Listing
		}
		ix, err := docsearch.Open(ctx, docsearch.RootFS(r), opts)
		if err != nil {
			b.Fatal(err)
		}
		var st SyncStats
		if shared {
			st, err = SyncScanned(ctx, ix, scan, nil)
		} else {
			st, err = Sync(ctx, ix, root, dir, nil)
		}
		if err != nil {
			b.Fatal(err)
		}
		if st.Files != 20000 {
			b.Fatalf("%d source files; want 20000", st.Files)
		}
		b.ReportMetric(float64(st.Read), "read")
	}
	open(b, true) // the index
	b.Run("shared", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			open(b, true)
		}
	})
	b.Run("separate", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			open(b, false)
		}
	})
	b.Run("scan", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := StartScan(ctx, root, SelectOptions{Dir: dir}).Selection(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
