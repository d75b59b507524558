package main

import (
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/fileinfo/fileinfo/docsearch"
)

// `bench code --learn --fit --trees N` fits, on top of the fitted linear
// weights, a boosted ensemble of small regression trees over the same
// features (LambdaMART's gradients: the pairwise loss of fitPairwise, each
// pair weighed by the objective it would change), so that what one
// feature means may depend on another: a lexical score in a bundle, a
// short member of a class the query names. The trees are chosen, like λ,
// by leaving one repository out: for each, the linear weights and then
// the trees are fitted on the others, and the left-out objective is
// printed for each number of trees tried.

// treeNode is a node of a regression tree: an inner node sends x to left
// when x[feat] < thr, else to right; a leaf (feat < 0) gives value.
type treeNode struct {
	feat        int
	thr         float64
	left, right int
	value       float64
}

// regTree is a regression tree, nodes[0] its root.
type regTree []treeNode

func (t regTree) eval(x []float64) float64 {
	n := 0
	for t[n].feat >= 0 {
		if x[t[n].feat] < t[n].thr {
			n = t[n].left
		} else {
			n = t[n].right
		}
	}
	return t[n].value
}

// treeParams are the boosting's settings.
type treeParams struct {
	depth    int     // levels of splits
	shrink   float64 // each tree's leaves are multiplied by it
	minHess  float64 // least hessian a leaf holds, as a share of the root's
	ridge    float64 // added to a leaf's hessian, as a share of the root's
	bins     int     // thresholds tried per feature (quantiles)
	features []int   // the inputs trees split on
	rounds   int     // trees at most
}

// treeInputs returns the inputs of candidate i of q the trees split on:
// its features, then its log fused score less the query's best.
func treeInputs(q fitQuery, i int) []float64 {
	best := slices.Max(q.base)
	return append(slices.Clone(q.f[i]), q.base[i]-best)
}

// boostTrees fits rounds trees on qs (less repository skip) on top of
// the linear weights w, calling after(t, trees) after each.
func boostTrees(qs []fitQuery, nsets, skip int, w []float64, p treeParams, rounds int, after func(int, []regTree)) []regTree {
	perSet := make([]int, nsets)
	var train []fitQuery
	for _, q := range qs {
		if q.repo != skip && slices.Contains(q.rel, true) && slices.Contains(q.rel, false) {
			perSet[q.set]++
			train = append(train, q)
		}
	}
	// Rows: every candidate of the training queries.
	type row struct {
		q, i int
		x    []float64
		s    float64 // current score
	}
	var rows []row
	start := make([]int, len(train))
	for qi, q := range train {
		start[qi] = len(rows)
		for i := range q.base {
			rows = append(rows, row{q: qi, i: i, x: treeInputs(q, i), s: q.base[i] + dot(w, q.f[i])})
		}
	}
	// Thresholds: quantiles of each input over the rows.
	thresholds := make(map[int][]float64, len(p.features))
	for _, k := range p.features {
		vals := make([]float64, len(rows))
		for r := range rows {
			vals[r] = rows[r].x[k]
		}
		slices.Sort(vals)
		var ts []float64
		for b := 1; b < p.bins; b++ {
			v := vals[b*len(vals)/p.bins]
			if (len(ts) == 0 || v > ts[len(ts)-1]) && v > vals[0] {
				ts = append(ts, v)
			}
		}
		thresholds[k] = ts
	}
	g := make([]float64, len(rows))
	h := make([]float64, len(rows))
	var trees []regTree
	for t := range rounds {
		clear(g)
		clear(h)
		for qi, q := range train {
			score := make([]float64, len(q.base))
			for i := range score {
				score[i] = rows[start[qi]+i].s
			}
			rank, fileRank := ranksOf(q, score)
			var sum float64
			type pair struct {
				p, o int
				d    float64
			}
			var pairs []pair
			for pi, rp := range q.rel {
				if !rp {
					continue
				}
				for o, ro := range q.rel {
					if ro {
						continue
					}
					d := math.Abs(gain10(rank[pi]) - gain10(rank[o]))
					if q.file[pi] != q.file[o] {
						d += math.Abs(gain10(fileRank[q.file[pi]]) - gain10(fileRank[q.file[o]]))
					}
					if d > 0 {
						pairs = append(pairs, pair{pi, o, d})
						sum += d
					}
				}
			}
			if sum == 0 {
				continue
			}
			scale := 1 / (sum * float64(perSet[q.set]*nsets))
			for _, pr := range pairs {
				rho := 1 / (1 + math.Exp(score[pr.p]-score[pr.o]))
				a, b := start[qi]+pr.p, start[qi]+pr.o
				g[a] -= pr.d * rho * scale
				g[b] += pr.d * rho * scale
				hh := pr.d * rho * (1 - rho) * scale
				h[a] += hh
				h[b] += hh
			}
		}
		idx := make([]int, len(rows))
		var H float64
		for r := range rows {
			idx[r] = r
			H += h[r]
		}
		if H == 0 {
			break
		}
		xs := make([][]float64, len(rows))
		for r := range rows {
			xs[r] = rows[r].x
		}
		tree := growTree(xs, g, h, idx, thresholds, p, p.minHess*H, p.ridge*H)
		for r := range rows {
			rows[r].s += tree.eval(rows[r].x)
		}
		trees = append(trees, tree)
		if after != nil {
			after(t+1, trees)
		}
	}
	return trees
}

// growTree grows a tree of p.depth levels over the rows idx by the
// Newton gain of each split; leaves are −G/(H+ridge), shrunk.
func growTree(xs [][]float64, g, h []float64, idx []int, thresholds map[int][]float64, p treeParams, minHess, ridge float64) regTree {
	var t regTree
	var grow func(idx []int, depth int) int
	grow = func(idx []int, depth int) int {
		var G, H float64
		for _, r := range idx {
			G += g[r]
			H += h[r]
		}
		n := len(t)
		t = append(t, treeNode{feat: -1, value: -p.shrink * G / (H + ridge)})
		if depth == p.depth {
			return n
		}
		parent := G * G / (H + ridge)
		bestGain, bestFeat, bestThr := 1e-12, -1, 0.0
		for _, k := range p.features {
			ts := thresholds[k]
			gl := make([]float64, len(ts)+1)
			hl := make([]float64, len(ts)+1)
			for _, r := range idx {
				b, _ := slices.BinarySearch(ts, xs[r][k]+1e-12) // values below ts[b-1]... bucket by the first threshold over x
				gl[b] += g[r]
				hl[b] += h[r]
			}
			var GL, HL float64
			for b := range ts {
				GL += gl[b]
				HL += hl[b]
				GR, HR := G-GL, H-HL
				if HL < minHess || HR < minHess {
					continue
				}
				if gain := GL*GL/(HL+ridge) + GR*GR/(HR+ridge) - parent; gain > bestGain {
					bestGain, bestFeat, bestThr = gain, k, ts[b]
				}
			}
		}
		if bestFeat < 0 {
			return n
		}
		var left, right []int
		for _, r := range idx {
			if xs[r][bestFeat] < bestThr {
				left = append(left, r)
			} else {
				right = append(right, r)
			}
		}
		l := grow(left, depth+1)
		rr := grow(right, depth+1)
		t[n] = treeNode{feat: bestFeat, thr: bestThr, left: l, right: rr}
		return n
	}
	grow(idx, 0)
	return t
}

// ranksOf returns the ranks (1-based) of q's candidates by score and
// each file's rank by its first candidate.
func ranksOf(q fitQuery, score []float64) (rank []int, fileRank map[string]int) {
	order := make([]int, len(score))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		switch {
		case score[i] > score[j]:
			return -1
		case score[i] < score[j]:
			return 1
		}
		return 0
	})
	rank = make([]int, len(order))
	fileRank = map[string]int{}
	for r, i := range order {
		rank[i] = r + 1
		if _, ok := fileRank[q.file[i]]; !ok {
			fileRank[q.file[i]] = len(fileRank) + 1
		}
	}
	return rank, fileRank
}

// treeObjective is fitObjective with the trees' sum added to each
// candidate's linear score.
func treeObjective(qs []fitQuery, nsets int, w []float64, trees []regTree) float64 {
	moved := make([]fitQuery, len(qs))
	for n, q := range qs {
		q.base = slices.Clone(q.base)
		for i := range q.base {
			x := treeInputs(qs[n], i)
			for _, t := range trees {
				q.base[i] += t.eval(x)
			}
		}
		moved[n] = q
	}
	return fitObjective(moved, nsets, w)
}

// fitTrees prints the left-out objective of the linear weights fitted
// with lambda alone and with 1..rounds trees on top (at checkpoints), each
// repository left out in turn.
func fitTrees(qs []fitQuery, nsets int, only map[int]bool, lambda float64, p treeParams, stdout io.Writer) {
	rounds := p.rounds
	if p.features == nil {
		// Every feature computed without weighing text, cover and body
		// (each costs a query an analysis of every candidate), and the
		// fused score.
		for k, name := range docsearch.CodeFeatureNames {
			if name != "text" && name != "cover" && name != "body" {
				p.features = append(p.features, k)
			}
		}
		p.features = append(p.features, len(docsearch.CodeFeatureNames))
	}
	names := docsearch.CodeFeatureNames
	w0 := docsearch.CodeWeights()
	lo, hi := make([]float64, len(w0)), make([]float64, len(w0))
	for k := range w0 {
		lo[k], hi[k] = learnBounds(names[k])
		if only != nil && !only[k] {
			lo[k], hi[k] = w0[k], w0[k]
		}
	}
	repos := 0
	for _, q := range qs {
		repos = max(repos, q.repo+1)
	}
	checks := []int{0, 5, 10, 20, 40, 80, 160}
	sum := make(map[int]float64)
	for r := range repos {
		var held []fitQuery
		for _, q := range qs {
			if q.repo == r {
				held = append(held, q)
			}
		}
		w := fitPairwise(qs, nsets, r, w0, lo, hi, lambda)
		sum[0] += fitObjective(held, nsets, w) * float64(nsets)
		boostTrees(qs, nsets, r, w, p, rounds, func(t int, trees []regTree) {
			if slices.Contains(checks, t) {
				sum[t] += treeObjective(held, nsets, w, trees) * float64(nsets)
			}
		})
	}
	for _, t := range checks {
		if t <= rounds {
			fmt.Fprintf(stdout, "trees: depth %d, shrink %g: %d trees: left-out objective %.4f\n", p.depth, p.shrink, t, sum[t]/float64(repos))
		}
	}
}
