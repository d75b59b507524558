package callgraph

// The Rust oracle: the calls rustc itself resolved, read from the MIR it
// prints for each crate of a workspace (RUSTC_BOOTSTRAP=1 cargo rustc --lib
// -- -Zunpretty=mir -Zmir-include-spans=on -Ztrim-diagnostic-paths=false),
// compared with this package's edges call site by call site.
//
// Every call terminator of the MIR names its callee by path
// (`searcher::Searcher::search_path::<M, P, S>`, `<S as sink::Sink>::matched`,
// `grep_matcher::Match::new`) and carries the span of the call expression.
// The oracle keeps the calls written in the source: those whose span text
// holds the callee's name followed by "(" or "::<" (the `?` operator's
// Try::branch, a for loop's Iterator::next, an operator's Add::add and a
// derive's generated calls are not call syntax, and neither is a call that
// a macro of another crate expands to). The call's line is the line of the
// last occurrence of the name at the span's outer bracket level: the line
// where package extract puts a call, the method's name.
//
// A callee maps to the workspace's declarations by crate, type and name,
// never by this package's resolution:
//
//   - a path in the crate itself (`lines::locate`) or under a workspace
//     crate's name (`grep_matcher::Match::new`) names a function of that
//     crate by its module path, or a method of the type its second last
//     segment names; a path re-exported elsewhere (grep_searcher::Searcher
//     is grep_searcher::searcher::Searcher) matches the crate's only
//     function of that name;
//   - `<T as Trait>::m` with T a type of the workspace is T's own m (an
//     inherent or trait impl's method) or else the trait's provided m;
//     with T a type parameter, `dyn Trait`, `impl Trait` or Self it is
//     the trait's declaration of m, and an edge to the m of a type the
//     workspace implements Trait for is right too (it may run there), but
//     is not needed for recall;
//   - anything else (std, core, alloc, a dependency outside the workspace,
//     a closure or function pointer called through Fn*) has no target in
//     the graph: an edge at that call site is wrong.
//
// Judged are this package's edges at lines MIR covers (code compiled in
// this configuration: no #[cfg(test)] modules, tests/, examples/ or
// platform code left out), except edges from or to macro_rules! macros,
// which the compiler expands rather than calls. An edge is right when a
// kept call on the same file and line has its callee among the call's
// targets. Precision is right edges over judged edges; recall is kept
// calls with a target found by an edge over kept calls with a target.
//
// It runs on demand (it needs cargo, rustc and the crates' sources):
//
//	apt-get install librust-grep-dev librust-ignore-dev librust-globset-dev librust-grep-cli-dev
//	FILEINFO_RUST_ORACLE=1 go test ./callgraph -run TestRustOracle -v
//
// The crates are Debian's sources of ripgrep's library crates under
// /usr/share/cargo/registry (FILEINFO_RUST_REGISTRY to look elsewhere),
// copied into one workspace laid out as ripgrep's (crates/<name>), built
// offline against that registry. docs/rust-callgraph.md has the figures.
// FILEINFO_RUST_MIR=DIR reads DIR/<crate>.mir (matcher.mir, ...) printed
// before by the same command, instead of running cargo;
// FILEINFO_RUST_ORACLE=v lists every wrong edge and missed call.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/extract"
)

// rustOracleCrates are the workspace's crates: Debian package name, and
// the directory under crates/ it goes to.
var rustOracleCrates = []struct{ pkg, dir string }{
	{"grep-matcher", "matcher"},
	{"grep-searcher", "searcher"},
	{"grep-printer", "printer"},
	{"grep-regex", "regex"},
	{"grep-cli", "cli"},
	{"globset", "globset"},
	{"ignore", "ignore"},
}

// rustMIRCall is one call the MIR of a crate holds, written as a call.
type rustMIRCall struct {
	file   string // slash path from the oracle root
	line   int    // of the callee's name
	callee string // as MIR prints it
	// targets are the nodes the call runs; extra nodes an edge may name
	// too (implementations of a trait method called generically).
	targets, extra []SymbolID
}

// rustOracleCrate is one crate of the workspace and what its MIR says.
type rustOracleCrate struct {
	dir     string // slash, from the oracle root: "crates/searcher"
	lib     string // library crate name: "grep_searcher"
	version string
	calls   []rustMIRCall
	covered map[string]map[int]bool // lines some MIR statement spans, by file
}

func TestRustOracle(t *testing.T) {
	if os.Getenv("FILEINFO_RUST_ORACLE") == "" {
		t.Skip("set FILEINFO_RUST_ORACLE=1 to compare with rustc's MIR (needs cargo and Debian's librust-grep-dev sources)")
	}
	if _, err := exec.LookPath("cargo"); err != nil {
		t.Skip("no cargo")
	}
	registry := os.Getenv("FILEINFO_RUST_REGISTRY")
	if registry == "" {
		registry = "/usr/share/cargo/registry"
	}
	root := t.TempDir()
	var crates []*rustOracleCrate
	for _, c := range rustOracleCrates {
		matches, _ := filepath.Glob(filepath.Join(registry, c.pkg+"-[0-9]*"))
		if len(matches) == 0 {
			t.Skipf("no %s sources in %s", c.pkg, registry)
		}
		sort.Strings(matches)
		src := matches[len(matches)-1]
		dst := filepath.Join(root, "crates", c.dir)
		if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
			t.Fatalf("copy %s: %v", src, err)
		}
		crates = append(crates, &rustOracleCrate{
			dir:     "crates/" + c.dir,
			lib:     strings.ReplaceAll(c.pkg, "-", "_"),
			version: strings.TrimPrefix(filepath.Base(src), c.pkg+"-"),
		})
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = t.TempDir()
	}
	target := filepath.Join(cache, "fileinfo-rust-oracle")
	mir := map[*rustOracleCrate]string{}
	for _, c := range crates {
		if dir := os.Getenv("FILEINFO_RUST_MIR"); dir != "" {
			// MIR printed before, as the command below prints it.
			mir[c] = filepath.Join(dir, strings.TrimPrefix(c.dir, "crates/")+".mir")
			continue
		}
		out := filepath.Join(t.TempDir(), "mir")
		cmd := exec.Command("cargo", "rustc", "--lib", "--quiet",
			"--manifest-path", filepath.Join(root, filepath.FromSlash(c.dir), "Cargo.toml"),
			"--config", `source.crates-io.replace-with="debian"`,
			"--config", fmt.Sprintf("source.debian.directory=%q", registry),
			"--config", "net.offline=true",
			"--", "-Zunpretty=mir", "-Zmir-include-spans=on", "-Ztrim-diagnostic-paths=false")
		cmd.Env = append(os.Environ(), "RUSTC_BOOTSTRAP=1", "CARGO_TARGET_DIR="+target)
		f, err := os.Create(out)
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdout = f
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err = cmd.Run()
		f.Close()
		if err != nil {
			t.Fatalf("MIR of %s: %v\n%s", c.dir, err, stderr.String())
		}
		mir[c] = out
	}

	g := Build(extractDir(t, root))
	o := newRustOracle(t, g, root, crates)
	for _, c := range crates {
		o.read(t, c, mir[c])
	}
	o.report(t)
}

// rustOracle maps MIR callees to the graph's nodes.
type rustOracle struct {
	g      *Graph
	root   string
	crates []*rustOracleCrate
	byLib  map[string]*rustOracleCrate
	prefix map[*rustOracleCrate]string // qualified name of the crate root's module
	// methods by crate, parent type and name; funcs by crate and name.
	methods map[*rustOracleCrate]map[[2]string][]SymbolID
	funcs   map[*rustOracleCrate]map[string][]SymbolID
	types   map[*rustOracleCrate]map[string]bool // root-level type names
	// implementers by trait name: the types the workspace implements it for.
	implementers map[string]map[string]bool
	macros       map[SymbolID]bool
	lines        map[string][]string // source lines by file
}

var rustImplRE = regexp.MustCompile(`(?m)^\s*(?:unsafe\s+)?impl\b(?:\s*<[^{]*?>)?\s+(?:[\w:]+::)?(\w+)(?:<[^{]*?>)?\s+for\s+(?:&(?:'\w+\s+)?(?:mut\s+)?)?(?:[\w:]+::)?(\w+)`)

func newRustOracle(t *testing.T, g *Graph, root string, crates []*rustOracleCrate) *rustOracle {
	o := &rustOracle{
		g: g, root: root, crates: crates,
		byLib:        map[string]*rustOracleCrate{},
		prefix:       map[*rustOracleCrate]string{},
		methods:      map[*rustOracleCrate]map[[2]string][]SymbolID{},
		funcs:        map[*rustOracleCrate]map[string][]SymbolID{},
		types:        map[*rustOracleCrate]map[string]bool{},
		implementers: map[string]map[string]bool{},
		macros:       map[SymbolID]bool{},
		lines:        map[string][]string{},
	}
	for _, c := range crates {
		o.byLib[c.lib] = c
		o.methods[c] = map[[2]string][]SymbolID{}
		o.funcs[c] = map[string][]SymbolID{}
		o.types[c] = map[string]bool{}
		if ids := g.InFile(c.dir + "/src/lib.rs"); len(ids) > 0 {
			o.prefix[c] = g.Node(ids[0]).Qualified // the file's module comes first
		}
		if o.prefix[c] == "" {
			t.Fatalf("no module node for %s/src/lib.rs", c.dir)
		}
	}
	for i := range g.Len() {
		id := SymbolID(i)
		n := g.Node(id)
		if n.Language != "rust" {
			continue
		}
		if strings.HasPrefix(g.Signature(id), "macro_rules!") {
			o.macros[id] = true
		}
		c := o.crateOf(n.File)
		if c == nil {
			continue
		}
		switch n.Kind {
		case extract.KindMethod:
			k := [2]string{n.Parent, n.Name}
			o.methods[c][k] = append(o.methods[c][k], id)
		case extract.KindFunction:
			o.funcs[c][n.Name] = append(o.funcs[c][n.Name], id)
		case extract.KindStruct, extract.KindEnum, extract.KindTrait, extract.KindType:
			if n.Qualified == o.prefix[c]+"."+n.Name {
				o.types[c][n.Name] = true
			}
		}
	}
	for _, p := range g.Files() {
		if !strings.HasSuffix(p, ".rs") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		o.lines[p] = strings.Split(string(data), "\n")
		for _, m := range rustImplRE.FindAllStringSubmatch(string(data), -1) {
			if o.implementers[m[1]] == nil {
				o.implementers[m[1]] = map[string]bool{}
			}
			o.implementers[m[1]][m[2]] = true
		}
	}
	return o
}

// crateOf returns the crate whose library holds file, or nil.
func (o *rustOracle) crateOf(file string) *rustOracleCrate {
	for _, c := range o.crates {
		if strings.HasPrefix(file, c.dir+"/src/") {
			return c
		}
	}
	return nil
}

// targets maps a callee seen from crate c to the nodes it runs (see the
// file comment), and the nodes an edge may name besides.
func (o *rustOracle) targets(c *rustOracleCrate, p rustCallee) (targets, extra []SymbolID) {
	if p.self == "" {
		tc, rest := o.crateOfPath(c, p.path)
		if tc == nil || len(rest) == 0 {
			return nil, nil
		}
		if len(rest) >= 2 {
			if ms := o.methods[tc][[2]string{rest[len(rest)-2], p.name}]; len(ms) > 0 {
				return ms, nil
			}
		}
		want := o.prefix[tc] + "." + strings.Join(rest, ".")
		var exact []SymbolID
		for _, id := range o.funcs[tc][p.name] {
			if o.g.Node(id).Qualified == want {
				exact = append(exact, id)
			}
		}
		if len(exact) > 0 {
			return exact, nil
		}
		if fs := o.funcs[tc][p.name]; len(fs) == 1 && tc != c {
			return fs, nil // a re-exported path
		}
		return nil, nil
	}
	self := strings.TrimSpace(p.self)
	for {
		trimmed := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(self, "&"), "mut "), "*const ")
		trimmed = strings.TrimPrefix(trimmed, "*mut ")
		if strings.HasPrefix(trimmed, "'") { // a lifetime
			if i := strings.IndexByte(trimmed, ' '); i > 0 {
				trimmed = trimmed[i+1:]
			}
		}
		if trimmed == self {
			break
		}
		self = trimmed
	}
	traitCrate, traitRest := o.crateOfPath(c, splitRustTop(p.trait, "::"))
	var traitName string
	if len(traitRest) > 0 {
		traitName = traitRest[len(traitRest)-1]
	}
	traitMethod := func() []SymbolID {
		if traitCrate == nil {
			return nil
		}
		return o.methods[traitCrate][[2]string{traitName, p.name}]
	}
	generic := strings.HasPrefix(self, "dyn ") || strings.HasPrefix(self, "impl ") || self == "Self"
	var selfCrate *rustOracleCrate
	var selfName string
	if !generic && isRustPath(self) {
		segs := splitRustTop(cutRustGenerics(self), "::")
		if len(segs) == 1 && !o.types[c][segs[0]] {
			generic = true // a type parameter
		} else {
			selfCrate, segs = o.crateOfPath(c, segs)
			if len(segs) > 0 {
				selfName = segs[len(segs)-1]
			}
		}
	}
	if generic {
		if p.trait == "" {
			return nil, nil
		}
		for typ := range o.implementers[traitName] {
			for _, cc := range o.crates {
				extra = append(extra, o.methods[cc][[2]string{typ, p.name}]...)
			}
		}
		return traitMethod(), extra
	}
	if selfName != "" {
		// T's own method, in T's crate or the trait's (an impl of a
		// workspace trait for T may sit beside the trait).
		for _, cc := range []*rustOracleCrate{selfCrate, traitCrate} {
			if cc == nil {
				continue
			}
			if ms := o.methods[cc][[2]string{selfName, p.name}]; len(ms) > 0 {
				return ms, nil
			}
		}
	} else if p.trait != "" && traitCrate != nil {
		// A trait of the workspace implemented for a type outside it
		// ([u8], a tuple): the impl's method has that type's name.
		for typ := range o.implementers[traitName] {
			if ms := o.methods[traitCrate][[2]string{typ, p.name}]; len(ms) > 0 {
				extra = append(extra, ms...)
			}
		}
	}
	if p.trait == "" {
		return nil, nil
	}
	return traitMethod(), extra
}

// isRustPath reports whether a type is a path (a::B<T>), not a slice,
// tuple, reference, closure or function pointer.
func isRustPath(s string) bool {
	return s != "" && isIdentByte(s[0]) && !strings.HasPrefix(s, "fn(")
}

// crateOfPath returns the workspace crate a path seen from crate c names
// and the rest of the path in it: a path under a workspace crate's name,
// or a path in c whose first segment c declares at its root (a module,
// type or function). nil for std, core, alloc and other crates.
func (o *rustOracle) crateOfPath(c *rustOracleCrate, segs []string) (*rustOracleCrate, []string) {
	if len(segs) == 0 {
		return nil, nil
	}
	if tc, ok := o.byLib[segs[0]]; ok {
		return tc, segs[1:]
	}
	if segs[0] == "crate" {
		return c, segs[1:]
	}
	head := o.prefix[c] + "." + segs[0]
	if len(o.g.Lookup(head)) > 0 {
		return c, segs
	}
	return nil, nil
}

// rustOracleStats counts one crate's judgement.
type rustOracleStats struct {
	judged, right int
	calls, found  int
	byHow         map[Resolution][2]int // judged, right
	wrong, missed []string
}

// report compares the graph with the MIR, crate by crate, and logs the
// figures; it fails when precision drops under its floor.
func (o *rustOracle) report(t *testing.T) {
	type key struct {
		file string
		line int
	}
	var total rustOracleStats
	total.byHow = map[Resolution][2]int{}
	t.Logf("%-10s %-8s %7s %7s %6s %6s %6s %6s", "crate", "version", "judged", "right", "P", "calls", "found", "R")
	for _, c := range o.crates {
		s := rustOracleStats{byHow: map[Resolution][2]int{}}
		at := map[key][]*rustMIRCall{}
		for i := range c.calls {
			k := key{c.calls[i].file, c.calls[i].line}
			at[k] = append(at[k], &c.calls[i])
		}
		found := map[*rustMIRCall]bool{}
		for _, e := range o.g.Edges() {
			if o.crateOf(e.File) != c || !c.covered[e.File][e.Line] || o.macros[e.Callee] || o.macros[e.Caller] {
				continue
			}
			s.judged++
			ok := false
			for _, call := range at[key{e.File, e.Line}] {
				if containsID(call.targets, e.Callee) || containsID(call.extra, e.Callee) {
					ok = true
					found[call] = true
				}
			}
			h := s.byHow[e.Resolution]
			h[0]++
			if ok {
				s.right++
				h[1]++
			} else {
				s.wrong = append(s.wrong, fmt.Sprintf("%s:%d %s -> %s (%s)", e.File, e.Line, o.g.Node(e.Caller).Qualified, o.g.Node(e.Callee).Qualified, e.Resolution))
			}
			s.byHow[e.Resolution] = h
		}
		for i := range c.calls {
			call := &c.calls[i]
			if len(call.targets) == 0 {
				continue
			}
			s.calls++
			if found[call] {
				s.found++
			} else {
				s.missed = append(s.missed, fmt.Sprintf("%s:%d %s", call.file, call.line, call.callee))
			}
		}
		t.Logf("%-10s %-8s %7d %7d %6.3f %6d %6d %6.3f", strings.TrimPrefix(c.dir, "crates/"), c.version,
			s.judged, s.right, ratio(s.right, s.judged), s.calls, s.found, ratio(s.found, s.calls))
		total.judged += s.judged
		total.right += s.right
		total.calls += s.calls
		total.found += s.found
		for h, v := range s.byHow {
			tv := total.byHow[h]
			total.byHow[h] = [2]int{tv[0] + v[0], tv[1] + v[1]}
		}
		total.wrong = append(total.wrong, s.wrong...)
		total.missed = append(total.missed, s.missed...)
	}
	t.Logf("%-10s %-8s %7d %7d %6.3f %6d %6d %6.3f", "all", "", total.judged, total.right, ratio(total.right, total.judged),
		total.calls, total.found, ratio(total.found, total.calls))
	var hows []string
	for h := range total.byHow {
		hows = append(hows, string(h))
	}
	sort.Strings(hows)
	for _, h := range hows {
		v := total.byHow[Resolution(h)]
		t.Logf("  %-12s judged %5d right %5d P %.3f", h, v[0], v[1], ratio(v[1], v[0]))
	}
	if os.Getenv("FILEINFO_RUST_ORACLE") == "v" {
		for _, w := range total.wrong {
			t.Logf("wrong: %s", w)
		}
		for _, m := range total.missed {
			t.Logf("missed: %s", m)
		}
	}
	if p := ratio(total.right, total.judged); p < 0.95 {
		t.Errorf("precision %.3f against rustc's MIR, want at least 0.95", p)
	}
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
