package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/fileinfo/fileinfo/extract"
)

// extractOutput is the JSON printed by `fileinfo extract` (written a
// file at a time by runExtract, read whole by tests).
type extractOutput struct {
	Files   []extract.File    `json:"files"`
	Skipped []extract.Skipped `json:"skipped"`
}

func runExtract(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("extract", "[PATH...]", stderr)
	root := fs.String("root", ".", "workspace root `dir`; PATHs are relative to it")
	maxSize := int64Flag(fs, "max-size", extract.DefaultMaxFileSize, maxSizeRange, "skip files larger than this many `bytes`")
	workers := intFlag(fs, "workers", 0, workersRange, "`n` parallel parsers (default 0: one per CPU)")
	stats := fs.Bool("stats", false, "write per-language files, MB, seconds and MB/s to stderr")
	langs := fs.String("languages", "", "comma-separated `list` of languages to extract (default: all)")
	keepMinified := fs.Bool("keep-minified", false, "extract minified files too (default: skipped as minified)")
	prof := profileFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	stop, err := prof.start()
	if err != nil {
		return err
	}
	defer stop()
	bar := newLoadProgress(stderr)
	defer bar.finish()
	ex, err := extract.New(*root, extract.Options{MaxFileSize: *maxSize, Workers: *workers, Languages: splitList(*langs), KeepMinified: *keepMinified, Progress: bar.update})
	if err != nil {
		return err
	}
	defer ex.Close()

	// The output, {"files": [...], "skipped": [...]}, is written file by
	// file as extraction goes, so that a big repository's document is
	// never held whole.
	start := time.Now()
	w := bufio.NewWriterSize(stdout, 1<<16)
	out := newJSONObject(w)
	out.open("files")
	var skipped []extract.Skipped
	if fs.NArg() == 0 {
		skipped, err = ex.Each(ctx, func(f *extract.File) error {
			out.item(f)
			return out.err
		})
	} else {
		var files []extract.File
		files, skipped, err = ex.Files(ctx, fs.Args())
		for i := range files {
			out.item(&files[i])
		}
	}
	if err != nil {
		return err
	}
	if err := prof.heap(); err != nil {
		return err
	}
	wall := time.Since(start)
	out.close()
	if skipped == nil {
		skipped = []extract.Skipped{}
	}
	out.field("skipped", skipped)
	if err := out.end(); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	bar.finish()
	if *stats {
		writeStats(stderr, ex.Stats(), wall)
	}
	return nil
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// writeStats prints one line per language and a total. Seconds are the
// summed per-file busy time; MB/s divides by it (per core).
func writeStats(w io.Writer, stats []extract.LanguageStats, wall time.Duration) {
	fmt.Fprintf(w, "%-12s %7s %9s %9s %9s\n", "language", "files", "MB", "seconds", "MB/s")
	var files int
	var bytes int64
	for _, s := range stats {
		mb := float64(s.Bytes) / 1e6
		fmt.Fprintf(w, "%-12s %7d %9.2f %9.3f %9.1f\n", s.Language, s.Files, mb, s.Busy.Seconds(), mb/max(s.Busy.Seconds(), 1e-9))
		files += s.Files
		bytes += s.Bytes
	}
	mb := float64(bytes) / 1e6
	fmt.Fprintf(w, "%-12s %7d %9.2f %9.3f %9.1f  (wall)\n", "total", files, mb, wall.Seconds(), mb/max(wall.Seconds(), 1e-9))
}
