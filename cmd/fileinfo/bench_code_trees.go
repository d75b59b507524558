package main

import (
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/fileinfo/fileinfo/docsearch"
)

// `bench code --learn --fit --trees` fits, on top of the linear weights,
// a boosted ensemble of small regression trees over the same features
// (LambdaMART): the linear model adds each feature's effect alone, and
// a tree can say that one matters only with another (a short member is
// boilerplate unless its own name holds the query's words). A
// candidate's score is log(fused) + w·f + Σ tree(x), x its features and
// log(fused / the query's best fused). Each round fits one tree to the
// gradients and second derivatives of the pairwise loss fitPairwise
// minimises, with the same weighing of pairs by what swapping them
// changes of nDCG@10, so the trees spend themselves on the first ten.
// The depth and the number of rounds are chosen by leaving one
// repository out at a time, as λ is for the weights.

// treeParams are the ensemble's hyperparameters.
type treeParams struct {
	depth  int
	rounds int
	rate   float64 // shrinkage of each tree's leaves
	reg    float64 // added to a leaf's second derivative (L2 on its value)
	minH   float64 // the least second derivative a leaf holds
	sigma  float64 // the logistic loss's scale of a score margin
}

// treeDepths, treeSigmas and treeRounds are the settings tried by
// leaving one repository out; rounds are checkpoints of one run per
// depth and scale. The scores' margins between neighbours are a few
// hundredths (fused scores are reciprocal ranks), so at σ = 1 the loss
// pushes every pair alike, ranked right or not.
var (
	treeDepths = []int{1, 2}
	treeSigmas = []float64{1, 5, 20}
	treeRounds = []int{5, 10, 25, 50, 100}
)

// treeInputs returns the features a tree may split on: those computed
// when a search ranks (weighed, or computed regardless), not those the
// ranking computes only for fitting (text, cover, body: their cost in
// serve is why their weights are 0).
func treeInputs() []int {
	var in []int
	for k, name := range docsearch.CodeFeatureNames {
		switch name {
		case "text", "cover", "body":
			continue
		}
		in = append(in, k)
	}
	return in
}

// treeRows is the training data: each candidate's inputs, one column per
// input, binned.
type treeRows struct {
	x    [][]float64 // [input][row]
	thr  [][]float64 // [input] candidate thresholds, ascending
	bin  [][]uint8   // [input][row]: the number of thresholds below x
	base []float64   // log(fused) + w·f of each row
}

// maxTreeBins bounds the thresholds tried per input.
const maxTreeBins = 32

// treeX returns the inputs of q's candidate i: the features in inputs,
// then log(fused / the best fused of q), best being q's highest base.
func treeX(q fitQuery, i int, inputs []int, best float64) []float64 {
	x := make([]float64, 0, len(inputs)+1)
	for _, k := range inputs {
		x = append(x, q.f[i][k])
	}
	return append(x, q.base[i]-best)
}

// newTreeRows lays out the rows of qs for fitting.
func newTreeRows(qs []fitQuery, w []float64, inputs []int) *treeRows {
	n := len(inputs) + 1
	r := &treeRows{x: make([][]float64, n), thr: make([][]float64, n), bin: make([][]uint8, n)}
	for _, q := range qs {
		best := slices.Max(q.base)
		for i := range q.base {
			x := treeX(q, i, inputs, best)
			for k := range n {
				r.x[k] = append(r.x[k], x[k])
			}
			r.base = append(r.base, q.base[i]+dot(w, q.f[i]))
		}
	}
	for k := range n {
		r.thr[k] = quantileThresholds(r.x[k], maxTreeBins)
		r.bin[k] = make([]uint8, len(r.x[k]))
		for i, v := range r.x[k] {
			b, _ := slices.BinarySearch(r.thr[k], v)
			// thr[b-1] < v ≤ thr[b]: v goes left of every threshold from b on.
			r.bin[k][i] = uint8(b)
		}
	}
	return r
}

// quantileThresholds returns up to n thresholds splitting xs's distinct
// values into groups of about equal size: a value goes left of a
// threshold when it is at most the threshold.
func quantileThresholds(xs []float64, n int) []float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	s = slices.Compact(s)
	if len(s) <= 1 {
		return nil
	}
	if len(s)-1 <= n {
		return s[:len(s)-1]
	}
	var thr []float64
	for j := 1; j <= n; j++ {
		v := s[j*(len(s)-1)/(n+1)]
		if len(thr) == 0 || v > thr[len(thr)-1] {
			thr = append(thr, v)
		}
	}
	return thr
}

// treeNode is a node of a fitted tree: a split (in ≥ 0: input in, left
// when x ≤ thr) or a leaf (in = -1) of value.
type treeNode struct {
	in          int
	thr         float64
	left, right int
	value       float64
}

// treeEval returns the value of tree t at x.
func treeEval(t []treeNode, x []float64) float64 {
	n := 0
	for t[n].in >= 0 {
		if x[t[n].in] <= t[n].thr {
			n = t[n].left
		} else {
			n = t[n].right
		}
	}
	return t[n].value
}

// fitTree grows a tree of depth p.depth on rows (those in idx) for
// gradients g and second derivatives h, Newton's step in each leaf
// shrunk by p.rate.
func fitTree(r *treeRows, idx []int, g, h []float64, p treeParams) []treeNode {
	var nodes []treeNode
	var grow func(idx []int, depth int) int
	grow = func(idx []int, depth int) int {
		var G, H float64
		for _, i := range idx {
			G += g[i]
			H += h[i]
		}
		me := len(nodes)
		nodes = append(nodes, treeNode{in: -1, value: -p.rate * G / (H + p.reg)})
		if depth == p.depth || H < 2*p.minH {
			return me
		}
		parent := G * G / (H + p.reg)
		bestGain, bestIn, bestBin := 1e-12, -1, 0
		var gs, hs [maxTreeBins + 1]float64
		for k := range r.bin {
			nb := len(r.thr[k])
			if nb == 0 {
				continue
			}
			clear(gs[:])
			clear(hs[:])
			for _, i := range idx {
				b := r.bin[k][i]
				gs[b] += g[i]
				hs[b] += h[i]
			}
			var gl, hl float64
			for b := range nb { // left: bins 0..b, x ≤ thr[b]
				gl += gs[b]
				hl += hs[b]
				gr, hr := G-gl, H-hl
				if hl < p.minH || hr < p.minH {
					continue
				}
				if gain := gl*gl/(hl+p.reg) + gr*gr/(hr+p.reg) - parent; gain > bestGain {
					bestGain, bestIn, bestBin = gain, k, b
				}
			}
		}
		if bestIn < 0 {
			return me
		}
		var li, ri []int
		for _, i := range idx {
			if int(r.bin[bestIn][i]) <= bestBin {
				li = append(li, i)
			} else {
				ri = append(ri, i)
			}
		}
		l := grow(li, depth+1)
		rt := grow(ri, depth+1)
		nodes[me] = treeNode{in: bestIn, thr: r.thr[bestIn][bestBin], left: l, right: rt}
		return me
	}
	grow(idx, 0)
	return nodes
}

// fitTrees fits p.rounds trees on qs but those of repository skip, from
// the linear weights w, and calls check after each round with the trees
// so far.
func fitTrees(qs []fitQuery, nsets, skip int, w []float64, inputs []int, p treeParams, check func(round int, trees [][]treeNode)) [][]treeNode {
	var train []fitQuery
	perSet := make([]int, nsets)
	for _, q := range qs {
		if q.repo != skip && slices.Contains(q.rel, true) && slices.Contains(q.rel, false) {
			train = append(train, q)
			perSet[q.set]++
		}
	}
	rows := newTreeRows(train, w, inputs)
	start := make([]int, len(train)+1) // rows of train[j]: start[j]..start[j+1]
	for j, q := range train {
		start[j+1] = start[j] + len(q.base)
	}
	score := slices.Clone(rows.base)
	g, h := make([]float64, len(score)), make([]float64, len(score))
	all := make([]int, len(score))
	for i := range all {
		all[i] = i
	}
	var trees [][]treeNode
	for round := 1; round <= p.rounds; round++ {
		clear(g)
		clear(h)
		for j, q := range train {
			s := score[start[j]:start[j+1]]
			lambdaGradients(q, s, float64(len(train))/float64(perSet[q.set]*nsets), p.sigma, g[start[j]:start[j+1]], h[start[j]:start[j+1]])
		}
		t := fitTree(rows, all, g, h, p)
		trees = append(trees, t)
		x := make([]float64, len(rows.x))
		for i := range score {
			for k := range x {
				x[k] = rows.x[k][i]
			}
			score[i] += treeEval(t, x)
		}
		if check != nil {
			check(round, trees)
		}
	}
	return trees
}

// lambdaGradients adds to g and h the first and second derivatives of q's
// pairwise loss by each candidate's score s, the pairs weighed as in
// fitPairwise and the query's total by weight.
func lambdaGradients(q fitQuery, s []float64, weight, sigma float64, g, h []float64) {
	rank, fileRank := ranksOf(q, s)
	pairs, sum := swapPairs(q, rank, fileRank)
	if sum == 0 {
		return
	}
	for _, pr := range pairs {
		rho := 1 / (1 + math.Exp(sigma*(s[pr.p]-s[pr.o])))
		d := pr.delta / sum * weight
		g[pr.p] -= d * sigma * rho
		g[pr.o] += d * sigma * rho
		hh := d * sigma * sigma * rho * (1 - rho)
		h[pr.p] += hh
		h[pr.o] += hh
	}
}

// ranksOf returns the rank of each candidate by score s (1-based, ties in
// candidate order) and of each file by its first candidate.
func ranksOf(q fitQuery, s []float64) (rank []int, fileRank map[string]int) {
	rank = make([]int, len(s))
	fileRank = map[string]int{}
	for r, i := range byScore(s) {
		rank[i] = r + 1
		if _, ok := fileRank[q.file[i]]; !ok {
			fileRank[q.file[i]] = len(fileRank) + 1
		}
	}
	return rank, fileRank
}

// treeScores returns each candidate's score of each query in qs under w
// and trees.
func treeScores(qs []fitQuery, w []float64, inputs []int, trees [][]treeNode) [][]float64 {
	out := make([][]float64, len(qs))
	for j, q := range qs {
		out[j] = make([]float64, len(q.base))
		best := slices.Max(q.base)
		for i := range q.base {
			s := q.base[i] + dot(w, q.f[i])
			if len(trees) > 0 {
				x := treeX(q, i, inputs, best)
				for _, t := range trees {
					s += treeEval(t, x)
				}
			}
			out[j][i] = s
		}
	}
	return out
}

// fitCodeTrees chooses the trees' depth and rounds by leaving one
// repository out at a time, prints the left-out objective of each
// setting against the weights alone, and fits the chosen setting on all
// of qs.
func fitCodeTrees(qs []fitQuery, nsets int, w []float64, stdout io.Writer) [][]treeNode {
	inputs := treeInputs()
	repos := 0
	for _, q := range qs {
		repos = max(repos, q.repo+1)
	}
	fmt.Fprintf(stdout, "trees: weights alone: objective %.4f, left-out %.4f\n", fitObjective(qs, nsets, w),
		leftOutObjective(qs, nsets, repos, func(int) []float64 { return w }))
	best, bestP := math.Inf(-1), treeParams{}
	for _, depth := range treeDepths {
		for _, sigma := range treeSigmas {
			p := treeParams{depth: depth, rounds: slices.Max(treeRounds), rate: 0.1, reg: 1, minH: 0.5, sigma: sigma}
			sum := treeLeftOut(qs, nsets, repos, w, inputs, p)
			for _, rounds := range treeRounds {
				obj := sum[rounds] / float64(repos)
				fmt.Fprintf(stdout, "trees: depth %d, sigma %g, %d rounds: left-out objective %.4f\n", depth, sigma, rounds, obj)
				if obj > best {
					best, bestP = obj, p
					bestP.rounds = rounds
				}
			}
		}
	}
	trees := fitTrees(qs, nsets, -1, w, inputs, bestP, nil)
	fmt.Fprintf(stdout, "trees: depth %d, sigma %g, %d rounds on all: objective %.4f\n", bestP.depth, bestP.sigma, bestP.rounds,
		scoredObjective(qs, nsets, treeScores(qs, w, inputs, trees)))
	return trees
}

// treeLeftOut returns, for each round of treeRounds, the sum over
// repositories of the objective of each left-out repository's queries
// under trees fitted with p on the others.
func treeLeftOut(qs []fitQuery, nsets, repos int, w []float64, inputs []int, p treeParams) map[int]float64 {
	sum := map[int]float64{}
	for r := range repos {
		var held []fitQuery
		for _, q := range qs {
			if q.repo == r {
				held = append(held, q)
			}
		}
		fitTrees(qs, nsets, r, w, inputs, p, func(round int, trees [][]treeNode) {
			if slices.Contains(treeRounds, round) {
				sum[round] += scoredObjective(held, nsets, treeScores(held, w, inputs, trees)) * float64(nsets)
			}
		})
	}
	return sum
}
