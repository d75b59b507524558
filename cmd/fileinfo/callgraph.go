package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// loadGraph extracts the whole root and builds its call graph.
func loadGraph(ctx context.Context, root string) (*callgraph.Graph, error) {
	ex, err := extract.New(root, extract.Options{})
	if err != nil {
		return nil, err
	}
	defer ex.Close()
	files, _, err := ex.All(ctx)
	if err != nil {
		return nil, err
	}
	return callgraph.Build(files), nil
}

func runCallgraph(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("callgraph", "", stderr)
	root := fs.String("root", ".", "workspace root `dir`")
	format := fs.String("format", "json", "output `format`: json, pycg, dot or mermaid")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	// The PyCG scorer appends the case directory as the last argument.
	if fs.NArg() == 1 {
		*root = fs.Arg(0)
	} else if fs.NArg() > 1 {
		fmt.Fprintln(stderr, "fileinfo callgraph: at most one directory argument")
		return errUsage
	}
	write, ok := map[string]func(io.Writer, *callgraph.Graph) error{
		"json": writeGraphJSON, "pycg": writePyCG, "dot": writeDOT, "mermaid": writeMermaid,
	}[*format]
	if !ok {
		fmt.Fprintf(stderr, "fileinfo callgraph: unknown format %q (json, pycg, dot, mermaid)\n", *format)
		return errUsage
	}
	g, err := loadGraph(ctx, *root)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(stdout, 1<<16)
	if err := write(w, g); err != nil {
		return err
	}
	return w.Flush()
}

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

func writeGraphJSON(w io.Writer, g *callgraph.Graph) error {
	out := struct {
		Nodes      []jsonNode             `json:"nodes"`
		Edges      []jsonEdge             `json:"edges"`
		Unresolved []callgraph.Unresolved `json:"unresolved"`
	}{Nodes: []jsonNode{}, Edges: []jsonEdge{}, Unresolved: g.Unresolved()}
	for id := range g.Len() {
		n := g.Node(callgraph.SymbolID(id))
		out.Nodes = append(out.Nodes, jsonNode{callgraph.SymbolID(id), n.Qualified, n.Kind, n.File, n.Line})
	}
	for _, e := range g.Edges() {
		out.Edges = append(out.Edges, jsonEdge{g.Node(e.Caller).Qualified, g.Node(e.Callee).Qualified, e.File, e.Line, e.Resolution})
	}
	if out.Unresolved == nil {
		out.Unresolved = []callgraph.Unresolved{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// callable reports whether a node is a key of the PyCG format: modules,
// functions and methods.
func callable(n callgraph.Node) bool {
	return n.Kind == callgraph.KindModule || n.Kind == extract.KindFunction || n.Kind == extract.KindMethod
}

// writePyCG prints {"caller": ["callee", ...]}: every module, function and
// method a key; callees are functions and methods, sorted and unique.
func writePyCG(w io.Writer, g *callgraph.Graph) error {
	out := map[string][]string{}
	for id := range g.Len() {
		n := g.Node(callgraph.SymbolID(id))
		if !callable(n) {
			continue
		}
		if _, ok := out[n.Qualified]; !ok {
			out[n.Qualified] = []string{}
		}
		seen := map[string]bool{}
		for _, e := range g.Callees(callgraph.SymbolID(id)) {
			c := g.Node(e.Callee)
			if callable(c) && c.Kind != callgraph.KindModule && !seen[c.Qualified] {
				seen[c.Qualified] = true
				out[n.Qualified] = append(out[n.Qualified], c.Qualified)
			}
		}
	}
	// Calls into imported modules outside the repository are named as
	// PyCG names them: the dotted import path.
	for _, u := range g.Unresolved() {
		ext, ok := strings.CutPrefix(u.Reason, "external: ")
		if _, known := out[u.Caller]; ok && known && !slices.Contains(out[u.Caller], ext) {
			out[u.Caller] = append(out[u.Caller], ext)
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

// pairs returns the distinct caller→callee pairs with their first
// resolution, sorted.
func pairs(g *callgraph.Graph) [][3]string {
	seen := map[[2]string]bool{}
	var out [][3]string
	for _, e := range g.Edges() {
		k := [2]string{g.Node(e.Caller).Qualified, g.Node(e.Callee).Qualified}
		if !seen[k] {
			seen[k] = true
			out = append(out, [3]string{k[0], k[1], string(e.Resolution)})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0]+"\x00"+out[i][1] < out[j][0]+"\x00"+out[j][1] })
	return out
}

func writeDOT(w io.Writer, g *callgraph.Graph) error {
	fmt.Fprintln(w, "digraph callgraph {")
	fmt.Fprintln(w, "  node [shape=box, fontname=\"monospace\"];")
	for _, p := range pairs(g) {
		fmt.Fprintf(w, "  %q -> %q [label=%q];\n", p[0], p[1], p[2])
	}
	_, err := fmt.Fprintln(w, "}")
	return err
}

func writeMermaid(w io.Writer, g *callgraph.Graph) error {
	fmt.Fprintln(w, "flowchart LR")
	ids := map[string]string{}
	id := func(q string) string {
		if s, ok := ids[q]; ok {
			return s
		}
		s := fmt.Sprintf("n%d", len(ids))
		ids[q] = s
		fmt.Fprintf(w, "  %s[\"%s\"]\n", s, strings.ReplaceAll(q, "\"", "#quot;"))
		return s
	}
	for _, p := range pairs(g) {
		a, b := id(p[0]), id(p[1])
		fmt.Fprintf(w, "  %s -->|%s| %s\n", a, p[2], b)
	}
	return nil
}

func runCallers(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("callers", "SYMBOL", stderr)
	root := fs.String("root", ".", "workspace root `dir`")
	depth := fs.Int("depth", 1, "levels of callers to show")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: fileinfo callers [--root DIR] [--depth N] SYMBOL (a qualified name or path:Name)")
		return errUsage
	}
	g, err := loadGraph(ctx, *root)
	if err != nil {
		return err
	}
	ids, err := findSymbol(g, fs.Arg(0))
	if err != nil {
		return err
	}
	w := bufio.NewWriter(stdout)
	for _, id := range ids {
		n := g.Node(id)
		fmt.Fprintf(w, "%s (%s:%d)\n", n.Qualified, n.File, n.Line)
		printCallers(w, g, id, 1, *depth, map[callgraph.SymbolID]bool{id: true})
	}
	return w.Flush()
}

func printCallers(w io.Writer, g *callgraph.Graph, id callgraph.SymbolID, level, depth int, onPath map[callgraph.SymbolID]bool) {
	if level > depth {
		return
	}
	callers := g.Callers(id)
	if level == 1 && len(callers) == 0 {
		fmt.Fprintln(w, "  (no callers found)")
	}
	for _, e := range callers {
		c := g.Node(e.Caller)
		indent := strings.Repeat("  ", level)
		cycle := ""
		if onPath[e.Caller] {
			cycle = " (recursive)"
		}
		fmt.Fprintf(w, "%s<- %s (%s:%d) [%s]%s\n", indent, c.Qualified, e.File, e.Line, e.Resolution, cycle)
		if !onPath[e.Caller] {
			onPath[e.Caller] = true
			printCallers(w, g, e.Caller, level+1, depth, onPath)
			delete(onPath, e.Caller)
		}
	}
}

// findSymbol resolves a qualified name or "path:Name" (Name may be
// Class.method); several matches are all returned only for overloads of
// one qualified name, otherwise the candidates are listed in the error.
func findSymbol(g *callgraph.Graph, spec string) ([]callgraph.SymbolID, error) {
	if ids := g.Lookup(spec); len(ids) > 0 {
		return ids, nil
	}
	var cands []callgraph.SymbolID
	if path, name, ok := strings.Cut(spec, ":"); ok {
		for _, id := range g.InFile(path) {
			n := g.Node(id)
			if n.Name == name || strings.HasSuffix(n.Qualified, "."+name) {
				cands = append(cands, id)
			}
		}
	} else {
		for id := range g.Len() {
			n := g.Node(callgraph.SymbolID(id))
			if n.Name == spec || strings.HasSuffix(n.Qualified, "."+spec) {
				cands = append(cands, callgraph.SymbolID(id))
			}
		}
	}
	qs := map[string]bool{}
	for _, id := range cands {
		qs[g.Node(id).Qualified] = true
	}
	switch {
	case len(cands) == 0:
		return nil, fmt.Errorf("no symbol %q; give a qualified name or path:Name", spec)
	case len(qs) == 1:
		return cands, nil
	}
	var lines []string
	for _, id := range cands {
		n := g.Node(id)
		lines = append(lines, fmt.Sprintf("  %s (%s:%d)", n.Qualified, n.File, n.Line))
	}
	sort.Strings(lines)
	return nil, errors.New("ambiguous symbol " + spec + "; candidates:\n" + strings.Join(lines, "\n"))
}
