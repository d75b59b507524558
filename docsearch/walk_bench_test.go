package docsearch

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkWalk lists the documents of a tree shaped like unpacked npm
// packages, 4,000 of them in 12,001 directories (8,000 documents, 12,000
// other files), through RootFS: what a rescan costs before it reads
// anything. Set DOCSEARCH_WALK_DIR to walk another tree.
func BenchmarkWalk(b *testing.B) {
	dir := os.Getenv("DOCSEARCH_WALK_DIR")
	if dir == "" {
		dir = b.TempDir()
		for i := range 4000 {
			pkg := filepath.Join(dir, "packages", fmt.Sprintf("pkg%04d", i))
			for name, text := range map[string]string{
				"README.md": "# pkg\n", "package.json": "{}", "lib/index.js": "x", "lib/util/x.js": "x", "docs/API.md": "# API\n",
			} {
				p := filepath.Join(pkg, filepath.FromSlash(name))
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	ss, err := newScopeSet(RootFS(r), nil)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		srcs, _, err := ss.walk(4 << 20)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(srcs)), "docs")
	}
}
