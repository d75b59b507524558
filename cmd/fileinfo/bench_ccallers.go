package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/bounded"
	"github.com/fileinfo/fileinfo/internal/lookup"
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

// cFiles lists the .c and .h files under root, slash paths, sorted; .git
// and other dot directories are left out.
func cFiles(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && (strings.HasSuffix(p, ".c") || strings.HasSuffix(p, ".h")) {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("bench ccallers: list %s: %w", root, err)
	}
	sort.Strings(out)
	return out, nil
}

func inDirs(p string, dirs []string) bool {
	for _, d := range dirs {
		if strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

// cTree is the truth scanner's view of the tree.
type cTree struct {
	sites  map[string]map[cSite]int // name → call site → end line of its function
	protos map[string]bool          // names declared in headers under include/
	defs   map[string][]cDef        // definitions in .c files of the checked dirs
}

type cDef struct {
	file   string
	line   int
	static bool
}

// scanTree scans the files of dirs (call sites, definitions) and the
// headers under include/ (prototypes), on every core.
func scanTree(ctx context.Context, root string, files, dirs []string) (*cTree, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("bench ccallers: %w", err)
	}
	defer r.Close()
	var todo []string
	for _, f := range files {
		if inDirs(f, dirs) || strings.HasPrefix(f, "include/") && strings.HasSuffix(f, ".h") {
			todo = append(todo, f)
		}
	}
	scans := make([]*cTruthFile, len(todo))
	eg, ctx := errgroup.WithContext(ctx)
	eg.SetLimit(runtime.GOMAXPROCS(0)) // lexing is CPU-bound
	for i, f := range todo {
		eg.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			src, err := bounded.ReadFileIn(r, filepath.FromSlash(f), cSourceFile)
			if err != nil {
				var skip *bounded.SkipError
				if errors.As(err, &skip) {
					return nil // not a regular file, or too big: not C the check can read
				}
				return fmt.Errorf("bench ccallers: read %s: %w", f, err)
			}
			scans[i] = scanCTruth(src)
			return nil
		})
	}
	if err := eg.Wait(); err != nil {
		return nil, err
	}
	t := &cTree{sites: map[string]map[cSite]int{}, protos: map[string]bool{}, defs: map[string][]cDef{}}
	for i, f := range todo {
		s := scans[i]
		if s == nil {
			continue
		}
		if !inDirs(f, dirs) {
			for _, p := range s.protos {
				t.protos[p] = true
			}
			continue
		}
		for _, c := range s.calls {
			m := t.sites[c.name]
			if m == nil {
				m = map[cSite]int{}
				t.sites[c.name] = m
			}
			m[cSite{f, c.line}] = s.funcs[c.fn].end
		}
		if strings.HasSuffix(f, ".c") {
			for _, fn := range s.funcs {
				t.defs[fn.name] = append(t.defs[fn.name], cDef{f, fn.line, fn.static})
			}
		}
	}
	return t, nil
}

// chooseTargets returns the named functions and a sample of others: the
// functions declared in a header under include/, defined once in a .c
// file of the checked dirs (not static), with at least minSites call
// sites there, the first n by FNV-1a hash of their names. Named
// functions that break the first two conditions are skipped, with why.
func chooseTargets(t *cTree, names []string, n, minSites int) (out []*cTarget, skipped []string) {
	ok := func(name string) (cDef, string) {
		defs := t.defs[name]
		switch {
		case !t.protos[name]:
			return cDef{}, "no prototype in include/"
		case len(defs) != 1:
			return cDef{}, fmt.Sprintf("%d definitions in the checked dirs", len(defs))
		case defs[0].static:
			return cDef{}, "static"
		}
		return defs[0], ""
	}
	add := func(name string, d cDef, fixed bool) {
		out = append(out, &cTarget{name: name, file: d.file, line: d.line, truth: t.sites[name], fixed: fixed})
	}
	for _, name := range names {
		d, why := ok(name)
		if why != "" {
			skipped = append(skipped, name+": "+why)
			continue
		}
		add(name, d, true)
	}
	type cand struct {
		name string
		hash uint32
	}
	var cands []cand
	for name := range t.protos {
		if slices.Contains(names, name) || len(t.sites[name]) < minSites {
			continue
		}
		if _, why := ok(name); why != "" {
			continue
		}
		h := fnv.New32a()
		h.Write([]byte(name))
		cands = append(cands, cand{name, h.Sum32()})
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].hash != cands[j].hash {
			return cands[i].hash < cands[j].hash
		}
		return cands[i].name < cands[j].name
	})
	for _, c := range cands[:min(n, len(cands))] {
		d, _ := ok(c.name)
		add(c.name, d, false)
	}
	return out, skipped
}

// buildGraph extracts root and builds its call graph, in this process.
func buildGraph(ctx context.Context, root string) (*callgraph.Graph, *extract.Extractor, error) {
	ex, err := extract.New(root, extract.Options{Languages: []string{"c", "cpp"}})
	if err != nil {
		return nil, nil, err
	}
	files, _, err := ex.All(ctx)
	if err != nil {
		ex.Close()
		return nil, nil, err
	}
	g, err := callgraph.BuildContext(ctx, files)
	if err != nil {
		ex.Close()
		return nil, nil, err
	}
	return g, ex, nil
}

// oursCallers fills each target's call sites from the graph: the edges
// into its definition node, and what `fileinfo callers NAME` answers.
func oursCallers(g *callgraph.Graph, ex *extract.Extractor, targets []*cTarget, dirs []string) {
	ix := lookup.New(g, func(string) *extract.File { return nil })
	for _, t := range targets {
		t.ours, t.labels = map[cSite]int{}, map[string]int{}
		var def callgraph.SymbolID
		found := false
		for _, id := range g.InFile(t.file) {
			if n := g.Node(id); n.Name == t.name && n.Kind == extract.KindFunction && !n.Declaration {
				def, found = id, true
				break
			}
		}
		if !found {
			t.bare = "no definition node in " + t.file
			continue
		}
		start := time.Now()
		ids, err := ix.Resolve(t.name)
		t.ourTime = time.Since(start)
		switch {
		case err != nil:
			t.bare = strings.SplitN(err.Error(), ";", 2)[0]
		case !slices.Contains(ids, def):
			t.bare = "names " + g.Node(ids[0]).Qualified
		}
		for _, e := range g.Callers(def) {
			if !inDirs(e.File, dirs) {
				continue
			}
			t.ours[cSite{e.File, e.Line}] = g.Node(e.Caller).EndLine
			t.labels[string(e.Resolution)]++
		}
	}
}

// cscopeDB builds cscope's database of files in work unless it is there.
func cscopeDB(ctx context.Context, bin, root, work string, files []string) (time.Duration, bool, error) {
	db := filepath.Join(work, "cscope.out")
	if _, err := os.Stat(db); err == nil {
		return 0, false, nil
	}
	list := filepath.Join(work, "cscope.files")
	if err := os.WriteFile(list, []byte(strings.Join(files, "\n")+"\n"), 0o644); err != nil {
		return 0, false, err
	}
	cmd := exec.CommandContext(ctx, bin, "-b", "-q", "-k", "-i", list, "-f", db)
	cmd.Dir = root
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		return 0, false, fmt.Errorf("cscope: build its database: %v: %s (pass --cscope '' to skip)", err, out)
	}
	return time.Since(start), true, nil
}

// cscopeCallers asks cscope for the functions calling name (its query
// 3): each answer line is "file function line text".
func cscopeCallers(ctx context.Context, bin, root, work, name string, dirs []string) (map[cSite]bool, error) {
	cmd := exec.CommandContext(ctx, bin, "-d", "-L", "-3", name, "-f", filepath.Join(work, "cscope.out"))
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("cscope -L -3 %s: %w", name, err)
	}
	sites := map[cSite]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 3 {
			continue
		}
		line, err := strconv.Atoi(f[2])
		if err != nil || !inDirs(f[0], dirs) {
			continue
		}
		sites[cSite{f[0], line}] = true
	}
	return sites, nil
}

// gtagsDB builds GLOBAL's database of files in work/gtags unless it is
// there.
func gtagsDB(ctx context.Context, bin, root, work string, files []string) (time.Duration, bool, error) {
	dir := filepath.Join(work, "gtags")
	if _, err := os.Stat(filepath.Join(dir, "GTAGS")); err == nil {
		return 0, false, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, false, err
	}
	list := filepath.Join(work, "gtags.files")
	if err := os.WriteFile(list, []byte(strings.Join(files, "\n")+"\n"), 0o644); err != nil {
		return 0, false, err
	}
	cmd := exec.CommandContext(ctx, bin, "-f", list, dir)
	cmd.Dir = root
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		return 0, false, fmt.Errorf("gtags: build its database: %v: %s (pass --global '' to skip)", err, out)
	}
	return time.Since(start), true, nil
}

// globalRefs asks GLOBAL for the references to name (global -rx): GLOBAL
// has no callers query, its references are what a user reads as such.
// Each line is "name line file text".
func globalRefs(ctx context.Context, bin, root, work, name string, dirs []string) (map[cSite]bool, error) {
	cmd := exec.CommandContext(ctx, bin, "-r", "-x", name)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GTAGSROOT="+root, "GTAGSDBPATH="+filepath.Join(work, "gtags"))
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) { // 1: nothing found
		return nil, fmt.Errorf("global -rx %s: %w", name, err)
	}
	sites := map[cSite]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 3 || f[0] != name {
			continue
		}
		line, err := strconv.Atoi(f[1])
		if err != nil || !inDirs(f[2], dirs) {
			continue
		}
		sites[cSite{f[2], line}] = true
	}
	return sites, nil
}

// score compares a tool's sites with the truth; for fileinfo (ends not
// nil) a site is right only if its caller also ends where the truth's
// enclosing function does: the function is the right one.
func score(truth map[cSite]int, sites map[cSite]bool, ends map[cSite]int) cScore {
	s := cScore{Truth: len(truth), Found: len(sites)}
	for site := range sites {
		end, ok := truth[site]
		if ok && (ends == nil || ends[site] == end) {
			s.Right++
		}
	}
	return s
}

func keys(m map[cSite]int) map[cSite]bool {
	out := make(map[cSite]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

// report prints one line per function and the totals.
func report(w io.Writer, targets []*cTarget, tools []string, verbose bool) {
	fmt.Fprintf(w, "\n%-28s %6s", "function", "sites")
	for _, t := range tools {
		fmt.Fprintf(w, "  %-13s", t+" R/P")
	}
	fmt.Fprintf(w, "  %s\n", "fileinfo callers NAME")
	totals := make([]cScore, len(tools))
	fixedTotals := make([]cScore, len(tools))
	labels := map[string]int{}
	bare := 0
	for _, t := range targets {
		name := t.name
		if !t.fixed {
			name += " *"
		}
		fmt.Fprintf(w, "%-28s %6d", name, len(t.truth))
		for i, tool := range tools {
			var s cScore
			switch tool {
			case "fileinfo":
				s = score(t.truth, keys(t.ours), t.ours)
			case "cscope":
				s = score(t.truth, t.cscope, nil)
			case "GLOBAL":
				s = score(t.truth, t.global, nil)
			}
			totals[i].add(s)
			if t.fixed {
				fixedTotals[i].add(s)
			}
			fmt.Fprintf(w, "  %5.3f/%5.3f  ", s.recall(), s.precision())
		}
		answer := "answers"
		if t.bare != "" {
			answer = t.bare
		} else {
			bare++
		}
		fmt.Fprintf(w, "  %s\n", answer)
		for l, n := range t.labels {
			labels[l] += n
		}
	}
	for _, row := range []struct {
		name string
		s    []cScore
	}{{"named", fixedTotals}, {"all", totals}} {
		fmt.Fprintf(w, "%-28s %6d", "total, "+row.name, row.s[0].Truth)
		for _, s := range row.s {
			fmt.Fprintf(w, "  %5.3f/%5.3f  ", s.recall(), s.precision())
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\n`fileinfo callers NAME` answers by the bare name for %d of %d functions\n", bare, len(targets))
	var ls []string
	for l, n := range labels {
		ls = append(ls, fmt.Sprintf("%s %d", l, n))
	}
	sort.Strings(ls)
	fmt.Fprintf(w, "fileinfo's edges by label: %s\n", strings.Join(ls, ", "))
	fmt.Fprintln(w, "(* sampled by rule; R/P: recall/precision over call sites; fileinfo's site is right only with the right caller)")
	if verbose {
		for _, t := range targets {
			listDiff(w, t.name+" fileinfo", t.truth, keys(t.ours), t.ours)
			if t.cscope != nil {
				listDiff(w, t.name+" cscope", t.truth, t.cscope, nil)
			}
		}
	}
}

// listDiff prints the sites a tool missed and those it added.
func listDiff(w io.Writer, what string, truth map[cSite]int, sites map[cSite]bool, ends map[cSite]int) {
	var lines []string
	for s, end := range truth {
		if !sites[s] {
			lines = append(lines, fmt.Sprintf("  missed %s:%d", s.file, s.line))
		} else if ends != nil && ends[s] != end {
			lines = append(lines, fmt.Sprintf("  wrong caller %s:%d (ends at %d, not %d)", s.file, s.line, ends[s], end))
		}
	}
	for s := range sites {
		if _, ok := truth[s]; !ok {
			lines = append(lines, fmt.Sprintf("  added %s:%d", s.file, s.line))
		}
	}
	if len(lines) == 0 {
		return
	}
	sort.Strings(lines)
	fmt.Fprintf(w, "%s:\n%s\n", what, strings.Join(lines, "\n"))
}
