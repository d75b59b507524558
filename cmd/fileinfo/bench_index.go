package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"syscall"
	"time"

	"github.com/fileinfo/fileinfo/docsearch"
)

// indexMetrics are what `bench index` reports; the JSON keys are fixed.
type indexMetrics struct {
	MB        float64 `json:"mb"`          // the documents indexed, 10⁶ bytes
	Docs      int     `json:"docs"`        // documents indexed
	Chunks    int     `json:"chunks"`      // chunks made of them
	Seconds   float64 `json:"seconds"`     // median wall time of building and saving the index
	MBPerS    float64 `json:"mb_per_s"`    // MB over Seconds
	Per100MB  float64 `json:"s_per_100mb"` // Seconds scaled to 100 MB
	CPU       float64 `json:"cpu_s"`       // user and system CPU seconds of the median run
	PeakRSSMB float64 `json:"peak_rss_mb"` // the process's peak resident memory
	Runs      int     `json:"runs"`
}

// runBenchIndex measures building the docs index of a directory from
// nothing, as `fileinfo index --docs NAME=DIR` builds it on a fresh
// workspace: read, chunk, analyse, embed with the default embedder,
// save. Each run gets a new empty workspace.
func runBenchIndex(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench index", "DIR", stderr)
	runs := intFlag(fs, "runs", 3, runsRange, "timed runs; the median is reported")
	asJSON := fs.Bool("json", false, "print the metrics as JSON")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the timed runs to `FILE`")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || *runs < 1 {
		fs.Usage()
		return errUsage
	}
	dir, err := filepath.Abs(pos[0])
	if err != nil {
		return err
	}
	if *cpuProfile != "" {
		stop, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return err
		}
		defer stop()
	}
	var done []indexRun
	for range *runs {
		// Each run starts from a collected heap, so that the peak RSS is
		// one build's, not a build's plus the garbage of the one before.
		debug.FreeOSMemory()
		ws, err := os.MkdirTemp("", "fileinfo-bench-index-")
		if err != nil {
			return err
		}
		r, err := benchIndexOnce(ctx, ws, dir, stderr)
		os.RemoveAll(ws)
		if err != nil {
			return err
		}
		done = append(done, r)
	}
	slices.SortFunc(done, func(a, b indexRun) int { return cmp.Compare(a.wall, b.wall) })
	mid := done[len(done)/2] // the median run, as median picks it
	m := indexMetrics{
		MB: float64(mid.st.Bytes) / 1e6, Docs: mid.st.Docs, Chunks: mid.st.Chunks,
		Seconds: mid.wall.Seconds(), CPU: mid.cpu.Seconds(), Runs: len(done),
	}
	if m.Seconds > 0 {
		m.MBPerS = m.MB / m.Seconds
	}
	if m.MB > 0 {
		m.Per100MB = m.Seconds * 100 / m.MB
	}
	var usage syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &usage)
	m.PeakRSSMB = float64(usage.Maxrss) / 1024
	for _, p := range []*float64{&m.MB, &m.Seconds, &m.MBPerS, &m.Per100MB, &m.CPU, &m.PeakRSSMB} {
		*p = math.Round(*p*1000) / 1000
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(m)
	}
	fmt.Fprintf(stdout, "docs         %s (%d documents, %.1f MB, %d chunks)\n", dir, m.Docs, m.MB, m.Chunks)
	fmt.Fprintf(stdout, "index        %.2f s (median of %d), %.1f MB/s, %.1f CPU-s\n", m.Seconds, m.Runs, m.MBPerS, m.CPU)
	fmt.Fprintf(stdout, "per 100 MB   %.1f s\n", m.Per100MB)
	fmt.Fprintf(stdout, "peak RSS     %.0f MB\n", m.PeakRSSMB)
	return nil
}

// indexRun is one timed build.
type indexRun struct {
	wall, cpu time.Duration
	st        docsearch.Stats
}

// benchIndexOnce builds and saves the index of dir, as the extra scope
// "bench", in the empty workspace ws.
func benchIndexOnce(ctx context.Context, ws, dir string, stderr io.Writer) (r indexRun, err error) {
	root, err := os.OpenRoot(ws)
	if err != nil {
		return r, err
	}
	defer root.Close()
	docs, err := os.OpenRoot(dir)
	if err != nil {
		return r, err
	}
	defer docs.Close()
	opts := docsearch.Options{
		Scopes:   []docsearch.Scope{{Name: "bench", Dir: ".", FS: docsearch.RootFS(docs)}},
		Embedder: defaultEmbedder(),
		Dir:      filepath.Join(ws, ".artifacts", ".index"),
		Logger:   slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
	cpu0 := cpuTime()
	start := time.Now()
	ix, err := docsearch.Open(ctx, docsearch.RootFS(root), opts)
	if err != nil {
		return r, err
	}
	r.wall, r.cpu = time.Since(start), cpuTime()-cpu0
	r.st = ix.Stats()
	return r, nil
}

// cpuTime is the user and system CPU time the process has used.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
