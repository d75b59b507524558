package server

import (
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/fileinfo/fileinfo/extract"
)

// TestFirstPassCapsStream: the first pass hands the early answers the
// symbols of files up to firstStreamSymbols and no more, where it handed
// them every file's (on the Linux kernel 1.2 GB held through a pass held
// to a 1.5 GB heap); under the threshold the load still streams every
// file. Whole names are still found in every file by the cold scan.
func TestFirstPassCapsStream(t *testing.T) {
	defer func(n int) { firstStreamSymbols = n }(firstStreamSymbols)
	firstStreamSymbols = 10
	files := len(slimTree())
	for _, c := range []struct {
		name      string
		pass      int
		most, min int // files streamed
	}{
		{"first pass", 1, firstStreamSymbols + 1, 1}, // py/__init__.py has no symbol
		{"under the threshold", math.MaxInt, files, files},
	} {
		t.Run(c.name, func(t *testing.T) {
			var mu sync.Mutex
			streamed := map[string]bool{}
			opt := Options{NoWatch: true, hooks: &testHooks{streamed: func(p string) {
				mu.Lock()
				streamed[p] = true
				mu.Unlock()
			}}}
			_, _, logs := firstStartOn(t, slimTree(), c.pass, opt)
			if first := strings.Contains(logs.String(), "first pass: code indexed"); first != (c.pass == 1) {
				t.Fatalf("first pass taken: %v\n%s", first, logs.String())
			}
			mu.Lock()
			defer mu.Unlock()
			if n := len(streamed); n > c.most || n < c.min {
				t.Errorf("%d of %d files streamed to the early answers, want %d to %d", n, files, c.min, c.most)
			}
		})
	}
}

// TestFirstStreamCap: the first pass's cap on the early answers follows
// its memory budget, a twentieth of it at 820 bytes a symbol; with none
// it is firstStreamSymbols.
func TestFirstStreamCap(t *testing.T) {
	for _, c := range []struct {
		budget int64
		want   int
	}{
		{0, firstStreamSymbols},
		{-1, firstStreamSymbols},
		{1536 << 20, 98_208}, // the default --memory 2 GB's heap
		{3 << 30, 196_416},
		{20 * 820, 1},
	} {
		if got := firstStreamCap(c.budget); got != c.want {
			t.Errorf("firstStreamCap(%d) = %d, want %d", c.budget, got, c.want)
		}
	}
}

// TestFirstPassStreamFollowsBudget: a first pass with a memory budget
// streams the symbols of files up to the budget's cap, not
// firstStreamSymbols (here far above every file's).
func TestFirstPassStreamFollowsBudget(t *testing.T) {
	defer func(n int, b int64) { firstStreamSymbols, streamSymbolBytes = n, b }(firstStreamSymbols, streamSymbolBytes)
	const budget, most = 3 << 30, 10
	firstStreamSymbols, streamSymbolBytes = 1<<30, budget/20/most
	var mu sync.Mutex
	streamed := map[string]bool{}
	opt := Options{NoWatch: true, FirstMemory: budget, hooks: &testHooks{streamed: func(p string) {
		mu.Lock()
		streamed[p] = true
		mu.Unlock()
	}}}
	_, _, logs := firstStartOn(t, slimTree(), 1, opt)
	if !strings.Contains(logs.String(), "first pass: code indexed") {
		t.Fatalf("no first pass\n%s", logs.String())
	}
	mu.Lock()
	defer mu.Unlock()
	if n, files := len(streamed), len(slimTree()); n < 1 || n > most+1 || n == files {
		t.Errorf("%d of %d files streamed to the early answers, want 1 to %d", n, files, most+1)
	}
}

// TestCapStream: files are passed on until one would take the symbols
// past the limit, and none after it, whatever their size.
func TestCapStream(t *testing.T) {
	file := func(path string, n int) *extract.File {
		return &extract.File{Path: path, Symbols: make([]extract.Symbol, n)}
	}
	var got []string
	f := capStream(func(f *extract.File) { got = append(got, f.Path) }, 5)
	for _, x := range []*extract.File{file("a", 2), file("b", 0), file("c", 3), file("d", 1), file("e", 0)} {
		f(x)
	}
	if strings.Join(got, " ") != "a b c" {
		t.Errorf("passed %q, want a b c", got)
	}
	if capStream(nil, 5) != nil {
		t.Error("capStream(nil) is not nil")
	}
}
