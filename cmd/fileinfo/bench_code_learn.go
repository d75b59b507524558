package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fileinfo/fileinfo/docsearch"
)

// `bench code --learn` fits the weights of the code ranking features
// (docsearch.CodeWeights) by coordinate ascent on the queries of one or
// more data sets: for a data set with splits, only its tuning split,
// never the held-out one. The objective is the mean, over data sets, of
// function-level and file-level nDCG@10 averaged; a step is taken only
// when it gains at least learnMinGain, so that one query's flip does not
// move a weight. It prints the weights found, to be written into
// docsearch/codefeat.go and checked on the held-out split.

// learnSet is the indexed repositories and queries of one data set.
type learnSet struct {
	name  string
	repos []learnRepo
	qrels map[string][]span
	n     int // queries
}

// learnRepo is one repository's index and queries.
type learnRepo struct {
	ix *docsearch.Index
	qs []codeQuery
}

// heldRepos returns the repositories of a data set's held-out split.
func heldRepos(dataset string) map[string]bool {
	held := map[string]bool{}
	list, _ := readGenRepos(dataset)
	for _, r := range list {
		if r.Split == "held" {
			held[r.Name] = true
		}
	}
	return held
}

// learnMinGain is the least gain of the objective a step must bring.
const learnMinGain = 0.002

// learnSteps are the moves of a weight tried in each pass.
var learnSteps = []float64{-0.8, -0.4, -0.2, -0.1, 0.1, 0.2, 0.4, 0.8}

// learnBounds keep a weight's sign where its feature says which way it
// should go: a demotion stays one, and a query's words in a symbol's own
// name never count against it (the generated queries leave the name's
// words out, so left free it would learn exactly that), nor, for the
// enclosing name, for it more than as weak context.
func learnBounds(feature string) (lo, hi float64) {
	switch feature {
	case "type", "dunder", "short", "module", "decl", "aux", "test":
		return -3, 0
	case "name":
		return 0, 3
	case "qualifier":
		return -3, 0
	}
	return -3, 3
}

// loadLearnSets loads the data set the weights are fitted on and those
// --learn-also lists ("dataset=repos,..."), each less the repositories
// that any of them holds out: a repository one set tunes on and another
// keeps for checking is checked, never fitted.
func loadLearnSets(ctx context.Context, dataset, reposDir, also string, withDocs bool, stderr io.Writer) ([]*learnSet, error) {
	sources, err := learnSources(dataset, reposDir, also)
	if err != nil {
		return nil, err
	}
	held := map[string]bool{}
	for _, s := range sources {
		maps.Copy(held, heldRepos(s.dataset))
	}
	var sets []*learnSet
	for _, s := range sources {
		set, err := loadLearnSet(ctx, s.dataset, s.repos, held, withDocs, stderr)
		if err != nil {
			return nil, err
		}
		sets = append(sets, set)
	}
	return sets, nil
}

// learnSource is a data set and the directory of its repositories.
type learnSource struct{ dataset, repos string }

// learnSources returns the data set and those of --learn-also, in the
// order loadLearnSets loads them.
func learnSources(dataset, reposDir, also string) ([]learnSource, error) {
	sources := []learnSource{{dataset, reposDir}}
	if also != "" {
		for item := range strings.SplitSeq(also, ",") {
			ds, dir, ok := strings.Cut(item, "=")
			if !ok || ds == "" || dir == "" {
				return nil, fmt.Errorf("bench code: --learn-also %q: want dataset=repos, comma-separated", item)
			}
			sources = append(sources, learnSource{ds, dir})
		}
	}
	return sources, nil
}

// loadLearnSet indexes the repositories of a data set (only the split
// "tune" when it has splits) for learning, less those held names: the
// repositories of another data set's held-out split, which no query
// may tune on.
func loadLearnSet(ctx context.Context, dataset, reposDir string, held map[string]bool, withDocs bool, stderr io.Writer) (*learnSet, error) {
	queries, qrels, err := readCodeSet(dataset)
	if err != nil {
		return nil, err
	}
	if list, err := readGenRepos(dataset); err == nil {
		tune := map[string]bool{}
		for _, r := range list {
			tune[r.Name] = r.Split == "tune"
		}
		queries = slices.DeleteFunc(queries, func(q codeQuery) bool { return !tune[q.Repo] })
	} else if !os.IsNotExist(errors.Unwrap(err)) && !os.IsNotExist(err) {
		return nil, err
	}
	queries = slices.DeleteFunc(queries, func(q codeQuery) bool { return held[q.Repo] })
	set := &learnSet{name: dataset, qrels: qrels}
	byRepo := map[string][]codeQuery{}
	for _, q := range queries {
		if len(qrels[q.ID]) > 0 {
			byRepo[q.Repo] = append(byRepo[q.Repo], q)
		}
	}
	for _, repo := range slices.Sorted(maps.Keys(byRepo)) {
		dir := filepath.Join(reposDir, repo)
		ix, _, err := repoIndex(ctx, dir, withDocs)
		if err != nil {
			return nil, fmt.Errorf("bench code --learn: %s: %w", repo, err)
		}
		set.repos = append(set.repos, learnRepo{ix, byRepo[repo]})
		set.n += len(byRepo[repo])
		fmt.Fprintf(stderr, "learn: indexed %s (%d queries)\n", repo, len(byRepo[repo]))
	}
	return set, nil
}

// evalWeights returns a data set's function-level and file-level
// nDCG@10 with the code ranking weights w.
func (s *learnSet) evalWeights(ctx context.Context, w []float64) (fn, file float64, err error) {
	zero := 0.0
	for _, r := range s.repos {
		for _, q := range r.qs {
			res, err := r.ix.Search(ctx, docsearch.Query{Text: q.Text, Scopes: []string{docsearch.ScopeCode}, Limit: 10, MinScore: &zero, CodeWeights: w})
			if err != nil {
				return 0, 0, fmt.Errorf("%s: %w", q.ID, err)
			}
			var got []span
			for _, x := range res.Results {
				got = append(got, span{x.Path, x.Lines[0], x.Lines[1]})
			}
			o := scoreCode(q, got, s.qrels[q.ID])
			fn += o.FuncNDCG
			file += o.FileNDCG
		}
	}
	n := float64(max(s.n, 1))
	return fn / n, file / n, nil
}

// learnFeatures returns which features --learn-only names (nil: all of
// them), or an error naming the unknown one.
func learnFeatures(list string) (map[int]bool, error) {
	if list == "" {
		return nil, nil
	}
	only := map[int]bool{}
	for name := range strings.SplitSeq(list, ",") {
		k := slices.Index(docsearch.CodeFeatureNames[:], strings.TrimSpace(name))
		if k < 0 {
			return nil, fmt.Errorf("bench code: --learn-only: no feature %q; known: %s", name, strings.Join(docsearch.CodeFeatureNames[:], ", "))
		}
		only[k] = true
	}
	return only, nil
}

// learnCodeWeights fits the weights on sets by coordinate ascent from the
// built-in ones, only those of the features in only (nil: all), and
// prints each accepted step and the result.
func learnCodeWeights(ctx context.Context, sets []*learnSet, only map[int]bool, passes int, stdout io.Writer) ([]float64, error) {
	names := docsearch.CodeFeatureNames
	objective := func(w []float64) (float64, string, error) {
		var sum float64
		var parts []string
		for _, s := range sets {
			fn, file, err := s.evalWeights(ctx, w)
			if err != nil {
				return 0, "", err
			}
			sum += (fn + file) / 2
			parts = append(parts, fmt.Sprintf("%s fn %.3f file %.3f", filepath.Base(s.name), fn, file))
		}
		return sum / float64(len(sets)), strings.Join(parts, ", "), nil
	}
	w := docsearch.CodeWeights()
	best, desc, err := objective(w)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stdout, "start: %.4f (%s)\n", best, desc)
	for pass := range passes {
		improved := false
		for k := range w {
			if only != nil && !only[k] {
				continue
			}
			lo, hi := learnBounds(names[k])
			for _, step := range learnSteps {
				try := slices.Clone(w)
				try[k] = min(max(try[k]+step, lo), hi)
				if try[k] == w[k] {
					continue
				}
				v, d, err := objective(try)
				if err != nil {
					return nil, err
				}
				if v >= best+learnMinGain {
					best, desc, w = v, d, try
					improved = true
					fmt.Fprintf(stdout, "pass %d: %s %+.2f -> %.2f: %.4f (%s)\n", pass+1, names[k], step, w[k], best, desc)
				}
			}
		}
		printWeights(stdout, fmt.Sprintf("after pass %d:", pass+1), w)
		if !improved {
			break
		}
	}
	return w, nil
}

// printWeights prints weights by feature name on one line after label.
func printWeights(out io.Writer, label string, w []float64) {
	fmt.Fprint(out, label)
	for k, v := range w {
		fmt.Fprintf(out, " %s=%.2f", docsearch.CodeFeatureNames[k], v)
	}
	fmt.Fprintln(out)
}
