package callgraph

// Cross-checks against the x/tools oracle (oracle_go_test.go) on large
// code and on module layouts where import paths are not the nearest
// go.mod's module path plus the directory: the standard library, a module
// with vendor/, a fork named by a go.work replace directive, and
// golang.org/x/tools. They load hundreds of packages from source (the
// standard library and cmd take minutes and a few GB), so they run on
// demand:
//
//	FILEINFO_ORACLE_LARGE=1 go test ./callgraph -run 'TestGoOracleStd|TestGoOracleLayouts' -v -timeout 60m
//
// FILEINFO_ORACLE_DUMP=dir writes TestGoOracleStd's extra and missing
// edges of the whole graph to dir/std-extra.txt and dir/std-missing.txt.
//
// docs/go-stdlib.md has the figures.

import (
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/packages"
)

// largeOracle skips the test unless FILEINFO_ORACLE_LARGE is set.
func largeOracle(t *testing.T) {
	t.Helper()
	if os.Getenv("FILEINFO_ORACLE_LARGE") == "" {
		t.Skip("set FILEINFO_ORACLE_LARGE=1: loads the standard library or large modules from source")
	}
}

// stdWatched are the functions the issue found callers of lost when the
// root is GOROOT/src; TestGoOracleStd adds the most-called ones.
var stdWatched = []string{"strings.Index", "bytes.Equal", "sort.Slice", "unicode.IsSpace", "path/filepath.WalkDir"}

// stdMostCalled is how many of the standard library's most-called exported
// functions TestGoOracleStd checks besides stdWatched.
const stdMostCalled = 30

// TestGoOracleStd builds the graph of GOROOT/src and compares, for widely
// used functions, the functions that call them with the oracle's (std and
// cmd without tests, linux/amd64, cgo off; vendored packages left out, as
// the walk never enters vendor/). The functions are stdWatched and the
// stdMostCalled exported package-level functions of std with the most
// distinct callers in the oracle. The bar (issue 31): recall ≥ 0.95,
// precision ≥ 0.98 over all those caller sets.
func TestGoOracleStd(t *testing.T) {
	largeOracle(t)
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("go env GOROOT: %v", err)
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "src")
	o := loadGoOracleOf(t, goOracleSpec{
		dir:      src,
		patterns: []string{"std", "cmd"},
		env:      []string{"GOWORK=off", "CGO_ENABLED=0", "GOOS=linux", "GOARCH=amd64", "GOFLAGS=-mod=vendor"},
		std:      true,
		skip: func(p *packages.Package) bool {
			return len(p.GoFiles) > 0 && strings.Contains(filepath.ToSlash(p.GoFiles[0]), "/vendor/")
		},
	})
	t.Logf("oracle: %d packages (%d of std and cmd); load %v, ssa+callgraph %v; %d edges",
		o.Packages, o.Own, o.Load.Round(time.Millisecond), o.Build.Round(time.Millisecond), len(o.Edges))

	start := time.Now()
	ours := ourGoEdges(t, src, o)
	t.Logf("ours: extract and Build %v; %d edges", time.Since(start).Round(time.Millisecond), len(ours))
	p, r, extra, missing := agreement(ours, o.Edges)
	t.Logf("all concrete edges between std and cmd functions: precision %.3f recall %.3f (%d extra, %d missing)", p, r, len(extra), len(missing))
	logSample(t, "extra", extra)
	logSample(t, "missing", missing)
	dumpEdges(t, "std-extra.txt", extra)
	dumpEdges(t, "std-missing.txt", missing)

	theirCallers, ourCallers := callersOf(o.Edges), callersOf(ours)
	targets := slices.Clone(stdWatched)
	for _, f := range mostCalled(theirCallers, func(q string) bool {
		return !strings.HasPrefix(q, "cmd/") && isExportedFunc(q)
	}) {
		if len(targets) == len(stdWatched)+stdMostCalled {
			break
		}
		if !slices.Contains(targets, f) {
			targets = append(targets, f)
		}
	}
	var both, got, want int
	for _, f := range targets {
		g, w := ourCallers[f], theirCallers[f]
		if len(w) == 0 {
			t.Errorf("%s: the oracle has no callers; the list of functions is stale", f)
			continue
		}
		fp, fr, fextra, fmissing := agreement(g, w)
		t.Logf("%-40s oracle %4d ours %4d precision %.3f recall %.3f", f, len(w), len(g), fp, fr)
		logSample(t, "  extra", fextra)
		logSample(t, "  missing", fmissing)
		got += len(g)
		want += len(w)
		both += len(g) - len(fextra)
	}
	p, r = float64(both)/float64(max(got, 1)), float64(both)/float64(max(want, 1))
	t.Logf("callers of %d functions: %d oracle, %d ours, %d both: precision %.3f recall %.3f", len(targets), want, got, both, p, r)
	if p < 0.98 || r < 0.95 {
		t.Errorf("callers of widely used functions: precision %.3f recall %.3f, want ≥ 0.98 and ≥ 0.95", p, r)
	}
}

// callersOf maps each callee of edges ("caller -> callee") to its callers.
func callersOf(edges map[string]bool) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for e := range edges {
		from, to, _ := strings.Cut(e, " -> ")
		if out[to] == nil {
			out[to] = map[string]bool{}
		}
		out[to][from] = true
	}
	return out
}

// mostCalled returns the callees for which keep is true, most distinct
// callers first, ties by name.
func mostCalled(callers map[string]map[string]bool, keep func(string) bool) []string {
	var fs []string
	for f := range callers {
		if keep(f) {
			fs = append(fs, f)
		}
	}
	slices.SortFunc(fs, func(a, b string) int {
		return cmp.Or(cmp.Compare(len(callers[b]), len(callers[a])), cmp.Compare(a, b))
	})
	return fs
}

// isExportedFunc reports whether q ("path/to/pkg.Name") names an exported
// package-level function: one element after the import path, upper case.
func isExportedFunc(q string) bool {
	name := q[strings.LastIndexByte(q, '/')+1:]
	_, name, ok := strings.Cut(name, ".")
	return ok && !strings.Contains(name, ".") && isExportedName(name)
}

// dumpEdges writes edges, one a line, to name in the directory
// FILEINFO_ORACLE_DUMP names, when it is set.
func dumpEdges(t *testing.T, name string, edges []string) {
	t.Helper()
	dir := os.Getenv("FILEINFO_ORACLE_DUMP")
	if dir == "" {
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Join(edges, "\n")+"\n"), 0o644); err != nil {
		t.Errorf("dump %s: %v", name, err)
	}
}

func logSample(t *testing.T, what string, edges []string) {
	t.Helper()
	for _, e := range edges[:min(len(edges), 10)] {
		t.Logf("  %s %s", what, e)
	}
}

// TestGoOracleLayouts compares Build's graph with the oracle's on three
// module layouts: golang.org/x/tools; github.com/spf13/viper with its
// dependencies vendored (`go mod vendor`, loaded with -mod=vendor; our
// walk leaves vendor/ out, as it does the module cache); and
// github.com/spf13/cobra in a go.work whose replace directive names a
// fork of github.com/spf13/pflag under forks/pflag, whose go.mod declares
// another module path: cobra's calls into pflag, which are most of its
// calls into other modules, resolve only if forks/pflag is named
// github.com/spf13/pflag. Concrete calls; the bar is TestGoOracleAgreement's.
func TestGoOracleLayouts(t *testing.T) {
	largeOracle(t)
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T) goOracleSpec
	}{
		{"golang.org/x/tools@v0.39.0", func(t *testing.T) goOracleSpec {
			return goOracleSpec{dir: downloadModule(t, "golang.org/x/tools@v0.39.0")}
		}},
		{"vendor: github.com/spf13/viper@v1.21.0", func(t *testing.T) goOracleSpec {
			dir := copyModule(t, "github.com/spf13/viper@v1.21.0", "")
			goCmd(t, dir, "mod", "vendor")
			return goOracleSpec{dir: dir, env: []string{"GOWORK=off", "GOFLAGS=-mod=vendor"}}
		}},
		{"go.work replace: github.com/spf13/cobra@v1.9.1 with a fork of pflag", func(t *testing.T) goOracleSpec {
			dir := copyModule(t, "github.com/spf13/cobra@v1.9.1", "")
			copyModule(t, "github.com/spf13/pflag@v1.0.6", filepath.Join(dir, "forks", "pflag"))
			writeFile(t, filepath.Join(dir, "forks", "pflag", "go.mod"), "module example.com/fork/pflag\n\ngo 1.12\n")
			writeFile(t, filepath.Join(dir, "go.work"), "go 1.22\n\nuse .\n\nreplace github.com/spf13/pflag => ./forks/pflag\n")
			return goOracleSpec{dir: dir, patterns: []string{"./...", "github.com/spf13/pflag/..."}, env: []string{"GOWORK=" + filepath.Join(dir, "go.work")}}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := tc.setup(t)
			o := loadGoOracleOf(t, spec)
			got := ourGoEdges(t, spec.dir, o)
			p, r, extra, missing := agreement(got, o.Edges)
			cross := 0
			for e := range o.Edges {
				if from, to, _ := strings.Cut(e, " -> "); modulePrefix(from) != modulePrefix(to) {
					cross++
				}
			}
			t.Logf("%s: %d packages; %d oracle edges (%d between modules), %d ours; precision %.3f recall %.3f",
				o.Module, o.Own, len(o.Edges), cross, len(got), p, r)
			logSample(t, "extra", extra)
			logSample(t, "missing", missing)
			if p < 0.97 || r < 0.90 {
				t.Errorf("precision %.3f recall %.3f, want ≥ 0.97 and ≥ 0.90", p, r)
			}
		})
	}
}

// modulePrefix is the first three elements of the import path of a
// qualified name ("github.com/spf13/cobra.Command.Execute"): enough to
// tell github.com/spf13/cobra from github.com/spf13/pflag.
func modulePrefix(q string) string {
	slash := strings.LastIndexByte(q, '/')
	if dot := strings.IndexByte(q[slash+1:], '.'); dot >= 0 {
		q = q[:slash+1+dot]
	}
	parts := strings.SplitN(q, "/", 4)
	return strings.Join(parts[:min(len(parts), 3)], "/")
}

// copyModule downloads module@version and copies it to dst (a new temp
// dir when dst is ""), writable, returning dst.
func copyModule(t *testing.T, mv, dst string) string {
	t.Helper()
	src := downloadModule(t, mv)
	if dst == "" {
		dst = t.TempDir()
	}
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
	if err != nil {
		t.Fatalf("copy %s: %v", mv, err)
	}
	return dst
}

func writeFile(t *testing.T, p, data string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// goCmd runs the go command in dir, skipping the test when it cannot
// fetch what it needs.
func goCmd(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		msg := fmt.Sprintf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
		if goOracleEnvError.Match(out) {
			t.Skip(msg)
		}
		t.Fatal(msg)
	}
}
