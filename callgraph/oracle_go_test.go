package callgraph

// The Go oracle: the call graph golang.org/x/tools computes for a module
// (go/packages → go/ssa → callgraph/static), reduced to edges between
// functions the module declares and named the way package extract names
// them, so that it can be compared edge for edge with this package's graph.
//
// callgraph/static adds an edge for every call whose callee SSA knows
// statically (StaticCallee), but only in functions it reaches from
// package-level functions and methods of non-generic package-level types
// by following such calls. It never looks inside a closure that is used as
// a value (a callback, a goroutine body stored first, a range-over-func
// loop body, a package-level var holding a func literal) or a method of a
// generic type nobody calls statically. Source-level call graphs see those
// calls, so goOracle also walks every function the module declares, with
// the same rule, and keeps both sets.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/callgraph/static"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
	"golang.org/x/tools/txtar"
)

// goOracleLoadMode is what ssautil.AllPackages needs: syntax and types for
// every package, dependencies included.
const goOracleLoadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedDeps | packages.NeedSyntax |
	packages.NeedTypes | packages.NeedTypesInfo | packages.NeedTypesSizes | packages.NeedModule

// goOracleEnvError matches the go command's errors that say the machine
// cannot fetch or cache modules, as opposed to errors in the code loaded
// (a missing package, a type error), which fail the test.
var goOracleEnvError = regexp.MustCompile(`(?i)GOPROXY|GOFLAGS=-mod=mod|proxy\.|dial tcp|no such host|connection|timeout|timed out|download|missing go\.sum|verifying|GOCACHE|GOMODCACHE|\$HOME|read-only|permission denied`)

// goOracle is the reference call graph of one Go module. Edges are
// "caller -> callee" with both ends qualified as package extract
// qualifies Go symbols.
type goOracle struct {
	Module   string          // module path
	Packages int             // packages loaded, dependencies included
	Own      int             // packages of the module (./... without tests)
	Pkgs     map[string]bool // import paths of the module's packages
	Files    map[string]bool // the module's Go files in this build configuration, relative to its root

	// Static holds the edges of callgraph/static.CallGraph.
	Static map[string]bool
	// Edges holds Static plus the static calls made in functions
	// callgraph/static never visits (see the file comment).
	Edges map[string]bool
	// Dynamic holds the edges of calls through interfaces, each to every
	// method of a module type implementing the interface
	// (oracle_iface_test.go); Edges has none of them.
	Dynamic map[string]bool

	Load, Build time.Duration
}

// goOracleEdges loads the Go module rooted at dir (./..., no tests) with
// go/packages (dependencies from source too), builds SSA for the module's
// packages, runs callgraph/static.CallGraph, and returns the module path
// and the edges between functions declared in the module's packages:
// callgraph/static's edges plus the static calls in closures and methods
// it never visits (goOracle.Edges). Names follow package extract:
//
//   - "<pkg>.<Func>", "<pkg>.<Type>.<Method>" with the receiver type
//     without '*' or type parameters; generic instances map to their
//     origin;
//   - a closure is folded into the named function it is declared in, and
//     a call of a closure is no edge (a self edge survives only for real
//     recursion);
//   - code run by package-level var initialisation has the caller "<pkg>";
//     every func init() is "<pkg>.init", and the calls the synthetic
//     package initialiser makes to init functions are dropped;
//   - wrappers, thunks, bound-method closures and instantiation wrappers
//     make no calls of their own; as callees they stand for the method or
//     function they wrap, which for an interface method expression
//     I.M(x) is the interface method "<pkg>.I.M".
//
// It skips the test when the go command cannot run or fetch the module's
// dependencies (goOracleEnvError), and fails it on any other error: a
// package that does not exist, a parse or type error, an edge
// callgraph/static finds that the walk of the module's functions misses.
func goOracleEdges(t *testing.T, dir string) (edges map[string]bool, modulePath string) {
	t.Helper()
	o := loadGoOracle(t, dir)
	return o.Edges, o.Module
}

// loadGoOracle is goOracleEdges with both edge sets and timings.
func loadGoOracle(t *testing.T, dir string) *goOracle {
	t.Helper()
	return loadGoOracleOf(t, goOracleSpec{dir: dir})
}

// goOracleSpec says what loadGoOracleOf loads.
type goOracleSpec struct {
	dir string
	// patterns are the packages of the oracle ("./..." when empty); env
	// is added to the environment (GOWORK=off when empty).
	patterns, env []string
	// std: the patterns are the standard library's ("std", "cmd"), whose
	// packages belong to no main module; the oracle's module is "std".
	std bool
	// skip leaves packages out of the oracle's own (std's vendored
	// golang.org/x/... packages, which the walk never enters).
	skip func(*packages.Package) bool
}

// loadGoOracleOf is loadGoOracle for any set of packages.
func loadGoOracleOf(t *testing.T, spec goOracleSpec) *goOracle {
	t.Helper()
	dir := spec.dir
	if _, err := exec.LookPath("go"); err != nil {
		t.Skipf("go oracle: no go command: %v", err)
	}
	patterns, env := spec.patterns, spec.env
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	if len(env) == 0 {
		env = []string{"GOWORK=off"}
	}
	start := time.Now()
	cfg := &packages.Config{
		Mode:  goOracleLoadMode,
		Dir:   dir,
		Tests: false,
		Env:   append(os.Environ(), env...),
	}
	initial, err := packages.Load(cfg, patterns...)
	if err != nil {
		if goOracleEnvError.MatchString(err.Error()) {
			t.Skipf("go oracle: load %s: %v", dir, err)
		}
		t.Fatalf("go oracle: load %s: %v", dir, err)
	}
	if spec.skip != nil {
		initial = slices.DeleteFunc(initial, spec.skip)
	}
	o := &goOracle{Own: len(initial)}
	if spec.std {
		o.Module = "std"
	}
	var envErrs, codeErrs []string
	packages.Visit(initial, nil, func(p *packages.Package) {
		o.Packages++
		for _, e := range p.Errors {
			if e.Kind == packages.ListError && goOracleEnvError.MatchString(e.Msg) {
				envErrs = append(envErrs, e.Error())
			} else {
				codeErrs = append(codeErrs, e.Error())
			}
		}
	})
	if len(envErrs) > 0 {
		t.Skipf("go oracle: %s: %s", dir, strings.Join(envErrs[:min(len(envErrs), 5)], "; "))
	}
	if len(codeErrs) > 0 {
		t.Fatalf("go oracle: %s: %d errors:\n%s", dir, len(codeErrs), strings.Join(codeErrs[:min(len(codeErrs), 10)], "\n"))
	}
	own := make(map[string]bool) // import paths of the module's packages
	o.Pkgs = own
	for _, p := range initial {
		own[p.PkgPath] = true
		if o.Module == "" && p.Module != nil && p.Module.Main {
			o.Module = p.Module.Path
		}
	}
	if len(initial) == 0 || o.Module == "" {
		t.Fatalf("go oracle: %s: no packages of a main module", dir)
	}
	o.Files = make(map[string]bool)
	for _, p := range initial {
		for _, f := range p.CompiledGoFiles {
			if rel, err := filepath.Rel(dir, f); err == nil {
				o.Files[filepath.ToSlash(rel)] = true
			}
		}
	}
	o.Load = time.Since(start)

	start = time.Now()
	prog, ssaPkgs := ssautil.AllPackages(initial, 0)
	// Only the module's packages need bodies: every edge kept starts in
	// one of them. The edge sets equal those after prog.Build() on the
	// three modules of TestGoOracleModuleCache; SSA for golang.org/x/mod
	// takes 169ms instead of 864ms on 2 cores.
	for i, sp := range ssaPkgs {
		if sp == nil {
			t.Fatalf("go oracle: no SSA package for %s", initial[i].PkgPath)
		}
		sp.Build()
	}
	cg := static.CallGraph(prog)
	o.Build = time.Since(start)

	o.Static = make(map[string]bool)
	for _, n := range cg.Nodes {
		for _, e := range n.Out {
			if edge, ok := goOracleEdge(own, e.Caller.Func, e.Callee.Func); ok {
				o.Static[edge] = true
			}
		}
	}

	// Every function the module declares, its package initialiser and the
	// closures nested in them, with callgraph/static's rule for an edge.
	o.Edges = make(map[string]bool)
	o.Dynamic = make(map[string]bool)
	impl := newGoImplementers(initial)
	var walk func(fn *ssa.Function)
	walk = func(fn *ssa.Function) {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if site, ok := instr.(ssa.CallInstruction); ok {
					impl.addDynamic(o, own, fn, site.Common())
					if callee := site.Common().StaticCallee(); callee != nil {
						if edge, ok := goOracleEdge(own, fn, callee); ok {
							o.Edges[edge] = true
						}
					}
				}
			}
		}
		for _, anon := range fn.AnonFuncs {
			walk(anon)
		}
	}
	for i, p := range initial {
		walk(ssaPkgs[i].Func("init"))
		for _, obj := range p.TypesInfo.Defs {
			if f, ok := obj.(*types.Func); ok {
				if fn := prog.FuncValue(f); fn != nil { // nil for interface methods
					walk(fn)
				}
			}
		}
	}
	// The walk is meant to be a superset; an edge only callgraph/static
	// has means a function the walk does not know how to find.
	var lost []string
	for e := range o.Static {
		if !o.Edges[e] {
			lost = append(lost, e)
			o.Edges[e] = true
		}
	}
	if len(lost) > 0 {
		sort.Strings(lost)
		t.Errorf("go oracle: %d callgraph/static edges not found by walking the module's functions:\n%s", len(lost), strings.Join(lost[:min(len(lost), 20)], "\n"))
	}
	return o
}

// goOracleEdge maps an SSA call edge to "caller -> callee" in package
// extract's names. It reports false for edges that are not between two
// functions declared in the module (own holds its import paths) or that
// no call in the source makes.
func goOracleEdge(own map[string]bool, caller, callee *ssa.Function) (string, bool) {
	from, ok := goOracleCaller(own, caller)
	if !ok {
		return "", false
	}
	obj := goOracleCallee(callee)
	if obj == nil || !own[obj.Pkg().Path()] {
		return "", false
	}
	to, ok := goOracleName(obj)
	if !ok {
		return "", false
	}
	return from + " -> " + to, true
}

// goOracleCaller names the function a call is written in: closures are
// folded into the function they are declared in, and the package
// initialiser (package-level var initialisation) is the package itself.
// Synthetic functions (wrappers, thunks, bound methods, instantiation
// wrappers) have no source and report false, as do functions of packages
// outside the module.
func goOracleCaller(own map[string]bool, fn *ssa.Function) (string, bool) {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	if fn.Pkg == nil {
		return "", false // wrappers, thunks and instances belong to no package
	}
	path := fn.Pkg.Pkg.Path()
	switch {
	case !own[path]:
		return "", false
	case fn.Synthetic == "package initializer":
		return path, true
	case fn.Synthetic != "":
		return "", false
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || obj.Pkg().Path() != path {
		return "", false
	}
	return goOracleName(obj)
}

// goOracleCallee returns the declared function a static callee stands for,
// or nil when calling it is no call in the source: a closure (it belongs to
// its caller), a package initialiser, an init function.
func goOracleCallee(fn *ssa.Function) *types.Func {
	if fn.Parent() != nil || fn.Synthetic == "package initializer" {
		return nil
	}
	if origin := fn.Origin(); origin != nil {
		fn = origin
	}
	// Wrappers, thunks and bound methods carry the method they wrap.
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Pkg() == nil {
		return nil
	}
	if obj.Name() == "init" && obj.Signature().Recv() == nil {
		return nil
	}
	return obj
}

// goOracleName is package extract's qualified name of a declared function
// or method: "<pkg>.<Func>" or "<pkg>.<Type>.<Method>", the receiver type
// without '*' or type parameters. Methods of interface literals have no
// name and report false.
func goOracleName(obj *types.Func) (string, bool) {
	prefix := obj.Pkg().Path() + "."
	recv := obj.Signature().Recv()
	if recv == nil {
		return prefix + obj.Name(), true
	}
	T := recv.Type()
	if p, ok := T.(*types.Pointer); ok {
		T = p.Elem()
	}
	switch T := T.(type) {
	case *types.Alias: // func (A) M() with type A = T: named as written
		return prefix + T.Obj().Name() + "." + obj.Name(), true
	case *types.Named:
		return prefix + T.Origin().Obj().Name() + "." + obj.Name(), true
	}
	return "", false
}

// wantEdge is a WANT comment of testdata/oracle/sanity.txtar.
var wantEdge = regexp.MustCompile(`// WANT( \(not static\))?: (\S+ -> \S+)\s*$`)

// TestGoOracleSanity documents the oracle's name mapping on a small module
// whose expected edges are WANT comments next to the calls that make them.
func TestGoOracleSanity(t *testing.T) {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "oracle", "sanity.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	wantStatic, wantAll := map[string]bool{}, map[string]bool{}
	for _, f := range ar.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(f.Data), "\n") {
			if m := wantEdge.FindStringSubmatch(line); m != nil {
				wantAll[m[2]] = true
				if m[1] == "" {
					wantStatic[m[2]] = true
				}
			}
		}
	}
	if len(wantStatic) == 0 || len(wantAll) == len(wantStatic) {
		t.Fatalf("sanity.txtar: %d WANT comments, %d of them static; the archive lost its expectations", len(wantAll), len(wantStatic))
	}
	o := loadGoOracle(t, dir)
	if o.Module != "m" {
		t.Errorf("module = %q, want %q", o.Module, "m")
	}
	expectEdges(t, "callgraph/static", o.Static, wantStatic)
	expectEdges(t, "all functions", o.Edges, wantAll)
}

// expectEdges reports the differences between two edge sets.
func expectEdges(t *testing.T, what string, got, want map[string]bool) {
	t.Helper()
	var extra, missing []string
	for e := range got {
		if !want[e] {
			extra = append(extra, e)
		}
	}
	for e := range want {
		if !got[e] {
			missing = append(missing, e)
		}
	}
	sort.Strings(extra)
	sort.Strings(missing)
	if len(extra)+len(missing) > 0 {
		t.Errorf("%s: %d edges, want %d\nunexpected:\n  %s\nmissing:\n  %s", what, len(got), len(want),
			strings.Join(extra, "\n  "), strings.Join(missing, "\n  "))
	}
}

// TestGoOracleModuleCache runs the oracle on real modules fetched into the
// module cache, to be compared with Build's graph of the same files.
func TestGoOracleModuleCache(t *testing.T) {
	if testing.Short() {
		t.Skip("loads real modules and their dependencies from source")
	}
	for _, tc := range []struct {
		module string
		// edges that must be there: direct calls, recursion, calls in a
		// closure passed as a value (sort.Slice) and in a package-level
		// func literal.
		want []string
	}{
		{"github.com/google/go-cmp@v0.6.0", []string{
			"github.com/google/go-cmp/cmp.formatOptions.FormatDiff -> github.com/google/go-cmp/cmp.formatOptions.FormatDiff",
			"github.com/google/go-cmp/cmp/cmpopts.IgnoreMapEntries -> github.com/google/go-cmp/cmp.FilterPath",
			"github.com/google/go-cmp/cmp/cmpopts.sliceSorter.sort -> github.com/google/go-cmp/cmp/cmpopts.sliceSorter.less",
			"github.com/google/go-cmp/cmp/internal/teststructs -> github.com/google/go-cmp/cmp/internal/teststructs.StructC.Equal",
		}},
		{"golang.org/x/sync@v0.18.0", []string{
			"golang.org/x/sync/singleflight.Group.Do -> golang.org/x/sync/singleflight.Group.doCall",
		}},
		{"golang.org/x/mod@v0.30.0", []string{
			"golang.org/x/mod/module.Check -> golang.org/x/mod/semver.IsValid",
			"golang.org/x/mod/module.Sort -> golang.org/x/mod/semver.Compare",
		}},
	} {
		t.Run(tc.module, func(t *testing.T) {
			dir := downloadModule(t, tc.module)
			o := loadGoOracle(t, dir)
			t.Logf("%s: %d packages (%d in the module); load %v, ssa+callgraph %v",
				o.Module, o.Packages, o.Own, o.Load.Round(time.Millisecond), o.Build.Round(time.Millisecond))
			t.Logf("edges: callgraph/static %d, with unvisited closures and methods %d", len(o.Static), len(o.Edges))
			var sample []string
			for e := range o.Edges {
				sample = append(sample, e)
			}
			sort.Strings(sample)
			for i := 0; i < len(sample); i += max(1, len(sample)/8) {
				t.Logf("  %s", sample[i])
			}
			var unvisited []string
			for e := range o.Edges {
				if !o.Static[e] {
					unvisited = append(unvisited, e)
				}
			}
			sort.Strings(unvisited)
			if len(unvisited) > 0 {
				t.Logf("not in callgraph/static (first 5):\n  %s", strings.Join(unvisited[:min(len(unvisited), 5)], "\n  "))
			}
			for _, e := range tc.want {
				if !o.Edges[e] {
					t.Errorf("missing edge %s", e)
				}
			}
		})
	}
}

// downloadModule fetches module@version into the module cache and returns
// its directory, skipping the test when it cannot.
func downloadModule(t testing.TB, mv string) string {
	t.Helper()
	cmd := exec.Command("go", "mod", "download", "-json", mv)
	cmd.Dir = t.TempDir() // outside any module: go.mod and go.sum stay untouched
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var m struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &m); jerr != nil && err == nil {
		err = fmt.Errorf("decode go mod download output: %w", jerr)
	}
	if err != nil || m.Error != "" || m.Dir == "" {
		t.Skipf("go mod download %s: %v %s %s", mv, err, m.Error, stderr.String())
	}
	return m.Dir
}
