package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/internal/fixture"
)

// TestBenchInputsBounded hands the benchmarks' readers of data sets a
// link to /dev/zero, a FIFO and a 1 TB sparse file: each is refused
// before it is read, saying why, instead of blocking or exhausting memory.
func TestBenchInputsBounded(t *testing.T) {
	readers := map[string]func(string) error{
		"qrels":     func(p string) error { _, err := readQrels(p); return err },
		"questions": func(p string) error { _, err := readDocQuestions(p); return err },
		"jsonl":     func(p string) error { return readJSONL(p, func([]byte) error { return nil }) },
		"code set": func(p string) error {
			_, _, err := readCodeSet(filepath.Dir(p))
			return err
		},
	}
	for _, how := range []fixture.Spoiling{fixture.LinkToDevZero, fixture.FIFO, fixture.Sparse} {
		for name, read := range readers {
			t.Run(string(how)+"/"+name, func(t *testing.T) {
				dir := t.TempDir()
				p := filepath.Join(dir, "queries.jsonl")
				os.WriteFile(p, []byte("{}\n"), 0o644)
				os.WriteFile(filepath.Join(dir, "qrels.tsv"), []byte("query-id\trepo\tpath\tsymbol\tstart\tend\n"), 0o644)
				fixture.Spoil(t, p, how)
				done := make(chan error, 1)
				go func() { done <- read(p) }()
				select {
				case err := <-done:
					want := map[fixture.Spoiling]string{fixture.LinkToDevZero: "device", fixture.FIFO: "named pipe", fixture.Sparse: "over the"}[how]
					if err == nil || !strings.Contains(err.Error(), want) {
						t.Errorf("%s: %v; want an error saying %q", name, err, want)
					}
				case <-time.After(2 * time.Minute): // a guard against a hang, not a measure
					t.Fatalf("%s blocked", name)
				}
			})
		}
	}
}
