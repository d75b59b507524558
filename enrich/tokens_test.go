package enrich

import (
	"fmt"
	"math"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/pkoukk/tiktoken-go"
)

// TestNoNetwork loads the encoding in a child process whose HTTP(S) proxy
// is a closed local port and whose tiktoken cache is an empty directory:
// tiktoken's own downloading loader fails there (the control), while
// ours counts tokens and leaves the cache empty.
func TestNoNetwork(t *testing.T) {
	if os.Getenv("ENRICH_NO_NETWORK_CHILD") == "1" {
		noNetworkChild(t)
		return
	}
	if testing.Short() {
		t.Skip("runs a child process")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	proxy := "http://" + l.Addr().String()
	l.Close() // nothing listens there now
	cache := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestNoNetwork$", "-test.v")
	cmd.Env = append(os.Environ(),
		"ENRICH_NO_NETWORK_CHILD=1",
		"HTTP_PROXY="+proxy, "HTTPS_PROXY="+proxy, "http_proxy="+proxy, "https_proxy="+proxy,
		"NO_PROXY=", "no_proxy=",
		"TIKTOKEN_CACHE_DIR="+cache, "DATA_GYM_CACHE_DIR="+cache,
	)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "counted offline") || !strings.Contains(string(out), "download refused") {
		t.Fatalf("child did not run both checks:\n%s", out)
	}
	if entries, _ := os.ReadDir(cache); len(entries) > 0 {
		t.Errorf("the tiktoken cache was written: %v", entries)
	}
}

func noNetworkChild(t *testing.T) {
	// The control: with this environment, a download cannot succeed.
	_, err := tiktoken.NewDefaultBpeLoader().LoadTiktokenBpe("https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken")
	if err == nil {
		t.Fatal("the downloading loader succeeded: the test environment does not block the network")
	}
	t.Logf("download refused: %v", err)
	n, err := newCounter().count("func main() { fmt.Println(\"hello, world\") }\n")
	if err != nil {
		t.Fatal(err)
	}
	if n < 5 {
		t.Fatalf("counted %d tokens", n)
	}
	t.Logf("counted offline: %d tokens", n)
}

// TestCountLineByLine checks what budgets are counted in: numbered source
// costs exactly what encoding it whole costs, and a whole prompt costs at
// least that and at most 2% more.
func TestCountLineByLine(t *testing.T) {
	r := loadArchive(t, "repo.txtar")
	e, err := encoding()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range goldenFiles {
		f, src := r.file(t, p)
		pr, err := sharedBuilder().Prompt(f, r.graph, src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		byLine, err := sharedBuilder().Count(pr.Text)
		if err != nil {
			t.Fatal(err)
		}
		if pr.Tokens != byLine {
			t.Errorf("%s: Prompt.Tokens %d, Count(Text) %d", p, pr.Tokens, byLine)
		}
		whole := len(e.EncodeOrdinary(pr.Text))
		if d := float64(byLine-whole) / float64(whole); d < 0 || d > 0.02 {
			t.Errorf("%s: line by line %d tokens, whole %d: %.1f%% apart", p, byLine, whole, 100*d)
		}
		var numbered strings.Builder
		for i, l := range sourceLines(src) {
			fmt.Fprintf(&numbered, "%d\t%s\n", i+1, l)
		}
		n, err := sharedBuilder().Count(numbered.String())
		if err != nil {
			t.Fatal(err)
		}
		if whole := len(e.EncodeOrdinary(numbered.String())); n != whole {
			t.Errorf("%s: numbered source is %d tokens line by line, %d whole", p, n, whole)
		}
	}
}

// TestCounterParallel checks that the parallel path counts like the serial
// one, and that the cache returns what encoding does.
func TestCounterParallel(t *testing.T) {
	var lines []string
	for i := range 800 {
		lines = append(lines, fmt.Sprintf("\tx%d := compute(%q, %d) // line %d\n", i, strings.Repeat("ab", i%17), i*i, i))
	}
	e, err := encoding()
	if err != nil {
		t.Fatal(err)
	}
	c := newCounter()
	if total := len(strings.Join(lines, "")); total < parallelBytes {
		t.Fatalf("%d bytes do not take the parallel path", total)
	}
	for pass := range 2 { // cold, then from the cache
		got, err := c.counts(lines)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range lines {
			if want := len(e.EncodeOrdinary(l)); got[i] != want {
				t.Fatalf("pass %d: line %d counted %d, want %d", pass, i, got[i], want)
			}
		}
	}
}

// TestNumberTokens checks what numberTokens relies on: every run of 1-3
// digits is one token, so a number costs one token per 3 digits.
func TestNumberTokens(t *testing.T) {
	e, err := encoding()
	if err != nil {
		t.Fatal(err)
	}
	for digits := 1; digits <= 3; digits++ {
		for n := 0; n < int(math.Pow10(digits)); n++ {
			s := fmt.Sprintf("%0*d", digits, n)
			if got := len(e.EncodeOrdinary(s)); got != 1 {
				t.Fatalf("%q is %d tokens", s, got)
			}
		}
	}
	for _, n := range []int{1, 99, 999, 1000, 1001, 10000, 100000, 123456, 1000000} {
		if got, want := numberTokens(n), len(e.EncodeOrdinary(fmt.Sprintf("%d\tx := 1\n", n)))-len(e.EncodeOrdinary("\tx := 1\n")); got != want {
			t.Errorf("numberTokens(%d) = %d, want %d", n, got, want)
		}
	}
}
