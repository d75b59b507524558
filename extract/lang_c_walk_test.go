package extract

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
)

// cWalkSeeds are C shapes each of C's patterns matches, and shapes near
// them that it must not.
var cWalkSeeds = []string{
	"#include <stdio.h>\n#include \"a.h\"\nint main(void) { printf(\"x\"); s.f(1); p->g(2); a.b->h(3); (*fp)(4); f()(5); }\n",
	"int f(void), *g(int), **h(char), ***k(void), x, (*fp)(int);\nstatic int m(a) int a; { return a; }\n",
	"int f(void) __THROW;\nint g(void) __attribute__((x)) __THROW __wur;\n",
	"#define MAX(a, b) ((a) > (b) ? (a) : (b))\n#define ONE 1\n",
	"SYSCALL_DEFINE1(close, unsigned int, fd)\n{\n\treturn do_close(fd);\n}\n#ifdef X\nDEFINE(a)\n{ x(); }\n#elif Y\nDEFINE(b) /* c */ { y(); }\n#else\nDEFINE(c)\n{ z(); }\n#endif\n#if Z\nM(d) { w(); }\n#endif\n",
	"struct s { int a; struct t { int b; } in; };\nunion u { int a; };\nenum e { A, B };\nstruct fwd;\n",
	"typedef int a, *b, c[3];\ntypedef struct { int x; } point;\ntypedef struct node { struct node *next; } node;\ntypedef int (*fn)(int);\n",
	"int f(void)\n{\n\tfor_each_cpu(i)\n\t\tsum += g(i);\n\tfor_each(c) { h(c); }\n\tLIST_HEAD(x);\n}\nint k(void) { return 1; }\n",
	"DECLARE_BITMAP(int) f(void);\nMACRO(x) g(int a) = 1;\nMACRO(y) h(int), k(int);\n",
	"void f(void) { int g(void) { return 1; } }\n",
	"int f( { g(; }\n}}}}\nstruct { \n",
	"x = " + strings.Repeat("f(", 300) + "a" + strings.Repeat(")", 300) + ";\n",
	"void f(void) {" + strings.Repeat("{", 600) + "g();" + strings.Repeat("}", 600) + "}\n",
	"",
	"\xff\xfe\x00garbage",
}

// cMatchLines renders matches one line each, with their captures in
// order: pattern, then each capture's name and node's type and range.
func cMatchLines(cq *compiledQuery, ms []*sitter.QueryMatch) []string {
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		var b strings.Builder
		fmt.Fprintf(&b, "%d", m.PatternIndex)
		for _, c := range m.Captures {
			fmt.Fprintf(&b, " @%s=%s[%d,%d)", cq.q.CaptureNameForId(c.Index), c.Node.Type(), c.Node.StartByte(), c.Node.EndByte())
		}
		out = append(out, b.String())
	}
	return out
}

// treeNodeOf finds n's node in tree through the binding: the descendant
// of the root with n's range and type.
func treeNodeOf(tree *sitter.Tree, n *sitter.Node) *sitter.Node {
	d := tree.RootNode().NamedDescendantForPointRange(n.StartPoint(), n.EndPoint())
	for d != nil && (d.Type() != n.Type() || d.StartByte() != n.StartByte() || d.EndByte() != n.EndByte()) {
		d = d.Parent()
	}
	return d
}

func nodeLines(ns []*sitter.Node) []string {
	out := make([]string, 0, len(ns))
	for _, n := range ns {
		out = append(out, fmt.Sprintf("%s[%d,%d)", n.Type(), n.StartByte(), n.EndByte()))
	}
	return out
}

// checkCWalk parses src as C and compares the walk's matches and repair
// nodes with the query cursor's. The order of the matches may differ
// (run and the repair hook do not depend on it; TestCWalkSameFiles
// checks the files), the matches may not.
func checkCWalk(t *testing.T, name string, src []byte) {
	t.Helper()
	lang := languages["c"]
	cq, err := lang.query()
	if err != nil {
		t.Fatal(err)
	}
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(lang.grammarOf())
	tree := p.Parse(nil, src)
	if tree == nil {
		return
	}
	defer tree.Close()
	qc := sitter.NewQueryCursor()
	defer qc.Close()
	limitCursor(qc)
	fi := &fileInfo{path: name, src: src, lang: lang}
	wantM, wantR := cursorMatches(tree.RootNode(), qc, cq, fi)
	gotM, gotR, ok := cWalk(tree.RootNode(), cq)
	if !ok {
		t.Fatalf("%s: the walk did not run", name)
	}
	want, got := cMatchLines(cq, wantM), cMatchLines(cq, gotM)
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(want, got) {
		if len(want) > 50 || len(got) > 50 {
			t.Errorf("%s: matches differ: %d by the query, %d by the walk", name, len(want), len(got))
			return
		}
		t.Errorf("%s: matches differ\nquery: %q\nwalk:  %q", name, want, got)
		return
	}
	wr, gr := nodeLines(wantR), nodeLines(gotR)
	slices.Sort(wr)
	slices.Sort(gr)
	if !slices.Equal(wr, gr) {
		t.Errorf("%s: repair nodes differ\nquery: %q\nwalk:  %q", name, wr, gr)
	}
	for _, m := range gotM {
		for _, c := range m.Captures {
			if treeOf(c.Node) != tree || !c.Node.Equal(treeNodeOf(tree, c.Node)) {
				t.Fatalf("%s: a captured node is not of the tree", name)
			}
		}
	}
}

// TestCWalkEqualsQuery holds C's hand-written walk to the query it
// stands for: the same matches on the seeds, on every C file of the
// golden corpus and, when FILEINFO_CWALK_DIR names a tree (a kernel
// subset), on each .c and .h file under it.
func TestCWalkEqualsQuery(t *testing.T) {
	for i, s := range cWalkSeeds {
		checkCWalk(t, fmt.Sprintf("seed%d.c", i), []byte(s))
	}
	// Deeper than maxStartDepth: the cursor starts no pattern past it
	// (254 calls of 100,000), nor does the walk.
	checkCWalk(t, "deep.c", []byte("void f(void) {\n x = "+strings.Repeat("g(\n", 100000)+"a"+strings.Repeat(")\n", 100000)+"; }\n"))
	golden, _ := filepath.Glob(filepath.Join("testdata", "golden", "c", "*.[ch]"))
	more, _ := filepath.Glob(filepath.Join("testdata", "golden", "cpp", "*.h"))
	for _, g := range append(golden, more...) {
		src, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		checkCWalk(t, g, src)
	}
	dir := os.Getenv("FILEINFO_CWALK_DIR")
	if dir == "" {
		return
	}
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || (!strings.HasSuffix(p, ".c") && !strings.HasSuffix(p, ".h")) {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		checkCWalk(t, p, src)
		if t.Failed() {
			return filepath.SkipAll
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files under %s", n, dir)
}

// FuzzCWalk compares the walk with the query on arbitrary input.
func FuzzCWalk(f *testing.F) {
	for _, s := range cWalkSeeds {
		f.Add([]byte(s))
	}
	for _, s := range brokenSeeds {
		f.Add([]byte(s))
	}
	golden, _ := filepath.Glob(filepath.Join("testdata", "golden", "c", "*.[ch]"))
	for _, g := range golden {
		if src, err := os.ReadFile(g); err == nil {
			f.Add(src)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		checkCWalk(t, "fuzz.c", src)
	})
}

// cBenchSource is a C file for the benchmarks: the file FILEINFO_CWALK_FILE
// names (a kernel source), or the golden C files and the seeds repeated.
func cBenchSource(b *testing.B) []byte {
	b.Helper()
	if p := os.Getenv("FILEINFO_CWALK_FILE"); p != "" {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		return src
	}
	var one []byte
	golden, _ := filepath.Glob(filepath.Join("testdata", "golden", "c", "*.[ch]"))
	for _, g := range golden {
		src, err := os.ReadFile(g)
		if err != nil {
			b.Fatal(err)
		}
		one = append(one, src...)
	}
	for _, s := range cWalkSeeds[:10] {
		one = append(one, s...)
	}
	var src []byte
	for range 40 {
		src = append(src, one...)
	}
	return src
}

// BenchmarkCWalk finds C's matches in one parsed tree by the query cursor
// and by the walk. On kernel/sched/core.c (294 KB), two runs on a shared
// machine: at load 7 the query 22-25 ms/op, the walk 5.6-13; at load 9
// the query 47-64 ms/op, the walk 14-20. The query's 13,176 allocations
// an op are with the tree's node cache already filled by the run before;
// the walk makes 15.
func BenchmarkCWalk(b *testing.B) {
	src := cBenchSource(b)
	lang := languages["c"]
	cq, err := lang.query()
	if err != nil {
		b.Fatal(err)
	}
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(lang.grammarOf())
	tree := p.Parse(nil, src)
	defer tree.Close()
	qc := sitter.NewQueryCursor()
	defer qc.Close()
	limitCursor(qc)
	fi := &fileInfo{path: "bench.c", src: src, lang: lang}
	b.Run("query", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			cursorMatches(tree.RootNode(), qc, cq, fi)
		}
	})
	b.Run("walk", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			if _, _, ok := cWalk(tree.RootNode(), cq); !ok {
				b.Fatal("the walk did not run")
			}
		}
	})
}
