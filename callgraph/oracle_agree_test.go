package callgraph

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/extract"
)

// TestGoOracleAgreement compares Build's graph of real modules with the
// x/tools oracle (oracle_go_test.go): edges whose caller and callee are
// both declared in the module's non-test packages. Interface edges are left
// out of the comparison: callgraph/static has no dynamic calls. The issue's
// bar is precision ≥ 0.97 and recall ≥ 0.90.
func TestGoOracleAgreement(t *testing.T) {
	compareWithOracle(t, "", ourGoEdges, func(o *goOracle) map[string]bool { return o.Edges }, 0.97, 0.90)
}

// oracleModules are the modules the oracle tests measure on: three by
// default, and those FILEINFO_ORACLE_MODULES lists (comma-separated
// module@version).
func oracleModules() []string {
	modules := []string{
		"github.com/google/go-cmp@v0.6.0",
		"golang.org/x/sync@v0.18.0",
		"golang.org/x/mod@v0.30.0",
	}
	if extra := os.Getenv("FILEINFO_ORACLE_MODULES"); extra != "" {
		modules = append(modules, strings.Split(extra, ",")...)
	}
	return modules
}

// compareWithOracle measures, on each oracle module, our edges (ours)
// against the oracle's (theirs), logs the first differences, and fails
// under precision minP or recall minR. what names the edges in messages.
func compareWithOracle(t *testing.T, what string, ours func(*testing.T, string, *goOracle) map[string]bool,
	theirs func(*goOracle) map[string]bool, minP, minR float64) {
	t.Helper()
	if testing.Short() {
		t.Skip("loads real modules and their dependencies from source")
	}
	for _, module := range oracleModules() {
		t.Run(module, func(t *testing.T) {
			dir := downloadModule(t, module)
			o := loadGoOracle(t, dir)
			got, want := ours(t, dir, o), theirs(o)
			p, r, extra, missing := agreement(got, want)
			t.Logf("%s: %s%d oracle edges, %d ours; precision %.3f recall %.3f", module, what, len(want), len(got), p, r)
			for _, e := range extra[:min(len(extra), 15)] {
				t.Logf("  extra   %s", e)
			}
			for _, e := range missing[:min(len(missing), 15)] {
				t.Logf("  missing %s", e)
			}
			if p < minP || r < minR {
				t.Errorf("%s: %sprecision %.3f recall %.3f, want ≥ %.2f and ≥ %.2f", module, what, p, r, minP, minR)
			}
		})
	}
}

// ourGoEdges extracts dir, builds the graph and returns its edges between
// symbols of the oracle's packages, made in the files of its build,
// without interface edges, as "caller -> callee".
func ourGoEdges(t *testing.T, dir string, o *goOracle) map[string]bool {
	t.Helper()
	pkgs := o.Pkgs
	g := Build(extractDir(t, dir))
	own := func(n Node) bool {
		if n.Kind == KindModule { // its File is any file of the package
			return pkgs[n.Qualified]
		}
		return !strings.HasSuffix(n.File, "_test.go") && pkgs[moduleName(g.files[n.File])]
	}
	out := map[string]bool{}
	for _, e := range g.Edges() {
		from, to := g.Node(e.Caller), g.Node(e.Callee)
		if e.Resolution == Interface || !o.Files[e.File] || !own(from) || !own(to) {
			continue
		}
		if to.Kind == KindModule || to.Kind != extract.KindFunction && to.Kind != extract.KindMethod {
			continue // conversions T(x) and calls of types are no calls
		}
		out[fmt.Sprintf("%s -> %s", from.Qualified, to.Qualified)] = true
	}
	return out
}

// agreement returns the precision and recall of got against want and the
// edges only one side has, sorted.
func agreement(got, want map[string]bool) (p, r float64, extra, missing []string) {
	both := 0
	for e := range got {
		if want[e] {
			both++
		} else {
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
	p, r = 1, 1
	if len(got) > 0 {
		p = float64(both) / float64(len(got))
	}
	if len(want) > 0 {
		r = float64(both) / float64(len(want))
	}
	return p, r, extra, missing
}
