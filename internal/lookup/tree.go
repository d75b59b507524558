package lookup

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// Static is a Graph over saved nodes and edges.
type Static struct {
	nodes   []callgraph.Node
	edges   []callgraph.Edge
	in, out [][]int32 // edge indexes by callee, by caller
}

// NewStatic returns the graph of nodes and edges; edges must refer to
// nodes by index.
func NewStatic(nodes []callgraph.Node, edges []callgraph.Edge) *Static {
	s := &Static{nodes: nodes, edges: edges, in: make([][]int32, len(nodes)), out: make([][]int32, len(nodes))}
	for i, e := range edges {
		if int(e.Caller) < len(nodes) && int(e.Callee) < len(nodes) {
			s.out[e.Caller] = append(s.out[e.Caller], int32(i))
			s.in[e.Callee] = append(s.in[e.Callee], int32(i))
		}
	}
	return s
}

func (s *Static) Len() int                                  { return len(s.nodes) }
func (s *Static) Node(id callgraph.SymbolID) callgraph.Node { return s.nodes[id] }
func (s *Static) Callers(id callgraph.SymbolID) []callgraph.Edge {
	return s.collect(s.in[id])
}
func (s *Static) Callees(id callgraph.SymbolID) []callgraph.Edge {
	return s.collect(s.out[id])
}

func (s *Static) collect(idx []int32) []callgraph.Edge {
	out := make([]callgraph.Edge, len(idx))
	for i, e := range idx {
		out[i] = s.edges[e]
	}
	return out
}

// Row is one call of a call tree: at Depth 1 a direct caller (or
// callee) of the root, at Depth 2 one of that, and so on.
type Row struct {
	Depth int `json:"depth"`
	// Symbol is the caller (for callers) or the callee (for callees),
	// with its definition.
	Symbol string `json:"symbol"`
	Kind   string `json:"kind"`
	Path   string `json:"path"`
	Line   int    `json:"line"`
	// Site is the call's file:line, Resolution how the graph resolved it.
	Site       string `json:"site"`
	Resolution string `json:"resolution"`
	// In names the anonymous function outside named functions (a place:
	// extract.Place) that a caller's call is made in: the caller is the
	// module's or a type's code, and this says where ("rootCmd.Run",
	// "<callback of get('/users')>"). Set by NamePlaces.
	In string `json:"in,omitempty"`
	// Repeat is set when the symbol's own calls are not expanded here:
	// "recursive" (it is on the path already) or "above" (listed earlier).
	Repeat string `json:"repeat,omitempty"`
	// Guess marks a call the graph resolved by name only (a method of
	// that name exists, the receiver's type is unknown): a possible
	// caller or callee, not a fact. Guesses follow the facts of their
	// level, at most MaxGuesses of them, and are not expanded;
	// MoreGuesses, on the last one listed, counts those left out.
	Guess       bool `json:"guess,omitempty"`
	MoreGuesses int  `json:"more_guesses,omitempty"`
}

// MaxRows bounds a tree: a call tree of a hub grows fast with depth.
const MaxRows = 5000

// MaxGuesses caps the calls resolved by name only that a tree lists
// under one symbol.
const MaxGuesses = 5

// Tree returns the calls into (callers) or out of (callees) root, depth
// levels deep, depth first in edge order: under each symbol, the calls
// the graph resolved, then apart those it resolved by name only (Guess),
// at most MaxGuesses and never expanded. A symbol met again is listed but
// not expanded again. truncated is set when MaxRows cut the tree.
func (ix *Index) Tree(root []callgraph.SymbolID, callers bool, depth int) (rows []Row, truncated bool) {
	expanded := map[callgraph.SymbolID]bool{}
	onPath := map[callgraph.SymbolID]bool{}
	for _, id := range root {
		onPath[id], expanded[id] = true, true
	}
	var walk func(id callgraph.SymbolID, level int)
	walk = func(id callgraph.SymbolID, level int) {
		var edges []callgraph.Edge
		if callers {
			edges = ix.g.Callers(id)
		} else {
			edges = ix.g.Callees(id)
		}
		sort.SliceStable(edges, func(i, j int) bool {
			gi, gj := edges[i].Resolution == callgraph.Name, edges[j].Resolution == callgraph.Name
			if gi != gj {
				return gj // facts first
			}
			if edges[i].File != edges[j].File {
				return edges[i].File < edges[j].File
			}
			return edges[i].Line < edges[j].Line
		})
		guesses := 0
		for i, e := range edges {
			if len(rows) >= MaxRows {
				truncated = true
				return
			}
			other := e.Callee
			if callers {
				other = e.Caller
			}
			n := ix.g.Node(other)
			r := Row{Depth: level, Symbol: n.Qualified, Kind: string(n.Kind), Path: n.File, Line: n.Line,
				Site: fmt.Sprintf("%s:%d", e.File, e.Line), Resolution: string(e.Resolution)}
			if e.Resolution == callgraph.Name {
				if guesses == MaxGuesses {
					rows[len(rows)-1].MoreGuesses = len(edges) - i
					break
				}
				guesses++
				r.Guess = true
				rows = append(rows, r)
				continue
			}
			switch {
			case onPath[other]:
				r.Repeat = "recursive"
			case expanded[other] && level < depth:
				r.Repeat = "above"
			}
			rows = append(rows, r)
			if r.Repeat == "" && level < depth {
				expanded[other], onPath[other] = true, true
				walk(other, level+1)
				delete(onPath, other)
			}
		}
	}
	for _, id := range root {
		walk(id, 1)
	}
	return rows, truncated
}

// Text renders r as one line of an indented tree: "<- caller (site)
// [resolution]" for a caller ("<- caller, in place (site) ..." for a call
// made in a place), "-> callee (site) [resolution] def
// path:line" for a callee (a caller's definition is in the site's file).
// A guess reads "<? possible caller (site) [name: by name only,
// unverified]" ("?> possible callee ..."), the last one listed "(and N
// more by name only)" when MaxGuesses cut them.
func (r Row) Text(callers bool) string {
	how, arrowIn, arrowOut, what := r.Resolution, "<-", "->", ""
	if r.Guess || how == string(callgraph.Name) {
		// The receiver's type is unknown: another method of that name
		// may be the one called.
		how, arrowIn, arrowOut, what = how+": by name only, unverified", "<?", "?>", "possible "
	}
	sym := r.Symbol
	if r.In != "" {
		sym += ", in " + r.In
	}
	s := fmt.Sprintf("%*s%s %s%s (%s) [%s]", 2*r.Depth, "", arrowIn, what, sym, r.Site, how)
	if !callers {
		s = fmt.Sprintf("%*s%s %s%s (%s) [%s] def %s:%d", 2*r.Depth, "", arrowOut, what, r.Symbol, r.Site, how, r.Path, r.Line)
	}
	if r.MoreGuesses > 0 {
		s += fmt.Sprintf(" (and %d more by name only)", r.MoreGuesses)
	}
	switch r.Repeat {
	case "recursive":
		s += " (recursive)"
	case "above":
		s += " (see above)"
	}
	return s
}

// Text renders s as one line: "qualified (kind) path:line-end  signature".
func (s Symbol) Text() string {
	out := fmt.Sprintf("%s (%s) %s:%d-%d", s.Qualified, s.Kind, s.Path, s.Line, s.EndLine)
	if s.Via != "" {
		out += " via " + s.Via
	}
	if s.Signature != "" {
		out += "\n    " + s.Signature
	}
	if s.Doc != "" {
		out += "\n    " + s.Doc
	}
	return out
}

// NamePlaces sets In of each caller row whose call is made in a place of
// its file, by places (the places of a file; nil for one it does not
// know): a row of a caller that is not a function or method, since a
// call in a place is its module's or type's. The place is named under
// the caller ("rootCmd.Run" under package example.com/cmd).
func NamePlaces(rows []Row, places func(file string) []extract.Place) {
	for i := range rows {
		r := &rows[i]
		if r.Kind == string(extract.KindFunction) || r.Kind == string(extract.KindMethod) {
			continue
		}
		at := strings.LastIndexByte(r.Site, ':')
		if at < 0 {
			continue
		}
		line, err := strconv.Atoi(r.Site[at+1:])
		if err != nil {
			continue
		}
		pl, ok := extract.PlaceAt(places(r.Site[:at]), line)
		if !ok {
			continue
		}
		r.In = pl.Name
		if rest, ok := strings.CutPrefix(pl.Qualified, r.Symbol+"."); ok {
			r.In = rest
		}
	}
}
