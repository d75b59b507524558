package docsearch

import (
	"fmt"
	"strings"
	"testing"
)

// overlayBench returns a loaded index of n Put documents, and the same
// after 1% of them were replaced and 1% added: its overlay.
func overlayBench(b *testing.B, n int) (table, overlay *Index) {
	b.Helper()
	dir := b.TempDir()
	words := strings.Fields("cache slab page inode mutex lock timer queue device tree user copy fault handler retransmit schedule work item")
	docText := func(i, v int) string {
		var sb strings.Builder
		fmt.Fprintf(&sb, "# Note %d\n\n", i)
		for j := range 60 {
			sb.WriteString(words[(i*7+j*3+v)%len(words)])
			fmt.Fprintf(&sb, " w%d ", (i+j)%997)
		}
		return sb.String()
	}
	var docs []Document
	for i := range n {
		docs = append(docs, Document{Path: fmt.Sprintf("put/%d", i), Scope: ScopeDocs, Text: docText(i, 0)})
	}
	a := openTest(b, mapFS(nil), Options{Dir: dir})
	if err := a.Put(ctx, docs); err != nil {
		b.Fatal(err)
	}
	table = openTest(b, mapFS(nil), Options{Dir: dir})
	overlay = openTest(b, mapFS(nil), Options{Dir: dir})
	var change []Document
	for i := 0; i < n/100; i++ {
		change = append(change, Document{Path: fmt.Sprintf("put/%d", i*100), Scope: ScopeDocs, Text: docText(i, 1)},
			Document{Path: fmt.Sprintf("put/new%d", i), Scope: ScopeDocs, Text: docText(n+i, 2)})
	}
	if err := overlay.Put(ctx, change); err != nil {
		b.Fatal(err)
	}
	if overlay.tab == nil || overlay.lex.ov == nil {
		b.Fatal("no overlay")
	}
	return table, overlay
}

// BenchmarkSearchOverlay measures lexical searches of a loaded index,
// unchanged and with an overlay of 2% of its documents.
func BenchmarkSearchOverlay(b *testing.B) {
	table, overlay := overlayBench(b, 5000)
	for name, ix := range map[string]*Index{"table": table, "overlay": overlay} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, q := range []string{"slab cache", "mutex lock timer", "copy to user", "w17 inode"} {
					if _, err := ix.Search(ctx, Query{Text: q, Limit: 5}); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkSaveDelta measures the save of an overlay of 2% of a loaded
// index's documents as a delta, and as the whole file (Merge).
func BenchmarkSaveDelta(b *testing.B) {
	_, overlay := overlayBench(b, 5000)
	b.Run("delta", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := overlay.Save(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("whole", func(b *testing.B) {
		overlay.opts.Merge = true
		b.ReportAllocs()
		for b.Loop() {
			if err := overlay.Save(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
