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
// large Python code base. Besides wall time it reports the CPU time a
// build takes (cpu-s/op, all threads), which other work on a shared
// machine disturbs less than it does wall time.
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
	cpu0, cpuOK := processCPU()
	for b.Loop() {
		g = Build(files)
	}
	if cpu1, ok := processCPU(); ok && cpuOK {
		b.ReportMetric((cpu1-cpu0).Seconds()/float64(b.N), "cpu-s/op")
	}
	b.ReportMetric(float64(len(g.Edges())), "edges")
}
