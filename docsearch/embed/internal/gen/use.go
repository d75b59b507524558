package main

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"

	"github.com/fileinfo/fileinfo/docsearch/embed"
)

// tfjsModel is the part of a TensorFlow.js graph model's model.json that
// locates the weights: shards concatenated in order hold the weights in
// manifest order, each little-endian, of its dtype and shape.
type tfjsModel struct {
	WeightsManifest []struct {
		Paths   []string `json:"paths"`
		Weights []struct {
			Name  string `json:"name"`
			Shape []int  `json:"shape"`
			Dtype string `json:"dtype"`
		} `json:"weights"`
	} `json:"weightsManifest"`
}

// weights reads every float32 weight of a TensorFlow.js model by name.
func weights(files map[string][]byte, dir string) (map[string][]float32, error) {
	var m tfjsModel
	if err := json.Unmarshal(files[dir+"model.json"], &m); err != nil {
		return nil, fmt.Errorf("model.json: %w", err)
	}
	out := map[string][]float32{}
	for _, g := range m.WeightsManifest {
		var data []byte
		for _, p := range g.Paths {
			b, ok := files[dir+p]
			if !ok {
				return nil, fmt.Errorf("weight shard %s missing", p)
			}
			data = append(data, b...)
		}
		for _, w := range g.Weights {
			n := 1
			for _, s := range w.Shape {
				n *= s
			}
			if w.Dtype != "float32" && w.Dtype != "int32" {
				return nil, fmt.Errorf("weight %s: dtype %s", w.Name, w.Dtype)
			}
			if len(data) < 4*n {
				return nil, fmt.Errorf("weight %s: shards too short", w.Name)
			}
			if w.Dtype == "float32" {
				xs := make([]float32, n)
				for i := range xs {
					xs[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
				}
				out[w.Name] = xs
			}
			data = data[4*n:]
		}
	}
	return out, nil
}

// useLayer is one transformer layer of the USE lite encoder, as much of it
// as a sequence of one token needs: with one position, attention gives
// every head's value vector back unchanged, so queries and keys drop out.
type useLayer struct {
	in, model         int       // input and model widths
	lnScale, lnBias   []float32 // layer norm before attention
	qkv, qkvBias      []float32 // in × 3·in, of which the last in columns make V
	out, outBias      []float32 // in × model
	resid, residBias  []float32 // in × model when in ≠ model, else nil
	ffnScale, ffnBias []float32 // layer norm before the feed-forward block
	ffn1, ffn1Bias    []float32 // model × 3·model
	ffn2, ffn2Bias    []float32 // 3·model × model
}

// matVec returns x·W + b for W of len(x) rows, stored row-major.
func matVec(x, w, b []float32) []float32 {
	cols := len(w) / len(x)
	y := make([]float64, cols)
	for i, xi := range x {
		row := w[i*cols : (i+1)*cols]
		for j, wij := range row {
			y[j] += float64(xi) * float64(wij)
		}
	}
	out := make([]float32, cols)
	for j := range out {
		out[j] = float32(y[j])
		if b != nil {
			out[j] += b[j]
		}
	}
	return out
}

// layerNorm returns (x - mean) / sqrt(var + 1e-6) · scale + bias, as the
// graph computes it.
func layerNorm(x, scale, bias []float32) []float32 {
	var mean, v float64
	for _, xi := range x {
		mean += float64(xi)
	}
	mean /= float64(len(x))
	for _, xi := range x {
		v += (float64(xi) - mean) * (float64(xi) - mean)
	}
	v /= float64(len(x))
	r := 1 / math.Sqrt(v+1e-6)
	out := make([]float32, len(x))
	for i, xi := range x {
		out[i] = float32((float64(xi)-mean)*r)*scale[i] + bias[i]
	}
	return out
}

func (l *useLayer) apply(x []float32) []float32 {
	h := layerNorm(x, l.lnScale, l.lnBias)
	qkv := matVec(h, l.qkv, l.qkvBias)
	v := qkv[2*l.in:]
	y := matVec(v, l.out, l.outBias)
	res := x
	if l.resid != nil {
		res = matVec(x, l.resid, l.residBias)
	}
	for i := range y {
		y[i] += res[i]
	}
	h = layerNorm(y, l.ffnScale, l.ffnBias)
	f := matVec(h, l.ffn1, l.ffn1Bias)
	for i := range f {
		f[i] = max(f[i], 0)
	}
	z := matVec(f, l.ffn2, l.ffn2Bias)
	for i := range z {
		z[i] += y[i]
	}
	return z
}

// useEncoder is the USE lite graph for one token.
type useEncoder struct {
	emb         []float32 // rows × 256
	invTimes    []float32 // 128 inverse timescales of the timing signal
	layers      [2]useLayer
	tanh, tanhB []float32
}

func newUSE(w map[string][]float32) (*useEncoder, error) {
	const (
		app   = "module_apply_default/Encoder_en/KonaTransformer/Encode/"
		mod   = "module/Encoder_en/KonaTransformer/Encode/"
		stack = app + "TransformerStack/"
	)
	var missing []string
	get := func(name string) []float32 {
		x, ok := w[name]
		if !ok {
			missing = append(missing, name)
		}
		return x
	}
	e := &useEncoder{
		emb:      get("module/Embeddings_en"),
		invTimes: get(stack + "Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1"),
		tanh:     get("module/Encoder_en/hidden_layers/tanh_layer_0/weights"),
		tanhB:    get("module/Encoder_en/hidden_layers/tanh_layer_0/bias"),
	}
	for i := range e.layers {
		l := &e.layers[i]
		p := fmt.Sprintf("Layer_%d/TransformerLayer/", i)
		l.in, l.model = 512, 512
		if i == 0 {
			l.in = 256
			l.resid = get(app + p + "dense/kernel/ConcatPartitions/concat")
			l.residBias = get(app + p + "dense/bias/ConcatPartitions/concat")
		}
		l.lnScale = get(app + p + "layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat")
		l.lnBias = get(app + p + "layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat")
		l.qkv = get(mod + p + "MultiheadAttention/qkv_transform_single/kernel/part_0")
		l.qkvBias = get(app + p + "MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat")
		l.out = get(mod + p + "MultiheadAttention/output_transform_single/kernel/part_0")
		l.outBias = get(app + p + "MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat")
		l.ffnScale = get(app + p + "FFN/layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat")
		l.ffnBias = get(app + p + "FFN/layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat")
		l.ffn1 = get(stack + p + "FFN/conv1/Tensordot/Reshape_1")
		l.ffn1Bias = get(app + p + "FFN/conv1/bias/ConcatPartitions/concat")
		l.ffn2 = get(stack + p + "FFN/conv2/Tensordot/Reshape_1")
		l.ffn2Bias = get(app + p + "FFN/conv2/bias/ConcatPartitions/concat")
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("weights missing: %s", strings.Join(missing, ", "))
	}
	if len(e.invTimes) != 128 || len(e.emb)%256 != 0 || len(e.layers[0].qkv) != 256*768 || len(e.layers[1].qkv) != 512*1536 {
		return nil, fmt.Errorf("unexpected weight shapes")
	}
	return e, nil
}

// encode returns the model's 512-float output for the sequence of the one
// piece id. The input to the first layer is, as in the graph, the embedding
// plus (embedding + timing signal); at position 0 the signal is sin(0) = 0
// for the first 128 floats and cos(0) = 1 for the last 128.
func (e *useEncoder) encode(id int) []float32 {
	x := make([]float32, 256)
	row := e.emb[id*256 : (id+1)*256]
	for j := range x {
		x[j] = 2 * row[j]
		if j >= 128 {
			x[j] += 1
		}
	}
	for i := range e.layers {
		x = e.layers[i].apply(x)
	}
	// Mean pooling over one position is the identity.
	y := matVec(x, e.tanh, e.tanhB)
	n := 0.0
	for i := range y {
		y[i] = float32(math.Tanh(float64(y[i])))
		n += float64(y[i]) * float64(y[i])
	}
	// The graph ends with an L2 normalisation (norm at least 1e-6).
	r := float32(1 / math.Sqrt(max(n, 1e-12)))
	for i := range y {
		y[i] *= r
	}
	return y
}

// buildUSE distils the USE lite model: one vector per usable piece.
// Pieces differing only in case are merged into the lowercase one (the
// vector of the most probable spelling, the probabilities added), as the
// tokenizer of package embed lowercases.
func buildUSE(files map[string][]byte, o options) (*embed.Table, error) {
	const dir = "dist/"
	w, err := weights(files, dir)
	if err != nil {
		return nil, err
	}
	enc, err := newUSE(w)
	if err != nil {
		return nil, err
	}
	var vocab [][2]any // [piece, score or null]
	if err := json.Unmarshal(files[dir+"vocab.json"], &vocab); err != nil {
		return nil, fmt.Errorf("vocab.json: %w", err)
	}
	t := &embed.Table{Header: embed.Header{Kind: embed.KindPieces}}
	var width int
	switch o.layers {
	case "input":
		width = 256
	case "output":
		width = 512
	case "both":
		width = 256 + 512
	default:
		return nil, fmt.Errorf("-layers %q: want input, output or both", o.layers)
	}
	// Encoding is the slow part (about 40 GFLOP): spread it over the cores.
	// Each piece's vector depends on that piece alone, so the result does
	// not depend on the schedule.
	vecs := make([][]float64, len(vocab))
	var g sync.WaitGroup
	work := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		g.Go(func() {
			for id := range work {
				v := make([]float64, 0, width)
				if o.layers != "output" {
					v = appendUnit(v, enc.emb[id*256:(id+1)*256])
				}
				if o.layers != "input" {
					v = appendUnit(v, enc.encode(id))
				}
				vecs[id] = v
			}
		})
	}
	for id := range vocab {
		work <- id
	}
	close(work)
	g.Wait()
	index := map[string]int{}
	var kept [][]float64
	for id, entry := range vocab {
		piece, _ := entry[0].(string)
		score, ok := entry[1].(float64)
		if !ok || score == 0 { // control and unknown pieces
			continue
		}
		word, start := strings.CutPrefix(piece, embed.PieceMark)
		word = strings.ToLower(word)
		if !usable(word) {
			continue
		}
		if start {
			word = embed.PieceMark + word
		}
		p := float32(math.Exp(score))
		if i, ok := index[word]; ok {
			t.Probs[i] += p
			continue
		}
		index[word] = len(t.Tokens)
		t.Tokens = append(t.Tokens, word)
		t.Probs = append(t.Probs, p)
		kept = append(kept, vecs[id])
	}
	t.Dim = width
	if o.dim > 0 && o.dim < width {
		kept = pca(kept, o.dim)
		t.Dim = o.dim
	}
	for _, v := range kept {
		f := make([]float32, len(v))
		for j, x := range v {
			f[j] = float32(x)
		}
		quantise(t, f)
	}
	t.Name = fmt.Sprintf("use-lite-static-%s-%dd-sif-int8/1", o.layers, t.Dim)
	t.Notes = "static distillation of the Universal Sentence Encoder lite: for each SentencePiece piece, " +
		map[string]string{
			"input":  "its input embedding",
			"output": "the model's output for the piece alone",
			"both":   "its input embedding and the model's output for the piece alone, each unit length, concatenated",
		}[o.layers]
	if t.Dim < width {
		t.Notes += fmt.Sprintf("; reduced by PCA to %d dimensions", t.Dim)
	}
	return t, nil
}

// appendUnit appends x scaled to unit length.
func appendUnit(v []float64, x []float32) []float64 {
	var n float64
	for _, xi := range x {
		n += float64(xi) * float64(xi)
	}
	r := 0.0
	if n > 0 {
		r = 1 / math.Sqrt(n)
	}
	for _, xi := range x {
		v = append(v, float64(xi)*r)
	}
	return v
}
