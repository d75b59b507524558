package main

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/fileinfo/fileinfo/docsearch/embed"
)

// A vocabulary of pieces cuts the words it lacks into pieces, and a
// word's vector is then the sum of its pieces' vectors: "dataframe" is
// data + frame, "csv" c + sv. Pieces are shared by many words, so tuning
// cannot move one such word without moving the others. extendVocab adds
// the words most used by the tuning pairs as whole-word tokens of their
// own, each starting where its pieces put it, so tuning can place it.

// vocabOptions control which words extendVocab adds.
type vocabOptions struct {
	words int // words added at most; 0 adds none
	minDF int // pairs a word must occur in
}

// extendVocab appends to the KindPieces table t, as whole-word tokens
// (Header.Whole), the o.words words that occur in the most pairs (in at
// least o.minDF of them) and that t has no whole-word piece for. Each
// word's vector starts as the weighted sum of its pieces' (as Embed sums
// them for the word alone) divided by its own weight, so that before
// tuning the word embeds as its pieces did; its probability is its
// pieces' product, as the segmentation scores it. Ties in the number of
// pairs go to the word that sorts first, so the words are a function of
// t and pairs. It returns how many words it added.
func extendVocab(t *embed.Table, pairs []pair, o vocabOptions) (int, error) {
	if o.words <= 0 {
		return 0, nil
	}
	if t.Kind != embed.KindPieces || t.Whole != 0 {
		return 0, fmt.Errorf("extending a vocabulary needs a table of pieces without whole words")
	}
	m, err := embed.New(t, embed.Options{})
	if err != nil {
		return 0, err
	}
	row := make(map[string]int, len(t.Tokens))
	for i, tok := range t.Tokens {
		row[tok] = i
	}
	df := map[string]int{}
	seen := map[string]bool{}
	for _, p := range pairs {
		clear(seen)
		for _, text := range []string{p.query, p.code} {
			for _, w := range m.Words(text) {
				_, piece := row[embed.PieceMark+w]
				if !seen[w] && !piece && wordWorthAdding(w) {
					seen[w] = true
					df[w]++
				}
			}
		}
	}
	type cand struct {
		word string
		df   int
	}
	var cands []cand
	for w, n := range df {
		if n >= o.minDF {
			cands = append(cands, cand{w, n})
		}
	}
	slices.SortFunc(cands, func(a, b cand) int {
		return cmp.Or(cmp.Compare(b.df, a.df), cmp.Compare(a.word, b.word))
	})
	cands = cands[:min(len(cands), o.words)]

	d := t.Dim
	v := make([]float32, d)
	added := 0
	for _, c := range cands {
		rows, ws := m.Bag(c.word)
		if len(rows) == 0 {
			continue // no piece covers it
		}
		clear(v)
		for i, r := range rows {
			s := ws[i] * t.Scales[r]
			for j := range d {
				v[j] += s * float32(t.Vectors[int(r)*d+j])
			}
		}
		logp := 0.0
		for _, tok := range m.Tokens(c.word) {
			logp += math.Log(float64(t.Probs[row[tok]]))
		}
		p := max(math.Exp(logp), math.SmallestNonzeroFloat32)
		w := float32(embed.DefaultSIF / (embed.DefaultSIF + p))
		for j := range v {
			v[j] /= w
		}
		t.Tokens = append(t.Tokens, embed.PieceMark+c.word)
		t.Probs = append(t.Probs, float32(p))
		quantise(t, v)
		added++
	}
	t.Count, t.Whole = len(t.Tokens), added
	return added, nil
}

// wordWorthAdding reports whether w may become a whole-word token: at
// least three characters and not a number (numbers are many, and each
// says little).
func wordWorthAdding(w string) bool {
	if len(w) < 3 {
		return false
	}
	for _, r := range w {
		if r < '0' || r > '9' {
			return usable(w)
		}
	}
	return false
}
