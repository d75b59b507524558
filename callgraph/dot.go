package callgraph

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/dominikbraun/graph"
	"github.com/dominikbraun/graph/draw"
)

// certainty ranks resolutions for drawing, most certain first: an edge
// between two nodes is drawn in the style of its most certain call site.
var certainty = map[Resolution]int{Local: 0, Import: 0, Receiver: 0, Constructor: 0, Inherited: 0, Macro: 0, Interface: 1, Name: 2}

// edgeStyle is the DOT style of each certainty rank: solid for a call the
// code names, dashed for dispatch through an interface, dotted for a guess
// by the only symbol with that name.
var edgeStyle = [...]string{"solid", "dashed", "dotted"}

// directed returns s as a dominikbraun graph keyed by SymbolID, for its
// algorithms and its DOT writer. A node carries the attributes label
// ("qualified\nfile:line", DOT-escaped) and shape; the seeds (Depth 0)
// are filled when there are nodes beyond them. The call sites between two
// nodes become one edge: weight is their count, label their distinct
// resolutions in first-seen order, and style follows the most certain of
// them. It stays unexported so no third-party type leaves the package. Do
// not hand it to graph.StronglyConnectedComponents: v0.23.0 drops the
// component of the vertex keyed 0 (see expectCalleeFirst); use
// CalleeFirst.
func (s *Subgraph) directed() (graph.Graph[SymbolID, SymbolID], error) {
	d := graph.New(func(id SymbolID) SymbolID { return id }, graph.Directed())
	fill := slices.ContainsFunc(s.Depth, func(k int) bool { return k > 0 })
	for i, id := range s.Nodes {
		n := s.Graph.Node(id)
		attrs := map[string]string{
			"label": dotEscape(n.Qualified) + `\n` + dotEscape(n.File+":"+strconv.Itoa(n.Line)),
			"shape": "box",
		}
		if fill && s.Depth[i] == 0 {
			attrs["style"], attrs["fillcolor"] = "filled", "lightgrey"
		}
		if err := d.AddVertex(id, graph.VertexAttributes(attrs)); err != nil {
			return nil, fmt.Errorf("add node %d: %w", id, err)
		}
	}
	type pair struct{ a, b SymbolID }
	type sites struct {
		hows       []string
		rank, size int
	}
	var pairs []pair
	by := map[pair]*sites{}
	for _, e := range s.Edges {
		p := pair{e.Caller, e.Callee}
		c := by[p]
		if c == nil {
			c = &sites{rank: len(edgeStyle) - 1}
			by[p] = c
			pairs = append(pairs, p)
		}
		c.size++
		if !slices.Contains(c.hows, string(e.Resolution)) {
			c.hows = append(c.hows, string(e.Resolution))
		}
		if r, ok := certainty[e.Resolution]; ok && r < c.rank {
			c.rank = r
		}
	}
	for _, p := range pairs {
		c := by[p]
		if err := d.AddEdge(p.a, p.b, graph.EdgeWeight(c.size), graph.EdgeAttributes(map[string]string{
			"label": dotEscape(strings.Join(c.hows, ",")),
			"style": edgeStyle[c.rank],
		})); err != nil {
			return nil, fmt.Errorf("add edge %d -> %d: %w", p.a, p.b, err)
		}
	}
	return d, nil
}

// WriteDOT writes s in the DOT language through dominikbraun/graph's
// draw.DOT, with the attributes described at directed. Node names are
// SymbolIDs. draw.DOT walks Go maps, so its statement order changes from
// run to run; WriteDOT sorts the statements — each node, then its edges by
// callee, in ID order — so equal subgraphs give equal bytes.
func (s *Subgraph) WriteDOT(w io.Writer) error {
	d, err := s.directed()
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := draw.DOT(d, &buf); err != nil {
		return fmt.Errorf("draw DOT: %w", err)
	}
	type stmt struct {
		from, to int64 // to is -1 for a node statement
		line     []byte
	}
	var head, stmts = [][]byte{}, []stmt{}
	var tail [][]byte
	for _, line := range bytes.Split(buf.Bytes(), []byte("\n")) {
		trimmed := bytes.TrimSpace(line)
		switch {
		case len(trimmed) == 0:
		case trimmed[0] == '"':
			from, to, ok := stmtIDs(trimmed)
			if !ok {
				return fmt.Errorf("draw DOT: unexpected statement %q", trimmed)
			}
			stmts = append(stmts, stmt{from, to, trimmed})
		case len(stmts) == 0 && trimmed[0] != '}':
			head = append(head, trimmed)
		default:
			tail = append(tail, trimmed)
		}
	}
	slices.SortFunc(stmts, func(a, b stmt) int {
		return cmp.Or(cmp.Compare(a.from, b.from), cmp.Compare(a.to, b.to))
	})
	var out bytes.Buffer
	for i, l := range head {
		if i > 0 {
			out.WriteByte('\t')
		}
		out.Write(l)
		out.WriteByte('\n')
	}
	for _, st := range stmts {
		out.WriteByte('\t')
		out.Write(st.line)
		out.WriteByte('\n')
	}
	for _, l := range tail {
		out.Write(l)
		out.WriteByte('\n')
	}
	_, err = w.Write(out.Bytes())
	return err
}

// stmtIDs parses the node names of a draw.DOT statement line: `"1" [...]`
// or `"1" -> "2" [...]`.
func stmtIDs(line []byte) (from, to int64, ok bool) {
	name := func(b []byte) (int64, []byte, bool) {
		if len(b) == 0 || b[0] != '"' {
			return 0, nil, false
		}
		end := bytes.IndexByte(b[1:], '"')
		if end < 0 {
			return 0, nil, false
		}
		v, err := strconv.ParseInt(string(b[1:1+end]), 10, 64)
		return v, b[2+end:], err == nil
	}
	from, rest, ok := name(line)
	if !ok {
		return 0, 0, false
	}
	if r, isEdge := bytes.CutPrefix(bytes.TrimSpace(rest), []byte("->")); isEdge {
		to, _, ok = name(bytes.TrimSpace(r))
		return from, to, ok
	}
	return from, -1, true
}

// dotEscape quotes s for a double-quoted DOT string: draw.DOT pastes
// attribute values between quotes as they are.
func dotEscape(s string) string { return dotEscaper.Replace(s) }

var dotEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
