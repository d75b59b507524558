package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fileinfo/fileinfo/internal/graphstore"
)

// serveRun is what one start of `fileinfo serve` measured.
type serveRun struct {
	firstAnswer time.Duration // process start to the first file_info answer
	loaded      time.Duration // process start to index_status saying the load is over
	settled     time.Duration // process start to the server's CPU going idle
	rssLoaded   int64         // resident KB when loaded
	rssSettled  int64         // resident KB when settled
	peak        int64         // the process's peak resident KB (VmHWM) when settled
	saved       bool          // a saved graph was there at the start

	// After the calls: resident KB, of it anonymous (the heap, the
	// parsers') and file-backed (the mapped indexes' pages read, which
	// the kernel may take back), and the peak (VmHWM) then.
	rssCalls, anonCalls, fileCalls, peakCalls int64

	// Once settled, the round trips of calls over stdio, sorted: of
	// search_docs, through queries in turn, and of file_info on the file.
	search, fileInfo []time.Duration
	queries          int
	// The server's CPU time over those calls, divided by their number: on
	// a loaded machine, steadier than the round trips.
	searchCPU, fileInfoCPU time.Duration
	// With a symbol to ask about (see symbolRun), before file_info.
	sym *symbolRun
}

// runBenchServe measures `fileinfo serve` as a client meets it: a real
// process on stdio, asked file_info on one file as soon as it is up,
// then index_status until the load is over and CPU until the background
// work (doc and code index) is done. The first run can start without
// the saved graph (--fresh); later runs start from the state the one
// before saved.
func runBenchServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench serve", "[DIR]", stderr)
	root := fs.String("root", "", "workspace `dir` to serve (required)")
	file := fs.String("file", "", "the `path` file_info is asked about, relative to the root (required)")
	runs := intFlag(fs, "runs", 2, runsRange, "`n` starts of the server, one after the other")
	fresh := fs.Bool("fresh", false, "remove the saved graph before the first run")
	extra := fs.String("serve-flags", "", "more `flags` for serve, space-separated (e.g. \"--no-deps\")")
	logTo := fs.String("log", "", "append the servers' debug logs to `file`")
	server := fs.String("server", "", "the fileinfo `binary` to start (default: this one), e.g. an older build to compare with")
	idle := durationFlag(fs, "idle", 2*time.Second, idleRange, "how `long` the server's CPU must stay under 5% to count as settled")
	calls := intFlag(fs, "calls", 50, callsRange, "once settled, time `n` calls of search_docs (the file's symbol names and their words, in turn) and n of file_info on the file; 0: none")
	symbol := fs.String("symbol", "", "first ask find_symbol, search_docs and callers about this `name`, timing each first correct answer, and once settled time calls of callers on it")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if err := rootArg(fs, root, pos); err != nil {
		return err
	}
	if *root == "" || *file == "" {
		fs.Usage()
		return errUsage
	}
	self := *server
	if self == "" {
		var err error
		if self, err = os.Executable(); err != nil {
			return err
		}
	}
	saved := filepath.Join(*root, ".artifacts", ".index", graphstore.FileName)
	if *fresh {
		for _, f := range []string{saved, filepath.Join(filepath.Dir(saved), graphstore.SymbolsFile)} {
			if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
		}
	}
	fmt.Fprintf(stdout, "workload  %s, file_info %s\n", *root, *file)
	for i := range max(*runs, 1) {
		_, err := os.Stat(saved)
		flags := strings.Fields(*extra)
		if *logTo != "" {
			flags = append(flags, "--log-level", "debug")
		}
		var log io.Writer = io.Discard
		if *logTo != "" {
			f, err := os.OpenFile(*logTo, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				return err
			}
			defer f.Close()
			log = f
		}
		r, err := benchServeOnce(ctx, self, *root, *file, *symbol, flags, *idle, *calls, err == nil, log)
		if err != nil {
			return fmt.Errorf("run %d: %w", i+1, err)
		}
		fmt.Fprintf(stdout, "run %d  saved graph %-3s  first file_info %7.2f s  loaded %7.2f s  settled %7.2f s  RSS loaded %6.0f MB  settled %6.0f MB  peak %6.0f MB\n",
			i+1, yesNo(r.saved), r.firstAnswer.Seconds(), r.loaded.Seconds(), r.settled.Seconds(),
			float64(r.rssLoaded)/1024, float64(r.rssSettled)/1024, float64(r.peak)/1024)
		if r.sym != nil {
			r.sym.print(stdout, i+1, *calls)
		}
		if *calls > 0 {
			fmt.Fprintf(stdout, "run %d  settled, %d calls each  search_docs p50 %6.2f ms  p90 %6.2f ms  CPU %6.2f ms a call  (%d queries)  file_info p50 %6.2f ms  p90 %6.2f ms  CPU %6.2f ms a call\n",
				i+1, *calls, ms(quantile(r.search, 0.5)), ms(quantile(r.search, 0.9)), ms(r.searchCPU), r.queries,
				ms(quantile(r.fileInfo, 0.5)), ms(quantile(r.fileInfo, 0.9)), ms(r.fileInfoCPU))
			// What the calls brought in: the settled RSS is taken before them.
			fmt.Fprintf(stdout, "run %d  after the calls  RSS %6.0f MB  (anonymous %6.0f MB, file-backed %6.0f MB)  peak %6.0f MB\n",
				i+1, float64(r.rssCalls)/1024, float64(r.anonCalls)/1024, float64(r.fileCalls)/1024, float64(r.peakCalls)/1024)
		}
	}
	return nil
}

// quantile is the q quantile of sorted ds (nearest rank); 0 for none.
func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	return ds[min(len(ds)-1, int(q*float64(len(ds))))]
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// benchServeOnce starts the server once and measures it; the server's
// log goes to log, and the end of it into an error.
func benchServeOnce(ctx context.Context, self, root, file, symbol string, extra []string, idle time.Duration, calls int, saved bool, log io.Writer) (r serveRun, err error) {
	r.saved = saved
	var tail bytes.Buffer
	defer func() {
		if err != nil && tail.Len() > 0 {
			b := tail.Bytes()
			err = fmt.Errorf("%w\nthe server's log ends:\n%s", err, b[max(0, len(b)-2000):])
		}
	}()
	cmd := exec.CommandContext(ctx, self, append([]string{"serve", "--root", root}, extra...)...)
	cmd.Stderr = io.MultiWriter(log, &tail)
	client := mcp.NewClient(&mcp.Implementation{Name: "fileinfo-bench", Version: version()}, nil)
	start := time.Now()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return r, err
	}
	defer cs.Close()
	if symbol != "" {
		if r.sym, err = firstSymbolAnswers(ctx, cs, symbol, start); err != nil {
			return r, err
		}
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "file_info", Arguments: map[string]any{"path": file}})
	if err != nil {
		return r, err
	}
	if res.IsError {
		return r, fmt.Errorf("file_info %s: %s", file, toolText(res))
	}
	r.firstAnswer = time.Since(start)
	queries := benchQueries(res)
	pid := cmd.Process.Pid
	for {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "index_status", Arguments: map[string]any{}})
		if err != nil {
			return r, err
		}
		if m, ok := res.StructuredContent.(map[string]any); ok && m["loading"] != true {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	r.loaded = time.Since(start)
	r.rssLoaded = procStatusKB(pid, "VmRSS")[0]
	// Settled: the CPU the server used stays under 5% for idle.
	last, quiet := procCPU(pid), time.Duration(0)
	const tick = 250 * time.Millisecond
	for quiet < idle {
		time.Sleep(tick)
		now := procCPU(pid)
		if now-last < tick/20 {
			quiet += tick
		} else {
			quiet = 0
		}
		last = now
	}
	r.settled = time.Since(start) - idle
	kb := procStatusKB(pid, "VmRSS", "VmHWM")
	r.rssSettled, r.peak = kb[0], kb[1]
	if calls > 0 && r.sym != nil {
		cpu := procCPU(pid)
		if r.sym.callers, err = timeCalls(ctx, cs, calls, func(int) map[string]any {
			return map[string]any{"symbol": symbol}
		}, "callers"); err != nil {
			return r, err
		}
		r.sym.callersCPU = (procCPU(pid) - cpu) / time.Duration(calls)
	}
	if calls > 0 {
		r.queries = len(queries)
		cpu := procCPU(pid)
		if r.search, err = timeCalls(ctx, cs, calls, func(i int) map[string]any {
			return map[string]any{"query": queries[i%len(queries)]}
		}, "search_docs"); err != nil {
			return r, err
		}
		r.searchCPU, cpu = (procCPU(pid)-cpu)/time.Duration(calls), procCPU(pid)
		if r.fileInfo, err = timeCalls(ctx, cs, calls, func(int) map[string]any {
			return map[string]any{"path": file}
		}, "file_info"); err != nil {
			return r, err
		}
		r.fileInfoCPU = (procCPU(pid) - cpu) / time.Duration(calls)
		kb := procStatusKB(pid, "VmRSS", "RssAnon", "RssFile", "VmHWM")
		r.rssCalls, r.anonCalls, r.fileCalls, r.peakCalls = kb[0], kb[1], kb[2], kb[3]
	}
	cs.Close()
	cmd.Wait()
	return r, nil
}

// timeCalls calls tool n times with args(i) and returns the round trips,
// sorted. A tool error is an error: a refused call is not a measurement.
func timeCalls(ctx context.Context, cs *mcp.ClientSession, n int, args func(i int) map[string]any, tool string) ([]time.Duration, error) {
	ds := make([]time.Duration, 0, n)
	for i := range n {
		a := args(i)
		start := time.Now()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: a})
		if err != nil {
			return nil, fmt.Errorf("%s %v: %w", tool, a, err)
		}
		ds = append(ds, time.Since(start))
		if res.IsError {
			return nil, fmt.Errorf("%s %v: %s", tool, a, toolText(res))
		}
	}
	slices.Sort(ds)
	return ds, nil
}

// benchQueries are the search_docs queries of a run: the names of the
// symbols file_info's answer lists (an identifier search), and each
// one's words ("ParseAmount" also as "parse amount", a search in words).
// Never empty.
func benchQueries(res *mcp.CallToolResult) []string {
	var names []string
	if m, ok := res.StructuredContent.(map[string]any); ok {
		if syms, ok := m["symbols"].([]any); ok {
			for _, v := range syms {
				if name, ok := v.(string); ok {
					names = append(names, name)
				}
			}
		}
	}
	var qs []string
	seen := map[string]bool{}
	add := func(q string) {
		if q = strings.TrimSpace(q); q != "" && !seen[q] {
			seen[q] = true
			qs = append(qs, q)
		}
	}
	for _, name := range names {
		add(name)
		add(splitWords(name))
	}
	if len(qs) == 0 {
		qs = []string{"main"}
	}
	return qs
}

// splitWords writes an identifier in lower-case words: "Store.putAll_now"
// is "store put all now".
func splitWords(id string) string {
	var b strings.Builder
	prevLower := false
	for _, r := range id {
		switch {
		case r == '.' || r == '_' || r == '-':
			b.WriteByte(' ')
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			b.WriteByte(' ')
		}
		b.WriteRune(unicode.ToLower(r))
		prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// toolText is the text content of a tool's result.
func toolText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// procStatusKB reads the "Name: N kB" lines of names from
// /proc/PID/status (Linux) in one read, so that they are of one moment;
// a line that cannot be read or is not there gives 0.
func procStatusKB(pid int, names ...string) []int64 {
	out := make([]int64, len(names))
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return out
	}
	for _, line := range strings.Split(string(data), "\n") {
		for i, name := range names {
			if v, ok := strings.CutPrefix(line, name+":"); ok {
				out[i], _ = strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			}
		}
	}
	return out
}

// procCPU is the user and system CPU time process pid has used, from
// /proc/PID/stat (clock ticks of 10 ms); 0 when it cannot be read.
func procCPU(pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command name, field 2, may hold spaces: count from its ')'.
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond
}
