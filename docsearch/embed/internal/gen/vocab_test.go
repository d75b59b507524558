package main

import (
	"slices"
	"testing"

	"github.com/fileinfo/fileinfo/docsearch/embed"
)

// toyPieces is a table of pieces of random vectors.
func toyPieces(t *testing.T) *embed.Table {
	t.Helper()
	mark := embed.PieceMark
	toks := []string{mark + "read", mark + "data", "frame", mark + "file", "s", mark + "load", mark + "sv", "c", mark + "c"}
	tab := toyTable(t, toks, 8)
	tab.Kind = embed.KindPieces
	return tab
}

var vocabPairs = []pair{
	{query: "Read a dataframe.", code: "def read_csv(path): return load(path).dataframe"},
	{query: "Write the dataframe to a file.", code: "def to_csv(df, path): save(df.dataframe, path)"},
	{query: "Load dataframes from files.", code: "def load_all(paths): return [read(p) for p in paths]"},
}

func TestExtendVocab(t *testing.T) {
	tab := toyPieces(t)
	before, err := embed.New(tab, embed.Options{})
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"dataframe", "read a dataframe from csv", "csv", "load files"}
	want, err := before.Embed(t.Context(), texts)
	if err != nil {
		t.Fatal(err)
	}
	n, err := extendVocab(tab, vocabPairs, vocabOptions{words: 10, minDF: 2})
	if err != nil {
		t.Fatal(err)
	}
	// dataframe, csv (read_csv and to_csv split at "_") and path are in 2
	// pairs, but no piece covers path; dataframes, files and paths are in
	// fewer, read and load are pieces already, def, return and for are
	// keywords.
	mark := embed.PieceMark
	added := []string{mark + "csv", mark + "dataframe"}
	if n != len(added) || tab.Whole != n || tab.Count != len(tab.Tokens) || !slices.Equal(tab.Tokens[tab.Count-n:], added) {
		t.Fatalf("added %d (Whole %d): %q, want %q", n, tab.Whole, tab.Tokens[tab.Count-n:], added)
	}
	after, err := embed.New(tab, embed.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := after.Tokens("dataframe"); !slices.Equal(got, []string{mark + "dataframe"}) {
		t.Errorf("dataframe maps onto %q, want its whole word", got)
	}
	got, err := after.Embed(t.Context(), texts)
	if err != nil {
		t.Fatal(err)
	}
	// Before tuning, a text embeds as it did with the pieces alone (up to
	// the int8 quantisation of the new vectors).
	for i, text := range texts {
		if c := dot(got[i], want[i]); c < 0.995 {
			t.Errorf("%q: cosine %.4f with its vector before the words were added, want ~1", text, c)
		}
	}

	again := toyPieces(t)
	if _, err := extendVocab(again, vocabPairs, vocabOptions{words: 10, minDF: 2}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again.Tokens, tab.Tokens) || !slices.Equal(again.Vectors, tab.Vectors) || !slices.Equal(again.Probs, tab.Probs) {
		t.Error("extending the same table by the same pairs gave another table")
	}
	capped := toyPieces(t)
	if n, _ := extendVocab(capped, vocabPairs, vocabOptions{words: 1, minDF: 2}); n != 1 || capped.Tokens[capped.Count-1] != mark+"csv" {
		t.Errorf("words: 1 added %d, the last %q; want 1, the first in order (csv)", n, capped.Tokens[capped.Count-1])
	}
	if _, err := extendVocab(tab, vocabPairs, vocabOptions{words: 10, minDF: 2}); err == nil {
		t.Error("extended a table that has whole words already")
	}
	if _, err := extendVocab(toyTable(t, toyWords, 4), vocabPairs, vocabOptions{words: 10, minDF: 2}); err == nil {
		t.Error("extended a table of words")
	}
}

func TestWordWorthAdding(t *testing.T) {
	for w, want := range map[string]bool{"csv": true, "utf8": true, "ab": false, "2048": false, "dataframe": true, "Upper": false} {
		if got := wordWorthAdding(w); got != want {
			t.Errorf("wordWorthAdding(%q) = %v, want %v", w, got, want)
		}
	}
}
