package extract

import (
	"context"
	"reflect"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
)

// cMacroText is C whose tree has errors that only the text repairs
// mend: attribute macros, a loop macro as a do statement's while and a
// conditional inside parentheses (as in Linux's kernel/).
const cMacroText = `static __printf(4, 0)
struct task_struct *create_on_node(int (*fn)(void *data), void *data)
{
	wake_up_process(task);
	return task;
}

void lock_it(struct foo *f) __acquires(f->lock)
{
	spin_lock(&f->lock);
}

int attach(struct task_struct *leader)
{
	do {
		add_src(task);
	} while_each_thread(leader, task);
	if (
#ifdef CONFIG_KEYS
	    keys(leader) &&
#endif
	    ready(leader))
		return 1;
	return 0;
}
`

// TestCTextRepairsLexedOnce: every repair round asks for the text
// repairs of the same original text; the file lexes it once, into the
// worker's buffer, which the next file reuses.
func TestCTextRepairsLexedOnce(t *testing.T) {
	var buf []cToken
	f := &fileInfo{src: []byte(cMacroText), ctoks: &buf}
	want := cTextRepairs(f.src)
	if len(want) < 3 {
		t.Fatalf("cTextRepairs found %d sites, want the 3 kinds of cMacroText: %v", len(want), want)
	}
	if got := f.cTextRepairs(); !reflect.DeepEqual(got, want) {
		t.Fatalf("first round: %v, want %v", got, want)
	}
	if allocs := testing.AllocsPerRun(10, func() { f.cTextRepairs() }); allocs != 0 {
		t.Errorf("a later round allocates %.0f times, want 0: the text is lexed again", allocs)
	}
	if cap(buf) == 0 {
		t.Fatal("the worker's token buffer was not kept")
	}
	first := &buf[:1][0]
	g := &fileInfo{src: []byte(strings.Replace(cMacroText, "lock_it", "lock_me", 1)), ctoks: &buf}
	if got := g.cTextRepairs(); !reflect.DeepEqual(got, cTextRepairs(g.src)) {
		t.Errorf("the next file, lexed into the used buffer: %v, want %v", got, cTextRepairs(g.src))
	}
	if &buf[:1][0] != first {
		t.Error("the next file of the same size did not reuse the worker's token buffer")
	}
}

// TestCTextRepairsBufferBound: a buffer grown past maxKeptTokens by a
// huge file is not kept by the worker.
func TestCTextRepairsBufferBound(t *testing.T) {
	var buf []cToken
	big := strings.Repeat("a b c d ;\n", maxKeptTokens/5+1)
	f := &fileInfo{src: []byte(big), ctoks: &buf}
	f.cTextRepairs()
	if cap(buf) != 0 {
		t.Errorf("kept a buffer of %d tokens, want none past %d", cap(buf), maxKeptTokens)
	}
}

// FuzzCTextRepairsReuse: lexing into a buffer another text filled gives
// what lexing afresh gives.
func FuzzCTextRepairsReuse(f *testing.F) {
	f.Add([]byte(cMacroText), []byte("int f(void) __releases(x) { do { g(); } while_each(a, b); }"))
	f.Add([]byte("do { } x(\n#if A\n"), []byte("__a(("))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		_, buf := cTextRepairsInto(a, nil)
		got, _ := cTextRepairsInto(b, buf)
		if want := cTextRepairs(b); !reflect.DeepEqual(got, want) {
			t.Fatalf("after %q, %q gives %v, want %v", a, b, got, want)
		}
	})
}

// BenchmarkExtractCMacros extracts a C file of 20 KB (the size of a typical Linux .c file) whose tree has
// errors, so that every repair round asks for its text repairs: the
// per-file work of most of Linux's .c files.
func BenchmarkExtractCMacros(b *testing.B) {
	src := []byte(strings.Repeat(cMacroText, 20<<10/len(cMacroText)))
	ex, err := New(b.TempDir(), Options{Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer ex.Close()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ex.Source(context.Background(), "kernel/x.c", src); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRepairTreeWalksOnce: the repair rounds walk each tree with C's
// whole query, so the walk of the round that finds nothing to repair is
// the one run reads, and the last tree is not walked again; run reads
// from it what it reads from a walk of its own.
func TestRepairTreeWalksOnce(t *testing.T) {
	lang := LanguageOf("a.c", nil)
	cq, err := lang.query()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, src string }{
		{"plain", "int f(void)\n{\n\treturn g(1);\n}\n"},
		{"statement macro", "int f(void)\n{\n\tint c;\n\tfor_each_cpu(c) {\n\t\tg(c);\n\t}\n\treturn 0;\n}\n"},
		{"text repairs", cMacroText},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := sitter.NewParser()
			defer p.Close()
			p.SetLanguage(lang.grammarOf())
			qc := sitter.NewQueryCursor()
			defer qc.Close()
			src := []byte(tt.src)
			tree, err := p.ParseCtx(context.Background(), nil, src)
			if err != nil {
				t.Fatal(err)
			}
			f := &fileInfo{path: "a.c", src: src, lang: lang}
			tree, walked, ok := repairTree(p, tree, f, qc, cq)
			defer tree.Close()
			if !ok || len(walked) == 0 {
				t.Fatalf("repairTree gave %d matches (ok %v), want the last round's", len(walked), ok)
			}
			got := run(tree, qc, cq, f, walked)
			want := run(tree, qc, cq, &fileInfo{path: "a.c", src: src, lang: lang, macroCalls: f.macroCalls}, nil)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("run from the repair walk:\n%+v\nwant, from a walk of its own:\n%+v", got, want)
			}
		})
	}
}
