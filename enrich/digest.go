package enrich

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// Digests say what an artifact's prose was written from, symbol by
// symbol, so that after an edit only the symbols that changed are asked
// about again. Source maps a symbol's qualified name (as the record names
// it) to a digest of its own source: its signature, doc comment and the
// lines it spans that no symbol nested in it spans; the key "" is the
// file's lines outside every symbol (imports, top-level code), which the
// overview describes. Callers maps a callable's qualified name to a
// digest of who calls it (caller and file, not line, which moves with
// unrelated edits). Digests are kept in the artifact's record.
type Digests struct {
	Source  map[string]string `json:"source,omitempty"`
	Callers map[string]string `json:"callers,omitempty"`
}

// fileLevel is the key of the lines outside every symbol.
const fileLevel = ""

// Empty reports whether d holds no source digest: an artifact written
// before digests were kept.
func (d Digests) Empty() bool { return len(d.Source) == 0 }

// SymbolDigests returns the digests of f's symbols now, for its source
// src; g (nil for none) gives the callers.
func SymbolDigests(f *extract.File, g Graph, src []byte) Digests {
	fs := newFacts(f, g)
	return fs.digests(sourceLines(src))
}

// digests computes Digests over the file's display lines.
func (fs *facts) digests(lines []string) Digests {
	d := Digests{Source: map[string]string{}, Callers: map[string]string{}}
	// owner[l] is the innermost symbol spanning line l+1, or -1. Symbols
	// in order of start, outer before inner, overwrite: the work is the
	// sum of the spans, a few times the file for real nesting depths.
	owner := make([]int32, len(lines))
	for i := range owner {
		owner[i] = -1
	}
	order := make([]int, len(fs.syms))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		sa, sb := fs.syms[a], fs.syms[b]
		return cmp.Or(cmp.Compare(sa.StartLine, sb.StartLine), cmp.Compare(sb.EndLine, sa.EndLine))
	})
	for _, i := range order {
		s := fs.syms[i]
		for l := max(s.StartLine, 1); l <= min(max(s.EndLine, s.StartLine), len(lines)); l++ {
			owner[l-1] = int32(i)
		}
	}
	hashes := make([]hashState, len(fs.syms)+1) // the last one: the file level
	for l, o := range owner {
		h := &hashes[len(fs.syms)]
		if o >= 0 {
			h = &hashes[o]
		}
		if o < 0 && strings.TrimSpace(lines[l]) == "" {
			continue // blank lines between symbols change nothing
		}
		h.add(lines[l])
	}
	for i := range fs.syms {
		s := &fs.syms[i]
		if s.role == roleContainer {
			continue
		}
		h := &hashes[i]
		h.add("\x00" + s.Signature + "\x00" + s.Doc)
		d.Source[s.Qualified] = h.sum()
		if s.role == roleCallable && s.hasNode {
			d.Callers[s.Qualified] = fs.callersDigest(s)
		}
	}
	d.Source[fileLevel] = hashes[len(fs.syms)].sum()
	return d
}

// callersDigest digests who calls s: each caller's qualified name and
// file, sorted, without lines.
func (fs *facts) callersDigest(s *symbol) string {
	var keys []string
	for _, e := range fs.g.Callers(s.node) {
		keys = append(keys, fs.g.Node(e.Caller).Qualified+" ("+e.File+")")
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	var h hashState
	for _, k := range keys {
		h.add(k)
	}
	return h.sum()
}

// hashState digests lines, each ended by a newline.
type hashState struct{ b []byte }

func (h *hashState) add(line string) { h.b = append(append(h.b, line...), '\n') }

// sum is the first 16 hex digits of the SHA-256 of what was added:
// enough to tell two versions of one symbol apart.
func (h *hashState) sum() string {
	s := sha256.Sum256(h.b)
	return hex.EncodeToString(s[:8])
}

// Changes is what changed in a file since its artifact's prose was
// written, by the digests recorded then and now.
type Changes struct {
	// Source are the local names of the symbols whose own source changed
	// or that are new, in line order.
	Source []string
	// Callers are those whose source is the same but whose callers
	// changed.
	Callers []string
	// FileLevel says the lines outside every symbol changed.
	FileLevel bool
}

// None reports whether nothing the prose describes changed.
func (c Changes) None() bool { return len(c.Source) == 0 && len(c.Callers) == 0 && !c.FileLevel }

// Compare returns what changed in f between the digests then (from the
// record) and now.
func Compare(f *extract.File, then, now Digests) Changes {
	fs := newFacts(f, nil)
	var c Changes
	for _, s := range fs.syms {
		q := s.Qualified
		cur, ok := now.Source[q]
		if !ok {
			continue
		}
		switch {
		case then.Source[q] != cur:
			c.Source = append(c.Source, s.local)
		case then.Callers[q] != now.Callers[q]:
			c.Callers = append(c.Callers, s.local)
		}
	}
	c.FileLevel = then.Source[fileLevel] != now.Source[fileLevel]
	return c
}

// Stamp returns the digests to record with the prose merged from prev and
// r: a symbol r documents, or that had none recorded, is stamped with
// its source digest now; the others keep the one recorded with their
// prose, so that a symbol asked about and left out stays changed. The
// file level is stamped now when r gives an overview. Callers are always
// stamped now: the artifact lists them from the graph, not from prose.
func Stamp(f *extract.File, g Graph, src []byte, prev Digests, r *Report) Digests {
	fs := newFacts(f, g)
	now := fs.digests(sourceLines(src))
	if prev.Empty() || r == nil {
		return now
	}
	documented, _ := resolve(r, fs)
	for q := range now.Source {
		if q == fileLevel {
			if blank(r.Overview) {
				if old, ok := prev.Source[q]; ok {
					now.Source[q] = old
				}
			}
			continue
		}
		if d, ok := documented[q]; ok && !d.empty() {
			continue
		}
		if old, ok := prev.Source[q]; ok {
			now.Source[q] = old
		}
	}
	return now
}
