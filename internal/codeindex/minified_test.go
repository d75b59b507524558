package codeindex

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/fixture"
)

// TestFileMinifiedLinear checks that a minified bundle's code documents
// cost work in proportion to its size: each symbol's body started with
// the whole of the one line they all share (5 GB for a 2 MB bundle).
func TestFileMinifiedLinear(t *testing.T) {
	ex, err := extract.New(t.TempDir(), extract.Options{Workers: 1, KeepMinified: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	cost := func(size int) (uint64, int) {
		src := fixture.MinifiedJS(size)
		f, err := ex.Source(context.Background(), "bundle.js", src)
		if err != nil {
			t.Fatal(err)
		}
		return fixture.Allocated(func() {
			for _, s := range File(f, src, nil).Symbols {
				if len(s.Body) > maxBody+len("members: \n")+maxMembers*16 || !utf8.ValidString(s.Body) {
					t.Fatalf("%s: a body of %d bytes", s.Name, len(s.Body))
				}
			}
		}), len(f.Symbols)
	}
	s, ns := cost(32 << 10)
	l, nl := cost(256 << 10)
	t.Logf("%d symbols: %d bytes allocated; %d symbols: %d", ns, s, nl, l)
	if ratio, syms := float64(l)/float64(s), float64(nl)/float64(ns); ratio > 2*syms {
		t.Errorf("code documents allocated %.1f times as much for %.1f times the symbols", ratio, syms)
	}
}

// TestBodyCut checks that a body is cut at maxBody bytes inside a line
// too, between runes.
func TestBodyCut(t *testing.T) {
	long := []byte(strings.Repeat("é", maxBody)) // two bytes a rune
	lines := [][]byte{[]byte("func f() {"), long, []byte("}")}
	b := body(lines, 1, 3, 0, 0)
	if len(b) > maxBody || !utf8.ValidString(b) || b[:len("func f() {\n")] != "func f() {\n" {
		t.Errorf("body of a long line: %d bytes, valid %v: %.40q", len(b), utf8.ValidString(b), b)
	}
	if got := body(lines[:1], 1, 1, 0, 0); got != "func f() {\n" {
		t.Errorf("short body %q", got)
	}
}

// BenchmarkFileMinified makes the code documents of a one-line minified
// bundle of 250 KB and of 2 MB.
func BenchmarkFileMinified(b *testing.B) {
	ex, err := extract.New(b.TempDir(), extract.Options{Workers: 1, KeepMinified: true})
	if err != nil {
		b.Fatal(err)
	}
	defer ex.Close()
	for _, bs := range []struct {
		name string
		size int
	}{{"250KB", 250 << 10}, {"2MB", 2_000_000}} {
		src := fixture.MinifiedJS(bs.size)
		f, err := ex.Source(context.Background(), "bundle.js", src)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bs.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				File(f, src, nil)
			}
		})
	}
}

// TestBodySized checks that a body is made in one allocation of about
// its size, whatever its lines: a builder growing from 8 bytes made 4-5.
func TestBodySized(t *testing.T) {
	var lines [][]byte
	for i := range 80 {
		lines = append(lines, []byte(strings.Repeat("x", i%40)+";"))
	}
	lines = append(lines, []byte(strings.Repeat("é", maxBody)))
	for _, r := range [][4]int{{1, 10, 0, 0}, {1, 80, 0, 0}, {5, 60, 10, 20}, {70, 81, 0, 0}, {81, 81, 0, 0}} {
		var b string
		if a := testing.AllocsPerRun(10, func() { b = body(lines, r[0], r[1], r[2], r[3]) }); a != 1 {
			t.Errorf("body of lines %v: %.0f allocations; want 1", r, a)
		}
		if n := bodySize(lines, r[0], r[1], r[2], r[3]); n < len(b) || n > len(b)+3 {
			t.Errorf("body of lines %v: %d bytes, sized %d", r, len(b), n)
		}
	}
}

// BenchmarkBody makes the bodies of 60 symbols of 30 lines each from a
// file of 1,800 lines.
func BenchmarkBody(b *testing.B) {
	var lines [][]byte
	for i := range 1800 {
		lines = append(lines, []byte(strings.Repeat("\t", 1+i%3)+"x = f(y, z) + "+strings.Repeat("w", i%50)))
	}
	b.ReportAllocs()
	for b.Loop() {
		for s := range 60 {
			body(lines, 1+30*s, 30+30*s, 0, 0)
		}
	}
}
