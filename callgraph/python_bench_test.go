package callgraph

import (
	"context"
	"os"
	"testing"

	"github.com/fileinfo/fileinfo/extract"
)

// BenchmarkBuildPythonStdlib builds the graph of the installed Python
// standard library (/usr/lib/python3.11, skipped when absent) from its
// extracted files: the flow tracking, import scopes and re-exports of a
// large Python code base.
func BenchmarkBuildPythonStdlib(b *testing.B) {
	const dir = "/usr/lib/python3.11"
	if _, err := os.Stat(dir); err != nil {
		b.Skip(err)
	}
	ex, err := extract.New(dir, extract.Options{Languages: []string{"python"}})
	if err != nil {
		b.Fatal(err)
	}
	files, _, err := ex.All(context.Background())
	ex.Close()
	if err != nil {
		b.Fatal(err)
	}
	var g *Graph
	b.ReportAllocs()
	for b.Loop() {
		g = Build(files)
	}
	b.ReportMetric(float64(len(g.Edges())), "edges")
}
