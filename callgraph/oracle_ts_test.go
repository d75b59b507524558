package callgraph

// The TypeScript oracle: the call sites the TypeScript checker resolves
// in a JavaScript or TypeScript project (testdata/tsoracle/oracle.mjs,
// with the typescript package pinned by testdata/tsoracle's
// package-lock.json), compared with Build's edges.
//
// Which edges count:
//
//   - call sites are the calls, `new` expressions and tagged templates of
//     the project's source files (the JavaScript and TypeScript files
//     extract finds, declaration files left out), and both sides name a
//     site by file and line;
//   - an oracle edge is a site the checker resolves to a function,
//     method, constructor or class declared in those files (through
//     aliases, f.call and f.apply included), from the innermost function
//     around the site (the class, for a field initialiser; the module,
//     for module-level code) — each of a union's members is one;
//   - ours are Build's edges made in those files, but callback edges
//     (arr.map(f): the builtin calls f, the checker sees a call of map)
//     and edges into modules;
//   - one of ours is right when the oracle has the same site, caller and
//     callee; wrong when the checker resolves every site on its line —
//     to other declarations of the project, or to declarations outside
//     it (lib.*.d.ts, @types/node, packages in node_modules) — or when
//     an oracle site on its line has its callee from another caller; and
//     unjudged otherwise: the checker does not know what the site calls
//     (a receiver of type any, a parameter of a function type).
//
// Precision is right / (right + wrong); recall is the share of oracle
// edges among ours. Unjudged edges are listed, to be read by hand.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/extract"
	"golang.org/x/tools/txtar"
)

// tsOracleDir holds the oracle script, its package.json and
// package-lock.json; `npm ci` there installs typescript and the projects
// it is measured on.
var tsOracleDir = filepath.Join("testdata", "tsoracle")

// tsPlace locates a declaration: its file, name, the line of its name,
// and its first and last lines.
type tsPlace struct {
	File  string `json:"file"`
	Name  string `json:"name"`
	Line  int    `json:"line"`
	Start int    `json:"start"`
	End   int    `json:"end"`
	Kind  string `json:"kind"`
}

// tsSite is one call site as the oracle prints it.
type tsSite struct {
	File    string    `json:"file"`
	Line    int       `json:"line"`
	Col     int       `json:"col"`
	Name    string    `json:"name"`
	Caller  *tsPlace  `json:"caller"`
	Status  string    `json:"status"`
	Callees []tsPlace `json:"callees"`
	Ext     string    `json:"ext"`
}

// tsOracleNode returns node, once node and the oracle's dependencies, as
// pinned in package.json, are installed; else it skips the test (fails
// under CI, whose .ci/run installs them). Run `npm ci` in
// testdata/tsoracle to measure.
func tsOracleNode(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		tsOracleMissing(t, "node is not installed (%v); the TypeScript oracle needs Node.js 20 or later", err)
	}
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	readJSONFile(t, filepath.Join(tsOracleDir, "package.json"), &pkg)
	for dep, want := range pkg.Dependencies {
		var got struct {
			Version string `json:"version"`
		}
		p := filepath.Join(tsOracleDir, "node_modules", filepath.FromSlash(dep), "package.json")
		if _, err := os.Stat(p); err != nil {
			tsOracleMissing(t, "%s is not installed; run `npm ci` in callgraph/testdata/tsoracle", dep)
		}
		readJSONFile(t, p, &got)
		if got.Version != want {
			tsOracleMissing(t, "%s %s is installed, package.json pins %s; run `npm ci` in callgraph/testdata/tsoracle", dep, got.Version, want)
		}
	}
	return node
}

// tsOracleMissing skips, saying so on stderr too: a skipped oracle
// must not read as a passing one. Under CI (CI set; .ci/run installs
// the oracle) it fails instead.
func tsOracleMissing(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf(format, args...)
	}
	fmt.Fprintf(os.Stderr, "SKIP %s: %s\n", t.Name(), fmt.Sprintf(format, args...))
	t.Skipf(format, args...)
}

func readJSONFile(t *testing.T, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// tsSourceFiles are the JavaScript and TypeScript files of files that
// are no declaration files, as slash paths.
func tsSourceFiles(files []extract.File) []string {
	var out []string
	for _, f := range files {
		if jsLike(f.Language) && !extract.DeclarationFile(f.Path) {
			out = append(out, f.Path)
		}
	}
	sort.Strings(out)
	return out
}

// runTSOracle runs the oracle on the files under root.
func runTSOracle(t *testing.T, node, root string, files []string) []tsSite {
	t.Helper()
	script, err := filepath.Abs(filepath.Join(tsOracleDir, "oracle.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{script, root}, files...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node oracle.mjs %s: %v\n%s", root, err, stderr.Bytes())
	}
	var sites []tsSite
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var s tsSite
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatalf("oracle output %q: %v", sc.Text(), err)
		}
		sites = append(sites, s)
	}
	return sites
}

// tsAgreement is the comparison of one project.
type tsAgreement struct {
	Sites, Resolved int // call sites, and those the checker resolves into the project
	Oracle, Ours    int // edges
	Right, Wrong    int // of ours
	Found           int // oracle edges among ours
	Callbacks       int // our callback edges, not compared
	Extra, Missing  []string
	Unjudged        []string
	// By resolution: how many of ours were right and wrong.
	RightBy, WrongBy map[Resolution]int
}

func (a tsAgreement) precision() float64 {
	if a.Right+a.Wrong == 0 {
		return 1
	}
	return float64(a.Right) / float64(a.Right+a.Wrong)
}

func (a tsAgreement) recall() float64 {
	if a.Oracle == 0 {
		return 1
	}
	return float64(a.Found) / float64(a.Oracle)
}

func (a tsAgreement) String() string {
	var by []string
	for _, how := range []Resolution{Local, Import, Receiver, Constructor, Inherited, Interface, Name} {
		if a.RightBy[how]+a.WrongBy[how] > 0 {
			by = append(by, fmt.Sprintf("%s %d/%d", how, a.RightBy[how], a.RightBy[how]+a.WrongBy[how]))
		}
	}
	return fmt.Sprintf("%d sites, %d resolved into the project; %d oracle edges, %d ours (%d right, %d wrong, %d unjudged, %d callbacks not compared; right by resolution: %s); precision %.3f recall %.3f",
		a.Sites, a.Resolved, a.Oracle, a.Ours, a.Right, a.Wrong, len(a.Unjudged), a.Callbacks, strings.Join(by, ", "), a.precision(), a.recall())
}

// compareTS compares g's edges in files with the oracle's sites.
func compareTS(g *Graph, files []string, sites []tsSite) tsAgreement {
	own := map[string]bool{}
	for _, f := range files {
		own[f] = true
	}
	place := func(p *tsPlace, file string) string {
		if p == nil {
			if f := g.files[file]; f != nil {
				return moduleName(f)
			}
			return "?" + file
		}
		return tsNodeAt(g, *p)
	}
	type lineKey struct {
		file string
		line int
	}
	type edgeKey struct {
		file           string
		line           int
		caller, callee string
	}
	a := tsAgreement{RightBy: map[Resolution]int{}, WrongBy: map[Resolution]int{}}
	oracle := map[edgeKey]bool{}
	byLine := map[lineKey][]tsSite{}
	calleesAt := map[lineKey]map[string]bool{}
	for _, s := range sites {
		a.Sites++
		k := lineKey{s.File, s.Line}
		byLine[k] = append(byLine[k], s)
		if s.Status != "project" {
			continue
		}
		a.Resolved++
		caller := place(s.Caller, s.File)
		for _, c := range s.Callees {
			callee := tsNodeAt(g, c)
			oracle[edgeKey{s.File, s.Line, caller, callee}] = true
			if calleesAt[k] == nil {
				calleesAt[k] = map[string]bool{}
			}
			calleesAt[k][callee] = true
		}
	}
	ours := map[edgeKey]Resolution{}
	for _, e := range g.Edges() {
		to := g.Node(e.Callee)
		if !own[e.File] || to.Kind == KindModule {
			continue
		}
		if e.Resolution == Callback {
			a.Callbacks++
			continue
		}
		ours[edgeKey{e.File, e.Line, g.Node(e.Caller).Qualified, to.Qualified}] = e.Resolution
	}
	a.Oracle, a.Ours = len(oracle), len(ours)
	for k, how := range ours {
		desc := fmt.Sprintf("%s:%d %s -> %s (%s)", k.file, k.line, k.caller, k.callee, how)
		if oracle[k] {
			a.Right++
			a.RightBy[how]++
			continue
		}
		lk := lineKey{k.file, k.line}
		judged := len(byLine[lk]) > 0
		for _, s := range byLine[lk] {
			if s.Status == "unknown" {
				judged = false
			}
		}
		if calleesAt[lk][k.callee] {
			judged = true // the callee is right, the caller is not
		}
		if !judged {
			a.Unjudged = append(a.Unjudged, desc)
			continue
		}
		a.Wrong++
		a.WrongBy[how]++
		var want []string
		for _, s := range byLine[lk] {
			w := s.Name + ": " + s.Status
			if s.Ext != "" {
				w += " " + s.Ext
			}
			for _, c := range s.Callees {
				w += " " + place(s.Caller, s.File) + " -> " + tsNodeAt(g, c)
			}
			want = append(want, w)
		}
		a.Extra = append(a.Extra, desc+"; checker: "+strings.Join(want, "; "))
	}
	for k := range oracle {
		if _, ok := ours[k]; ok {
			a.Found++
			continue
		}
		a.Missing = append(a.Missing, fmt.Sprintf("%s:%d %s -> %s", k.file, k.line, k.caller, k.callee))
	}
	sort.Strings(a.Extra)
	sort.Strings(a.Missing)
	sort.Strings(a.Unjudged)
	return a
}

// tsNodeAt is the qualified name of the node of g at p: the one of p's
// file with p's name whose name is on p's line, else one that ends on
// p's last line and starts within p's first lines; "?file:line:name"
// when g has none.
func tsNodeAt(g *Graph, p tsPlace) string {
	ids := g.InFile(p.File)
	for _, id := range ids {
		if n := g.Node(id); n.Name == p.Name && n.Line == p.Line {
			return n.Qualified
		}
	}
	for _, id := range ids {
		if n := g.Node(id); n.Kind != KindModule && n.EndLine == p.End && n.Line >= p.Start && n.Line <= p.Line {
			return n.Qualified
		}
	}
	return fmt.Sprintf("?%s:%d:%s", p.File, p.Line, p.Name)
}

// logTS logs the first differences of a comparison.
func logTS(t *testing.T, a tsAgreement, n int) {
	t.Helper()
	for _, e := range a.Extra[:min(len(a.Extra), n)] {
		t.Logf("  wrong    %s", e)
	}
	for _, e := range a.Missing[:min(len(a.Missing), n)] {
		t.Logf("  missing  %s", e)
	}
	for _, e := range a.Unjudged[:min(len(a.Unjudged), n)] {
		t.Logf("  unjudged %s", e)
	}
}

// TestTSOracleFixture compares Build with the checker on a small project
// of TypeScript and JavaScript (testdata/tsoracle/fixture.txtar) whose
// every call the checker resolves or knows to be outside the project:
// both must agree on every edge.
func TestTSOracleFixture(t *testing.T) {
	if testing.Short() {
		t.Skip("runs node")
	}
	node := tsOracleNode(t)
	ar, err := txtar.ParseFile(filepath.Join(tsOracleDir, "fixture.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range ar.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	extracted := extractDir(t, dir)
	files := tsSourceFiles(extracted)
	sites := runTSOracle(t, node, dir, files)
	a := compareTS(Build(extracted), files, sites)
	t.Logf("fixture: %v", a)
	if a.Resolved == 0 {
		t.Fatal("the checker resolved no call into the fixture")
	}
	if a.Wrong > 0 || a.Found < a.Oracle {
		logTS(t, a, 50)
		t.Errorf("fixture: %d wrong edges, %d of %d oracle edges found", a.Wrong, a.Found, a.Oracle)
	}
}

// tsOracleProject is a project measured against the checker: a root
// inside testdata/tsoracle/node_modules, where `npm ci` puts it.
type tsOracleProject struct{ name, root string }

// tsOracleKoa is measured whenever `npm ci` has run in testdata/tsoracle
// (CI runs it): it takes seconds. tsOracleProjects, on demand, take a
// minute.
var (
	tsOracleKoa      = tsOracleProject{"koa@2.15.3", "koa"}
	tsOracleProjects = []tsOracleProject{
		{"immer@10.1.1", "immer/src"},
		{"mobx@6.13.5", "mobx/src"},
	}
)

// TestTSOracleKoa measures Build against the checker on koa's
// JavaScript, as installed by `npm ci` in testdata/tsoracle, and holds
// the bar: precision ≥ 0.97 and recall ≥ 0.75. It runs whenever
// that install is there; under CI (CI set) it fails without it.
func TestTSOracleKoa(t *testing.T) {
	if testing.Short() {
		t.Skip("runs node")
	}
	measureTSProject(t, tsOracleNode(t), tsOracleKoa)
}

// TestTSOracleProjects measures Build against the checker on the
// TypeScript sources of immer and mobx, as installed by `npm ci` in
// testdata/tsoracle. It runs when FILEINFO_TS_ORACLE is set (it takes a
// minute; =all logs every difference, not the first forty of each
// kind), and holds the bar on each.
func TestTSOracleProjects(t *testing.T) {
	if os.Getenv("FILEINFO_TS_ORACLE") == "" {
		t.Skip("set FILEINFO_TS_ORACLE=1 to measure against the TypeScript checker on immer and mobx")
	}
	node := tsOracleNode(t)
	for _, p := range tsOracleProjects {
		t.Run(p.name, func(t *testing.T) { measureTSProject(t, node, p) })
	}
}

// measureTSProject compares Build with the checker on p, logs the
// figures and the first differences, and fails below precision 0.97 or
// recall 0.75.
func measureTSProject(t *testing.T, node string, p tsOracleProject) {
	t.Helper()
	root, err := filepath.Abs(filepath.Join(tsOracleDir, "node_modules", filepath.FromSlash(p.root)))
	if err != nil {
		t.Fatal(err)
	}
	extracted := extractDir(t, root)
	files := tsSourceFiles(extracted)
	sites := runTSOracle(t, node, root, files)
	a := compareTS(Build(extracted), files, sites)
	t.Logf("%s: %v", p.name, a)
	n := 40
	if os.Getenv("FILEINFO_TS_ORACLE") == "all" {
		n = len(a.Extra) + len(a.Missing) + len(a.Unjudged)
	}
	logTS(t, a, n)
	if p, r := a.precision(), a.recall(); p < 0.97 || r < 0.75 {
		t.Errorf("precision %.3f recall %.3f, want ≥ 0.97 and ≥ 0.75", p, r)
	}
}
