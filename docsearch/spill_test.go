package docsearch

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// spillCode returns batches of code files whose symbols make more than
// one block of vectors (blockRows), each text of its own.
func spillCode(batches, files, symbols int) [][]CodeFile {
	var out [][]CodeFile
	for b := range batches {
		var batch []CodeFile
		for f := range files {
			cf := CodeFile{Path: fmt.Sprintf("src/b%d/f%d.go", b, f), Stamp: uint64(b*files + f + 1)}
			for s := range symbols {
				name := fmt.Sprintf("Walrus%dTapir%dIbis%d", b, f, s)
				cf.Symbols = append(cf.Symbols, CodeSymbol{
					Name: name, Kind: "func", Signature: "func " + name + "(n int) int",
					Doc:  fmt.Sprintf("%s folds the %d-th ledger of batch %d into a checksum.", name, s, b),
					Body: fmt.Sprintf("sum := %d\nfor i := range n {\n\tsum += i * %d\n}\nreturn sum", s, f),
					Line: 10 * s, End: 10*s + 6,
				})
			}
			batch = append(batch, cf)
		}
		out = append(out, batch)
	}
	return out
}

// buildSpill indexes batches in a new index saved in dir.
func buildSpill(t *testing.T, dir string, spillBytes int64, batches [][]CodeFile) *Index {
	t.Helper()
	ix := openTest(t, mapFS(nil), Options{Dir: dir, Embedder: &trigramEmbedder{}, SpillBytes: spillBytes})
	if err := ix.PutCodeBatches(context.Background(), slices.Values(batches), nil); err != nil {
		t.Fatal(err)
	}
	return ix
}

// TestSpillSameIndex checks that an index whose texts, vectors and
// postings went to the spill (a budget of 4 KB, pages let go at every
// block) saves the same file, byte for byte, as one built on the heap,
// before and after a compaction, and searches and fetches the same.
func TestSpillSameIndex(t *testing.T) {
	old := spillRelease
	spillRelease = 1
	defer func() { spillRelease = old }()
	batches := spillCode(3, 25, 20) // 1,500 symbols: two blocks of vectors
	heapDir, spillDir := t.TempDir(), t.TempDir()
	a := buildSpill(t, heapDir, 0, batches)
	b := buildSpill(t, spillDir, 4096, batches) // 341 postings a run
	sameSaved(t, heapDir, spillDir)
	if runtime.GOOS == "linux" && len(b.lex.runs) < 10 {
		t.Errorf("%d runs of postings; want one every 341 postings", len(b.lex.runs))
	}
	// Two of the three batches again, changed: a compaction, which reads
	// the runs back.
	again := spillCode(2, 25, 20)
	for _, batch := range again {
		for i := range batch {
			for j := range batch[i].Symbols {
				batch[i].Symbols[j].Body += "\nreturn -sum"
			}
			batch[i].Stamp += 1000
		}
	}
	for _, ix := range []*Index{a, b} {
		if err := ix.PutCodeBatches(context.Background(), slices.Values(again), nil); err != nil {
			t.Fatal(err)
		}
		if ix.dead != 0 {
			t.Fatalf("%d dead chunks: no compaction", ix.dead)
		}
	}
	sameSaved(t, heapDir, spillDir)
	if a.spill != nil {
		t.Fatal("an index of SpillBytes 0 made a spill")
	}
	if runtime.GOOS == "linux" {
		if b.spill == nil {
			t.Fatal("no spill made with SpillBytes 1")
		}
		spilled := 0
		for _, d := range b.docs {
			if d != nil && d.put && b.spill.holds(d.text) {
				spilled++
			}
		}
		if spilled < 1400 {
			t.Errorf("%d texts in the spill; want nearly all of 1,500", spilled)
		}
		if len(b.vec.blocks) < 2 || !b.spill.holds(int8String(b.vec.blocks[1])) {
			t.Error("the vectors' second block is not in the spill")
		}
		left, _ := os.ReadDir(spillDir)
		for _, e := range left {
			if e.Name() != storeFile && e.Name() != sealFile && e.Name() != ".gitignore" {
				t.Errorf("%s left in the index directory", e.Name())
			}
		}
	}
	for _, q := range []string{"Walrus1Tapir3Ibis7", "fold ledger checksum", "tapir ibis batch 2"} {
		for _, mode := range []Mode{Hybrid, Lexical, Vector} {
			ra, err := a.Search(ctx, Query{Text: q, Mode: mode, Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			rb, err := b.Search(ctx, Query{Text: q, Mode: mode, Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(ra.Results) != fmt.Sprint(rb.Results) || len(ra.Results) == 0 {
				t.Errorf("%s %q: heap %v\nspill %v", mode, q, ra.Results, rb.Results)
			}
		}
	}
	path := fmt.Sprintf("%s#%s", "src/b2/f4.go", "Walrus2Tapir4Ibis9")
	ga, errA := a.Fetch(path, "")
	gb, errB := b.Fetch(path, "")
	if errA != nil || errB != nil || ga.Content != gb.Content || !bytes.Contains([]byte(gb.Content), []byte("sum += i * 4")) {
		t.Errorf("fetch %s: heap %.60q %v; spill %.60q %v", path, ga.Content, errA, gb.Content, errB)
	}
}

// sameSaved checks that the indexes saved in two directories are the
// same bytes.
func sameSaved(t *testing.T, dirA, dirB string) {
	t.Helper()
	fa, err := os.ReadFile(filepath.Join(dirA, storeFile))
	if err != nil {
		t.Fatal(err)
	}
	fb, err := os.ReadFile(filepath.Join(dirB, storeFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fa, fb) {
		t.Fatalf("saved indexes differ: %d and %d bytes", len(fa), len(fb))
	}
}

// int8String returns b's bytes as a string, not copied.
func int8String(b []int8) string { return unsafe.String((*byte)(unsafe.Pointer(&b[0])), len(b)) }

// TestSpillKeepsUnderBudget checks that what fits in SpillBytes stays on
// the heap: no file is made for a small index.
func TestSpillKeepsUnderBudget(t *testing.T) {
	ix := buildSpill(t, t.TempDir(), 1<<30, spillCode(1, 3, 4))
	if ix.spill != nil {
		t.Error("a spill made for an index under its SpillBytes")
	}
}

// TestSpillLogSearch checks that an index whose postings wait in the log
// (a spilled build's, before its first run) searches as one built on the
// heap, and saves the same bytes: a search reads the log, the save
// flushes it.
func TestSpillLogSearch(t *testing.T) {
	batches := spillCode(2, 10, 10)
	heapDir, logDir := t.TempDir(), t.TempDir()
	a := buildSpill(t, heapDir, 0, batches)
	// No Dir: nothing is saved, so the postings stay in the log.
	b := openTest(t, mapFS(nil), Options{Embedder: &trigramEmbedder{}, SpillBytes: 1 << 30})
	if err := b.PutCodeBatches(context.Background(), slices.Values(batches), nil); err != nil {
		t.Fatal(err)
	}
	if b.lex.log.len() == 0 || len(b.lex.runs) != 0 {
		t.Fatalf("%d postings in the log, %d runs; want some and none", b.lex.log.len(), len(b.lex.runs))
	}
	for _, q := range []string{"Walrus1Tapir3Ibis7", "fold ledger checksum", "tapir ibis batch 0"} {
		ra, err := a.Search(ctx, Query{Text: q, Mode: Lexical, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		rb, err := b.Search(ctx, Query{Text: q, Mode: Lexical, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(ra.Results) != fmt.Sprint(rb.Results) || len(ra.Results) == 0 {
			t.Errorf("%q: heap %v\nlog %v", q, ra.Results, rb.Results)
		}
	}
	if a.lex.npostings() != b.lex.npostings() {
		t.Errorf("%d postings on the heap, %d with the log", a.lex.npostings(), b.lex.npostings())
	}
	b.opts.Dir = logDir
	if err := b.Save(); err != nil {
		t.Fatal(err)
	}
	if b.lex.log.len() != 0 {
		t.Errorf("%d postings in the log after the save; want it flushed", b.lex.log.len())
	}
	sameSaved(t, heapDir, logDir)
}

// TestSpillSaveCountsPages checks that the save, and any reader, counts
// a page for each read of a run's postings, few as they may be: the terms are read in
// term order, each from every run that has it, so each read makes a page
// resident. Counted by their bytes, the save of the kernel's index let
// 140-310 MB of run pages stay resident between two releases.
func TestSpillSaveCountsPages(t *testing.T) {
	old := spillRelease
	spillRelease = 1 << 20
	defer func() { spillRelease = old }()
	ix := buildSpill(t, t.TempDir(), 4096, spillCode(3, 25, 20))
	if !canSpill || ix.spill == nil {
		t.Skip("no spill on this platform")
	}
	reads := 0
	for i := range ix.lex.nterms() {
		for _, r := range ix.lex.runs {
			if len(r.find(ix.lex.terms, uint32(i))) > 0 {
				reads++
			}
		}
	}
	before := ix.spill.releases
	if err := ix.Save(); err != nil {
		t.Fatal(err)
	}
	want := reads * spillPage / spillRelease
	if got := ix.spill.releases - before; got < want {
		t.Errorf("%d releases while saving %d reads of postings; want at least %d", got, reads, want)
	}
	// Any other reader of the runs (a search, the derived signals)
	// counts its pages the same way.
	before = ix.spill.releases
	for i := range ix.lex.nterms() {
		ix.lex.postings(uint32(i))
	}
	if got := ix.spill.releases - before; got < want {
		t.Errorf("%d releases while reading every term's postings; want at least %d", got, want)
	}
}

// TestSpillFailsToHeap checks that a spill whose file cannot grow (here:
// closed) keeps what it is given on the heap, and says so to later calls.
func TestSpillFailsToHeap(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "spill")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	sp := &spill{f: f}
	s := string([]byte("def parse(self): pass"))
	if got := sp.text(s); got != s || sp.holds(got) {
		t.Errorf("text = %q (in the spill: %v); want the heap's %q", got, sp.holds(got), s)
	}
	if b := sp.block(64); b != nil {
		t.Errorf("block of a failed spill = %d bytes; want nil", len(b))
	}
	if !sp.failed {
		t.Error("the spill did not record its failure")
	}
}

// BenchmarkSpillBuild builds and saves 1,500 code symbols on the heap and
// with everything past 64 KB spilled (postings in runs of 5,461): the
// cost of the spill's writes and of the save's reading of the runs.
func BenchmarkSpillBuild(b *testing.B) {
	batches := spillCode(3, 25, 20)
	for _, bc := range []struct {
		name  string
		bytes int64
	}{{"heap", 0}, {"spill", 64 << 10}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ix, err := Open(context.Background(), mapFS(nil), Options{Dir: b.TempDir(), Embedder: &trigramEmbedder{}, SpillBytes: bc.bytes})
				if err != nil {
					b.Fatal(err)
				}
				if err := ix.PutCodeBatches(context.Background(), slices.Values(batches), nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestSpillWritesTextsTogether checks that the texts of a commit go to
// the spill in few writes, not one each, between the blocks of vectors
// and the runs of postings that take room beside them (a budget of 4
// KB), and that every text reads back as it was put; and that when the
// writes fail the texts stay on the heap, as they were.
func TestSpillWritesTextsTogether(t *testing.T) {
	if !canSpill {
		t.Skip("no spill on this platform")
	}
	batches := spillCode(3, 25, 20) // 1,500 symbols
	ix := buildSpill(t, t.TempDir(), 4096, batches)
	checkTexts := func(batches [][]CodeFile, inSpill bool) {
		t.Helper()
		for _, batch := range batches {
			for _, f := range batch {
				for i, key := range CodeKeys(f) {
					id, ok := ix.find(key)
					if !ok {
						t.Fatalf("%s not indexed", key)
					}
					d := ix.doc(id)
					if want := CodeText(f.Path, f.Symbols[i]); d.text != want {
						t.Fatalf("%s: text %q; want %q", key, d.text, want)
					}
					if ix.spill.holds(d.text) != inSpill {
						t.Fatalf("%s: text in the spill %v; want %v", key, !inSpill, inSpill)
					}
				}
			}
		}
	}
	checkTexts(batches[1:], true) // the first texts came before the spill
	if w := ix.spill.writes; w == 0 || w > 1500/10 {
		t.Errorf("%d writes for 1,500 texts; want a few", w)
	}
	// Writes that fail: the texts of the batch stay on the heap.
	ix.spill.f.Close()
	again := spillCode(1, 5, 4)
	for i := range again[0] {
		again[0][i].Path = "src/again/" + again[0][i].Path
	}
	if err := ix.PutCodeBatches(context.Background(), slices.Values(again), nil); err != nil {
		t.Fatal(err)
	}
	checkTexts(again, false)
}

// BenchmarkSpillTexts writes 20,000 texts of 1 KB to a spill, a commit
// of 500 at a time: each with its own pwrite (text), as commits did,
// and together (later, then flush).
func BenchmarkSpillTexts(b *testing.B) {
	if !canSpill {
		b.Skip("no spill on this platform")
	}
	text := string(bytes.Repeat([]byte("x"), 1000))
	for _, bc := range []struct {
		name string
		put  func(sp *spill, s string) string
	}{{"each", (*spill).text}, {"together", (*spill).later}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				f, err := os.CreateTemp(b.TempDir(), "spill")
				if err != nil {
					b.Fatal(err)
				}
				sp := &spill{f: f}
				for i := range 20000 {
					bc.put(sp, text)
					if i%500 == 499 && !sp.flush() {
						b.Fatal("flush failed")
					}
				}
				sp.close()
			}
		})
	}
}

// TestSearchWhileCodeBatchesPut searches a spilling index while its code
// batches are put, as a server's first pass publishes its index for
// search before the code is all in: every search answers (the race
// detector checks the locking), one made after a batch is in finds that
// batch's symbols, and the last batch is found once all are in.
func TestSearchWhileCodeBatchesPut(t *testing.T) {
	old := spillRelease
	spillRelease = 1
	defer func() { spillRelease = old }()
	batches := spillCode(6, 10, 10)
	ix := openTest(t, mapFS(nil), Options{Dir: t.TempDir(), Embedder: &trigramEmbedder{}, SpillBytes: 4096})
	stop := searchBeside(t, 2, ix, Query{Text: "fold the ledger into a checksum", MinScore: zero()}, nil)
	// One call over every batch, as the first pass makes: each batch is
	// searched for once it is in, before the next is put.
	found := 0
	put := func(yield func([]CodeFile) bool) {
		for b, batch := range batches {
			if !yield(batch) {
				return
			}
			want := fmt.Sprintf("Walrus%dTapir3Ibis4", b)
			res, err := ix.Search(context.Background(), Query{Text: want, Scopes: []string{ScopeCode}})
			if err != nil || len(res.Results) == 0 || !strings.HasSuffix(res.Results[0].Symbol, want) {
				t.Errorf("after batch %d, %s: %+v %v", b, want, res.Results, err)
				continue
			}
			found++
		}
	}
	if err := ix.PutCodeBatches(context.Background(), put, nil); err != nil {
		t.Fatal(err)
	}
	if found != len(batches) {
		t.Errorf("%d of %d batches found as they were put", found, len(batches))
	}
	stop()
}
