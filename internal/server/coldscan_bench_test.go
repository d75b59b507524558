package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkColdScan is one scan of a tree of 2,000 Go files of 8 KB,
// five of which mention the name: the walk is done once, as in a load;
// each scan reads every file and extracts the five (cached after the
// first). Set FILEINFO_SCAN_ROOT to scan a real tree instead, for the
// name in FILEINFO_SCAN_NAME.
func BenchmarkColdScan(b *testing.B) {
	root, name := os.Getenv("FILEINFO_SCAN_ROOT"), os.Getenv("FILEINFO_SCAN_NAME")
	if root == "" {
		root, name = b.TempDir(), "NeedleName"
		body := strings.Repeat("// A line of comment that fills the file up to its size.\nfunc f() { g(1, 2) }\n", 100)
		for i := range 2000 {
			dir := filepath.Join(root, fmt.Sprintf("p%02d", i/100))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				b.Fatal(err)
			}
			src := fmt.Sprintf("package p\n\nfunc F%d() {}\n", i) + body
			if i%400 == 7 {
				src += "\nfunc " + name + "() {}\n"
			}
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.go", i)), []byte(src), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	w, err := openWorkspace(root, 0, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		b.Fatal(err)
	}
	defer w.dir.Close()
	c := newColdScan(w)
	if _, err := c.sources(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		h, err := c.find(context.Background(), []string{name}, false, 0)
		if err != nil || len(h.files) == 0 {
			b.Fatalf("scan for %s: %d files, %v", name, len(h.files), err)
		}
	}
}
