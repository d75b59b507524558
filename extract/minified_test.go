package extract

import (
	"context"
	"testing"

	"github.com/fileinfo/fileinfo/internal/fixture"
)

// minifiedPair is a bundle of two minified lines of size bytes each: the
// symbols of the second sit under a line as long as the first.
func minifiedPair(size int) []byte {
	return append(fixture.MinifiedJS(size), fixture.MinifiedJS(size)...)
}

// TestExtractMinifiedLinear checks that the work of extracting a minified
// bundle grows with its size, not with its size squared: eight times the
// bytes may allocate about eight times as much, never sixty-four. Looking
// for the comment above each symbol copied the whole line above it.
func TestExtractMinifiedLinear(t *testing.T) {
	ex, err := New(t.TempDir(), Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	cost := func(src []byte) (uint64, int) {
		var f *File
		n := fixture.Allocated(func() {
			if f, err = ex.Source(context.Background(), "bundle.js", src); err != nil {
				t.Fatal(err)
			}
		})
		return n, len(f.Symbols)
	}
	small, large := minifiedPair(32<<10), minifiedPair(256<<10)
	cost(small) // the grammar and queries load once
	s, ns := cost(small)
	l, nl := cost(large)
	if nl < 6*ns {
		t.Fatalf("%d symbols at %d bytes, %d at %d: the fixture does not grow", ns, len(small), nl, len(large))
	}
	t.Logf("%d bytes: %d symbols, %d bytes allocated; %d bytes: %d symbols, %d allocated", len(small), ns, s, len(large), nl, l)
	if ratio := float64(l) / float64(s); ratio > 16 {
		t.Errorf("extracting %d bytes allocated %d, %d bytes %d: %.1f times as much for %.1f times the input",
			len(small), s, len(large), l, ratio, float64(len(large))/float64(len(small)))
	}
}
