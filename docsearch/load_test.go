package docsearch

import (
	"os"
	"testing"
	"time"
)

// TestLoadTime times decoding a saved index given in $DOCSEARCH_INDEX.
func TestLoadTime(t *testing.T) {
	p := os.Getenv("DOCSEARCH_INDEX")
	if p == "" {
		t.Skip("set DOCSEARCH_INDEX to a docsearch.idx")
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	st, err := decodeIndex(data)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("decoded %d docs, %d chunks, %d MB in %v", len(st.docs), len(st.chunks), len(data)>>20, time.Since(start))
}
