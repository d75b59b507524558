package main

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// encodeWhole is how extract and callgraph wrote their JSON before they
// streamed it: the whole document through one indented encoder.
func encodeWhole(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestJSONObjectMatchesEncoder(t *testing.T) {
	type item struct {
		S    string         `json:"s"`
		L    []string       `json:"l"`
		M    map[string]int `json:"m,omitempty"`
		Next *item          `json:"next,omitempty"`
	}
	tests := []struct {
		name  string
		items []item
		extra []string
	}{
		{"empty arrays", nil, []string{}},
		{"one item", []item{{S: "a"}}, []string{"x"}},
		{"html and unicode", []item{{S: "<a href=\"x\">&</a> é \u2028", L: []string{}}}, []string{"<>&"}},
		{"nested", []item{{S: "a", L: []string{"b", "c"}, M: map[string]int{"z": 1, "a": 2}, Next: &item{S: "d"}}, {}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items := tt.items
			if items == nil {
				items = []item{}
			}
			want := encodeWhole(t, struct {
				Items []item   `json:"items"`
				Extra []string `json:"extra"`
			}{items, tt.extra})
			var b bytes.Buffer
			o := newJSONObject(&b)
			o.open("items")
			for _, it := range tt.items {
				o.item(it)
			}
			o.close()
			o.field("extra", tt.extra)
			if err := o.end(); err != nil {
				t.Fatal(err)
			}
			if got := b.String(); got != want {
				t.Errorf("streamed:\n%s\nwhole:\n%s", got, want)
			}
		})
	}
}

// goldenRoot is a tree with a file of every language, and some that
// extraction skips.
const goldenRoot = "../../extract/testdata/golden"

func TestExtractStreamsTheSameBytes(t *testing.T) {
	ex, err := extract.New(goldenRoot, extract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	var out extractOutput
	if out.Files, out.Skipped, err = ex.All(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(out.Files) < 10 || len(out.Skipped) == 0 {
		t.Fatalf("want a varied tree: %d files, %d skipped", len(out.Files), len(out.Skipped))
	}
	code, stdout, stderr := runCLI(t, "extract", "--root", goldenRoot)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if want := encodeWhole(t, out); stdout != want {
		t.Errorf("streamed output differs from the whole document (%d vs %d bytes)", len(stdout), len(want))
	}

	paths := []string{out.Files[0].Path, "no/such/file.go", out.Files[1].Path}
	if out.Files, out.Skipped, err = ex.Files(context.Background(), paths); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runCLI(t, append([]string{"extract", "--root", goldenRoot}, paths...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if want := encodeWhole(t, out); stdout != want {
		t.Errorf("streamed output of named files differs:\n%s\nwant:\n%s", stdout, want)
	}
}

// wholeGraphJSON is writeGraphJSON as it was, building the document.
func wholeGraphJSON(t *testing.T, g *callgraph.Graph, sub *callgraph.Subgraph, skipped []extract.Skipped) string {
	out := struct {
		Nodes      []jsonNode             `json:"nodes"`
		Edges      []jsonEdge             `json:"edges"`
		Unresolved []callgraph.Unresolved `json:"unresolved"`
		Skipped    []extract.Skipped      `json:"skipped"`
	}{Nodes: []jsonNode{}, Edges: []jsonEdge{}, Unresolved: []callgraph.Unresolved{}, Skipped: skipped}
	if out.Skipped == nil {
		out.Skipped = []extract.Skipped{}
	}
	whole := sub == nil
	if whole {
		all := make([]callgraph.SymbolID, g.Len())
		for i := range all {
			all[i] = callgraph.SymbolID(i)
		}
		sub = g.Subgraph(all)
	}
	in := map[string]bool{}
	for _, id := range sub.Nodes {
		n := g.Node(id)
		in[n.Qualified] = true
		out.Nodes = append(out.Nodes, jsonNode{id, n.Qualified, n.Kind, n.File, n.Line})
	}
	for _, e := range sub.Edges {
		out.Edges = append(out.Edges, jsonEdge{g.Node(e.Caller).Qualified, g.Node(e.Callee).Qualified, e.File, e.Line, e.Resolution})
	}
	for _, u := range g.Unresolved() {
		if whole || in[u.Caller] {
			out.Unresolved = append(out.Unresolved, u)
		}
	}
	return encodeWhole(t, out)
}

func TestCallgraphJSONStreamsTheSameBytes(t *testing.T) {
	g, skipped, err := loadGraph(context.Background(), goldenRoot, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Edges()) < 10 || len(g.Unresolved()) == 0 {
		t.Fatalf("want a varied graph: %d edges, %d unresolved", len(g.Edges()), len(g.Unresolved()))
	}
	subs := map[string]*callgraph.Subgraph{
		"whole":    nil,
		"first":    g.Neighbourhood([]callgraph.SymbolID{g.Edges()[0].Caller}, 2, callgraph.Both),
		"callers":  g.Neighbourhood([]callgraph.SymbolID{g.Edges()[len(g.Edges())-1].Callee}, 1, callgraph.Backward),
		"no nodes": g.Subgraph(nil),
	}
	for name, sub := range subs {
		t.Run(name, func(t *testing.T) {
			for _, sk := range [][]extract.Skipped{nil, skipped} {
				var b bytes.Buffer
				if err := writeGraphJSON(&b, g, sub, sk); err != nil {
					t.Fatal(err)
				}
				if want := wholeGraphJSON(t, g, sub, sk); b.String() != want {
					t.Errorf("streamed graph differs from the whole document (%d vs %d bytes)", b.Len(), len(want))
				}
			}
		})
	}
}

// FuzzJSONObject checks that any strings, in any number of elements,
// stream to the bytes the whole-document encoder writes.
func FuzzJSONObject(f *testing.F) {
	f.Add("a", "<b>&\u2028", uint8(2))
	f.Add("", "\x00\xff", uint8(0))
	f.Fuzz(func(t *testing.T, a, b string, n uint8) {
		type item struct {
			A string   `json:"a"`
			B []string `json:"b,omitempty"`
		}
		items := []item{}
		for i := range int(n % 8) {
			items = append(items, item{A: a, B: []string{b}[:i%2]})
		}
		want := encodeWhole(t, struct {
			Items []item `json:"items"`
			B     string `json:"b"`
		}{items, b})
		var got bytes.Buffer
		o := newJSONObject(&got)
		o.open("items")
		for _, it := range items {
			o.item(it)
		}
		o.close()
		o.field("b", b)
		if err := o.end(); err != nil {
			t.Fatal(err)
		}
		if got.String() != want {
			t.Errorf("streamed:\n%s\nwhole:\n%s", got.String(), want)
		}
	})
}
