package main

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fileinfo/fileinfo/docsearch/embed"
)

// toyTable is a words table of random vectors with one principal
// direction, enough to train on.
func toyTable(t *testing.T, words []string, dim int) *embed.Table {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 8))
	tab := &embed.Table{Header: embed.Header{Name: "toy/1", Kind: embed.KindWords, Dim: dim, Count: len(words)}}
	for i, w := range words {
		tab.Tokens = append(tab.Tokens, w)
		tab.Probs = append(tab.Probs, float32(1e-4*float64(i+1)))
		v := make([]float32, dim)
		for j := range v {
			v[j] = float32(rng.NormFloat64())
		}
		quantise(tab, v)
	}
	pc := make([]float32, dim)
	pc[0] = 1
	tab.PCs = [][]float32{pc}
	tab.Header.PCs = 1
	return tab
}

var toyWords = []string{"erase", "remove", "delete", "entry", "item", "open", "file", "load", "read", "path", "sort", "order", "list"}

var toyPairs = []pair{
	{query: "erase an entry", code: "delete item"},
	{query: "remove the entry", code: "delete item"},
	{query: "open a file", code: "load path"},
	{query: "read the file", code: "load path"},
	{query: "sort the list", code: "order list"},
	{query: "erase the list", code: "delete list"},
	{query: "read a path", code: "load file"},
	{query: "remove a file", code: "delete path"},
}

// TestTuneGradient checks the analytic gradient of the loss against
// central differences: a wrong sign or factor in the backward pass trains
// towards something else without failing any other test.
func TestTuneGradient(t *testing.T) {
	tab := toyTable(t, toyWords, 6)
	tr, err := newTrainer(tab, tuneOptions{temp: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	var batch []example
	for _, p := range toyPairs[:5] {
		batch = append(batch, example{tr.bag(p.query), tr.bag(p.code)})
	}
	clear(tr.grad)
	tr.loss(batch, true)
	const h = 1e-2
	checked := 0
	for i := range tr.E {
		if tr.grad[i] == 0 {
			continue
		}
		x := tr.E[i]
		tr.E[i] = x + h
		up := tr.loss(batch, false)
		tr.E[i] = x - h
		down := tr.loss(batch, false)
		tr.E[i] = x
		num := (up - down) / (2 * h)
		if diff := math.Abs(num - float64(tr.grad[i])); diff > 0.02*math.Abs(num)+1e-4 {
			t.Errorf("E[%d]: analytic gradient %g, numeric %g", i, tr.grad[i], num)
		}
		checked++
	}
	if checked < 20 {
		t.Fatalf("only %d coordinates had a gradient", checked)
	}
}

// tuneToy tunes the toy table on its pairs with o. It returns the table,
// its vectors (dequantised) before tuning, and the loss over the pairs
// before and after.
func tuneToy(t *testing.T, o tuneOptions) (tab *embed.Table, start []float64, before, after float64) {
	t.Helper()
	tab = toyTable(t, toyWords, 8)
	start = dequantised(tab)
	tr, err := newTrainer(tab, o)
	if err != nil {
		t.Fatal(err)
	}
	var data []example
	for _, p := range toyPairs {
		data = append(data, example{tr.bag(p.query), tr.bag(p.code)})
	}
	before = tr.loss(data, false)
	if err := tune(tab, toyPairs, o); err != nil {
		t.Fatal(err)
	}
	tuned, err := newTrainer(tab, o)
	if err != nil {
		t.Fatal(err)
	}
	return tab, start, before, tuned.loss(data, false)
}

func dequantised(tab *embed.Table) []float64 {
	out := make([]float64, len(tab.Vectors))
	for i, q := range tab.Vectors {
		out[i] = float64(tab.Scales[i/tab.Dim]) * float64(q)
	}
	return out
}

// TestTuneLearnsPairs trains the toy table on its pairs: each query's
// code must rank higher than before, the loss must fall, and the same
// inputs must give the same bytes.
func TestTuneLearnsPairs(t *testing.T) {
	o := tuneOptions{epochs: 60, batch: 4, lr: 0.05, temp: 0.1}
	tab, _, before, after := tuneToy(t, o)
	if after >= before*0.7 {
		t.Errorf("loss %.4f before tuning, %.4f after; want it to fall by 30%%", before, after)
	}
	m, err := embed.New(tab, embed.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cos := func(a, b string) float32 {
		vs, err := m.Embed(t.Context(), []string{a, b})
		if err != nil {
			t.Fatal(err)
		}
		return dot(vs[0], vs[1])
	}
	if c, o := cos("erase entry", "delete item"), cos("erase entry", "load path"); c <= o {
		t.Errorf("cos(erase entry, delete item) %.3f <= cos(erase entry, load path) %.3f after tuning", c, o)
	}
	again, _, _, _ := tuneToy(t, o)
	if !slices.Equal(tab.Vectors, again.Vectors) || !slices.Equal(tab.Scales, again.Scales) {
		t.Error("tuning the same table on the same pairs gave different vectors")
	}
}

// TestTuneDecay checks that decaying the step size still learns the pairs,
// and takes smaller steps than not decaying it: the vectors move less
// from where they started.
func TestTuneDecay(t *testing.T) {
	moved := func(decay bool) (float64, float64) {
		tab, start, before, after := tuneToy(t, tuneOptions{epochs: 60, batch: 4, lr: 0.05, temp: 0.1, decay: decay})
		var dist float64
		for i, x := range dequantised(tab) {
			dist += math.Abs(x - start[i])
		}
		return after / before, dist
	}
	ratio, dist := moved(true)
	if ratio > 0.7 {
		t.Errorf("with decay, the loss fell to %.2f of what it was; want at most 0.7", ratio)
	}
	if _, full := moved(false); dist >= full {
		t.Errorf("with decay the vectors moved %.3f, without %.3f; want less", dist, full)
	}
}
