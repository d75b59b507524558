package server

import (
	"context"
	"testing"

	"github.com/fileinfo/fileinfo/internal/view"
)

// BenchmarkViewSource measures what the page asks of the server, on a
// generated module of 200 files and 1,600 functions that all call one hub.
func BenchmarkViewSource(b *testing.B) {
	s := connect(b, generatedRepo(10, 20), Options{NoWatch: true, NoDocs: true})
	ctx := context.Background()
	if err := s.srv.workspace().wait(ctx); err != nil {
		b.Fatal(err)
	}
	src := viewSource{s.srv}
	b.Run("Tree", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := src.Tree(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Version", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			src.Version(ctx)
		}
	})
	b.Run("Search", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := src.Search(ctx, "F3_4", 15); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("GraphHubDepth2", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			g, err := src.Graph(ctx, view.GraphQuery{File: "hub/hub.go", Line: 4, Depth: 2, Dir: "both", MaxNodes: view.DefaultMaxNodes})
			if err != nil || len(g.Nodes) != view.DefaultMaxNodes {
				b.Fatalf("%d nodes, %v", len(g.Nodes), err)
			}
		}
	})
}
