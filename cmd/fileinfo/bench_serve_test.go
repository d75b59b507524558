package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestBenchServe measures two starts of a real server on a small tree:
// the first without the saved graph, the second from it; each run's two
// lines have its figures, the round trips of search_docs and file_info
// once settled among them.
func TestBenchServe(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildFileinfo(t)
	root := t.TempDir()
	for p, src := range map[string]string{
		"go.mod":    "module example.com/m\n",
		"a/a.go":    "package a\n\nimport \"example.com/m/b\"\n\nfunc A() { b.B() }\n",
		"b/b.go":    "package b\n\nfunc B() {}\n",
		"README.md": "# m\n\nA module.\n",
	} {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, errs bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	err := runBenchServe(ctx, []string{"--root", root, "--file", "b/b.go", "--runs", "2", "--fresh",
		"--server", bin, "--serve-flags", "--no-deps --no-watch", "--idle", "300ms", "--calls", "5", "--symbol", "b/b.go:B"}, &out, &errs)
	if err != nil {
		t.Fatalf("%v\n%s", err, errs.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	line := regexp.MustCompile(`^run \d  saved graph (no |yes)  first file_info +\d+\.\d\d s  loaded +\d+\.\d\d s  settled +\d+\.\d\d s  RSS loaded +\d+ MB  settled +\d+ MB  peak +\d+ MB$`)
	// b/b.go declares B: the queries are "B" and its words, "b".
	calls := regexp.MustCompile(`^run \d  settled, 5 calls each  search_docs p50 +\d+\.\d\d ms  p90 +\d+\.\d\d ms  CPU +\d+\.\d\d ms a call  \(2 queries\)  file_info p50 +\d+\.\d\d ms  p90 +\d+\.\d\d ms  CPU +\d+\.\d\d ms a call$`)
	first := regexp.MustCompile(`^run \d  first find_symbol +\d+\.\d{3} s  first search_docs with the symbol +\d+\.\d{3} s  first callers +\d+\.\d{3} s  \(covered: .+\)$`)
	warm := regexp.MustCompile(`^run \d  settled, 5 calls  callers p50 +\d+\.\d\d ms  p90 +\d+\.\d\d ms  CPU +\d+\.\d\d ms a call$`)
	mem := regexp.MustCompile(`^run \d  after the calls  RSS +(\d+) MB  \(anonymous +(\d+) MB, file-backed +(\d+) MB\)  peak +(\d+) MB$`)
	if len(lines) != 11 || !line.MatchString(lines[1]) || !first.MatchString(lines[2]) || !warm.MatchString(lines[3]) || !calls.MatchString(lines[4]) || !mem.MatchString(lines[5]) ||
		!line.MatchString(lines[6]) || !first.MatchString(lines[7]) || !warm.MatchString(lines[8]) || !calls.MatchString(lines[9]) || !mem.MatchString(lines[10]) {
		t.Fatalf("output:\n%s", out.String())
	}
	// The parts are of the whole (MB rounded each), and the peak is past it.
	for _, l := range []string{lines[5], lines[10]} {
		m := mem.FindStringSubmatch(l)
		rss, anon, file, peak := atoi(t, m[1]), atoi(t, m[2]), atoi(t, m[3]), atoi(t, m[4])
		if rss == 0 || anon+file < rss-2 || anon+file > rss+2 || peak < rss {
			t.Errorf("memory after the calls does not add up: %s", l)
		}
	}
	if !strings.Contains(lines[1], "saved graph no ") || !strings.Contains(lines[6], "saved graph yes") {
		t.Errorf("the first run should start without the saved graph, the second from it:\n%s", out.String())
	}
	if _, err := os.Stat(filepath.Join(root, ".artifacts", ".index", "graph.bin")); err != nil {
		t.Errorf("no saved graph after the runs: %v", err)
	}
}

func TestSplitWords(t *testing.T) {
	for in, want := range map[string]string{
		"ParseAmount":      "parse amount",
		"Store.putAll_now": "store put all now",
		"HTTPServer":       "httpserver",
		"v2Client":         "v2 client",
		"":                 "",
	} {
		if got := splitWords(in); got != want {
			t.Errorf("splitWords(%q) = %q, want %q", in, got, want)
		}
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
