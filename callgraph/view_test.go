package callgraph

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/extract"
)

// renderView writes out everything v answers: every node, its callers
// and callees, the nodes of its qualified name and of its file, and the
// lines of its file's symbols.
func renderView(v *View) string {
	var b strings.Builder
	for i := range v.Len() {
		id := SymbolID(i)
		n := v.Node(id)
		fmt.Fprintf(&b, "%d %+v\n  callers %v\n  callees %v\n  lookup %v\n  infile %v\n", id, n, v.Callers(id), v.Callees(id), v.Lookup(n.Qualified), v.InFile(n.File))
		if f := v.File(n.File); f != nil {
			for _, s := range f.Symbols {
				fmt.Fprintf(&b, "  symbol %s %d-%d\n", s.Qualified, s.StartLine, s.EndLine)
			}
		}
	}
	return b.String()
}

// TestViewKeepsGraphBeforeUpdate takes a View before each of a sequence
// of random edits and reads it while the Update runs (go test -race
// reports a write to what the view shares): it answers as the graph did
// before the update, whether the update renumbered the graph or was made
// in place (whose node lines the view must not see change). The graph
// still equals a fresh Build.
func TestViewKeepsGraphBeforeUpdate(t *testing.T) {
	root, ex, g, idents := updateCorpusGraph(t)
	ctx := context.Background()
	steps := 60
	if testing.Short() {
		steps = 20
	}
	rng := rand.New(rand.NewPCG(7, 2))
	inPlace := 0
	for step := range steps {
		p, what, removed := randomEdit(t, rng, root, g.Files(), idents, step, 4)
		var changed []extract.File
		if len(removed) == 0 {
			f, err := ex.File(ctx, p)
			if err != nil {
				t.Fatalf("step %d (%s): %v", step, what, err)
			}
			changed = append(changed, *f)
		}
		v := g.View()
		before := renderView(v)
		done := make(chan string)
		go func() {
			var last string
			for range 3 {
				last = renderView(v) // beside the Update
			}
			done <- last
		}()
		g.Update(changed, removed)
		during := <-done
		if during != before {
			t.Fatalf("step %d (%s): the view changed while the graph was updated", step, what)
		}
		if after := renderView(v); after != before {
			t.Fatalf("step %d (%s): the view changed with the update", step, what)
		}
		if !g.Renumbered() {
			inPlace++
		}
		if diff := graphDiff(g, Build(extractAll(t, ex))); diff != "" {
			t.Fatalf("step %d (%s): Update differs from Build:\n%s", step, what, diff)
		}
	}
	if inPlace == 0 {
		t.Errorf("no step of %d was an update in place", steps)
	}
}
