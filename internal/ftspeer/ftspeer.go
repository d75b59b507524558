// Package ftspeer ranks documents with SQLite FTS5, the lexical peer that
// fileinfo's search benchmarks measure themselves against in the same run.
//
// It runs python3's sqlite3 module (FTS5 with the porter and unicode61
// tokenizers, ordered by bm25) on an embedded script, so the peer needs no
// cgo SQLite in the fileinfo binary. Documents go in as plain values; each
// query's top document IDs come out, with the peer's own timings.
package ftspeer

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"time"
)

//go:embed peer.py
var script string

// Doc is one retrievable unit: a page, a section or a function chunk.
// Title is its name (a function's qualified name, a page's title) and
// Path where it is; each is a column of its own, weighed by Weights.
type Doc struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Path  string `json:"path,omitempty"`
	Text  string `json:"text"`
}

// Weights are bm25's column weights: title, path and text. The zero
// value weighs every column 1, FTS5's default.
type Weights struct {
	Title, Path, Text float64
}

// CodeWeights are the peer's strongest weights for function chunks on
// the tuning split of docs/bench/codegen (see docs/code-search.md): a
// word of the name counts most, one of the path a little more than one
// of the body.
var CodeWeights = Weights{Title: 5, Path: 2, Text: 1}

// Result is the peer's ranking: IDs[i] holds query i's top document IDs,
// best first, at most k of them and never nil.
type Result struct {
	IDs        [][]string
	IndexTime  time.Duration
	QueryTimes []time.Duration
}

// ErrUnavailable reports that python3 or its FTS5 support is missing.
var ErrUnavailable = errors.New("ftspeer: python3 with sqlite3 FTS5 not found")

// Available reports whether the peer can run on this machine.
func Available() bool {
	_, err := exec.LookPath("python3")
	return err == nil
}

// Rank indexes docs in an in-memory FTS5 table and runs every query
// against it, each query's words OR-ed so FTS5's syntax never applies.
func Rank(ctx context.Context, docs []Doc, queries []string, k int) (Result, error) {
	return RankWeighted(ctx, docs, queries, k, Weights{})
}

// RankWeighted is Rank with bm25's column weights w. Identifiers in a
// title are also split into their words ("registerBlueprint" is found by
// "register blueprint"), as the porter tokenizer alone would not.
func RankWeighted(ctx context.Context, docs []Doc, queries []string, k int, w Weights) (Result, error) {
	if w == (Weights{}) {
		w = Weights{1, 1, 1}
	}
	if k <= 0 {
		return Result{}, fmt.Errorf("ftspeer: k must be positive, got %d", k)
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		return Result{}, ErrUnavailable
	}
	in, err := json.Marshal(struct {
		Docs    []Doc      `json:"docs"`
		Queries []string   `json:"queries"`
		K       int        `json:"k"`
		Weights [3]float64 `json:"weights"`
	}{docs, queries, k, [3]float64{w.Title, w.Path, w.Text}})
	if err != nil {
		return Result{}, fmt.Errorf("ftspeer: encode request: %w", err)
	}
	cmd := exec.CommandContext(ctx, py, "-c", script)
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return Result{}, fmt.Errorf("ftspeer: python3: %w: %s", err, bytes.TrimSpace(stderr.Bytes()))
	}
	var out struct {
		Results [][]string `json:"results"`
		IndexMS float64    `json:"index_ms"`
		QueryMS []float64  `json:"query_ms"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return Result{}, fmt.Errorf("ftspeer: decode answer: %w", err)
	}
	if len(out.Results) != len(queries) {
		return Result{}, fmt.Errorf("ftspeer: %d rankings for %d queries", len(out.Results), len(queries))
	}
	res := Result{IDs: out.Results, IndexTime: ms(out.IndexMS)}
	for i, ids := range res.IDs {
		if ids == nil {
			res.IDs[i] = []string{}
		}
	}
	for _, q := range out.QueryMS {
		res.QueryTimes = append(res.QueryTimes, ms(q))
	}
	return res, nil
}

func ms(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }
