package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// peerStep is one measured command of `bench peers`: a child process,
// timed from start to exit, with its peak resident memory and CPU.
type peerStep struct {
	Tool    string  `json:"tool"`    // fileinfo, cindex, csearch, rg
	What    string  `json:"what"`    // index, search, callers
	Seconds float64 `json:"seconds"` // wall time (the median of the runs for a query)
	CPU     float64 `json:"cpu_s"`   // user and system CPU of that run
	RSSMB   float64 `json:"peak_rss_mb"`
	DiskMB  float64 `json:"disk_mb,omitempty"` // the index on disk, for index steps
	Hits    int     `json:"hits"`              // output lines of a query
	Runs    int     `json:"runs"`
}

// peerReport is what `bench peers` prints as JSON.
type peerReport struct {
	Root   string     `json:"root"`
	Query  string     `json:"query"`
	Symbol string     `json:"symbol,omitempty"`
	Steps  []peerStep `json:"steps"`
	// Ratios are fileinfo's figure over the peer's, by "what/figure/peer"
	// ("index/seconds/cindex", "search/seconds/csearch", ...).
	Ratios map[string]float64 `json:"ratios"`
}

// runBenchPeers measures fileinfo beside Debian's codesearch (cindex,
// csearch: the trigram index zoekt grew from) and ripgrep on one tree in
// one run: index time, peak RSS and disk, then the latency of one query
// from the command line, as a user or an agent pays it. Peers that are
// not installed are left out.
func runBenchPeers(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench peers", "", stderr)
	root := fs.String("root", "", "the tree to index and search `dir` (its .artifacts/.index is rebuilt unless --warm)")
	query := fs.String("query", "", "an identifier to search for (required)")
	symbol := fs.String("symbol", "", "a symbol to ask `fileinfo callers` for (default: none)")
	runs := intFlag(fs, "runs", 5, runsRange, "timed runs of each query; the median is reported")
	warm := fs.Bool("warm", false, "keep fileinfo's saved index: time a warm `fileinfo index` instead of a fresh one")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	self := fs.String("fileinfo", "", "the fileinfo `binary` to measure (default: this one)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *root == "" || *query == "" || fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	dir, err := filepath.Abs(*root)
	if err != nil {
		return err
	}
	bin := *self
	if bin == "" {
		if bin, err = os.Executable(); err != nil {
			return err
		}
	}
	work, err := os.MkdirTemp("", "fileinfo-bench-peers-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	rep, err := benchPeers(ctx, bin, dir, work, *query, *symbol, *runs, *warm, stderr)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	fmt.Fprintf(stdout, "tree %s, query %q", rep.Root, rep.Query)
	if rep.Symbol != "" {
		fmt.Fprintf(stdout, ", callers of %s", rep.Symbol)
	}
	fmt.Fprintln(stdout)
	fmt.Fprintf(stdout, "%-9s %-8s %10s %9s %10s %9s %6s\n", "tool", "what", "wall s", "CPU s", "RSS MB", "disk MB", "hits")
	for _, s := range rep.Steps {
		disk := ""
		if s.What == "index" {
			disk = fmt.Sprintf("%.1f", s.DiskMB)
		}
		fmt.Fprintf(stdout, "%-9s %-8s %10.3f %9.2f %10.1f %9s %6d\n", s.Tool, s.What, s.Seconds, s.CPU, s.RSSMB, disk, s.Hits)
	}
	keys := make([]string, 0, len(rep.Ratios))
	for k := range rep.Ratios {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(stdout, "fileinfo/%-28s %8.2fx\n", k, rep.Ratios[k])
	}
	return nil
}

// benchPeers runs every step; work is a scratch directory (the
// codesearch index goes there).
func benchPeers(ctx context.Context, bin, dir, work, query, symbol string, runs int, warm bool, log io.Writer) (*peerReport, error) {
	rep := &peerReport{Root: dir, Query: query, Symbol: symbol, Ratios: map[string]float64{}}
	index := filepath.Join(dir, ".artifacts", ".index")
	if !warm {
		if err := os.RemoveAll(index); err != nil {
			return nil, err
		}
	}
	fmt.Fprintln(log, "bench peers: fileinfo index")
	st, _, err := measure(ctx, nil, bin, "index", "--root", dir)
	if err != nil {
		return nil, fmt.Errorf("fileinfo index: %w", err)
	}
	st.Tool, st.What, st.DiskMB = "fileinfo", "index", dirMB(index)
	rep.Steps = append(rep.Steps, st)
	if symbol != "" {
		// The first lookup builds the saved graph: not what is timed.
		if _, _, err := measure(ctx, nil, bin, "callers", "--root", dir, symbol); err != nil {
			return nil, fmt.Errorf("fileinfo callers %s: %w", symbol, err)
		}
	}
	csIndex := filepath.Join(work, "csearchindex")
	csEnv := append(os.Environ(), "CSEARCHINDEX="+csIndex)
	_, cerr := exec.LookPath("cindex")
	if cerr == nil {
		fmt.Fprintln(log, "bench peers: cindex")
		st, _, err := measure(ctx, csEnv, "cindex", dir)
		if err != nil {
			return nil, fmt.Errorf("cindex: %w", err)
		}
		st.Tool, st.What, st.DiskMB = "cindex", "index", fileMB(csIndex)
		rep.Steps = append(rep.Steps, st)
	}
	type q struct {
		tool, what string
		env        []string
		name       string
		args       []string
	}
	qs := []q{{"fileinfo", "search", nil, bin, []string{"search", "--root", dir, query}}}
	if symbol != "" {
		qs = append(qs, q{"fileinfo", "callers", nil, bin, []string{"callers", "--root", dir, symbol}})
	}
	if cerr == nil {
		qs = append(qs, q{"csearch", "search", csEnv, "csearch", []string{"-n", query}})
	}
	if _, err := exec.LookPath("rg"); err == nil {
		qs = append(qs, q{"rg", "search", nil, "rg", []string{"-n", "--", query, dir}})
	}
	for _, q := range qs {
		fmt.Fprintf(log, "bench peers: %s %s x%d\n", q.tool, q.what, runs)
		var done []peerStep
		for range runs {
			st, out, err := measure(ctx, q.env, q.name, q.args...)
			if err != nil && !(q.tool != "fileinfo" && isExit1(err)) { // grep tools exit 1 for no match
				return nil, fmt.Errorf("%s %s: %w", q.tool, q.what, err)
			}
			st.Hits = bytes.Count(out, []byte("\n"))
			done = append(done, st)
		}
		slices.SortFunc(done, func(a, b peerStep) int {
			return cmpFloat(a.Seconds, b.Seconds)
		})
		st := done[len(done)/2]
		st.Tool, st.What, st.Runs = q.tool, q.what, runs
		rep.Steps = append(rep.Steps, st)
	}
	ours := map[string]peerStep{}
	for _, s := range rep.Steps {
		if s.Tool == "fileinfo" {
			ours[s.What] = s
		}
	}
	for _, s := range rep.Steps {
		if s.Tool == "fileinfo" {
			continue
		}
		o, ok := ours[s.What]
		if !ok {
			continue
		}
		pre := s.What + "/"
		if s.Seconds > 0 {
			rep.Ratios[pre+"seconds/"+s.Tool] = round3(o.Seconds / s.Seconds)
		}
		if s.RSSMB > 0 {
			rep.Ratios[pre+"rss/"+s.Tool] = round3(o.RSSMB / s.RSSMB)
		}
		if s.What == "index" && s.DiskMB > 0 {
			rep.Ratios[pre+"disk/"+s.Tool] = round3(o.DiskMB / s.DiskMB)
		}
	}
	return rep, nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

func isExit1(err error) bool {
	var ee *exec.ExitError
	return errors.As(err, &ee) && ee.ExitCode() == 1
}

// gnuTime is GNU time, through which measure runs a command when it is
// installed: the peak RSS a Go parent reads of its child (rusage) is
// never below the parent's own at the fork, which shares its memory map
// until the exec; time's own child is forked from a small process.
const gnuTime = "/usr/bin/time"

// measure runs name with args (and env, nil for this process's) and
// returns its wall time, CPU and peak RSS, and its standard output.
func measure(ctx context.Context, env []string, name string, args ...string) (peerStep, []byte, error) {
	var st peerStep
	var stats string
	if _, err := os.Stat(gnuTime); err == nil {
		f, err := os.CreateTemp("", "fileinfo-time-")
		if err != nil {
			return st, nil, err
		}
		f.Close()
		stats = f.Name()
		defer os.Remove(stats)
		args = append([]string{"-f", "%U %S %M", "-o", stats, name}, args...)
		name = gnuTime
	}
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	st.Seconds = round3(time.Since(start).Seconds())
	if ps := cmd.ProcessState; ps != nil {
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
			st.RSSMB = round3(float64(ru.Maxrss) / 1024)
			st.CPU = round3(time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds())
		}
	}
	if stats != "" {
		b, _ := os.ReadFile(stats)
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		var user, sys float64
		var kb int64
		// The last line: time writes "Command exited with non-zero
		// status" before it.
		if _, perr := fmt.Sscanf(lines[len(lines)-1], "%g %g %d", &user, &sys, &kb); perr == nil {
			st.CPU, st.RSSMB = round3(user+sys), round3(float64(kb)/1024)
		}
	}
	if err != nil && !isExit1(err) {
		err = fmt.Errorf("%w: %s", err, bytes.TrimSpace(errb.Bytes()))
	}
	return st, out.Bytes(), err
}

// dirMB is the size of the regular files under dir, in MB.
func dirMB(dir string) float64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return round3(float64(n) / 1e6)
}

func fileMB(p string) float64 {
	info, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return round3(float64(info.Size()) / 1e6)
}
