package enrich

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

// Encoding is the tiktoken encoding budgets are counted in. No tokenizer
// matches every host model; cl100k_base is chosen over o200k_base because
// it loads in about half the time and memory (100k ranks against 200k:
// 90 ms against 230 ms on the CI machine) and, on source code, counts
// slightly more tokens than o200k_base (14,640 against 14,620 on 52 KB of
// Go), so a budget it allows errs on the small side.
const Encoding = tiktoken.MODEL_CL100K_BASE

var (
	encOnce sync.Once
	enc     *tiktoken.Tiktoken
	encErr  error
)

// encoding returns the shared encoder, loading it on first use. The BPE
// ranks come from the files tiktoken-go-loader embeds in the binary
// (assets.Assets, looked up by the base name of tiktoken's URL): the
// offline loader never opens a connection, and it is installed before
// tiktoken's default loader, which downloads, can ever run.
func encoding() (*tiktoken.Tiktoken, error) {
	encOnce.Do(func() {
		tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
		enc, encErr = tiktoken.GetEncoding(Encoding)
		if encErr != nil {
			encErr = fmt.Errorf("enrich: load %s: %w", Encoding, encErr)
		}
	})
	return enc, encErr
}

// maxCacheBytes bounds the text a counter remembers; past it the cache
// starts over. 32 MB holds the lines of a few thousand source files.
const maxCacheBytes = 32 << 20

// parallelBytes is the amount of uncounted text above which counting is
// spread over GOMAXPROCS goroutines: encoding is CPU-bound (about 4 MB/s
// for cl100k in tiktoken-go), and below this size the goroutines cost more
// than they save.
const parallelBytes = 16 << 10

// counter counts tokens line by line and remembers the count of every line
// it has seen, so that a prompt built again (another part, the same file
// after an edit, a file sharing lines with another) only encodes new
// lines. Counts are a pure function of the text, so the cache never
// changes a result. It is safe for concurrent use.
type counter struct {
	mu    sync.Mutex
	cache map[string]int32
	bytes int
}

func newCounter() *counter { return &counter{cache: map[string]int32{}} }

// counts returns the token count of each of pieces, encoding each on its
// own.
func (c *counter) counts(pieces []string) ([]int, error) {
	out := make([]int, len(pieces))
	var miss []string
	missAt := map[string]int{} // piece → index in miss
	var pending []int          // indexes of pieces not in the cache
	c.mu.Lock()
	for i, p := range pieces {
		if n, ok := c.cache[p]; ok {
			out[i] = int(n)
			continue
		}
		pending = append(pending, i)
		if _, ok := missAt[p]; !ok {
			missAt[p] = len(miss)
			miss = append(miss, p)
		}
	}
	c.mu.Unlock()
	if len(miss) == 0 {
		return out, nil
	}
	e, err := encoding()
	if err != nil {
		return nil, err
	}
	got := encodeAll(e, miss)
	c.mu.Lock()
	for i, p := range miss {
		if c.bytes+len(p) > maxCacheBytes {
			clear(c.cache)
			c.bytes = 0
		}
		c.cache[p] = int32(got[i])
		c.bytes += len(p)
	}
	c.mu.Unlock()
	for _, i := range pending {
		out[i] = got[missAt[pieces[i]]]
	}
	return out, nil
}

// encodeAll counts each text, in parallel when there is enough of it.
func encodeAll(e *tiktoken.Tiktoken, texts []string) []int {
	out := make([]int, len(texts))
	total := 0
	for _, t := range texts {
		total += len(t)
	}
	workers := runtime.GOMAXPROCS(0)
	if total < parallelBytes || workers < 2 {
		for i, t := range texts {
			out[i] = len(encode(e, t))
		}
		return out
	}
	// Contiguous shares of about equal size; each worker writes only its
	// own indexes.
	var wg sync.WaitGroup
	share := total/workers + 1
	start, size := 0, 0
	for i, t := range texts {
		size += len(t)
		if size >= share || i == len(texts)-1 {
			wg.Add(1)
			go func(lo, hi int) {
				defer wg.Done()
				for j := lo; j < hi; j++ {
					out[j] = len(encode(e, texts[j]))
				}
			}(start, i+1)
			start, size = i+1, 0
		}
	}
	wg.Wait()
	return out
}

// count returns the token count of text, encoded line by line (each line
// with its newline). Line-by-line counts are what the budget is kept in:
// for numbered source they equal encoding the text whole, since a line
// number always starts a new pre-token; the markdown around it comes out
// 1-2% above its whole count (newlines no longer merge with the next
// line's indent), so budgets err on the small side (see
// TestCountLineByLine).
func (c *counter) count(text string) (int, error) {
	ns, err := c.counts(splitLines(text))
	if err != nil {
		return 0, err
	}
	total := 0
	for _, n := range ns {
		total += n
	}
	return total, nil
}

// splitLines splits text after each newline; a last line without one is
// kept.
func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// numberTokens is the cost of a line number. The pre-tokenizer cuts a
// number into runs of 1-3 digits and cl100k_base has every such run as a
// token (TestNumberTokens checks all 1,110), so a line number never needs
// encoding. The tab after it starts the next pre-token.
func numberTokens(n int) int {
	digits := len(strconv.Itoa(n))
	return (digits + 2) / 3
}
