package extract

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fileinfo/fileinfo/internal/fixture"
)

// minifiedPair is a bundle of two minified lines of size bytes each: the
// symbols of the second sit under a line as long as the first.
func minifiedPair(size int) []byte {
	return append(fixture.MinifiedJS(size), fixture.MinifiedJS(size)...)
}

// TestExtractMinifiedLinear checks that the work of extracting a minified
// bundle grows with its size, not with its size squared: eight times the
// bytes may allocate about eight times as much, never sixty-four. Looking
// for the comment above each symbol copied the whole line above it.
func TestExtractMinifiedLinear(t *testing.T) {
	ex, err := New(t.TempDir(), Options{Workers: 1, KeepMinified: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	cost := func(src []byte) (uint64, int) {
		var f *File
		n := fixture.Allocated(func() {
			if f, err = ex.Source(context.Background(), "bundle.js", src); err != nil {
				t.Fatal(err)
			}
		})
		return n, len(f.Symbols)
	}
	small, large := minifiedPair(32<<10), minifiedPair(256<<10)
	cost(small) // the grammar and queries load once
	s, ns := cost(small)
	l, nl := cost(large)
	if nl < 6*ns {
		t.Fatalf("%d symbols at %d bytes, %d at %d: the fixture does not grow", ns, len(small), nl, len(large))
	}
	t.Logf("%d bytes: %d symbols, %d bytes allocated; %d bytes: %d symbols, %d allocated", len(small), ns, s, len(large), nl, l)
	if ratio := float64(l) / float64(s); ratio > 16 {
		t.Errorf("extracting %d bytes allocated %d, %d bytes %d: %.1f times as much for %.1f times the input",
			len(small), s, len(large), l, ratio, float64(len(large))/float64(len(small)))
	}
}

func TestMinified(t *testing.T) {
	long := strings.Repeat("var a=function(e,t){return e(t)};", 1000) // 33 KB
	normal := strings.Repeat("function f(a, b) {\n  return a + b;\n}\n", 1000)
	indented := strings.Repeat(strings.Repeat(" ", 600)+"x = 1\n", 100)
	for _, tc := range []struct {
		path, src string
		want      string // a prefix of the reason; "" for none
	}{
		{"dist/bundle.js", long + "\n", "minified: 33001 bytes in 1 line"},
		{"dist/bundle.js", long[:10000], ""}, // small: cheap to extract
		{"src/app.js", normal, ""},
		{"deep.py", indented, ""}, // indentation does not count
		{"vendor/x.min.js", "var a=1;\n", "minified (a .min.js name): 9 bytes in 1 line"},
		{"x.min.mjs", normal, "minified (a .min.mjs name): "},
		{"min.js", long, "minified: "},
		{"data.go", "package data\n\nvar table = \"" + strings.Repeat("\\x00", 20000) + "\"\n", "minified: 80029 bytes in 3 lines, 26676 bytes a line on average, the longest 80014"},
	} {
		got := Minified(tc.path, []byte(tc.src))
		if tc.want == "" && got != "" || !strings.HasPrefix(got, tc.want) {
			t.Errorf("Minified(%s) = %q, want %q", tc.path, got, tc.want)
		}
	}
}

// TestExtractSkipsMinified checks that extraction passes a minified file
// over as such, and extracts it when asked to.
func TestExtractSkipsMinified(t *testing.T) {
	src := fixture.MinifiedJS(32 << 10)
	for _, keep := range []bool{false, true} {
		ex, err := New(t.TempDir(), Options{KeepMinified: keep})
		if err != nil {
			t.Fatal(err)
		}
		f, err := ex.Source(context.Background(), "dist/bundle.js", src)
		ex.Close()
		var skip *SkipError
		switch {
		case keep && (err != nil || len(f.Symbols) == 0):
			t.Errorf("KeepMinified: %v, %v", f, err)
		case !keep && (!errors.As(err, &skip) || !skip.Minified || !strings.HasPrefix(skip.Reason, "minified: ")):
			t.Errorf("a minified bundle: %v, want a SkipError for a minified file", err)
		}
	}
}

func TestSummarize(t *testing.T) {
	banner := "/*! mylib v2.3.1 | (c) Someone | MIT license */\n"
	for _, tc := range []struct {
		name, path, src string
		want            Summary
	}{
		{
			name: "ES module",
			path: "dist/lib.min.js",
			src:  banner + `import{x as a}from"./dep.js";const b=()=>a(1),c=class{};export{b as run,c as Thing,b as "odd name"};` + "\n//# sourceMappingURL=lib.min.js.map\n",
			want: Summary{Language: "javascript", Lines: 3, Header: "mylib v2.3.1 | (c) Someone | MIT license", SourceMap: "lib.min.js.map",
				Exports: []string{"b as run", "c as Thing", `b as "odd name"`}, ExportsFrom: "the export list that ends it", ExportsTotal: 3},
		},
		{
			name: "rollup UMD",
			path: "dist/lib.js",
			src:  banner + `!function(e,t){"object"==typeof exports&&"undefined"!=typeof module?t(exports):"function"==typeof define&&define.amd?define(["exports"],t):t((e="undefined"!=typeof globalThis?globalThis:e||self).mylib={})}(this,function(e){e.f=function(){}});`,
			want: Summary{Language: "javascript", Lines: 2, Header: "mylib v2.3.1 | (c) Someone | MIT license", Exports: []string{"mylib"}, ExportsFrom: "the global its UMD wrapper sets", ExportsTotal: 1},
		},
		{
			name: "webpack UMD, line comments",
			path: "lib.js",
			src:  "// mylib 1.0\n// MIT\n!function(e,t){\"object\"==typeof exports&&\"object\"==typeof module?module.exports=t():\"function\"==typeof define&&define.amd?define([],t):\"object\"==typeof exports?exports.mylib=t():e.mylib=t()}(self,()=>1);",
			want: Summary{Language: "javascript", Lines: 3, Header: "mylib 1.0\nMIT", Exports: []string{"mylib"}, ExportsFrom: "the global its UMD wrapper sets", ExportsTotal: 1},
		},
		{
			name: "an export list in a string is none",
			path: "a.js",
			src:  `var s="export{a, b c}";` + "\n",
			want: Summary{Language: "javascript", Lines: 1},
		},
		{
			name: "Go data",
			path: "zdata.go",
			src:  "// Code generated by gen; DO NOT EDIT.\n\npackage x\n\nconst data = \"\\x00\"\n",
			want: Summary{Language: "go", Lines: 5, Header: "Code generated by gen; DO NOT EDIT."},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Summarize(tc.path, []byte(tc.src), "why")
			tc.want.Path, tc.want.Reason, tc.want.Bytes = tc.path, "why", len(tc.src)
			tc.want.Longest = slices.Max(lineLengths(tc.src))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Summarize:\n got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func lineLengths(s string) []int {
	var out []int
	for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		out = append(out, len(l))
	}
	return out
}

// TestSummarizeBounds checks that a long opening comment and a long
// export list are cut, and that a bundle's summary reads its exports.
func TestSummarizeBounds(t *testing.T) {
	src := "/*" + strings.Repeat("é", 2000) + "*/\nexport{" + strings.Repeat("a,", 300) + "b};"
	s := Summarize("x.js", []byte(src), "")
	if len(s.Header) > maxHeader || !s.HeaderCut || !utf8.ValidString(s.Header) {
		t.Errorf("header of %d bytes, cut %v", len(s.Header), s.HeaderCut)
	}
	if len(s.Exports) != maxExports || s.ExportsTotal != 301 {
		t.Errorf("%d exports of %d", len(s.Exports), s.ExportsTotal)
	}
	b := Summarize("dist/bundle.js", fixture.MinifiedJS(64<<10), "")
	if b.Lines != 1 || b.Header != "bundle v1.0.0 | MIT" || len(b.Exports) != 1 || b.Exports[0] != "Bundle" {
		t.Errorf("the fixture's summary: %+v", b)
	}
}

// FuzzSummarize feeds arbitrary bytes to Minified and Summarize, as
// every file of a workspace may reach them:
//
//	go test ./extract -run '^$' -fuzz '^FuzzSummarize$' -fuzztime 60s
func FuzzSummarize(f *testing.F) {
	for _, s := range brokenSeeds {
		f.Add("a.js", []byte(s))
	}
	f.Add("b.min.js", []byte("/*! x */export{a as b};//# sourceMappingURL=x.map"))
	f.Add("c.py", []byte("#!/usr/bin/env python\n# doc\n\nx = 1\n"))
	f.Add("d.go", []byte("\uFEFF// a\n// b\npackage d\n"))
	f.Fuzz(func(t *testing.T, path string, src []byte) {
		if path == "" || strings.ContainsAny(path, "\x00") {
			return
		}
		_ = Minified(path, src)
		s := Summarize(path, src, "r")
		lines := bytes.Count(src, []byte{'\n'})
		if len(src) > 0 && src[len(src)-1] != '\n' {
			lines++
		}
		switch {
		case s.Lines != lines || s.Bytes != len(src) || s.Longest > len(src):
			t.Errorf("%d lines, %d bytes, the longest %d; want %d lines of %d bytes", s.Lines, s.Bytes, s.Longest, lines, len(src))
		case len(s.Header) > maxHeader || len(s.Exports) > maxExports || s.ExportsTotal < len(s.Exports):
			t.Errorf("unbounded summary: %d bytes of header, %d exports of %d", len(s.Header), len(s.Exports), s.ExportsTotal)
		}
		for _, str := range append([]string{s.Header, s.SourceMap}, s.Exports...) {
			if !utf8.ValidString(str) {
				t.Errorf("invalid UTF-8 %q", str)
			}
		}
	})
}

// benchSizes are the sizes the minified benchmarks run at: a bundle of
// 250 KB and one of 2 MB (within the 2 MiB extraction limit).
var benchSizes = []struct {
	name string
	size int
}{{"250KB", 250 << 10}, {"2MB", 2_000_000}}

// BenchmarkExtractMinified extracts a one-line minified bundle of 250 KB
// and of 2 MB, kept rather than passed over: the work per byte should be
// the same at both sizes.
func BenchmarkExtractMinified(b *testing.B) {
	for _, bs := range benchSizes {
		b.Run(bs.name, func(b *testing.B) {
			src := fixture.MinifiedJS(bs.size)
			ex, err := New(b.TempDir(), Options{Workers: 1, KeepMinified: true})
			if err != nil {
				b.Fatal(err)
			}
			defer ex.Close()
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ex.Source(context.Background(), "bundle.js", src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkMinifiedSummary is what the load and file_info do with a
// bundle instead: judge it minified and summarise it.
func BenchmarkMinifiedSummary(b *testing.B) {
	for _, bs := range benchSizes {
		b.Run(bs.name, func(b *testing.B) {
			src := fixture.MinifiedJS(bs.size)
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if why := Minified("bundle.js", src); why == "" {
					b.Fatal("not minified")
				} else {
					Summarize("bundle.js", src, why)
				}
			}
		})
	}
}
