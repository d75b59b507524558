package extract

import (
	"context"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// definesOnlySeeds are C files cDefinesOnly accepts.
var definesOnlySeeds = []string{
	"#define A 1\n",
	"/* SPDX-License-Identifier: MIT */\n#ifndef _R_H_\n#define _R_H_\n\n#define mmA 0x1c00\n#define mmA_BASE_IDX 2\n#define A__B_MASK 0x0000FFFFL\n\n#endif /* _R_H_ */\n",
	"// c\n#ifdef X\n#define Y\n#else // not X\n#define Y 2\n#endif\n",
	"#define L \\\n\t(1 << 3) | \\\n\t4\n#undef L\n",
	"/*\n * a comment\n * over lines\n */ /* and one more */\n# define  B\t'x'\n  #ifndef C\n #  define C \"s\" \n#endif\n",
	"#ifdef A\n#ifdef B\n#define C 1\n#endif\n#else\n#endif /* a\n b */\n",
}

// definesOnlyRejects are C files cDefinesOnly must parse.
var definesOnlyRejects = []string{
	"",
	"#define A 1",                      // no final newline
	"#define F(x) (x)\n",               // function-like
	"#ifdef A\n#define B \n#endif\n",   // blanks after a name without a value
	"#define A 1 /* c */\n",            // a comment in the value
	"#define A (B/C)\n",                // a slash in the value
	"#include <a.h>\n",                 // an import
	"#if A\n#define B\n#endif\n",       // an expression
	"#ifdef A\n#define B\n",            // unbalanced
	"#endif\n",                         // unbalanced
	"#ifdef A\n#else\n#else\n#endif\n", // two elses
	"int x;\n",                         // code
	"#define A 1\r\n",                  // CR
	"#define\n",                        // no name
	"#define 1A 2\n",                   // not a name
	"#define A$ 2\n",                   // not a name
	"/* open\n#define A 1\n",           // a comment left open
	"// c \\\nint x;\n",                // a line comment running on
	"#define A \\\n",                   // a value running past the end
	"#pragma once\n#define A 1\n",      // another directive
	"#ifdef A B\n#endif\n",             // more than a name
	"\xef\xbb\xbf#define A 1\n",        // a byte-order mark
}

func TestCDefinesOnly(t *testing.T) {
	for _, src := range definesOnlySeeds {
		if !cDefinesOnly([]byte(src)) {
			t.Errorf("cDefinesOnly(%q) = false, want true", src)
		}
	}
	for _, src := range definesOnlyRejects {
		if cDefinesOnly([]byte(src)) {
			t.Errorf("cDefinesOnly(%q) = true, want false", src)
		}
	}
}

// checkPlainMatchesParse fails t if src, accepted by cDefinesOnly, does
// not extract as its parse does.
func checkPlainMatchesParse(t *testing.T, plain, parsed *Extractor, path string, src []byte) {
	t.Helper()
	if !cDefinesOnly(src) {
		return
	}
	got, err := plain.Source(context.Background(), path, src)
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	want, err := parsed.Source(context.Background(), path, src)
	if err != nil {
		t.Fatalf("%q parsed: %v", src, err)
	}
	if got.Language != "c" {
		t.Fatalf("%q: language %s, want c", src, got.Language)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%q: extracted without a parse as\n  %+v\nparsed as\n  %+v", src, got, want)
	}
}

// newPlainPair returns an extractor and one that parses every file.
func newPlainPair(t testing.TB) (plain, parsed *Extractor) {
	plain, err := New(t.TempDir(), Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	parsed, err = New(t.TempDir(), Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	parsed.parseAll = true
	t.Cleanup(plain.Close)
	t.Cleanup(parsed.Close)
	return plain, parsed
}

// TestCDefinesOnlyMatchesParse checks the seeds and thousands of files
// put together from the lines cDefinesOnly takes: each extracts without
// a parse as its parse does.
func TestCDefinesOnlyMatchesParse(t *testing.T) {
	plain, parsed := newPlainPair(t)
	for _, src := range definesOnlySeeds {
		checkPlainMatchesParse(t, plain, parsed, "drivers/r.h", []byte(src))
	}
	lines := []string{
		"#define A 1", "#define B", "#define C\t0x10UL ", "# define D (1 << 2)", "#define E \\", "\t3 \\", "4",
		"#undef A", "#ifdef A", "#ifndef B", "#else", "#endif", "#endif /* B */", "#else // x", "#ifdef A // y",
		"", "  ", "/* c */", "/* open", "still */", "x */ /* y */", "// line", "*/", "#define F \"a\\\"b\"",
		"#define G 'c' // note", "#define H '\\\\'", "/**/#define I 1",
		"#define J ", "#ifdef K ", "#ifndef L\t/* c */ ", "#endif ", "#else\t", "#undef M ", "\t#define N\t1\t",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	accepted := 0
	for range 5000 {
		var b strings.Builder
		for range 1 + rng.IntN(12) {
			b.WriteString(lines[rng.IntN(len(lines))])
			b.WriteByte('\n')
		}
		src := []byte(b.String())
		if cDefinesOnly(src) {
			accepted++
			checkPlainMatchesParse(t, plain, parsed, "drivers/r.h", src)
		}
	}
	if accepted < 200 {
		t.Errorf("only %d of 5000 generated files accepted: the generator tests little", accepted)
	}
}

// FuzzCDefinesOnly checks that any file cDefinesOnly accepts extracts
// without a parse as its parse does.
func FuzzCDefinesOnly(f *testing.F) {
	for _, s := range append(definesOnlySeeds, definesOnlyRejects...) {
		f.Add([]byte(s))
	}
	plain, parsed := newPlainPair(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		checkPlainMatchesParse(t, plain, parsed, "dir/fuzz.h", src)
	})
}
