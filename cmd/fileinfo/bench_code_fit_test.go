package main

import (
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/docsearch"
)

// synthFit returns queries over repos repositories of one data set whose
// answer is the candidate with feature k set, ranked fourth by fused
// score; a type feature is set on the answers too.
func synthFit(k, repos int) []fitQuery {
	typ := slices.Index(docsearch.CodeFeatureNames[:], "type")
	var qs []fitQuery
	for r := range repos {
		for range 5 {
			q := fitQuery{repo: r, files: map[string]bool{"a.go": true}, nrel: 1}
			for i := range 8 {
				f := make([]float64, len(docsearch.CodeFeatureNames))
				ans := i == 3
				if ans {
					f[k], f[typ] = 1, 1
				}
				q.base = append(q.base, -0.1*float64(i))
				q.f = append(q.f, f)
				q.rel = append(q.rel, ans)
				q.file = append(q.file, map[bool]string{true: "a.go", false: "b.go"}[ans])
			}
			qs = append(qs, q)
		}
	}
	return qs
}

// TestFitPairwise: the pairwise fit gives a feature that marks the
// answers the weight that ranks them first, keeps a demotion a demotion
// however the data pull it, and ranks the left-out repositories better
// than the built-in weights; it prints the left-out objective of each λ
// and of coordinate ascent, the peer it is chosen against.
func TestFitPairwise(t *testing.T) {
	used := slices.Index(docsearch.CodeFeatureNames[:], "used")
	typ := slices.Index(docsearch.CodeFeatureNames[:], "type")
	qs := synthFit(used, 4)
	var out strings.Builder
	w := fitCodeWeights(qs, 1, nil, &out)
	if w[used] <= 0.3 {
		t.Errorf("used weighs %.2f, want it to lift the answers over 0.3 of log fused", w[used])
	}
	if w[typ] > 0 {
		t.Errorf("type weighs %.2f: a demotion turned into a boost", w[typ])
	}
	if got, was := fitObjective(qs, 1, w), fitObjective(qs, 1, docsearch.CodeWeights()); got <= was {
		t.Errorf("objective %.3f with the fitted weights, %.3f built in", got, was)
	}
	if !strings.Contains(out.String(), "left-out objective") || !strings.Contains(out.String(), "coordinate ascent") {
		t.Errorf("no left-out objective printed:\n%s", out.String())
	}
}

// TestParseCodeWeights: --code-weights replaces the named weights and
// keeps the others built in; an unknown feature is an error.
func TestParseCodeWeights(t *testing.T) {
	w, err := parseCodeWeights("used=0.5, lines=-0.25")
	if err != nil {
		t.Fatal(err)
	}
	want := docsearch.CodeWeights()
	want[slices.Index(docsearch.CodeFeatureNames[:], "used")] = 0.5
	want[slices.Index(docsearch.CodeFeatureNames[:], "lines")] = -0.25
	if !slices.Equal(w, want) {
		t.Errorf("got %v, want %v", w, want)
	}
	if _, err := parseCodeWeights("usde=1"); err == nil {
		t.Error("usde=1: no error")
	}
}

// TestFitOnly: a fit of chosen features leaves the others built in.
func TestFitOnly(t *testing.T) {
	used := slices.Index(docsearch.CodeFeatureNames[:], "used")
	lines := slices.Index(docsearch.CodeFeatureNames[:], "lines")
	w := fitCodeWeights(synthFit(used, 3), 1, map[int]bool{lines: true}, io.Discard)
	if want := docsearch.CodeWeights()[used]; w[used] != want {
		t.Errorf("used weighs %.2f, want it left at %.2f", w[used], want)
	}
}
