package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fileinfo/fileinfo/docsearch"
)

// `bench code --fit` fits the weights of the code ranking features as a
// pairwise logistic model (RankNet's loss on a linear score): a code
// candidate's score is log(fused) + w·f, and for each query of the
// training data every answer among the candidates the features rank
// should score over every candidate that is not one. The loss of a
// query is the mean of log(1 + exp(−(s_answer − s_other))) over its
// pairs, a data set's the mean over its queries, and the fit minimises
// the mean over data sets plus λ‖w − w₀‖², w₀ the built-in weights, by
// projected gradient descent within learnBounds. λ is chosen by leaving
// one repository out at a time: each is ranked by the weights fitted on
// the others, and the λ whose rankings score best (the learner's
// objective, fitObjective, computed offline from the candidates) is
// fitted on all of them. Unlike the coordinate ascent of --learn, which
// takes a step of one weight when it gains the objective, this fits all
// weights at once from how every answer stands against every other
// candidate. It prints, beside, the left-out objective of the built-in
// weights and of --learn's coordinate ascent run the same way (on the
// candidates, each repository left out in turn): the peers a fitted
// model must beat to replace them. The data are what --learn reads: the
// tuning split of a data set, never its held-out one.

// fitQuery is one query's code candidates, as the features saw them.
type fitQuery struct {
	set, repo int
	base      []float64   // log of each candidate's fused score
	f         [][]float64 // features
	rel       []bool      // answers the query
	file      []string
	files     map[string]bool // the files of the answers
	nrel      int             // relevant ranges
}

// fitLambdas are the strengths of the pull towards w₀ tried.
var fitLambdas = []float64{0.01, 0.1, 1}

// collectFit runs every query of sets once and keeps its candidates.
func collectFit(ctx context.Context, sets []*learnSet) ([]fitQuery, error) {
	var out []fitQuery
	zero := 0.0
	repo := 0
	for si, s := range sets {
		for _, r := range s.repos {
			for _, q := range r.qs {
				var cands []docsearch.CodeCandidate
				_, err := r.ix.Search(ctx, docsearch.Query{Text: q.Text, Scopes: []string{docsearch.ScopeCode}, Limit: 10, MinScore: &zero,
					CodeCandidates: func(c []docsearch.CodeCandidate) { cands = c }})
				if err != nil {
					return nil, fmt.Errorf("%s: %w", q.ID, err)
				}
				want := s.qrels[q.ID]
				fq := fitQuery{set: si, repo: repo, files: map[string]bool{}, nrel: len(want)}
				for _, w := range want {
					fq.files[w.path] = true
				}
				for _, c := range cands {
					g := span{c.Result.Path, c.Result.Lines[0], c.Result.Lines[1]}
					fq.base = append(fq.base, math.Log(max(c.Fused, 1e-300)))
					fq.f = append(fq.f, c.Features)
					fq.rel = append(fq.rel, slices.ContainsFunc(want, func(w span) bool { return matches(g, w) }))
					fq.file = append(fq.file, g.path)
				}
				out = append(out, fq)
			}
			repo++
		}
	}
	return out, nil
}

// fitObjective is the learner's objective over qs ranked by w from
// their candidates alone: the mean over data sets (nsets) of function-
// and file-level nDCG@10 averaged. A query whose answers are not among
// its candidates scores what its other answers' files give.
func fitObjective(qs []fitQuery, nsets int, w []float64) float64 {
	scores := make([][]float64, len(qs))
	for j, q := range qs {
		scores[j] = make([]float64, len(q.base))
		for i := range q.base {
			scores[j][i] = q.base[i] + dot(w, q.f[i])
		}
	}
	return scoredObjective(qs, nsets, scores)
}

// scoredObjective is fitObjective for the candidates of qs scored by
// scores.
func scoredObjective(qs []fitQuery, nsets int, scores [][]float64) float64 {
	sum := make([]float64, nsets)
	n := make([]int, nsets)
	for j, q := range qs {
		order := byScore(scores[j])
		var fn, file float64
		seen := map[string]bool{}
		rank := 0
		for i, c := range order[:min(len(order), 10)] {
			if q.rel[c] {
				fn += 1 / math.Log2(float64(i+2))
			}
			if !seen[q.file[c]] {
				seen[q.file[c]] = true
				rank++
				if q.files[q.file[c]] {
					file += 1 / math.Log2(float64(rank+1))
				}
			}
		}
		// A range found twice counts once in scoreCode; the answers of
		// the generated data are one range each, and rarely two chunks.
		fn = min(fn/idcg(q.nrel), 1)
		file /= idcg(len(q.files))
		sum[q.set] += (fn + file) / 2
		n[q.set]++
	}
	var obj float64
	for s := range nsets {
		if n[s] > 0 {
			obj += sum[s] / float64(n[s])
		}
	}
	return obj / float64(nsets)
}

// fitPairwise fits w from w0 on qs (those of repository skip left out;
// -1 keeps all) with strength lambda, within bounds lo and hi. Each pair
// of an answer and another candidate weighs, as in LambdaRank, by how
// much swapping the two would change the query's objective under the
// current weights: function-level nDCG@10 by their ranks, file-level by
// their files' ranks. Without it the loss is spent on answers ranked
// 40th rising to 30th, which nDCG@10 does not see.
func fitPairwise(qs []fitQuery, nsets, skip int, w0, lo, hi []float64, lambda float64) []float64 {
	perSet := make([]int, nsets)
	var train []fitQuery
	for _, q := range qs {
		if q.repo != skip && slices.Contains(q.rel, true) && slices.Contains(q.rel, false) {
			perSet[q.set]++
			train = append(train, q)
		}
	}
	// The score is a·log(fused) + w·f, a fitted too: fused scores of
	// neighbouring candidates differ by a few percent (reciprocal ranks),
	// so at a = 1 every margin is near 0, where the logistic loss cannot
	// tell a pair ranked right from one ranked wrong. The weights are
	// w / a, pulled towards w₀, within a·lo and a·hi.
	w := slices.Clone(w0)
	a := 1.0
	grad := make([]float64, len(w))
	const steps, rate = 600, 0.5
	for range steps {
		// The pull is λ‖w/a − w₀‖²: on the weights as they will rank,
		// so that it cannot be met by shrinking a.
		var ga float64
		for k := range grad {
			d := w[k]/a - w0[k]
			grad[k] = 2 * lambda * d / a
			ga -= 2 * lambda * d * w[k] / (a * a)
		}
		for _, q := range train {
			score, rank, fileRank := rankFit(q, w, a)
			pairs, sum := swapPairs(q, rank, fileRank)
			if sum == 0 {
				continue
			}
			scale := 1 / (sum * float64(perSet[q.set]*nsets))
			for _, pr := range pairs {
				m := score[pr.p] - score[pr.o]
				g := -pr.delta / (1 + math.Exp(m)) * scale // delta × d/dm log(1 + e^-m)
				ga += g * (q.base[pr.p] - q.base[pr.o])
				for k := range grad {
					grad[k] += g * (q.f[pr.p][k] - q.f[pr.o][k])
				}
			}
		}
		a = max(a-rate*ga, 0.05)
		for k := range w {
			w[k] = min(max(w[k]-rate*grad[k], a*lo[k]), a*hi[k])
		}
	}
	for k := range w {
		w[k] /= a
	}
	return w
}

// ascendOffline is --learn's coordinate ascent (learnSteps, learnMinGain,
// three passes) run on the candidates of qs less those of repository
// skip: what the left-out repositories score with weights --learn would
// have fitted without them.
func ascendOffline(qs []fitQuery, nsets, skip int, w0, lo, hi []float64) []float64 {
	var train []fitQuery
	for _, q := range qs {
		if q.repo != skip {
			train = append(train, q)
		}
	}
	w := slices.Clone(w0)
	best := fitObjective(train, nsets, w)
	for range 3 {
		improved := false
		for k := range w {
			for _, step := range learnSteps {
				try := slices.Clone(w)
				try[k] = min(max(try[k]+step, lo[k]), hi[k])
				if try[k] == w[k] {
					continue
				}
				if v := fitObjective(train, nsets, try); v >= best+learnMinGain {
					best, w, improved = v, try, true
				}
			}
		}
		if !improved {
			break
		}
	}
	return w
}

// rankFit returns q's candidates' scores a·log(fused) + w·f, their ranks (1-based),
// and the rank of each file by its first candidate.
func rankFit(q fitQuery, w []float64, a float64) (score []float64, rank []int, fileRank map[string]int) {
	score = make([]float64, len(q.base))
	for i := range score {
		score[i] = a*q.base[i] + dot(w, q.f[i])
	}
	rank, fileRank = ranksOf(q, score)
	return score, rank, fileRank
}

// byScore returns the indices of s from the highest score to the lowest,
// ties in index order.
func byScore(s []float64) []int {
	order := make([]int, len(s))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case s[a] > s[b]:
			return -1
		case s[a] < s[b]:
			return 1
		}
		return 0
	})
	return order
}

// swapPair is an answer p and another candidate o of a query, weighed by
// what swapping the two would change of the query's objective (delta).
type swapPair struct {
	p, o  int
	delta float64
}

// swapPairs returns q's pairs of an answer and another candidate whose
// swap would change its objective under the ranks given, and the sum of
// their deltas: function-level nDCG@10 by their ranks, file-level by
// their files' ranks. A pair neither moves is left out.
func swapPairs(q fitQuery, rank []int, fileRank map[string]int) (pairs []swapPair, sum float64) {
	for p, rp := range q.rel {
		if !rp {
			continue
		}
		for o, ro := range q.rel {
			if ro {
				continue
			}
			delta := math.Abs(gain10(rank[p]) - gain10(rank[o]))
			if q.file[p] != q.file[o] {
				delta += math.Abs(gain10(fileRank[q.file[p]]) - gain10(fileRank[q.file[o]]))
			}
			if delta > 0 {
				pairs = append(pairs, swapPair{p, o, delta})
				sum += delta
			}
		}
	}
	return pairs, sum
}

// gain10 is the discount of rank r in nDCG@10: 0 past the tenth.
func gain10(r int) float64 {
	if r > 10 {
		return 0
	}
	return 1 / math.Log2(float64(r+1))
}

// fitCodeWeights chooses λ by leaving one repository out at a time, fits
// the weights of the features in only (nil: all; the others stay built
// in) on all of qs with it, and prints the steps and the result.
func fitCodeWeights(qs []fitQuery, nsets int, only map[int]bool, stdout io.Writer) []float64 {
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
	fmt.Fprintf(stdout, "fit: %d queries, %d repositories; built-in weights: objective %.4f\n", len(qs), repos, fitObjective(qs, nsets, w0))
	bestLambda, best := fitLambdas[0], math.Inf(-1)
	for _, lambda := range fitLambdas {
		obj := leftOutObjective(qs, nsets, repos, func(r int) []float64 {
			return fitPairwise(qs, nsets, r, w0, lo, hi, lambda)
		})
		fmt.Fprintf(stdout, "fit: lambda %g: left-out objective %.4f\n", lambda, obj)
		if obj > best {
			best, bestLambda = obj, lambda
		}
	}
	builtIn := leftOutObjective(qs, nsets, repos, func(int) []float64 { return w0 })
	fmt.Fprintf(stdout, "fit: built-in weights: left-out objective %.4f\n", builtIn)
	ascent := leftOutObjective(qs, nsets, repos, func(r int) []float64 { return ascendOffline(qs, nsets, r, w0, lo, hi) })
	fmt.Fprintf(stdout, "fit: coordinate ascent from the built-in weights: left-out objective %.4f\n", ascent)
	w := fitPairwise(qs, nsets, -1, w0, lo, hi, bestLambda)
	fmt.Fprintf(stdout, "fit: lambda %g on all: objective %.4f\n", bestLambda, fitObjective(qs, nsets, w))
	printWeights(stdout, "fitted:", w)
	return w
}

// leftOutObjective is the objective of each of repos repositories' queries
// scored with the weights fit(r) made without them, averaged over the
// repositories; each left-out repository scores within its own data set.
func leftOutObjective(qs []fitQuery, nsets, repos int, fit func(r int) []float64) float64 {
	var sum float64
	for r := range repos {
		var held []fitQuery
		for _, q := range qs {
			if q.repo == r {
				held = append(held, q)
			}
		}
		sum += fitObjective(held, nsets, fit(r)) * float64(nsets)
	}
	return sum / float64(repos)
}

// parseCodeWeights returns the built-in weights with those list names
// ("name=value,...") replaced, or an error naming the unknown feature.
func parseCodeWeights(list string) ([]float64, error) {
	w := docsearch.CodeWeights()
	for item := range strings.SplitSeq(list, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(item), "=")
		k := slices.Index(docsearch.CodeFeatureNames[:], name)
		if !ok || k < 0 {
			return nil, fmt.Errorf("code weights: %q: want feature=value, a feature of %s", item, strings.Join(docsearch.CodeFeatureNames[:], ", "))
		}
		v, err := strconv.ParseFloat(val, 64)
		if err != nil {
			return nil, fmt.Errorf("code weights: %q: %w", item, err)
		}
		w[k] = v
	}
	return w, nil
}

// runFit collects the candidates of sets, keeps them in cache when it is
// not "", and fits the weights of the features in only (nil: all) on
// them.
func runFit(ctx context.Context, sets []*learnSet, only map[int]bool, cache string, trees bool, stdout io.Writer) error {
	qs, err := collectFit(ctx, sets)
	if err != nil {
		return err
	}
	names := make([]string, len(sets))
	for i, s := range sets {
		names[i] = s.name
		fmt.Fprintf(stdout, "fit: data set %s, %d queries\n", filepath.Base(s.name), s.n)
	}
	if cache != "" {
		if err := writeFitCache(cache, names, qs); err != nil {
			return fmt.Errorf("bench code: --fit-cache: %w", err)
		}
	}
	fitOn(qs, len(sets), only, trees, stdout)
	return nil
}

// fitOn fits the weights of the features in only, or with trees the
// trees on top of the built-in weights, on qs.
func fitOn(qs []fitQuery, nsets int, only map[int]bool, trees bool, stdout io.Writer) {
	if trees {
		fitCodeTrees(qs, nsets, docsearch.CodeWeights(), stdout)
		return
	}
	fitCodeWeights(qs, nsets, only, stdout)
}

// fitFromCache fits the weights on the candidates kept in cache for the
// data sets of dataset and also, reporting done false when there are
// none yet.
func fitFromCache(cache, dataset, reposDir, also string, only map[int]bool, trees bool, stdout io.Writer) (done bool, err error) {
	sources, err := learnSources(dataset, reposDir, also)
	if err != nil {
		return false, err
	}
	names := make([]string, len(sources))
	for i, s := range sources {
		names[i] = s.dataset
	}
	qs, ok, err := readFitCache(cache, names)
	if !ok || err != nil {
		return false, err
	}
	fmt.Fprintf(stdout, "fit: %d queries from %s\n", len(qs), cache)
	fitOn(qs, len(names), only, trees, stdout)
	return true, nil
}

func dot(a, b []float64) float64 {
	var s float64
	for k := range min(len(a), len(b)) {
		s += a[k] * b[k]
	}
	return s
}
