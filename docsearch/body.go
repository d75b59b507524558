package docsearch

import (
	"context"
	"strings"
)

// A code chunk's vector is embedded from its name, signature, doc
// comment and body together, so a documented function whose doc
// sentence reads like the query is close to it by its doc alone, and an
// undocumented one is judged by its code alone: the two do not meet on
// equal terms. The body feature (featBody) compares the query with what
// a function does, whatever its doc says: the cosine between the query's
// vector and a vector of the candidate's name, signature, body and calls
// without its doc comment or enriched prose, embedded at query time for
// the first bodyWindow code candidates (nothing more is stored).

// bodyWindow is how many of the first code candidates get a body vector:
// the feature's cost, one embedding of at most maxBodyText bytes each.
const bodyWindow = codeWindow

// maxBodyText bounds the text embedded for one candidate.
const maxBodyText = maxCodeBody + 512

// bodyText returns the words of what a code document's symbol does: its
// name as embedded (embedName), its signature, and its text past the
// lines naming it and its place (codeBody) less the doc comment and the
// enriched Purpose and Implementation that come before the body. The
// body starts at the first line that begins as the signature does (the
// declaration's own first line: "def run(", "func (c *Command)
// Execute() error {") or at a class's "members:" line (declLine); a
// text without such a line is taken whole, doc comment and all. Over the
// 12,730 documented symbols of the code benchmarks' repositories
// (docs/bench/codegen and docs/bench/code) 192 keep their doc this way,
// most of them JavaScript callbacks whose signature is "() =>".
func bodyText(title, text string) string {
	_, sig := codeMeta(text)
	rest := codeBody(text)
	if start := bodyStart(rest, strings.TrimSpace(sig), localName(title)); start > 0 {
		rest = rest[start:]
	}
	name := embedName(title)
	n := min(len(rest), max(maxBodyText-len(name)-len(sig)-2, 0))
	return name + "\n" + sig + "\n" + cutAt(rest, n)
}

// bodyStart returns the byte offset in rest of the line where a symbol's
// source starts (see bodyText), or 0 when none does.
func bodyStart(rest, sig, name string) int {
	if sig == "" {
		return 0
	}
	// A line is compared only when it holds the name, or for a function
	// named by its place, the signature's first bytes: most are not.
	key := name
	if strings.HasPrefix(name, "<") || name == "" {
		key = sig[:min(len(sig), 4)]
	}
	var fields string
	for off := 0; off < len(rest); {
		line := rest[off:]
		end := strings.IndexByte(line, '\n')
		if end >= 0 {
			line = line[:end]
		}
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "members: ") {
			return off
		}
		if strings.Contains(t, key) {
			if fields == "" {
				fields = strings.Join(strings.Fields(sig), " ")
			}
			if declLine(strings.Join(strings.Fields(t), " "), fields, name) {
				return off
			}
		}
		if end < 0 {
			break
		}
		off += end + 1
	}
	return 0
}

// declLine reports whether the source line t (its white space runs
// single spaces, as sig's are) declares the symbol of signature sig: it
// starts with sig; or it is the start of sig, 6 bytes or more, holding
// the symbol's name (a Python def whose parameters continue on the next
// lines); or, for a signature of 8 bytes or more, it holds sig (a
// JavaScript function expression: "var f = cond ? noop : function(a)
// {", "list.forEach((x, i) => {").
func declLine(t, sig, name string) bool {
	switch {
	case strings.HasPrefix(t, sig):
		return true
	case len(t) >= 6 && strings.HasPrefix(sig, t):
		return strings.HasPrefix(name, "<") || strings.Contains(t, name)
	}
	return len(sig) >= 8 && strings.Contains(t, sig)
}

// bodyFeatures sets featBody of cands, the first code candidates of a
// query whose vector is qvec: for each function or method among the
// first bodyWindow, the cosine of qvec with its bodyText's vector less
// the mean cosine of those bodyWindow; 0 for any other kind and beyond
// the window, which no vector is made for. It leaves the features at 0
// when the index has no embedder or the embedder fails.
func (ix *Index) bodyFeatures(ctx context.Context, cands []codeCand, qvec []float32) {
	e := ix.opts.Embedder
	n := min(len(cands), bodyWindow)
	if e == nil || len(qvec) == 0 || n == 0 {
		return
	}
	texts := make([]string, n)
	for i := range n {
		texts[i] = bodyText(cands[i].d.title, cands[i].d.text)
	}
	vs, err := e.Embed(ctx, texts)
	if err != nil || len(vs) != n {
		return
	}
	cos := make([]float64, n)
	var mean float64
	for i, v := range vs {
		if len(v) != len(qvec) {
			return
		}
		normalize(v)
		var dot float64
		for j, x := range v {
			dot += float64(x) * float64(qvec[j])
		}
		cos[i] = dot
		mean += dot / float64(n)
	}
	for i := range n {
		if kind, _ := codeMeta(cands[i].d.text); callableKind(kind) {
			cands[i].f[featBody] = cos[i] - mean
		}
	}
}
