package main

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/fileinfo/fileinfo/docsearch/embed"
)

// tuneOptions control the contrastive tuning of a table's vectors.
type tuneOptions struct {
	epochs  int
	batch   int
	lr      float64 // Adam step size
	decay   bool    // decay the step size linearly to 0 over the tuning
	temp    float64 // softmax temperature of the similarity logits
	l2      float64 // pull of each vector towards where it started
	holdout int     // pairs kept out of training to report retrieval on
	seed    uint64  // of the shuffles
	log     io.Writer
}

// bag is a text as the rows it maps onto and the weights Embed sums
// them with (Model.Bag).
type bag struct {
	rows []int32
	ws   []float32
}

// example is a pair as bags.
type example struct{ q, c bag }

// tune trains t's vectors so that a pair's query and code embed close
// together and apart from the other pairs of their batch: the in-batch
// softmax loss of CodeSearchNet's neural bag of words, symmetric over
// queries and code, minimised by Adam. Text is embedded as package embed
// embeds it at run time (the same tokens and weights, t's principal
// directions projected out, unit length), so what is trained is what is
// served. Training starts from t's vectors; l2 pulls them back towards
// where they started. Pairs are shuffled by o.seed and every sum runs in a
// fixed order, so the result is a function of t, pairs and o.
func tune(t *embed.Table, pairs []pair, o tuneOptions) error {
	tr, err := newTrainer(t, o)
	if err != nil {
		return err
	}
	var data []example
	for _, p := range pairs {
		e := example{tr.bag(p.query), tr.bag(p.code)}
		if len(e.q.rows) > 0 && len(e.c.rows) > 0 {
			data = append(data, e)
		}
	}
	rng := rand.New(rand.NewPCG(o.seed, 2))
	rng.Shuffle(len(data), func(i, j int) { data[i], data[j] = data[j], data[i] })
	hold := data[:min(o.holdout, len(data)/10)]
	train := data[len(hold):]
	tr.logf("tune: %d pairs, %d held out; held-out MRR@10 %.4f", len(train), len(hold), tr.mrr(hold))
	tr.of = o.epochs * (len(train) / o.batch)
	for epoch := range o.epochs {
		rng.Shuffle(len(train), func(i, j int) { train[i], train[j] = train[j], train[i] })
		var loss float64
		steps := 0
		for start := 0; start+o.batch <= len(train); start += o.batch {
			loss += tr.step(train[start : start+o.batch])
			steps++
		}
		tr.logf("tune: epoch %d: loss %.4f, held-out MRR@10 %.4f", epoch+1, loss/float64(max(steps, 1)), tr.mrr(hold))
	}
	t.Vectors, t.Scales = t.Vectors[:0], t.Scales[:0]
	d := t.Dim
	for i := range t.Tokens {
		quantise(t, tr.E[i*d:(i+1)*d])
	}
	return nil
}

// trainer holds the vectors being tuned and Adam's state.
type trainer struct {
	t    *embed.Table
	m    *embed.Model // for the rows and weights of a text
	o    tuneOptions
	d    int
	E    []float32 // the vectors, dequantised, row-major
	E0   []float32 // where they started
	grad []float32
	m1   []float32 // Adam's first moment
	m2   []float32 // Adam's second moment
	n    int       // Adam steps taken
	of   int       // Adam steps in all
}

func newTrainer(t *embed.Table, o tuneOptions) (*trainer, error) {
	m, err := embed.New(t, embed.Options{})
	if err != nil {
		return nil, err
	}
	tr := &trainer{t: t, m: m, o: o, d: t.Dim}
	tr.E = make([]float32, len(t.Tokens)*t.Dim)
	for i := range t.Tokens {
		for j := range t.Dim {
			tr.E[i*t.Dim+j] = t.Scales[i] * float32(t.Vectors[i*t.Dim+j])
		}
	}
	tr.E0 = append([]float32(nil), tr.E...)
	tr.grad = make([]float32, len(tr.E))
	tr.m1 = make([]float32, len(tr.E))
	tr.m2 = make([]float32, len(tr.E))
	return tr, nil
}

func (tr *trainer) logf(format string, args ...any) {
	if tr.o.log != nil {
		fmt.Fprintf(tr.o.log, format+"\n", args...)
	}
}

// bag returns text's rows and weights, in first-seen order.
func (tr *trainer) bag(text string) bag {
	rows, ws := tr.m.Bag(text)
	return bag{rows, ws}
}

// embed writes b's unit vector into v and returns its length before
// scaling (0 for the zero vector).
func (tr *trainer) embed(b bag, v []float32) float32 {
	clear(v)
	d := tr.d
	for i, r := range b.rows {
		axpy(v, b.ws[i], tr.E[int(r)*d:int(r)*d+d])
	}
	project(v, tr.t.PCs)
	n := norm(v)
	if n > 0 {
		for j := range v {
			v[j] /= n
		}
	}
	return n
}

// loss returns the batch's loss, and when grad is set, adds its gradient
// with respect to E to tr.grad.
func (tr *trainer) loss(batch []example, grad bool) float64 {
	B, d := len(batch), tr.d
	vq := make([]float32, B*d)
	vc := make([]float32, B*d)
	nq := make([]float32, B)
	nc := make([]float32, B)
	for i, e := range batch {
		nq[i] = tr.embed(e.q, vq[i*d:(i+1)*d])
		nc[i] = tr.embed(e.c, vc[i*d:(i+1)*d])
	}
	S := make([]float64, B*B)
	for j := range B {
		for k := range B {
			S[j*B+k] = float64(dot(vq[j*d:(j+1)*d], vc[k*d:(k+1)*d])) / tr.o.temp
		}
	}
	loss, dS := crossEntropy(S, B)
	if !grad {
		return loss
	}
	gq := make([]float32, B*d)
	gc := make([]float32, B*d)
	for j := range B {
		for k := range B {
			g := float32(dS[j*B+k] / tr.o.temp)
			axpy(gq[j*d:(j+1)*d], g, vc[k*d:(k+1)*d])
			axpy(gc[k*d:(k+1)*d], g, vq[j*d:(j+1)*d])
		}
	}
	for i, e := range batch {
		tr.backward(e.q, vq[i*d:(i+1)*d], gq[i*d:(i+1)*d], nq[i])
		tr.backward(e.c, vc[i*d:(i+1)*d], gc[i*d:(i+1)*d], nc[i])
	}
	return loss
}

// step takes one Adam step on batch and returns the batch's loss before it.
func (tr *trainer) step(batch []example) float64 {
	clear(tr.grad)
	loss := tr.loss(batch, true)
	const b1, b2, eps = 0.9, 0.999, 1e-8
	tr.n++
	c1 := 1 - math.Pow(b1, float64(tr.n))
	c2 := 1 - math.Pow(b2, float64(tr.n))
	lr := float32(tr.o.lr * math.Sqrt(c2) / c1)
	if tr.o.decay {
		lr *= float32(tr.of-tr.n+1) / float32(tr.of)
	}
	l2 := float32(tr.o.l2)
	for i := range tr.E {
		g := tr.grad[i] + l2*(tr.E[i]-tr.E0[i])
		tr.m1[i] = b1*tr.m1[i] + (1-b1)*g
		tr.m2[i] = b2*tr.m2[i] + (1-b2)*g*g
		tr.E[i] -= lr * tr.m1[i] / (float32(math.Sqrt(float64(tr.m2[i]))) + eps)
	}
	return loss
}

// backward adds to tr.grad what reaches b's rows from g, the gradient at
// b's unit vector v whose length before scaling was n: through the
// scaling to unit length, the projection and the weighted sum.
func (tr *trainer) backward(b bag, v, g []float32, n float32) {
	if n == 0 {
		return
	}
	d := tr.d
	vg := dot(v, g)
	u := make([]float32, d)
	for j := range u {
		u[j] = (g[j] - v[j]*vg) / n
	}
	project(u, tr.t.PCs)
	for i, r := range b.rows {
		axpy(tr.grad[int(r)*d:int(r)*d+d], b.ws[i], u)
	}
}

// mrr is the mean reciprocal rank (cut at 10) of each pair's code among
// all the pairs' code, for its query.
func (tr *trainer) mrr(pairs []example) float64 {
	if len(pairs) == 0 {
		return 0
	}
	d := tr.d
	qs := make([]float32, len(pairs)*d)
	cs := make([]float32, len(pairs)*d)
	for i, e := range pairs {
		tr.embed(e.q, qs[i*d:(i+1)*d])
		tr.embed(e.c, cs[i*d:(i+1)*d])
	}
	var sum float64
	for i := range pairs {
		q := qs[i*d : (i+1)*d]
		self := dot(q, cs[i*d:(i+1)*d])
		rank := 1
		for k := range pairs {
			if k != i && dot(q, cs[k*d:(k+1)*d]) > self {
				rank++
			}
		}
		if rank <= 10 {
			sum += 1 / float64(rank)
		}
	}
	return sum / float64(len(pairs))
}

// crossEntropy returns the mean of the row-wise and the column-wise
// cross-entropies of the B×B logits S whose targets are the diagonal, and
// its gradient with respect to S.
func crossEntropy(S []float64, B int) (float64, []float64) {
	dS := make([]float64, B*B)
	var loss float64
	for _, byRow := range []bool{true, false} {
		at := func(i, k int) int { // the k-th logit of row (or column) i
			if byRow {
				return i*B + k
			}
			return k*B + i
		}
		for i := range B {
			mx := math.Inf(-1)
			for k := range B {
				mx = max(mx, S[at(i, k)])
			}
			var z float64
			for k := range B {
				z += math.Exp(S[at(i, k)] - mx)
			}
			loss += (mx + math.Log(z) - S[at(i, i)]) / float64(2*B)
			for k := range B {
				p := math.Exp(S[at(i, k)]-mx) / z
				if k == i {
					p--
				}
				dS[at(i, k)] += p / float64(2*B)
			}
		}
	}
	return loss, dS
}

// project removes from v its components along the orthonormal pcs.
func project(v []float32, pcs [][]float32) {
	for _, pc := range pcs {
		axpy(v, -dot(v, pc), pc)
	}
}

func dot(a, b []float32) float32 {
	var s float32
	for i, x := range a {
		s += x * b[i]
	}
	return s
}

// axpy adds a·x to y.
func axpy(y []float32, a float32, x []float32) {
	for i, xi := range x {
		y[i] += a * xi
	}
}

func norm(v []float32) float32 {
	return float32(math.Sqrt(float64(dot(v, v))))
}
