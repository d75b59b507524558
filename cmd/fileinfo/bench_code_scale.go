package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/fileinfo/fileinfo/artifacts"
	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/codeindex"
)

// benchCodeScale measures what the code scope costs a server on the
// repository at root, in this process, step by step as the server loads:
// the extraction and call graph it holds anyway, the docs index, then the
// code scope fed from the extraction held. It reports the resident memory
// after each step (after a collection), the code scope's build time, and
// the latency of queries over every scope and over code alone.
func benchCodeScale(ctx context.Context, root string, queries []string, stdout io.Writer) error {
	rss := func() float64 {
		runtime.GC()
		debug.FreeOSMemory()
		return residentMB()
	}
	base := rss()
	start, cpu0 := time.Now(), cpuSeconds()
	srcs := map[string][]byte{}
	var mu = make(chan struct{}, 1)
	ex, err := extract.New(root, extract.Options{Read: func(rel string, src []byte) {
		mu <- struct{}{}
		srcs[rel] = src
		<-mu
	}})
	if err != nil {
		return err
	}
	defer ex.Close()
	files, _, err := ex.All(ctx)
	if err != nil {
		return err
	}
	g := callgraph.Build(files)
	extractS, extractCPU := time.Since(start).Seconds(), cpuSeconds()-cpu0
	// The server does not keep the sources: only their digests.
	digests := map[string]string{}
	for p, b := range srcs {
		digests[p] = artifacts.SourceDigest(b)
	}
	srcs = nil
	held := rss()

	start = time.Now()
	rootFS, err := os.OpenRoot(root)
	if err != nil {
		return err
	}
	defer rootFS.Close()
	ix, err := docsearch.Open(ctx, docsearch.RootFS(rootFS), docsearch.Options{Embedder: defaultEmbedder()})
	if err != nil {
		return err
	}
	docsS := time.Since(start).Seconds()
	docsOnly := rss()

	start, cpu0 = time.Now(), cpuSeconds()
	store, _ := artifacts.Open(root)
	cfs := make([]docsearch.CodeFile, 0, len(files))
	for i := range files {
		f := &files[i]
		src, err := extract.ReadRegular(rootFS, f.Path, extract.DefaultMaxFileSize) // as the server reads them again
		if err != nil {
			continue
		}
		cfs = append(cfs, codeindex.File(f, src, codeindex.ReadProse(store, f, digests[f.Path])))
	}
	if err := ix.PutCode(ctx, cfs, nil); err != nil {
		return err
	}
	codeS, codeCPU := time.Since(start).Seconds(), cpuSeconds()-cpu0
	cfs = nil
	withCode := rss()
	st := ix.Stats()

	var searchCPU []float64 // ms a query, per call of lat
	lat := func(scopes []string) (p50, p95 float64, err error) {
		cpu0 := cpuSeconds()
		defer func() { searchCPU = append(searchCPU, 1000*(cpuSeconds()-cpu0)/float64(3*len(queries))) }()
		var ds []time.Duration
		for range 3 {
			for _, q := range queries {
				t := time.Now()
				if _, err := ix.Search(ctx, docsearch.Query{Text: q, Scopes: scopes}); err != nil {
					return 0, 0, err
				}
				ds = append(ds, time.Since(t))
			}
		}
		slices.Sort(ds)
		return ms(ds[len(ds)/2]), ms(ds[len(ds)*95/100]), nil
	}
	allP50, allP95, err := lat(nil)
	if err != nil {
		return err
	}
	codeP50, codeP95, err := lat([]string{docsearch.ScopeCode})
	if err != nil {
		return err
	}
	runtime.KeepAlive(g)
	fmt.Fprintf(stdout, "repository   %s: %d files extracted, %d symbol chunks, %d docs in all\n", root, len(files), st.Chunks, st.Docs)
	fmt.Fprintf(stdout, "extract+graph %.2f s (%.2f s CPU), docs index %.2f s, code scope %.2f s (%.2f s CPU; from the extraction held)\n", extractS, extractCPU, docsS, codeS, codeCPU)
	fmt.Fprintf(stdout, "RSS MB       start %.0f, extraction+graph %.0f, +docs %.0f, +code %.0f: the code scope adds %.0f%% to the server's %.0f MB\n",
		base, held, docsOnly, withCode, 100*(withCode-docsOnly)/docsOnly, docsOnly)
	fmt.Fprintf(stdout, "search       all scopes %.2f ms p50, %.2f ms p95, %.2f ms CPU a query; code %.2f ms p50, %.2f ms p95, %.2f ms CPU a query (%d queries x3)\n",
		allP50, allP95, searchCPU[0], codeP50, codeP95, searchCPU[1], len(queries))
	fmt.Fprintf(stdout, "load average %s\n", loadAverage())
	return nil
}

// cpuSeconds is the process's user and system CPU time so far.
func cpuSeconds() float64 {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano()).Seconds()
}

// loadAverage is the system's load averages, from /proc: timings on a
// shared machine are read beside them.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:min(3, len(f))], " ")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// residentMB is the process's resident memory now, from /proc; 0 where
// there is none.
func residentMB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}
