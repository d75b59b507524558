package embed

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/internal/fixture"
)

// codeChunks cuts texts into chunks of about 40 lines, the size of a
// function an index embeds.
func codeChunks(texts []string) []string {
	var chunks []string
	for _, text := range texts {
		lines := strings.SplitAfter(text, "\n")
		for i := 0; i < len(lines); i += 40 {
			chunks = append(chunks, strings.Join(lines[i:min(i+40, len(lines))], ""))
		}
	}
	return chunks
}

// BenchmarkEmbedCode embeds this module's sources (or those under
// FILEINFO_EMBED_BENCH_DIR) chunk by chunk, as an index embeds code
// documents: words repeat across chunks, so the embedder's caches are
// warm after the first pass.
func BenchmarkEmbedCode(b *testing.B) {
	texts, size := fixture.Sources(b, "FILEINFO_EMBED_BENCH_DIR", filepath.Join("..", ".."))
	chunks := codeChunks(texts)
	m := Default()
	dst := make([]float32, len(chunks)*m.Dim())
	b.SetBytes(int64(size))
	for b.Loop() {
		if err := m.EmbedInto(context.Background(), chunks, dst); err != nil {
			b.Fatal(err)
		}
	}
}
