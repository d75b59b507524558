package extract

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// xtoolsDir returns the module cache directory of golang.org/x/tools@v0.39.0,
// downloading it through the module proxy if needed, or skips b.
func xtoolsDir(tb testing.TB) string {
	tb.Helper()
	out, err := exec.Command("go", "mod", "download", "-json", "golang.org/x/tools@v0.39.0").Output()
	if err != nil {
		tb.Skipf("golang.org/x/tools@v0.39.0 not available: %v", err)
	}
	var m struct{ Dir string }
	if err := json.Unmarshal(out, &m); err != nil || m.Dir == "" {
		tb.Skipf("golang.org/x/tools@v0.39.0 not available: %v", err)
	}
	return m.Dir
}

// BenchmarkExtractXTools extracts all of golang.org/x/tools@v0.39.0
// (symbols, imports and calls), the workload of `fileinfo bench extract`.
func BenchmarkExtractXTools(b *testing.B) {
	dir := xtoolsDir(b)
	ex, err := New(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer ex.Close()
	paths, _, err := Walk(context.Background(), dir, WalkOptions{})
	if err != nil {
		b.Fatal(err)
	}
	var size int64
	for _, p := range paths {
		if st, err := os.Stat(filepath.Join(dir, p)); err == nil && LanguageOf(p, nil) != nil {
			size += st.Size()
		}
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		files, _, err := ex.All(context.Background())
		if err != nil || len(files) == 0 {
			b.Fatal(err)
		}
	}
}

// BenchmarkExtractFile extracts one large Go file serially: the per-file
// hot path without parallelism.
func BenchmarkExtractFile(b *testing.B) {
	path := filepath.Join(runtime.GOROOT(), "src", "net", "http", "server.go")
	src, err := os.ReadFile(path)
	if err != nil {
		b.Skip(err)
	}
	ex, err := New(b.TempDir(), Options{Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer ex.Close()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ex.Source(context.Background(), "server.go", src); err != nil {
			b.Fatal(err)
		}
	}
}
