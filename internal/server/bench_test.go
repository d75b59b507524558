package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fileinfo/fileinfo/internal/watch"
)

// xtoolsModule is the real repository the benchmarks run on.
const xtoolsModule = "golang.org/x/tools@v0.39.0"

var xtools struct {
	once sync.Once
	dir  string
	err  error
}

// removeXtoolsCopy removes the copy xtoolsCopy made, if it made one.
func removeXtoolsCopy() {
	if xtools.dir != "" {
		os.RemoveAll(filepath.Dir(xtools.dir))
	}
}

// xtoolsCopy returns a writable copy of golang.org/x/tools@v0.39.0 (the
// module cache is read-only, and file_info writes artifacts), made once
// per test binary; it skips tb when the module cannot be fetched.
func xtoolsCopy(tb testing.TB) string {
	tb.Helper()
	xtools.once.Do(func() {
		cmd := exec.Command("go", "mod", "download", "-json", xtoolsModule)
		cmd.Dir = os.TempDir() // outside any module: go.mod and go.sum stay untouched
		cmd.Env = append(os.Environ(), "GOWORK=off")
		out, err := cmd.Output()
		var m struct{ Dir, Error string }
		if err == nil {
			err = json.Unmarshal(out, &m)
		}
		if err != nil || m.Dir == "" {
			xtools.err = err
			return
		}
		dir, err := os.MkdirTemp("", "fileinfo-bench-xtools-")
		if err != nil {
			xtools.err = err
			return
		}
		xtools.dir = filepath.Join(dir, "tools")
		xtools.err = os.CopyFS(xtools.dir, os.DirFS(m.Dir))
		if xtools.err == nil {
			xtools.err = ageFiles(xtools.dir)
		}
	})
	if xtools.dir == "" || xtools.err != nil {
		tb.Skipf("%s not available: %v", xtoolsModule, xtools.err)
	}
	return xtools.dir
}

// ageFiles dates every file under root an hour back, as a checkout's
// files are: the saved graph trusts a file's time stamp only once it is
// out of the racy window (see graphstore), so a fresh copy would have
// every file hashed at every start.
func ageFiles(root string) error {
	old := time.Now().Add(-time.Hour)
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return os.Chtimes(p, old, old)
	})
}

// startAndAsk starts a server on root, connects a client and calls
// file_info on path once, returning the session.
func startAndAsk(tb testing.TB, ctx context.Context, root, path string) (*Server, *mcp.ClientSession) {
	srv, err := New(ctx, Options{Root: root, Logger: benchLogger()})
	if err != nil {
		tb.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	if _, err := srv.MCP().Connect(ctx, st, nil); err != nil {
		tb.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		tb.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "file_info", Arguments: map[string]any{"path": path}})
	if err != nil || res.IsError {
		tb.Fatalf("file_info(%s): %v %v", path, err, res)
	}
	return srv, cs
}

// BenchmarkFileInfoWarm calls file_info on a 1,873-line file of
// golang.org/x/tools (go/ssa/ssa.go, 150 symbols, callers from all over
// the module) on a loaded server, through an MCP client over in-memory
// transports; the bar is a p50 of 20 ms. refresh is set, so every
// call builds the whole prompt.
func BenchmarkFileInfoWarm(b *testing.B) {
	for _, path := range []string{"go/ssa/ssa.go", "internal/imports/fix.go"} {
		b.Run(filepath.Base(path), func(b *testing.B) {
			root := xtoolsCopy(b)
			ctx := b.Context()
			srv, cs := startAndAsk(b, ctx, root, path)
			defer srv.Close()
			defer cs.Close()
			args := map[string]any{"path": path, "refresh": true}
			var times []time.Duration
			for b.Loop() {
				start := time.Now()
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "file_info", Arguments: args})
				if err != nil || res.IsError {
					b.Fatalf("file_info: %v %v", err, res)
				}
				times = append(times, time.Since(start))
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(times[len(times)*95/100].Microseconds())/1000, "p95-ms")
		})
	}
}

// BenchmarkStartup measures a server's start on golang.org/x/tools to its
// first file_info answer, from the state a first start saved under
// .artifacts/.index (the saved graph restored, the doc index loaded).
// Issue 23's bar is 0.5 s.
func BenchmarkStartup(b *testing.B) {
	root := xtoolsCopy(b)
	startOnce(b, root) // saves the state every timed start reads
	var times []time.Duration
	for b.Loop() {
		times = append(times, startOnce(b, root))
	}
	reportFirstAnswer(b, times)
}

// reportFirstAnswer reports the median time from New to the first
// answer: b's ns/op also counts closing the server, which waits for the
// background work the start began.
func reportFirstAnswer(b *testing.B, times []time.Duration) {
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "first-answer-ms")
}

// BenchmarkStartupFresh is BenchmarkStartup without the saved graph:
// extraction of ~1,600 files, the call graph, the prompt. The bar of
// the first issue was 3 s.
func BenchmarkStartupFresh(b *testing.B) {
	root := xtoolsCopy(b)
	saved := filepath.Join(root, ".artifacts", ".index", "graph.bin")
	var times []time.Duration
	for b.Loop() {
		b.StopTimer()
		if err := os.Remove(saved); err != nil && !errors.Is(err, fs.ErrNotExist) {
			b.Fatal(err)
		}
		b.StartTimer()
		times = append(times, startOnce(b, root))
	}
	reportFirstAnswer(b, times)
}

// startOnce starts a server on root, asks file_info on go/ssa/ssa.go and
// closes the server; it returns the time to the answer.
func startOnce(b *testing.B, root string) time.Duration {
	ctx, cancel := context.WithCancel(b.Context())
	defer cancel()
	start := time.Now()
	if benchLogger() != nil {
		fmt.Fprintln(os.Stderr, "START", start.Format(time.RFC3339Nano))
	}
	srv, cs := startAndAsk(b, ctx, root, "go/ssa/ssa.go")
	took := time.Since(start)
	if benchLogger() != nil {
		fmt.Fprintln(os.Stderr, "ANSWER", time.Now().Format(time.RFC3339Nano))
	}
	cs.Close()
	srv.Close()
	return took
}

// BenchmarkSaveToFileInfo measures, on golang.org/x/tools with the
// watcher on (default 100 ms debounce), the time from saving a file that
// adds a call of inspector.New to file_info on go/ast/inspector/inspector.go
// listing the new caller. The bar is a p95 of 300 ms. Each save
// is a write of the whole file, as an editor's.
func BenchmarkSaveToFileInfo(b *testing.B) {
	root := xtoolsCopy(b)
	const caller, target = "go/analysis/passes/bools/bools.go", "go/ast/inspector/inspector.go"
	ctx := b.Context()
	srv, cs := startAndAsk(b, ctx, root, target)
	defer srv.Close()
	defer cs.Close()
	for srv.workspace().watchState().Mode != watch.Events {
		time.Sleep(time.Millisecond)
	}
	orig, err := os.ReadFile(filepath.Join(root, caller))
	if err != nil {
		b.Fatal(err)
	}
	defer os.WriteFile(filepath.Join(root, caller), orig, 0o644)
	var times []time.Duration
	i := 0
	for b.Loop() {
		i++
		probe := fmt.Sprintf("probe%d", i)
		src := fmt.Sprintf("%s\nfunc %s() { inspector.New(nil) }\n", orig, probe)
		start := time.Now()
		if err := os.WriteFile(filepath.Join(root, caller), []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
		for {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "file_info", Arguments: map[string]any{"path": target, "refresh": true}})
			if err != nil || res.IsError {
				b.Fatalf("file_info: %v %v", err, res)
			}
			if strings.Contains(text(res), probe) {
				break
			}
			if time.Since(start) > 10*time.Second {
				b.Fatalf("%s never appeared among the callers", probe)
			}
			time.Sleep(2 * time.Millisecond)
		}
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(times[len(times)*95/100].Microseconds())/1000, "p95-ms")
}

// benchLogger logs to stderr when FILEINFO_BENCH_LOG is set.
func benchLogger() *slog.Logger {
	if os.Getenv("FILEINFO_BENCH_LOG") == "" {
		return nil
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
}
