package enrich

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// benchGo generates a Go file of about the given number of lines, shaped
// like ordinary code: doc comments, a few types with methods, functions
// calling each other, error handling and loops.
func benchGo(lines int) string {
	var b strings.Builder
	b.WriteString("// Package inventory is generated for benchmarks.\npackage inventory\n\nimport (\n\t\"errors\"\n\t\"fmt\"\n\t\"sort\"\n\t\"strings\"\n)\n\n")
	b.WriteString("// ErrMissing is returned for an unknown key.\nvar ErrMissing = errors.New(\"missing\")\n\n")
	for i := 0; strings.Count(b.String(), "\n") < lines; i++ {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "// Item%d is a stored record with a name and a quantity.\ntype Item%d struct {\n\tName     string\n\tQuantity int\n\tTags     []string\n}\n\n", i, i)
			fmt.Fprintf(&b, "// Label returns the item's name and quantity for display.\nfunc (it *Item%d) Label() string {\n\tif it == nil {\n\t\treturn \"<nil>\"\n\t}\n\treturn fmt.Sprintf(\"%%s (%%d)\", it.Name, it.Quantity)\n}\n\n", i)
		case 1:
			fmt.Fprintf(&b, "// lookup%d finds key in m, case-insensitively.\nfunc lookup%d(m map[string]int, key string) (int, error) {\n\tfor k, v := range m {\n\t\tif strings.EqualFold(k, key) {\n\t\t\treturn v, nil\n\t\t}\n\t}\n\treturn 0, fmt.Errorf(\"lookup %%q: %%w\", key, ErrMissing)\n}\n\n", i, i)
		case 2:
			fmt.Fprintf(&b, "// Total%d sums the quantities of the named items, skipping unknown names.\nfunc Total%d(m map[string]int, names ...string) (int, error) {\n\ttotal := 0\n\tfor _, n := range names {\n\t\tv, err := lookup%d(m, n)\n\t\tif errors.Is(err, ErrMissing) {\n\t\t\tcontinue\n\t\t} else if err != nil {\n\t\t\treturn 0, err\n\t\t}\n\t\ttotal += v\n\t}\n\treturn total, nil\n}\n\n", i, i, i-1)
		case 3:
			fmt.Fprintf(&b, "// Sorted%d returns the keys of m in order, with a prefix filter.\nfunc Sorted%d(m map[string]int, prefix string) []string {\n\tkeys := make([]string, 0, len(m))\n\tfor k := range m {\n\t\tif strings.HasPrefix(k, prefix) {\n\t\t\tkeys = append(keys, k)\n\t\t}\n\t}\n\tsort.Strings(keys)\n\tif _, err := Total%d(m, keys...); err != nil {\n\t\treturn nil\n\t}\n\treturn keys\n}\n\n", i, i, i-1)
		}
	}
	return b.String()
}

// benchInput extracts a 2,000-line Go file and a caller beside it.
func benchInput(b *testing.B) (*extract.Extractor, *extract.File, *callgraph.Graph, []byte) {
	b.Helper()
	root := b.TempDir()
	src := []byte(benchGo(2000))
	caller := "package inventory\n\nfunc use(m map[string]int) {\n\t_, _ = Total2(m, \"a\")\n\t_ = Sorted3(m, \"b\")\n}\n"
	for name, data := range map[string][]byte{"go.mod": []byte("module example.com/inv\n"), "inventory.go": src, "use.go": []byte(caller)} {
		if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	ex, err := extract.New(root, extract.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(ex.Close)
	files, _, err := ex.All(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	g := callgraph.Build(files)
	for i := range files {
		if files[i].Path == "inventory.go" {
			return ex, &files[i], g, src
		}
	}
	b.Fatal("inventory.go not extracted")
	return nil, nil, nil, nil
}

// BenchmarkPrompt builds the prompt of a 2,000-line Go file (about 60 KB,
// 14k tokens).
//
//	go test ./enrich -run '^$' -bench 'Prompt|FileInfo' -benchmem
//
// warm: the encoder loaded and the file's lines counted before, as when a
// part or the same file is asked for again. newfile: the Builder has seen
// another file, but the declarations and most lines of this one are new,
// as for the first file_info on a file.
func BenchmarkPrompt(b *testing.B) {
	ex, f, g, src := benchInput(b)
	b.Logf("%d lines, %d bytes, %d symbols", strings.Count(string(src), "\n"), len(src), len(f.Symbols))
	b.Run("warm", func(b *testing.B) {
		bl := NewBuilder()
		if _, err := bl.Prompt(f, g, src, Options{}); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		var p50 median
		for b.Loop() {
			start := time.Now()
			if _, err := bl.Prompt(f, g, src, Options{}); err != nil {
				b.Fatal(err)
			}
			p50.add(time.Since(start))
		}
		p50.report(b)
	})
	b.Run("newfile", func(b *testing.B) {
		bl := NewBuilder()
		if _, err := bl.Prompt(f, g, src, Options{}); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			b.StopTimer()
			i++
			vsrc := []byte(rename(string(src), fmt.Sprintf("V%d", i)))
			vf, err := ex.Source(context.Background(), f.Path, vsrc)
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			if _, err := bl.Prompt(vf, g, vsrc, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// rename makes src a file whose declarations and most lines are new.
func rename(src, salt string) string {
	for _, id := range []string{"Item", "lookup", "Total", "Sorted"} {
		src = strings.ReplaceAll(src, id, id+salt)
	}
	return src
}

// BenchmarkFileInfo is the library side of file_info on a 2,000-line file
// with a warm Builder and graph: extract the file afresh, build its prompt,
// render its basic artifact.
func BenchmarkFileInfo(b *testing.B) {
	ex, f, g, src := benchInput(b)
	bl := NewBuilder()
	if _, err := bl.Prompt(f, g, src, Options{}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var p50 median
	for b.Loop() {
		start := time.Now()
		f, err := ex.Source(context.Background(), f.Path, src)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := bl.Prompt(f, g, src, Options{}); err != nil {
			b.Fatal(err)
		}
		RenderBasic(f, g)
		p50.add(time.Since(start))
	}
	p50.report(b)
}

// median collects iteration times to report their median, the p50 the
// performance target is stated in.
type median []time.Duration

func (m *median) add(d time.Duration) { *m = append(*m, d) }

func (m median) report(b *testing.B) {
	if len(m) == 0 {
		return
	}
	slices.Sort(m)
	b.ReportMetric(float64(m[len(m)/2].Nanoseconds()), "p50-ns")
}

// BenchmarkRenderBasic renders the basic artifact of a 2,000-line file.
func BenchmarkRenderBasic(b *testing.B) {
	_, f, g, _ := benchInput(b)
	b.ReportAllocs()
	for b.Loop() {
		RenderBasic(f, g)
	}
}
