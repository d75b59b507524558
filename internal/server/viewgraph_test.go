package server

import (
	"context"
	"reflect"
	"testing"

	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/lookup"
	"github.com/fileinfo/fileinfo/internal/view"
)

// viewAnswers is what the web view shows of a workspace: its files'
// symbols, call graphs around a few symbols, and name searches.
type viewAnswers struct {
	files  map[string]view.File
	graphs []view.Graph
}

var viewQueries = []view.GraphQuery{
	{File: "pkg/a.go", Line: 3, Depth: 2, Dir: "both", MaxNodes: view.DefaultMaxNodes},
	{File: "pkg/b.go", Line: 3, Depth: 1, Dir: "callers", MaxNodes: view.DefaultMaxNodes},
	{Symbol: "example.com/x/pkg.Use", Depth: 3, Dir: "callees", MaxNodes: view.DefaultMaxNodes},
	{File: "py/tasks.py", Line: 13, Depth: 2, Dir: "both", MaxNodes: 3},
	{File: "web/app.js", Line: 2, Depth: 2, Dir: "both", MaxNodes: view.DefaultMaxNodes},
	{File: "lib/util.c", Line: 1, Depth: 2, Dir: "both", MaxNodes: view.DefaultMaxNodes},
}

func viewOver(t *testing.T, src viewSource, paths []string) viewAnswers {
	t.Helper()
	ctx := context.Background()
	out := viewAnswers{files: map[string]view.File{}}
	for _, p := range paths {
		f, err := src.File(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		out.files[p] = f
	}
	for _, q := range viewQueries {
		g, err := src.Graph(ctx, q)
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		out.graphs = append(out.graphs, g)
	}
	return out
}

// TestViewLeavesGraphPending: on a start from the saved state, the web
// view's files, call graphs and name search answer from the saved
// indexes without restoring the graph, and show what the restored graph
// shows.
func TestViewLeavesGraphPending(t *testing.T) {
	s2, ws, p := restartPending(t, enrichTree())
	src := viewSource{s2.srv}
	paths := []string{"lib/util.c", "pkg/a.go", "pkg/b.go", "py/tasks.py", "web/app.js"}
	saved := viewOver(t, src, paths)
	hits, err := src.Search(context.Background(), "help go", 20)
	if err != nil {
		t.Fatal(err)
	}
	if p.restored() != nil {
		t.Fatal("the view restored the graph")
	}
	edges := 0
	for _, g := range saved.graphs {
		edges += len(g.Edges)
	}
	if edges == 0 || len(hits) == 0 {
		t.Fatalf("%d edges, %d hits: nothing to compare", edges, len(hits))
	}

	ws.mu.RLock()
	g := ws.callGraph()
	ws.mu.RUnlock()
	restored := viewOver(t, src, paths)
	if !reflect.DeepEqual(saved, restored) {
		t.Errorf("over the saved indexes:\n%+v\nover the restored graph:\n%+v", saved, restored)
	}
	ws.mu.RLock()
	want := namesHolding(lookup.New(g, func(string) *extract.File { return nil }), []string{"help", "go"}, 20)
	ws.mu.RUnlock()
	var got []view.Hit
	for _, h := range hits {
		if h.Kind == view.HitCode && h.Symbol != nil {
			got = append(got, h)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("name search over the saved index:\n%+v\nover the graph:\n%+v", got, want)
	}
}
