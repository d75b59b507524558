package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// loadGraph extracts the whole root and builds its call graph. skipped
// are the files left out, by extraction or by the graph, sorted by path;
// those left out for an internal error (a bug in fileinfo, recovered) are
// also written to stderr, so that no output format hides them.
func loadGraph(ctx context.Context, root string, stderr io.Writer) (g *callgraph.Graph, skipped []extract.Skipped, err error) {
	bar := newLoadProgress(stderr)
	progress, endFloor := bar.update, func() {}
	if batchGCSet {
		// Extraction's garbage is collected when the heap reaches the
		// size of what is read, the graph's at batchGCPercent.
		floor := newHeapFloor()
		progress = func(x extract.Progress) {
			bar.update(x)
			floor.raise(uint64(float64(x.Size) * extractionHeapShare))
		}
		endFloor = floor.end
	}
	defer endFloor()
	ex, err := extract.New(root, extract.Options{Progress: progress})
	if err != nil {
		return nil, nil, err
	}
	defer ex.Close()
	files, skipped, err := ex.All(ctx)
	bar.finish()
	endFloor()
	if err != nil {
		return nil, nil, err
	}
	ex.Close() // the parsers' memory, before the graph's grows
	g = callgraph.Build(files)
	skipped = append(skipped, g.Skipped()...)
	sort.SliceStable(skipped, func(i, j int) bool { return skipped[i].Path < skipped[j].Path })
	for _, s := range skipped {
		if strings.Contains(s.Reason, "internal error") {
			fmt.Fprintf(stderr, "fileinfo: skipped %s: %s\n", s.Path, s.Reason)
		}
	}
	return g, skipped, nil
}

func runCallgraph(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("callgraph", "[DIR]", stderr)
	root := fs.String("root", ".", "workspace root `dir`")
	format := fs.String("format", "json", "output `format`: json, pycg, dot or mermaid")
	symbol := fs.String("symbol", "", "print only the neighbourhood of `SYMBOL` (a qualified name or path:Name)")
	depth := intFlag(fs, "depth", 2, callgraphDepth, "with --symbol, the `levels` of calls to follow")
	direction := fs.String("direction", "both", "with --symbol, `which` calls to follow: callers, callees or both")
	prof := profileFlags(fs)
	// The PyCG scorer appends the case directory as the last argument.
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if err := rootArg(fs, root, pos); err != nil {
		return err
	}
	write, ok := map[string]func(io.Writer, *callgraph.Graph, *callgraph.Subgraph, []extract.Skipped) error{
		"json": writeGraphJSON, "pycg": writePyCG, "dot": writeDOT, "mermaid": writeMermaid,
	}[*format]
	if !ok {
		fmt.Fprintf(stderr, "fileinfo callgraph: unknown format %q (json, pycg, dot, mermaid)\n", *format)
		return errUsage
	}
	dir, err := neighbourhoodFlags(fs, *symbol, *depth, *direction, *format)
	if err != nil {
		fmt.Fprintf(stderr, "fileinfo callgraph: %v\n", err)
		return errUsage
	}
	stop, err := prof.start()
	if err != nil {
		return err
	}
	defer stop()
	load := loadGraph
	if *symbol != "" {
		load = loadSavedGraph // a neighbourhood is a lookup: read the saved extraction
	}
	g, skipped, err := load(ctx, *root, stderr)
	if err != nil {
		return err
	}
	if err := prof.heap(); err != nil { // the graph built, the output not yet begun
		return err
	}
	var sub *callgraph.Subgraph
	if *symbol != "" {
		ids, err := findSymbol(g, *symbol)
		if err != nil {
			return err
		}
		sub = g.Neighbourhood(ids, *depth, dir)
	}
	w := bufio.NewWriterSize(stdout, 1<<16)
	if err := write(w, g, sub, skipped); err != nil {
		return err
	}
	return w.Flush()
}

// neighbourhoodFlags checks --symbol, --depth and --direction together
// and returns the direction.
func neighbourhoodFlags(fs *flag.FlagSet, symbol string, depth int, direction, format string) (callgraph.Direction, error) {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	dir, ok := map[string]callgraph.Direction{"callers": callgraph.Backward, "callees": callgraph.Forward, "both": callgraph.Both}[direction]
	switch {
	case symbol == "" && (set["depth"] || set["direction"]):
		return 0, errors.New("--depth and --direction need --symbol")
	case !ok:
		return 0, fmt.Errorf("--direction %q: want callers, callees or both", direction)
	case symbol != "" && format == "pycg":
		return 0, errors.New("--symbol does not apply to pycg, which scores the whole program; use json, dot or mermaid")
	}
	return dir, nil
}

// withEdges returns the subgraph of g's nodes that have a call in or out:
// what dot and mermaid draw of the whole graph.
func withEdges(g *callgraph.Graph) *callgraph.Subgraph {
	var ids []callgraph.SymbolID
	for _, e := range g.Edges() {
		ids = append(ids, e.Caller, e.Callee)
	}
	return g.Subgraph(ids)
}

// jsonNode and jsonEdge are the shapes of the nodes and edges that
// writeGraphJSON writes with itemFlat; the tests encode them to check
// its bytes.
type jsonNode struct {
	ID        callgraph.SymbolID `json:"id"`
	Qualified string             `json:"qualified"`
	Kind      extract.Kind       `json:"kind"`
	File      string             `json:"file"`
	Line      int                `json:"line"`
}

type jsonEdge struct {
	Caller     string               `json:"caller"`
	Callee     string               `json:"callee"`
	File       string               `json:"file"`
	Line       int                  `json:"line"`
	Resolution callgraph.Resolution `json:"resolution"`
}

// writeGraphJSON prints sub's nodes and edges, and the unresolved calls
// out of its nodes, and the files the graph left out; a nil sub is the
// whole graph.
//
// It writes node by node and edge by edge, never holding the whole
// document: the output of a big repository's graph is hundreds of MB.
func writeGraphJSON(w io.Writer, g *callgraph.Graph, sub *callgraph.Subgraph, skipped []extract.Skipped) error {
	if skipped == nil {
		skipped = []extract.Skipped{}
	}
	out := newJSONObject(w)
	out.open("nodes")
	var in map[string]bool // the qualified names of sub's nodes; nil for the whole graph
	if sub == nil {
		for id := range g.Len() {
			n := g.Node(callgraph.SymbolID(id))
			out.itemFlat(intField("id", id), strField("qualified", n.Qualified), strField("kind", string(n.Kind)),
				strField("file", n.File), intField("line", n.Line))
		}
	} else {
		in = map[string]bool{}
		for _, id := range sub.Nodes {
			n := g.Node(id)
			in[n.Qualified] = true
			out.itemFlat(intField("id", int(id)), strField("qualified", n.Qualified), strField("kind", string(n.Kind)),
				strField("file", n.File), intField("line", n.Line))
		}
	}
	out.close()
	out.open("edges")
	item := func(e callgraph.Edge) {
		out.itemFlat(strField("caller", g.Node(e.Caller).Qualified), strField("callee", g.Node(e.Callee).Qualified),
			strField("file", e.File), intField("line", e.Line), strField("resolution", string(e.Resolution)))
	}
	if sub == nil { // in the order of Subgraph: by caller, then as Callees
		for id := range g.Len() {
			for _, e := range g.Callees(callgraph.SymbolID(id)) {
				item(e)
			}
		}
	} else {
		for _, e := range sub.Edges {
			item(e)
		}
	}
	out.close()
	out.open("unresolved")
	// File by file: g.Unresolved() would gather a copy of every
	// unresolved call (millions on the Linux kernel) just to print it.
	for _, p := range g.Files() {
		for _, u := range g.UnresolvedIn(p) {
			if in == nil || in[u.Caller] {
				out.itemFlat(strField("caller", u.Caller), strField("name", u.Name), strField("receiver", u.Receiver),
					strField("file", u.File), intField("line", u.Line), strField("reason", u.Reason))
			}
		}
	}
	out.close()
	out.field("skipped", skipped)
	return out.end()
}

// callable reports whether a node is a key of the PyCG format: modules,
// functions and methods.
func callable(n callgraph.Node) bool {
	return n.Kind == callgraph.KindModule || n.Kind == extract.KindFunction || n.Kind == extract.KindMethod
}

// writePyCG prints {"caller": ["callee", ...]}: every module, function and
// method a key; callees are functions and methods, sorted and unique. It
// is always the whole graph: runCallgraph refuses a subgraph.
func writePyCG(w io.Writer, g *callgraph.Graph, _ *callgraph.Subgraph, _ []extract.Skipped) error {
	out := map[string][]string{}
	names := pycgNames(g)
	ctors := outsideCtors{g: g, memo: map[callgraph.SymbolID][]string{}}
	name := func(q string) string {
		if n, ok := names[q]; ok {
			return n
		}
		return q
	}
	for id := range g.Len() {
		n := g.Node(callgraph.SymbolID(id))
		if !callable(n) {
			continue
		}
		if _, ok := out[name(n.Qualified)]; !ok {
			out[name(n.Qualified)] = []string{}
		}
		seen := map[string]bool{}
		for _, e := range g.Callees(callgraph.SymbolID(id)) {
			c := g.Node(e.Callee)
			if callable(c) && c.Kind != callgraph.KindModule && !seen[c.Qualified] {
				seen[c.Qualified] = true
				out[name(n.Qualified)] = append(out[name(n.Qualified)], name(c.Qualified))
			}
			for _, ext := range ctors.of(e.Callee) {
				if !seen[ext] {
					seen[ext] = true
					out[name(n.Qualified)] = append(out[name(n.Qualified)], ext)
				}
			}
		}
	}
	// Calls outside the repository and of builtins, named as PyCG
	// names them (pycgOutside).
	for _, u := range g.Unresolved() {
		caller := name(u.Caller)
		if _, known := out[caller]; !known {
			continue
		}
		for _, ext := range pycgOutside(g, u) {
			if !slices.Contains(out[caller], ext) {
				out[caller] = append(out[caller], ext)
			}
		}
	}
	for k := range out {
		sort.Strings(out[k])
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// writeDOT draws sub, or the nodes of g with calls, through
// Subgraph.WriteDOT.
func writeDOT(w io.Writer, g *callgraph.Graph, sub *callgraph.Subgraph, _ []extract.Skipped) error {
	if sub == nil {
		sub = withEdges(g)
	}
	return sub.WriteDOT(w)
}

// writeMermaid draws sub, or the nodes of g with calls, as a flowchart:
// node n<ID> labelled with its qualified name, one arrow per caller and
// callee labelled with the first call's resolution.
func writeMermaid(w io.Writer, g *callgraph.Graph, sub *callgraph.Subgraph, _ []extract.Skipped) error {
	if sub == nil {
		sub = withEdges(g)
	}
	fmt.Fprintln(w, "flowchart LR")
	for _, id := range sub.Nodes {
		fmt.Fprintf(w, "  n%d[\"%s\"]\n", id, strings.ReplaceAll(g.Node(id).Qualified, "\"", "#quot;"))
	}
	seen := map[[2]callgraph.SymbolID]bool{}
	for _, e := range sub.Edges {
		if k := [2]callgraph.SymbolID{e.Caller, e.Callee}; !seen[k] {
			seen[k] = true
			fmt.Fprintf(w, "  n%d -->|%s| n%d\n", e.Caller, mermaidLabel(e.Resolution), e.Callee)
		}
	}
	return nil
}

// mermaidLabel labels an arrow with its resolution; a guess says so.
func mermaidLabel(r callgraph.Resolution) string {
	if r == callgraph.Name {
		return "name (guess)"
	}
	return string(r)
}

// findSymbol resolves a qualified name, the end of one after a "." or
// "/", or "path:Name" (Name may be Class.method). Several matches are all
// returned only for overloads of one qualified name; otherwise the error
// lists the candidates. An unknown symbol's error lists the symbols of its
// file, or those it may have meant (see similar).
func findSymbol(g *callgraph.Graph, spec string) ([]callgraph.SymbolID, error) {
	if ids := g.Lookup(spec); len(ids) > 0 {
		return ids, nil
	}
	var cands []callgraph.SymbolID
	path, name, isPath := strings.Cut(spec, ":")
	if isPath {
		for _, id := range g.InFile(path) {
			n := g.Node(id)
			if n.Name == name || endsWith(n.Qualified, name) {
				cands = append(cands, id)
			}
		}
	} else {
		for id := range g.Len() {
			n := g.Node(callgraph.SymbolID(id))
			if n.Name == spec || endsWith(n.Qualified, spec) {
				cands = append(cands, callgraph.SymbolID(id))
			}
		}
	}
	qs := map[string]bool{}
	for _, id := range cands {
		qs[g.Node(id).Qualified] = true
	}
	switch {
	case len(cands) == 0 && isPath && len(g.InFile(path)) == 0:
		return nil, fmt.Errorf("no file %q in the graph; give a path relative to the root", path)
	case len(cands) == 0 && isPath:
		return nil, fmt.Errorf("no symbol %q in %s; known:\n%s", name, path, listNodes(g, g.InFile(path)))
	case len(cands) == 0:
		if like := similar(g, spec); len(like) > 0 {
			return nil, fmt.Errorf("no symbol %q; give a qualified name or path:Name; similar:\n%s", spec, listNodes(g, like))
		}
		return nil, fmt.Errorf("no symbol %q; give a qualified name or path:Name", spec)
	case len(qs) == 1:
		return cands, nil
	}
	return nil, fmt.Errorf("ambiguous symbol %s; candidates:\n%s", spec, listNodes(g, cands))
}

// endsWith reports whether the qualified name q ends with the partial
// name p at a "." or "/" boundary: "errgroup.Group.Go" names
// "golang.org/x/sync/errgroup.Group.Go".
func endsWith(q, p string) bool {
	return strings.HasSuffix(q, "."+p) || strings.HasSuffix(q, "/"+p)
}

// listNodes renders ids one per line as "  qualified (file:line)",
// sorted, the first 20 only.
func listNodes(g *callgraph.Graph, ids []callgraph.SymbolID) string {
	const most = 20
	var lines []string
	for _, id := range ids {
		n := g.Node(id)
		lines = append(lines, fmt.Sprintf("  %s (%s:%d)", n.Qualified, n.File, n.Line))
	}
	sort.Strings(lines)
	if len(lines) > most {
		lines = append(lines[:most], fmt.Sprintf("  ... and %d more", len(lines)-most))
	}
	return strings.Join(lines, "\n")
}

// similar returns the nodes a mistyped qualified name may have meant:
// those whose name contains its last part, and the other members of its
// parent (what comes before the last "." or "/", matched as a suffix of
// the members' parent so "errgroup.Gooo" finds errgroup's functions).
func similar(g *callgraph.Graph, spec string) []callgraph.SymbolID {
	cut := strings.LastIndexAny(spec, "./")
	last, parent := strings.ToLower(spec[cut+1:]), spec[:cut+1]
	var out []callgraph.SymbolID
	for id := range g.Len() {
		n := g.Node(callgraph.SymbolID(id))
		np := n.Qualified[:strings.LastIndexAny(n.Qualified, "./")+1]
		inParent := parent != "" && strings.HasSuffix(np, parent) &&
			(len(np) == len(parent) || strings.ContainsRune("./", rune(np[len(np)-len(parent)-1])))
		if inParent || last != "" && strings.Contains(strings.ToLower(n.Name), last) {
			out = append(out, callgraph.SymbolID(id))
		}
	}
	return out
}
