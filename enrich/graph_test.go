package enrich

import (
	"bytes"
	"testing"

	"github.com/fileinfo/fileinfo/callgraph"
)

// TestNilGraphPointer: a nil *callgraph.Graph passed as a Graph is no
// graph, as a nil Graph is: the prompt, artifacts and callers' keys are
// those without a graph, not a panic.
func TestNilGraphPointer(t *testing.T) {
	r := loadArchive(t, "repo.txtar")
	var none *callgraph.Graph
	for _, p := range goldenFiles {
		f, src := r.file(t, p)
		want, err := sharedBuilder().Prompt(f, nil, src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := sharedBuilder().Prompt(f, none, src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got.Text != want.Text {
			t.Errorf("%s: the prompt over a nil *callgraph.Graph differs from the one without a graph", p)
		}
		if !bytes.Equal(RenderBasic(f, none), RenderBasic(f, nil)) || CallerKeys(f, none) != nil {
			t.Errorf("%s: a nil *callgraph.Graph is read as a graph", p)
		}
	}
}
