package main

import (
	"context"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/docsearch"
)

// TestLearnSeesNoHeldOut: learning reads the tuning split's queries and
// never the held-out split's, nor a second data set's queries about a
// repository held out in the first.
func TestLearnSeesNoHeldOut(t *testing.T) {
	dir := t.TempDir()
	src := "package p\n\n// Add sums two numbers.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n"
	writeFiles(t, dir, map[string]string{
		"set/repos.tsv":       "name\tlang\tkind\tsource\tversion\tpath\tsplit\ntuned\tgo\tgomod\tx\tv1\t.\ttune\nheld\tgo\tgomod\ty\tv1\t.\theld\n",
		"set/queries.jsonl":   `{"_id":"t-1","repo":"tuned","text":"sums two numbers"}` + "\n" + `{"_id":"h-1","repo":"held","text":"sums two numbers"}` + "\n",
		"set/qrels.tsv":       "query-id\trepo\tpath\tsymbol\tstart\tend\nt-1\ttuned\tp.go\tp.Add\t4\t6\nh-1\theld\tp.go\tp.Add\t4\t6\n",
		"other/queries.jsonl": `{"_id":"o-1","repo":"held","text":"add numbers"}` + "\n" + `{"_id":"o-2","repo":"tuned","text":"add numbers"}` + "\n",
		"other/qrels.tsv":     "query-id\trepo\tpath\tsymbol\tstart\tend\no-1\theld\tp.go\tp.Add\t4\t6\no-2\ttuned\tp.go\tp.Add\t4\t6\n",
		"repos/tuned/p.go":    src,
		"repos/held/p.go":     src,
	})
	ctx := context.Background()
	held := heldRepos(filepath.Join(dir, "set"))
	for _, c := range []struct{ set, want string }{{"set", "t-1"}, {"other", "o-2"}} {
		s, err := loadLearnSet(ctx, filepath.Join(dir, c.set), filepath.Join(dir, "repos"), held, false, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range s.repos {
			for _, q := range r.qs {
				got = append(got, q.ID)
			}
		}
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("%s: learning reads queries %v, want only %s", c.set, got, c.want)
		}
	}
}

// TestLoadLearnSets: --learn-also takes several data sets, and a
// repository that any of them holds out is fitted in none, whichever
// set lists it first; a malformed item is an error that names it.
func TestLoadLearnSets(t *testing.T) {
	dir := t.TempDir()
	src := "package p\n\n// Add sums two numbers.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n"
	head := "name\tlang\tkind\tsource\tversion\tpath\tsplit\n"
	qrel := func(id, repo string) string { return id + "\t" + repo + "\tp.go\tp.Add\t4\t6\n" }
	query := func(id, repo string) string {
		return `{"_id":"` + id + `","repo":"` + repo + `","text":"sums two numbers"}` + "\n"
	}
	writeFiles(t, dir, map[string]string{
		"set/repos.tsv":       head + "tuned\tgo\tgomod\tx\tv1\t.\ttune\nheld\tgo\tgomod\ty\tv1\t.\theld\n",
		"set/queries.jsonl":   query("s-1", "tuned") + query("s-2", "held") + query("s-3", "late"),
		"set/qrels.tsv":       "query-id\trepo\tpath\tsymbol\tstart\tend\n" + qrel("s-1", "tuned") + qrel("s-2", "held") + qrel("s-3", "late"),
		"other/queries.jsonl": query("o-1", "held") + query("o-2", "tuned") + query("o-3", "late"),
		"other/qrels.tsv":     "query-id\trepo\tpath\tsymbol\tstart\tend\n" + qrel("o-1", "held") + qrel("o-2", "tuned") + qrel("o-3", "late"),
		"third/repos.tsv":     head + "late\tgo\tgomod\tz\tv1\t.\theld\ntuned\tgo\tgomod\tx\tv1\t.\ttune\n",
		"third/queries.jsonl": query("x-1", "late") + query("x-2", "tuned"),
		"third/qrels.tsv":     "query-id\trepo\tpath\tsymbol\tstart\tend\n" + qrel("x-1", "late") + qrel("x-2", "tuned"),
		"repos/tuned/p.go":    src,
		"repos/held/p.go":     src,
		"repos/late/p.go":     src,
	})
	repos := filepath.Join(dir, "repos")
	also := filepath.Join(dir, "other") + "=" + repos + "," + filepath.Join(dir, "third") + "=" + repos
	sets, err := loadLearnSets(context.Background(), filepath.Join(dir, "set"), repos, also, false, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range sets {
		for _, r := range s.repos {
			for _, q := range r.qs {
				got = append(got, q.ID)
			}
		}
	}
	if want := []string{"s-1", "o-2", "x-2"}; !slices.Equal(got, want) {
		t.Errorf("learning reads queries %v, want %v", got, want)
	}
	if _, err := loadLearnSets(context.Background(), filepath.Join(dir, "set"), repos, also+",third", false, io.Discard); err == nil || !strings.Contains(err.Error(), `"third"`) {
		t.Errorf("a malformed --learn-also item: %v", err)
	}
}

// TestLearnFeatures: --learn-only names features by their names, and an
// unknown one is an error that lists the known.
func TestLearnFeatures(t *testing.T) {
	only, err := learnFeatures("text, sibling")
	if err != nil || len(only) != 2 || !only[slices.Index(docsearch.CodeFeatureNames[:], "text")] || !only[slices.Index(docsearch.CodeFeatureNames[:], "sibling")] {
		t.Errorf("learnFeatures(text, sibling) = %v, %v", only, err)
	}
	if only, err := learnFeatures(""); only != nil || err != nil {
		t.Errorf("learnFeatures(\"\") = %v, %v; want all", only, err)
	}
	if _, err := learnFeatures("txet"); err == nil || !strings.Contains(err.Error(), "known: type") {
		t.Errorf("learnFeatures(txet): %v", err)
	}
}
