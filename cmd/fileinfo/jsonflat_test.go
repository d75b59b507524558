package main

import (
	"bytes"
	"testing"
)

// flatItem is the struct whose encoding itemFlat must reproduce.
type flatItem struct {
	A string `json:"a"`
	N int    `json:"n"`
	B string `json:"b"`
}

// flatAndItem writes items through itemFlat and through item.
func flatAndItem(items []flatItem) (flat, want string) {
	var f, w bytes.Buffer
	of, ow := newJSONObject(&f), newJSONObject(&w)
	of.open("items")
	ow.open("items")
	for _, it := range items {
		of.itemFlat(strField("a", it.A), intField("n", it.N), strField("b", it.B))
		ow.item(it)
	}
	of.close()
	ow.close()
	of.end()
	ow.end()
	return f.String(), w.String()
}

func TestItemFlatMatchesItem(t *testing.T) {
	for _, tt := range []struct {
		name  string
		items []flatItem
	}{
		{"none", nil},
		{"plain", []flatItem{{"fs.9p.acl", 1, "fs/9p/acl.c"}, {"", -7, ""}}},
		{"escapes", []flatItem{{"a\"b\\c", 0, "tab\there\nnl\r\b\f\x00\x1f\x7f"}}},
		{"html and unicode", []flatItem{{"<a href=\"x\">&</a>", 1 << 40, "é \u2028 \u2029 ☃"}}},
		{"invalid UTF-8", []flatItem{{"\xff\xfe", 3, "a\xc3"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got, want := flatAndItem(tt.items); got != want {
				t.Errorf("itemFlat wrote\n%s\nitem wrote\n%s", got, want)
			}
		})
	}
}

// FuzzItemFlat: any strings and numbers stream to the bytes item
// writes.
func FuzzItemFlat(f *testing.F) {
	f.Add("fs.9p.acl", "fs/9p/acl.c", 12, uint8(2))
	f.Add("<b>&\u2028", "\x00\xff\"\\", -1, uint8(1))
	f.Fuzz(func(t *testing.T, a, b string, n int, count uint8) {
		var items []flatItem
		for i := range int(count % 5) {
			items = append(items, flatItem{a, n + i, b})
		}
		if got, want := flatAndItem(items); got != want {
			t.Fatalf("itemFlat wrote\n%q\nitem wrote\n%q", got, want)
		}
	})
}

// BenchmarkWriteGraphJSON writes the golden repositories' call graph,
// the per-node and per-edge path of `fileinfo callgraph`.
func BenchmarkWriteGraphJSON(b *testing.B) {
	g, skipped, err := loadGraph(b.Context(), goldenRoot, &bytes.Buffer{})
	if err != nil {
		b.Fatal(err)
	}
	var out bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		out.Reset()
		if err := writeGraphJSON(&out, g, nil, skipped); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(out.Len()))
}
