package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fileinfo/fileinfo/internal/bounded"
)

// `fileinfo bench ccallers` checks the callers of C functions declared in
// headers against a careful count of their call sites (bench_c_truth.go),
// and measures cscope and GNU GLOBAL against the same count in the same
// run. See docs/c-callgraph.md.

// cCheckNames are the functions the check always measures (issue 31).
const cCheckNames = "kthread_should_stop,kstrtobool,list_sort,kvfree,kstrdup,panic,wake_up_process,msleep"

// cSourceFile caps one C file the check reads.
var cSourceFile = bounded.Limit{Kind: "C source file", Max: 16 << 20}

// cSite is a call site: a file and a line.
type cSite struct {
	file string
	line int
}

// cTarget is one function checked: its definition and its call sites.
type cTarget struct {
	name    string
	file    string // of its one definition in the checked directories
	line    int
	truth   map[cSite]int // call site → end line of the enclosing function
	fixed   bool          // named, not sampled
	ours    map[cSite]int // → end line of the caller node
	cscope  map[cSite]bool
	global  map[cSite]bool
	bare    string // what `callers NAME` answers: "" (the definition), or why not
	labels  map[string]int
	ourTime time.Duration
}

// cScore is recall and precision over sites.
type cScore struct {
	Truth, Found, Right int
}

func (s cScore) recall() float64    { return ratio(s.Right, s.Truth) }
func (s cScore) precision() float64 { return ratio(s.Right, s.Found) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

func (s *cScore) add(o cScore) { s.Truth += o.Truth; s.Found += o.Found; s.Right += o.Right }

func runBenchCCallers(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench ccallers", "", stderr)
	root := fs.String("root", "", "the C tree to check, a Linux source tree (required)")
	work := fs.String("work", "", "`dir` for cscope's and GLOBAL's databases, built there when missing (default: fileinfo-ccallers-BASE under the temporary directory)")
	dirList := fs.String("dirs", "kernel,lib,mm,fs", "comma-separated `dirs` whose call sites count")
	names := fs.String("names", cCheckNames, "comma-separated `functions` always checked")
	sample := fs.Int("sample", 40, "`n` more functions, chosen by rule (see docs/c-callgraph.md)")
	minSites := fs.Int("min-sites", 20, "fewest call sites of a sampled function")
	cscopeBin := fs.String("cscope", "cscope", "cscope `binary` (\"\" to skip)")
	globalBin := fs.String("global", "global", "GNU GLOBAL's global `binary` (\"\" to skip); gtags is looked for beside it")
	verbose := fs.Bool("v", false, "list the call sites each tool misses or adds")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *root == "" {
		fmt.Fprintln(stderr, "fileinfo bench ccallers: --root is required")
		return errUsage
	}
	abs, err := filepath.Abs(*root)
	if err != nil {
		return err
	}
	if *work == "" {
		*work = filepath.Join(os.TempDir(), "fileinfo-ccallers-"+filepath.Base(abs))
	}
	if err := os.MkdirAll(*work, 0o755); err != nil {
		return fmt.Errorf("bench ccallers: %w", err)
	}
	var dirs []string
	for _, d := range splitList(*dirList) {
		dirs = append(dirs, strings.Trim(d, "/"))
	}
	files, err := cFiles(abs)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "tree         %s (%d .c and .h files)\n", abs, len(files))
	fmt.Fprintf(stdout, "call sites   in %s\n", strings.Join(dirs, "/, ")+"/")

	start := time.Now()
	truth, err := scanTree(ctx, abs, files, dirs)
	if err != nil {
		return err
	}
	targets, skipped := chooseTargets(truth, splitList(*names), *sample, *minSites)
	for _, s := range skipped {
		fmt.Fprintf(stdout, "not checked  %s\n", s)
	}
	fmt.Fprintf(stdout, "truth        %.1f s (%d functions: %d named, %d sampled)\n", time.Since(start).Seconds(), len(targets), countFixed(targets), len(targets)-countFixed(targets))

	start = time.Now()
	g, ex, err := buildGraph(ctx, abs)
	if err != nil {
		return err
	}
	defer ex.Close()
	fmt.Fprintf(stdout, "fileinfo     %.1f s extract + call graph (%d nodes, %d edges)\n", time.Since(start).Seconds(), g.Len(), len(g.Edges()))
	oursCallers(g, ex, targets, dirs)

	tools := []string{"fileinfo"}
	if *cscopeBin != "" {
		d, built, err := cscopeDB(ctx, *cscopeBin, abs, *work, files)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "cscope       %s\n", dbNote(d, built))
		for _, t := range targets {
			if t.cscope, err = cscopeCallers(ctx, *cscopeBin, abs, *work, t.name, dirs); err != nil {
				return err
			}
		}
		tools = append(tools, "cscope")
	}
	if *globalBin != "" {
		gtags := filepath.Join(filepath.Dir(*globalBin), "gtags")
		if !strings.ContainsRune(*globalBin, os.PathSeparator) {
			gtags = "gtags"
		}
		d, built, err := gtagsDB(ctx, gtags, abs, *work, files)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "GLOBAL       %s\n", dbNote(d, built))
		for _, t := range targets {
			if t.global, err = globalRefs(ctx, *globalBin, abs, *work, t.name, dirs); err != nil {
				return err
			}
		}
		tools = append(tools, "GLOBAL")
	}
	report(stdout, targets, tools, *verbose)
	return nil
}

func countFixed(ts []*cTarget) int {
	n := 0
	for _, t := range ts {
		if t.fixed {
			n++
		}
	}
	return n
}

func dbNote(d time.Duration, built bool) string {
	if built {
		return fmt.Sprintf("database built in %.1f s", d.Seconds())
	}
	return "database reused"
}
