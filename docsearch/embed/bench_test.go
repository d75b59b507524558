package embed

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// codeChunks returns the Go and C sources under dir cut into chunks of
// about 40 lines, the size of a function an index embeds, and their bytes.
func codeChunks(tb testing.TB, dir string) ([]string, int) {
	tb.Helper()
	var chunks []string
	size := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !(strings.HasSuffix(p, ".go") || strings.HasSuffix(p, ".c") || strings.HasSuffix(p, ".h")) {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		lines := strings.SplitAfter(string(b), "\n")
		for i := 0; i < len(lines); i += 40 {
			c := strings.Join(lines[i:min(i+40, len(lines))], "")
			chunks = append(chunks, c)
			size += len(c)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return chunks, size
}

// BenchmarkEmbedCode embeds this module's sources (or those under
// FILEINFO_EMBED_BENCH_DIR) chunk by chunk, as an index embeds code
// documents: words repeat across chunks, so the embedder's caches are
// warm after the first pass.
func BenchmarkEmbedCode(b *testing.B) {
	dir := os.Getenv("FILEINFO_EMBED_BENCH_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..")
	}
	chunks, size := codeChunks(b, dir)
	m := Default()
	dst := make([]float32, len(chunks)*m.Dim())
	b.SetBytes(int64(size))
	b.ResetTimer()
	for b.Loop() {
		if err := m.EmbedInto(context.Background(), chunks, dst); err != nil {
			b.Fatal(err)
		}
	}
}
