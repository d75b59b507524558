package graphstore

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkSyncChanged times a Lazy Sync that finds k files changed
// since the save, each given a new function (a change of its surface,
// which its readers are re-resolved for), applied as an update to the
// saved graph (update) and with the graph built whole (whole), over
// the tree at $FILEINFO_BENCH_ROOT (a copy: its files are replaced by
// rename and put back) or, without it, a generated one. The state
// saved before the change is copied in for each run.
//
//	FILEINFO_BENCH_ROOT=DIR go test ./internal/graphstore -run '^$' -bench SyncChanged -benchtime 3x
func BenchmarkSyncChanged(b *testing.B) {
	root := os.Getenv("FILEINFO_BENCH_ROOT")
	if root == "" {
		root = lazyTree(b, 400)
	}
	ctx := context.Background()
	pristine := b.TempDir()
	if _, err := Sync(ctx, Options{Root: root, Dir: pristine}); err != nil {
		b.Fatal(err)
	}
	var sources []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && !strings.Contains(p, "/.artifacts/") && !strings.Contains(p, "/testdata/") {
			switch filepath.Ext(p) {
			case ".c", ".go", ".py":
				sources = append(sources, p)
			}
		}
		return nil
	})
	n := len(sources)
	for _, k := range []int{1, 16, 64, max(n/20, 1), max(n/10, 1), max(n/5, 1)} {
		for _, whole := range []bool{false, true} {
			name := fmt.Sprintf("k=%d/update", k)
			if whole {
				name = fmt.Sprintf("k=%d/whole", k)
			}
			b.Run(name, func(b *testing.B) {
				m, s := updateMin, updateShare
				updateMin, updateShare = n, 1
				if whole {
					updateMin, updateShare = 0, 0
				}
				defer func() { updateMin, updateShare = m, s }()
				// Every n/k-th file, spread over the tree.
				var picked []string
				for i := 0; i < n && len(picked) < k; i += max(n/k, 1) {
					picked = append(picked, sources[i])
				}
				orig := map[string][]byte{}
				for _, p := range picked {
					data, err := os.ReadFile(p)
					if err != nil {
						b.Fatal(err)
					}
					orig[p] = data
				}
				defer func() {
					for p, data := range orig {
						replace(b, p, data)
					}
				}()
				for b.Loop() {
					b.StopTimer()
					dir := b.TempDir()
					copyDir(b, pristine, dir)
					for i, p := range picked {
						replace(b, p, append(append([]byte(nil), orig[p]...), added(p, i)...))
					}
					b.StartTimer()
					snap, err := Sync(ctx, Options{Root: root, Dir: dir, Lazy: true})
					if err != nil {
						b.Fatal(err)
					}
					b.StopTimer()
					if want := map[bool]How{false: GraphUpdated, true: GraphBuilt}[whole]; snap.How != want {
						b.Fatalf("graph %s (%s), want %s", snap.How, snap.Why, want)
					}
					if x := snap.Extractions(); x != nil {
						x.Close()
					}
					b.StartTimer()
				}
			})
		}
	}
}

// added is a new function for the file at p, in its language.
func added(p string, i int) string {
	switch filepath.Ext(p) {
	case ".c":
		return fmt.Sprintf("\nint h15_bench_added_%d(void) { return 0; }\n", i)
	case ".go":
		return fmt.Sprintf("\nfunc h15BenchAdded%d() int { return 0 }\n", i)
	}
	return fmt.Sprintf("\n\ndef h15_bench_added_%d():\n    return 0\n", i)
}

// replace puts data at p by a rename: p may be a hard link shared with
// other trees.
func replace(b *testing.B, p string, data []byte) {
	b.Helper()
	tmp := p + ".h15tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(tmp, p); err != nil {
		b.Fatal(err)
	}
}

// copyDir copies the regular files of src into dst.
func copyDir(b *testing.B, src, dst string) {
	b.Helper()
	ents, err := os.ReadDir(src)
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range ents {
		if !e.Type().IsRegular() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
}
