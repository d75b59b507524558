package main

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/docsearch"
)

// synthInteraction returns queries whose answer is the one candidate
// with two features set together; distractors ranked over it by fused
// score have one of the two each, so no weight of either alone ranks
// the answer first.
func synthInteraction(a, b, repos int) []fitQuery {
	var qs []fitQuery
	for r := range repos {
		for range 6 {
			q := fitQuery{repo: r, files: map[string]bool{"ans.go": true}, nrel: 1}
			for i := range 9 {
				f := make([]float64, len(docsearch.CodeFeatureNames))
				switch i % 3 {
				case 0:
					f[a] = 1
				case 1:
					f[b] = 1
				}
				ans := i == 8
				if ans {
					f[a], f[b] = 1, 1
				}
				q.base = append(q.base, -0.02*float64(i))
				q.f = append(q.f, f)
				q.rel = append(q.rel, ans)
				q.file = append(q.file, map[bool]string{true: "ans.go", false: "other" + string(rune('a'+i)) + ".go"}[ans])
			}
			qs = append(qs, q)
		}
	}
	return qs
}

// TestFitTreesInteraction: trees learn what only two features together
// say, which the linear weights cannot, and the left-out comparison is
// printed with the setting chosen.
func TestFitTreesInteraction(t *testing.T) {
	used := slices.Index(docsearch.CodeFeatureNames[:], "used")
	lines := slices.Index(docsearch.CodeFeatureNames[:], "lines")
	qs := synthInteraction(used, lines, 4)
	w := docsearch.CodeWeights()
	inputs := treeInputs()
	trees := fitTrees(qs, 1, -1, w, inputs, treeParams{depth: 2, rounds: 30, rate: 0.3, reg: 1, minH: 0.1, sigma: 5}, nil)
	was, got := fitObjective(qs, 1, w), scoredObjective(qs, 1, treeScores(qs, w, inputs, trees))
	if got < 0.99 || got <= was {
		t.Errorf("objective %.3f with trees, %.3f with the weights alone; want the answers first", got, was)
	}
	var out strings.Builder
	fitCodeTrees(qs, 1, w, &out)
	if !strings.Contains(out.String(), "left-out objective") || !strings.Contains(out.String(), "on all") {
		t.Errorf("no left-out comparison printed:\n%s", out.String())
	}
}

// TestTreeInputs: trees never split on the features a search computes
// only for fitting.
func TestTreeInputs(t *testing.T) {
	for _, k := range treeInputs() {
		switch docsearch.CodeFeatureNames[k] {
		case "text", "cover", "body":
			t.Errorf("tree input %s is not computed when a search ranks", docsearch.CodeFeatureNames[k])
		}
	}
}

// TestFitCacheRoundTrip: the candidates read back from a cache are those
// written; a cache made for other data sets is refused, and none is no
// error.
func TestFitCacheRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fit.gob")
	if _, ok, err := readFitCache(path, []string{"a"}); ok || err != nil {
		t.Fatalf("no cache: ok %v, err %v", ok, err)
	}
	qs := synthFit(slices.Index(docsearch.CodeFeatureNames[:], "used"), 2)
	if err := writeFitCache(path, []string{"a"}, qs); err != nil {
		t.Fatal(err)
	}
	got, ok, err := readFitCache(path, []string{"a"})
	if err != nil || !ok {
		t.Fatalf("read back: ok %v, err %v", ok, err)
	}
	if !reflect.DeepEqual(got, qs) {
		t.Errorf("read back other candidates than written")
	}
	if _, _, err := readFitCache(path, []string{"a", "b"}); err == nil {
		t.Error("a cache of other data sets was read")
	}
}

// FuzzReadFitCache: any bytes in the cache's place are read as a cache
// or refused with an error, never a panic or candidates that disagree
// in length.
func FuzzReadFitCache(f *testing.F) {
	dir := f.TempDir()
	seed := filepath.Join(dir, "seed.gob")
	if err := writeFitCache(seed, []string{"a"}, synthFit(0, 1)); err != nil {
		f.Fatal(err)
	}
	data, err := os.ReadFile(seed)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte("not gob"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "fit.gob")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		qs, ok, err := readFitCache(path, []string{"a"})
		if err != nil {
			return
		}
		if !ok {
			t.Fatal("a file that exists read as no cache")
		}
		for _, q := range qs {
			if len(q.f) != len(q.base) || len(q.rel) != len(q.base) || len(q.file) != len(q.base) {
				t.Fatalf("candidates disagree in length: %+v", q)
			}
			for _, f := range q.f {
				if len(f) != len(docsearch.CodeFeatureNames) {
					t.Fatalf("a candidate has %d features", len(f))
				}
			}
		}
	})
}
