package docsearch

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
)

// zipfWord returns the n-th word of a vocabulary of letters only, so
// that the analysis keeps it whole: "ka", "kb", ... "kba".
func zipfWord(n uint64) string {
	var b []byte
	for {
		b = append(b, byte('a'+n%26))
		n /= 26
		if n == 0 {
			break
		}
	}
	return "k" + string(b)
}

// zipfChunks returns n chunks of per distinct terms each, drawn from a
// Zipf vocabulary of vocab words: many terms in few chunks and a few in
// most, as in a big tree's code.
func zipfChunks(n, per, vocab int) [][]termFreq {
	r := rand.New(rand.NewPCG(5, 6))
	z := rand.NewZipf(r, 1.1, 2, uint64(vocab-1))
	chunks := make([][]termFreq, n)
	for i := range chunks {
		seen := map[uint64]bool{}
		for len(chunks[i]) < per {
			w := z.Uint64()
			if !seen[w] {
				seen[w] = true
				chunks[i] = append(chunks[i], termFreq{zipfWord(w), uint32(1 + w%3)})
			}
		}
	}
	return chunks
}

// zipfCode returns batches of code files whose symbols' bodies are
// words of zipfChunks.
func zipfCode(batches, files, symbols, vocab int) [][]CodeFile {
	chunks := zipfChunks(batches*files*symbols, 40, vocab)
	var out [][]CodeFile
	for b := range batches {
		var batch []CodeFile
		for f := range files {
			cf := CodeFile{Path: fmt.Sprintf("src/b%d/f%d.go", b, f), Stamp: uint64(b*files + f + 1)}
			for s := range symbols {
				var words []string
				for _, t := range chunks[(b*files+f)*symbols+s] {
					words = append(words, t.term)
				}
				name := fmt.Sprintf("Heron%dFox%dOwl%d", b, f, s)
				cf.Symbols = append(cf.Symbols, CodeSymbol{Name: name, Kind: "func", Signature: "func " + name + "()",
					Body: strings.Join(words, " "), Line: 10 * s, End: 10*s + 6})
			}
			batch = append(batch, cf)
		}
		out = append(out, batch)
	}
	return out
}

// BenchmarkLexiconRuns adds 20,000 chunks of 60 terms from a Zipf
// vocabulary of 200,000 words to a lexicon that writes a run every
// 100,000 postings to a spill (12 runs): the lookups of add, and each
// run's sorting and writing of its postings.
func BenchmarkLexiconRuns(b *testing.B) {
	if !canSpill {
		b.Skip("no spill on this platform")
	}
	chunks := zipfChunks(20000, 60, 200000)
	b.ReportAllocs()
	for b.Loop() {
		f, err := os.CreateTemp(b.TempDir(), "spill")
		if err != nil {
			b.Fatal(err)
		}
		sp := &spill{f: f}
		lex := newLexicon()
		lex.spillTo, lex.runAt = func(int) *spill { return sp }, 100000
		for _, c := range chunks {
			lex.add(c)
		}
		lex.flush()
		if len(lex.runs) < 12 {
			b.Fatalf("%d runs; want 12", len(lex.runs))
		}
		sp.close()
	}
}

// BenchmarkSpillSave encodes an index of 8,000 code symbols whose
// postings lie in 15 runs of the spill (a vocabulary of 200,000 words):
// the save's reading of every term's postings from every run.
func BenchmarkSpillSave(b *testing.B) {
	if !canSpill {
		b.Skip("no spill on this platform")
	}
	ix, err := Open(context.Background(), mapFS(nil), Options{Dir: b.TempDir(), Embedder: &trigramEmbedder{}, SpillBytes: 256 << 10})
	if err != nil {
		b.Fatal(err)
	}
	if err := ix.PutCodeBatches(context.Background(), slices.Values(zipfCode(4, 100, 20, 200000)), nil); err != nil {
		b.Fatal(err)
	}
	if len(ix.lex.runs) < 10 {
		b.Fatalf("%d runs; want at least 10", len(ix.lex.runs))
	}
	b.ReportAllocs()
	for b.Loop() {
		ix.mu.RLock()
		err := ix.encodeTo(io.Discard)
		ix.mu.RUnlock()
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLexiconLog adds 40,000 chunks of the same 50 terms to a
// spilled build's log, no run written: 2 M postings, the log's growth
// and nothing else (the terms are found in a table of 50).
func BenchmarkLexiconLog(b *testing.B) {
	terms := make([]termFreq, 50)
	for i := range terms {
		terms[i] = termFreq{fmt.Sprintf("w%dx", i), 1}
	}
	b.ReportAllocs()
	for b.Loop() {
		lex := newLexicon()
		lex.spillTo, lex.runAt = func(int) *spill { return nil }, 1<<30
		for range 40000 {
			lex.add(terms)
		}
	}
}

// BenchmarkDFDuringSpilledBuild: a search's document frequencies while a
// build holds a large log and several runs.
func BenchmarkDFDuringSpilledBuild(b *testing.B) {
	sp := scratchSpill(b)
	lex := newLexicon()
	lex.spillTo, lex.runAt = func(int) *spill { return sp }, 1_000_000
	for _, c := range zipfChunks(60_000, 40, 50_000) {
		lex.add(c)
	}
	ids := make([]uint32, 200)
	for i := range ids {
		ids[i] = uint32(i * 97 % len(lex.terms))
	}
	b.ResetTimer()
	for range b.N {
		for _, id := range ids {
			lex.df(id)
		}
	}
}
