package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/internal/graphstore"
)

func TestSymbolsCommand(t *testing.T) {
	root := writeTree(t, map[string]string{
		"base.py": "class Base:\n    def register(self, x):\n        \"\"\"Register x. Details.\"\"\"\n        pass\n",
		"app.py":  "from base import Base\n\nclass App(Base):\n    def run(self):\n        self.register(1)\n",
	})
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"register"}, 0, "base.Base.register (method) base.py:2-4\n    def register(self, x)\n    Register x."},
		{[]string{"App.register"}, 0, "base.Base.register (method) base.py:2-4 via app.App"},
		{[]string{"regster"}, 0, "no exact or partial match for \"regster\"; near names:\nbase.Base.register"},
		{[]string{"--kind", "class", "App"}, 0, "app.App (class) app.py:3-5"},
		{[]string{"zzzzzz"}, 1, ""},
		{[]string{"--kind", "klass", "App"}, 1, ""},
		{[]string{"--limit", "0", "App"}, 2, ""},
	} {
		code, stdout, stderr := runCLI(t, append([]string{"symbols", "--root", root}, tc.args...)...)
		if code != tc.code || !strings.Contains(stdout, tc.want) {
			t.Errorf("symbols %v: exit %d, %q, %s; want %d, %q", tc.args, code, stdout, stderr, tc.code, tc.want)
		}
	}
	// The saved graph is there, and a second run reads it.
	if _, err := os.Stat(filepath.Join(root, ".artifacts", ".index", "graph.bin")); err != nil {
		t.Errorf("no saved graph: %v", err)
	}
	code, stdout, _ := runCLI(t, "symbols", "--root", root, "--json", "run")
	var js struct {
		Symbols []struct{ Qualified, Path string }
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &js) != nil || len(js.Symbols) != 1 || js.Symbols[0].Qualified != "app.App.run" {
		t.Errorf("symbols --json: exit %d, %s", code, stdout)
	}
}

func TestCalleesCommand(t *testing.T) {
	root := writeTree(t, map[string]string{
		"main.py": "from lib import f\n\ndef g():\n    f()\n\ndef h():\n    g()\n",
		"lib.py":  "def f():\n    pass\n",
	})
	code, stdout, stderr := runCLI(t, "callees", "--root", root, "--depth", "2", "h")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := "main.h (main.py:6)\n  -> main.g (main.py:7) [local] def main.py:3\n    -> lib.f (main.py:4) [import] def lib.py:1\n"
	if stdout != want {
		t.Errorf("callees:\n%s\nwant\n%s", stdout, want)
	}
	// A change is seen: the saved graph is brought up to date.
	os.WriteFile(filepath.Join(root, "main.py"), []byte("def g():\n    pass\n\ndef h():\n    g()\n"), 0o644)
	if _, stdout, _ := runCLI(t, "callees", "--root", root, "--depth", "2", "h"); strings.Contains(stdout, "lib.f") {
		t.Errorf("callees after an edit still lists lib.f:\n%s", stdout)
	}
	if code, _, stderr := runCLI(t, "callees", "--root", root, "--depth", "0", "h"); code != 2 || !strings.Contains(stderr, "-depth: 0 is out of range; want an integer from 1 to 10") {
		t.Errorf("--depth 0: exit %d, %s", code, stderr)
	}
	code, stdout, _ = runCLI(t, "callers", "--root", root, "--json", "g")
	var js struct {
		Rows []struct{ Symbol, Site, Resolution string }
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &js) != nil || len(js.Rows) != 1 || js.Rows[0].Site != "main.py:5" || js.Rows[0].Resolution != "local" {
		t.Errorf("callers --json: exit %d, %s", code, stdout)
	}
}

// TestLookupReadsSymbolsIndex checks callers, callees and symbols answer
// from the saved symbols index when the tree is unchanged (graph.bin is
// not needed: removed, it stays so), as they answer from the graph, and
// that a damaged index is rebuilt, not read.
func TestLookupReadsSymbolsIndex(t *testing.T) {
	root := writeTree(t, map[string]string{
		"main.py": "from lib import f\n\ndef g():\n    f()\n\ndef h():\n    g()\n",
		"lib.py":  "def f():\n    \"\"\"F does it. Then more.\"\"\"\n    pass\n\nclass K:\n    def f(self):\n        pass\n",
	})
	old := time.Now().Add(-time.Hour)
	for _, p := range []string{"main.py", "lib.py"} {
		os.Chtimes(filepath.Join(root, p), old, old)
	}
	queries := [][]string{
		{"callers", "--depth", "2", "lib.f"},
		{"callees", "--json", "main.h"},
		{"symbols", "--json", "f"},
		{"symbols", "K.ff"},
	}
	answer := func(q []string) string {
		t.Helper()
		code, stdout, stderr := runCLI(t, append([]string{q[0], "--root", root}, q[1:]...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", q, code, stderr)
		}
		return stdout
	}
	var want []string
	for _, q := range queries {
		want = append(want, answer(q)) // the first builds graph.bin and symbols.idx
	}
	index := filepath.Join(root, ".artifacts", ".index")
	if err := os.Remove(filepath.Join(index, graphstore.FileName)); err != nil {
		t.Fatal(err)
	}
	for i, q := range queries {
		if got := answer(q); got != want[i] {
			t.Errorf("%v from the symbols index:\n%s\nwant, from the graph:\n%s", q, got, want[i])
		}
	}
	if _, err := os.Stat(filepath.Join(index, graphstore.FileName)); err == nil {
		t.Error("graph.bin was rebuilt: the symbols index was not used")
	}
	// Damage a byte of the nodes: the answer comes from a rebuild.
	file := filepath.Join(index, graphstore.SymbolsFile)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/3] ^= 0xff
	os.WriteFile(file, data, 0o644)
	for i, q := range queries {
		if got := answer(q); got != want[i] {
			t.Errorf("%v over a damaged symbols index:\n%s\nwant:\n%s", q, got, want[i])
		}
	}
	s, err := graphstore.OpenSymbols(context.Background(), graphstore.Options{Root: root})
	if err != nil {
		t.Fatalf("the damaged index was not rebuilt: %v", err)
	}
	defer s.Close()
	if err := s.Verify(); err != nil {
		t.Errorf("the rebuilt index: %v", err)
	}
}

// TestCallersOfFormatTwins: a module shipped as CommonJS, as an ES module
// and as a declaration file (graphql's language/parser.js, .mjs, .d.ts)
// is named by its source's definition, with the others' places; each
// caller reaches its own format's, once; a path names one file's.
func TestCallersOfFormatTwins(t *testing.T) {
	root := writeTree(t, map[string]string{
		"parser.d.ts": "export declare function parse(source: string): object;\n",
		"parser.js":   "'use strict';\nexports.parse = parse;\nfunction parse(source) {\n  return {};\n}\n",
		"parser.mjs":  "export function parse(source) {\n  return {};\n}\n",
		"index.js":    "'use strict';\nvar _parser = require('./parser.js');\nfunction run(s) {\n  return (0, _parser.parse)(s);\n}\nexports.run = run;\n",
		"index.mjs":   "import { parse } from './parser.mjs';\nexport function run(s) {\n  return parse(s);\n}\n",
	})
	code, stdout, stderr := runCLI(t, "callers", "--root", root, "parse")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := "parser.parse (parser.js:3)\n  (also defined at parser.mjs:1, parser.d.ts:1)\n" +
		"  <- index.run (index.js:4) [import]\n  <- index.run (index.mjs:3) [import]\n"
	if stdout != want {
		t.Errorf("callers:\n%s\nwant\n%s", stdout, want)
	}
	code, stdout, _ = runCLI(t, "callees", "--root", root, "index.mjs:run")
	if want := "index.run (index.mjs:2)\n  -> parser.parse (index.mjs:3) [import] def parser.mjs:1\n"; code != 0 || stdout != want {
		t.Errorf("callees of index.mjs:run: exit %d\n%s\nwant\n%s", code, stdout, want)
	}
}

// TestCallersOfOverloaded: path:Name names the function of a file named
// for it (rxjs's mergeMap.ts), not the file's module, and its
// implementation, not its overloads' signatures.
func TestCallersOfOverloaded(t *testing.T) {
	root := writeTree(t, map[string]string{
		"mergeMap.ts": "export function mergeMap(f: () => void): void;\nexport function mergeMap(f: () => void, n: number): void;\n" +
			"export function mergeMap(f: () => void, n?: number): void {\n  f();\n}\n",
		"concatMap.ts": "import { mergeMap } from './mergeMap';\nexport function concatMap(f: () => void) {\n  return mergeMap(f, 1);\n}\n",
	})
	code, stdout, stderr := runCLI(t, "callers", "--root", root, "mergeMap.ts:mergeMap")
	if want := "mergeMap.mergeMap (mergeMap.ts:3)\n  <- concatMap.concatMap (concatMap.ts:3) [import]\n"; code != 0 || stdout != want {
		t.Errorf("callers mergeMap.ts:mergeMap: exit %d %s\n%s\nwant\n%s", code, stderr, stdout, want)
	}
}
