package lookup

import (
	"fmt"
	"testing"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// synthetic returns a graph of n methods over n/10 classes, each method
// calling the next, with its files' symbols: about the size of
// golang.org/x/tools (n = 40,000).
func synthetic(n int) (Graph, func(string) *extract.File) {
	nodes := make([]callgraph.Node, 0, n)
	var edges []callgraph.Edge
	files := map[string]*extract.File{}
	for i := range n {
		path := fmt.Sprintf("pkg%d/file%d.go", i/1000, i/100)
		f := files[path]
		if f == nil {
			f = &extract.File{Path: path}
			files[path] = f
		}
		cls := fmt.Sprintf("Type%d", i/10)
		q := fmt.Sprintf("example.com/pkg%d.%s.handleRequest%d", i/1000, cls, i%97)
		nodes = append(nodes, callgraph.Node{Qualified: q, Name: fmt.Sprintf("handleRequest%d", i%97), Kind: extract.KindMethod, Parent: cls, File: path, Line: i%100 + 1})
		f.Symbols = append(f.Symbols, extract.Symbol{Qualified: q, Name: fmt.Sprintf("handleRequest%d", i%97), StartLine: i%100 + 1, Signature: "func (t *T) handleRequest()", Doc: "Handles a request."})
		if i > 0 {
			edges = append(edges, callgraph.Edge{Caller: callgraph.SymbolID(i - 1), Callee: callgraph.SymbolID(i), File: path, Line: i%100 + 1, Resolution: callgraph.Receiver})
		}
	}
	return NewStatic(nodes, edges), func(p string) *extract.File { return files[p] }
}

// BenchmarkNew measures indexing a graph, which the MCP tools do per call.
func BenchmarkNew(b *testing.B) {
	g, files := synthetic(40000)
	b.ReportAllocs()
	for b.Loop() {
		New(g, files)
	}
}

// BenchmarkFind measures an exact-name query and a near-name one (which
// scores every distinct name).
func BenchmarkFind(b *testing.B) {
	ix := New(synthetic(40000))
	for _, q := range []string{"Type7.handleRequest3", "handleRequst3"} {
		b.Run(q, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ix.Find(q, ""); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
