package docsearch

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLeadSentence(t *testing.T) {
	long := strings.Repeat("word ", 80)
	for _, tc := range []struct{ name, code, want string }{
		{"docstring", "def f(x):\n    \"\"\"Return the md5 hash. Uses hashlib.\"\"\"\n    return x", "Return the md5 hash."},
		{"docstring on its own lines", "def f(x):\n    \"\"\"\n    Writes a Boolean\n    to the stream.\n\n    :param n: the value\n    \"\"\"\n    pass", "Writes a Boolean to the stream."},
		{"header over lines", "def f(a,\n      b):\n    r'''Add two numbers.'''\n    return a + b", "Add two numbers."},
		{"decorated", "@property\ndef size(self):\n    \"\"\"The size in bytes.\"\"\"", "The size in bytes."},
		{"jsdoc", "/**\n * Splits a string into words.\n * @param {string} s\n */\nfunction words(s) {}", "Splits a string into words."},
		{"go", "// Reader reads records\n// from a file.\nfunc Read() {}", "Reader reads records from a file."},
		{"rust", "/// Parses a header line.\nfn parse() {}", "Parses a header line."},
		{"hash comments", "# Sort names first, then numbers.\ndef key(x):\n    pass", "Sort names first, then numbers."},
		{"licence first", "// Copyright 2024 The Authors. All rights reserved.\n\n/* Opens the socket. */\nint open();", "Opens the socket."},
		{"licence then doc", "/* SPDX-License-Identifier: MIT */\n/* Opens the socket. */\nint open();", "Opens the socket."},
		{"comment among code", "def f(x):\n    # add one to it\n    return x + 1", ""},
		{"string among code", "x = 1\ny = \"\"\"not a docstring here\"\"\"", ""},
		{"one word", "def f():\n    \"\"\"TODO\"\"\"\n", ""},
		{"preprocessor", "#include <stdio.h>\nint main() {}", ""},
		{"shebang", "#!/bin/sh\necho hi", ""},
		{"unclosed", "def f():\n    \"\"\"Starts but never\n    ends", "Starts but never ends"},
		{"long", "// " + long, strings.TrimSpace(truncate(strings.TrimSpace(long), maxLead))},
		{"fenced", "```js\n/** Splits a string into words. */\nfunction words(s) {}\n```\n", "Splits a string into words."},
		{"prose then fence", "Use it like this:\n\n```go\n// Words splits s.\nfunc Words(s string) []string\n```\n", "Words splits s."},
		{"none", "return 1", ""},
	} {
		if got := leadSentence(tc.code); got != tc.want {
			t.Errorf("%s: leadSentence = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestLeadCounts checks that a function's doc comment summary outweighs
// the same words elsewhere: without the lead, the shorter function, which
// only mentions them in a comment among its code, would rank first.
func TestLeadCounts(t *testing.T) {
	ix := openTest(t, mapFS(nil), Options{})
	docs := []Document{
		{Path: "a", Scope: ScopeDocs, Format: "text", Text: "def a(x):\n    \"\"\"Reverse the order of words.\n\n    Keeps punctuation attached.\n    \"\"\"\n    return x[::-1]\n"},
		{Path: "b", Scope: ScopeDocs, Format: "text", Text: "def b(x):\n    # reverse order of words\n    return x\n"},
		{Path: "c", Scope: ScopeDocs, Format: "markdown", Text: "# Guide\n\n```python\ndef c():\n    \"\"\"Open the gates.\"\"\"\n```\n"},
	}
	if err := ix.Put(ctx, docs); err != nil {
		t.Fatal(err)
	}
	expectTop(t, ix, "reverse order of words", "a")
	p := newTestWorker(t).process(&doc{path: "c"}, docs[2].Text, formatMarkdown, "")
	if len(p.chunks) != 1 || p.chunks[0].lead != "Open the gates." {
		t.Errorf("fenced code: chunks %+v; want one with the lead", p.chunks)
	}
	p = newTestWorker(t).process(&doc{path: "d"}, "# Notes\n\nPlain prose.\n\n    # not a lead here\n", formatMarkdown, "")
	for _, c := range p.chunks {
		if c.lead != "" {
			t.Errorf("prose chunk got lead %q", c.lead)
		}
	}
}

func newTestWorker(t *testing.T) *worker {
	t.Helper()
	w, err := newWorker(512)
	if err != nil {
		t.Fatal(err)
	}
	w.keepText = true
	return w
}

func FuzzLeadSentence(f *testing.F) {
	f.Add("def f():\n    \"\"\"Doc here.\"\"\"")
	f.Add("/** a\n * b */")
	f.Add("// x y\n// z")
	f.Add("# a b\n#\n# c")
	f.Add("r'''")
	f.Fuzz(func(t *testing.T, code string) {
		s := leadSentence(code)
		if len(s) > maxLead+len("…") {
			t.Errorf("lead of %d bytes", len(s))
		}
		if utf8.ValidString(code) && !utf8.ValidString(s) {
			t.Errorf("lead %q of valid text is not valid UTF-8", s)
		}
	})
}
