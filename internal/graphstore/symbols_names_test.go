package graphstore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/callgraph"
)

// namesInput is a graph whose names repeat, differ only in case, are
// short, empty, or not ASCII, and share trigrams.
func namesInput() []callgraph.Node {
	var nodes []callgraph.Node
	for i, name := range []string{"kthread_should_stop", "KThread_Should_Stop", "kthread_should_stop_or_park", "__kthread_should_park",
		"should", "x", "", "Größe", "größenwert", "set", "reset", "setUp", "set", "a.b", "kthread", "thread", "ab", "ba", "aaa", "aaaa"} {
		nodes = append(nodes, callgraph.Node{Qualified: fmt.Sprintf("m.%s%d", name, i), Name: name, Kind: "function", File: fmt.Sprintf("f%d.c", i%3), Line: i + 1})
	}
	return append(nodes, callgraph.Node{Qualified: "m", Name: "m", Kind: callgraph.KindModule, File: "f0.c"})
}

// holdingByScan is what EachNameHolding answers, found by reading every
// node: each distinct lower-case name holding a word, with its nodes.
func holdingByScan(nodes []callgraph.Node, words []string) map[string][]callgraph.SymbolID {
	out := map[string][]callgraph.SymbolID{}
	for i, n := range nodes {
		name := strings.ToLower(n.Name)
		if slices.ContainsFunc(words, func(w string) bool { return strings.Contains(name, w) }) {
			out[name] = append(out[name], callgraph.SymbolID(i))
		}
	}
	return out
}

// TestSymbolsNameHolding checks the names sections answer what a scan
// of every node answers: the names holding any of the words, each
// with its nodes in increasing number, in name order; and EachName lists
// the distinct names in order.
func TestSymbolsNameHolding(t *testing.T) {
	nodes := namesInput()
	data, err := encodeSymbols(&State{Key: "k"}, nodes, nil, nil, nil, symBlock)
	if err != nil {
		t.Fatal(err)
	}
	s, err := parseSymbols(data)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	s.EachName(func(n string) bool { names = append(names, n); return true })
	want := slices.Sorted(maps.Keys(holdingByScan(nodes, []string{""})))
	if !slices.Equal(names, want) {
		t.Errorf("EachName = %q, want %q", names, want)
	}
	// Every substring of every name up to 6 bytes, words absent from all,
	// and pairs of words.
	queries := [][]string{{"zzz"}, {"qq"}, {"kthread_should_stop_or_park_x"}, {"d_s", "x"}, {"set", "park"}, {"ö"}, {"größe"}}
	for _, n := range nodes {
		name := strings.ToLower(n.Name)
		for i := range len(name) {
			for j := i + 1; j <= min(len(name), i+6); j++ {
				queries = append(queries, []string{name[i:j]})
			}
		}
	}
	for _, words := range queries {
		got := map[string][]callgraph.SymbolID{}
		var order []string
		if err := Guard(func() {
			s.EachNameHolding(words, func(name string, ids []callgraph.SymbolID) bool {
				got[name] = ids
				order = append(order, name)
				return true
			})
		}); err != nil {
			t.Fatal(err)
		}
		if want := holdingByScan(nodes, words); !maps.EqualFunc(got, want, slices.Equal) {
			t.Errorf("EachNameHolding(%q) = %v, want %v", words, got, want)
		}
		if !slices.IsSorted(order) || len(order) != len(got) {
			t.Errorf("EachNameHolding(%q) named %q, want each once in order", words, order)
		}
	}
}

// TestSymbolsNameHoldingSumsLittle checks a name search reads the names
// it can match, not every name: the names holding "fn4242" (fn4242 and
// fn42420-fn42429) with their nodes sum less than 64 KiB of a 30 MB
// index. Reading every distinct name (EachName) sums the whole names
// section; through the nodes, as before the names sections, it summed
// the nodes and the strings.
func TestSymbolsNameHoldingSumsLittle(t *testing.T) {
	data := bigSymbols(t, 100_000, 300_000, symBlock)
	s, err := parseSymbols(data)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := Guard(func() {
		s.EachNameHolding([]string{"fn4242"}, func(name string, ids []callgraph.SymbolID) bool {
			for _, id := range ids {
				got = append(got, s.Node(id).Name)
			}
			return true
		})
	}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 11 || got[0] != "fn4242" || got[10] != "fn42429" {
		t.Errorf("names holding fn4242: %q", got)
	}
	verified := 0
	for b := range s.verified {
		if s.verified[b].Load() {
			verified++
		}
	}
	if summed := uint64(verified) * s.block; summed > 64<<10 {
		t.Errorf("a name search summed %d blocks of %d bytes (%d KiB) of a %d MB index", verified, s.block, summed>>10, len(data)>>20)
	}
}

// BenchmarkSymbolsNameHolding searches the names of a 100,000-node index
// for a word, as the web view's name search does.
func BenchmarkSymbolsNameHolding(b *testing.B) {
	s, err := parseSymbols(bigSymbols(b, 100_000, 300_000, symBlock))
	if err != nil {
		b.Fatal(err)
	}
	for _, w := range []string{"fn4242", "fn1", "4"} {
		b.Run(w, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				n := 0
				s.EachNameHolding([]string{w}, func(string, []callgraph.SymbolID) bool { n++; return true })
			}
		})
	}
}

// TestSymbolsVersion2Stale checks that an index of version 2, which has
// no names sections, is stale, never read as version 3.
func TestSymbolsVersion2Stale(t *testing.T) {
	good, err := encodeSymbols(&State{Key: "k"}, namesInput(), nil, nil, nil, symBlock)
	if err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint32(good[8:], 2)
	if _, err := parseSymbols(good); !errors.Is(err, ErrStale) {
		t.Fatalf("a version 2 index: %v, want ErrStale", err)
	}
}
