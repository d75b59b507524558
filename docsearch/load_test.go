package docsearch

import (
	"os"
	"testing"
	"time"
)

// TestLoadTime times reading and decoding a saved index given in
// $DOCSEARCH_INDEX, as Open does.
func TestLoadTime(t *testing.T) {
	p := os.Getenv("DOCSEARCH_INDEX")
	if p == "" {
		t.Skip("set DOCSEARCH_INDEX to a docsearch.idx")
	}
	start := time.Now()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	data, release, _, err := mapFile(f)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	st, err := decodeFrom(data, f, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("read and decoded %d docs, %d chunks, %d MB in %v", len(st.tab.docs), len(st.tab.chunks), len(data)>>20, time.Since(start))
}
