package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/fileinfo/fileinfo/extract"
)

// benchModule is the default workload: a real, mid-sized Go repository that
// every Go machine can have in its module cache.
const benchModule = "golang.org/x/tools@v0.39.0"

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "search" {
		return runBenchSearch(ctx, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "docs" {
		return runBenchDocs(ctx, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "code-gen" {
		return runBenchCodeGen(ctx, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "code" {
		return runBenchCode(ctx, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "index" {
		return runBenchIndex(ctx, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "serve" {
		return runBenchServe(ctx, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "peers" {
		return runBenchPeers(ctx, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "ccallers" {
		return runBenchCCallers(ctx, args[1:], stdout, stderr)
	}
	if len(args) == 0 || args[0] != "extract" {
		fmt.Fprintln(stderr, "usage: fileinfo bench extract [flags]\n       fileinfo bench search [flags] DATASET\n       fileinfo bench docs [flags] BENCHDIR\n       fileinfo bench index [flags] DIR\n       fileinfo bench code [flags] DATASET\n       fileinfo bench code-gen [flags] DATASET\n       fileinfo bench serve --root DIR --file PATH\n       fileinfo bench ccallers --root LINUX [flags]\n       fileinfo bench peers --root DIR --query IDENT [--symbol S]\n\nRun 'fileinfo bench <mode> -h' for a mode's flags.")
		if len(args) > 0 && helpAsked(args[:1]) {
			return flag.ErrHelp
		}
		return errUsage
	}
	fs := newFlags("bench extract", "[DIR]", stderr)
	root := fs.String("root", "", "repository `dir` to measure (default: "+benchModule+" in the module cache)")
	runs := intFlag(fs, "runs", 5, runsRange, "`n` timed runs of each side; the median is reported")
	ctags := fs.String("ctags", "ctags", "universal-ctags `binary` to compare with (\"\" to skip)")
	pos, err := parseInterspersed(fs, args[1:])
	if err != nil {
		return err
	}
	if err := rootArg(fs, root, pos); err != nil {
		return err
	}
	dir := *root
	if dir == "" {
		var err error
		if dir, err = moduleCacheDir(benchModule); err != nil {
			return err
		}
	}

	// The ratio compares like with like: ctags indexes Go only, so does
	// the timed run; the all-languages run is reported beside it.
	goOnly, err := benchExtract(ctx, dir, *runs, []string{"go"})
	if err != nil {
		return err
	}
	all, err := benchExtract(ctx, dir, *runs, nil)
	if err != nil {
		return err
	}
	var usage syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &usage)

	fmt.Fprintf(stdout, "workload     %s\n", dir)
	fmt.Fprintf(stdout, "fileinfo     %8.3f s  extract, Go files (%d files, median of %d)\n", median(goOnly.extract).Seconds(), goOnly.files, len(goOnly.extract))
	fmt.Fprintf(stdout, "fileinfo     %8.3f s  extract, all languages (%d files)\n", median(all.extract).Seconds(), all.files)
	fmt.Fprintf(stdout, "fileinfo     %8.3f s  extract + JSON encoding, all languages\n", median(all.encoded).Seconds())
	fmt.Fprintf(stdout, "peak RSS     %8.1f MB\n", float64(usage.Maxrss)/1024)
	if *ctags != "" {
		var theirs []time.Duration
		for range max(*runs, 1) {
			d, err := timeCommand(ctx, *ctags, "-R", "--languages=Go", "-f", "/dev/null", dir)
			if err != nil {
				return fmt.Errorf("ctags: %w (pass --ctags '' to skip)", err)
			}
			theirs = append(theirs, d)
		}
		m := median(theirs)
		fmt.Fprintf(stdout, "ctags        %8.3f s  ctags -R --languages=Go (median of %d)\n", m.Seconds(), len(theirs))
		fmt.Fprintf(stdout, "ratio        %8.2f x  fileinfo extract (Go) / ctags (Go)\n", median(goOnly.extract).Seconds()/m.Seconds())
	}
	fmt.Fprintln(stdout)
	writeStats(stdout, all.stats, median(all.extract))
	return nil
}

// benchRun is what runs of one extraction measured.
type benchRun struct {
	extract, encoded []time.Duration
	stats            []extract.LanguageStats
	files            int
}

// benchExtract extracts dir runs times with a fresh Extractor each time.
func benchExtract(ctx context.Context, dir string, runs int, langs []string) (benchRun, error) {
	var r benchRun
	for range max(runs, 1) {
		ex, err := extract.New(dir, extract.Options{Languages: langs})
		if err != nil {
			return r, err
		}
		start := time.Now()
		files, _, err := ex.All(ctx)
		if err != nil {
			ex.Close()
			return r, err
		}
		r.extract = append(r.extract, time.Since(start))
		err = json.NewEncoder(io.Discard).Encode(files)
		r.encoded = append(r.encoded, time.Since(start))
		r.stats, r.files = ex.Stats(), len(files)
		ex.Close()
		if err != nil {
			return r, err
		}
	}
	return r, nil
}

// moduleCacheDir finds module@version in the module cache without
// downloading anything.
func moduleCacheDir(mv string) (string, error) {
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMODCACHE: %w", err)
	}
	dir := filepath.Join(string(trimNewline(out)), filepath.FromSlash(mv))
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("%s is not in the module cache; run `go mod download %s` or pass --root", mv, mv)
	}
	return dir, nil
}

func trimNewline(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

func timeCommand(ctx context.Context, name string, args ...string) (time.Duration, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("%v: %s", err, out)
	}
	return time.Since(start), nil
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
