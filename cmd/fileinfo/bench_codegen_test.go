package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGenQuery(t *testing.T) {
	for _, c := range []struct{ sentence, symbol, want string }{
		// The name's words and their forms go; so does code.
		{"RegisterBlueprint registers a blueprint on the running web application.", "Flask.RegisterBlueprint", "a on the running web application"},
		{"Return True if the `timeout` expired before the lock was acquired.", "Lock.acquire", "return true if the expired before the lock was"},
		{"Sends the response body using res.write() and closes it.", "send", "the response body using and closes it"},
		// Too little is left, or nothing to ask.
		{"Deprecated: use Foo instead of this old helper.", "bar", ""},
		{"Parse the value.", "parse", ""},
		{"See the docs at https://example.com for more.", "x", ""},
	} {
		if got := genQuery(c.sentence, c.symbol); got != c.want {
			t.Errorf("genQuery(%q, %q) = %q, want %q", c.sentence, c.symbol, got, c.want)
		}
	}
}

func TestFirstSentence(t *testing.T) {
	doc := "Loads the config, e.g. from a file. Then more.\n\n:param x: the x"
	if got, want := firstSentence(doc), "Loads the config, e.g. from a file."; got != want {
		t.Errorf("firstSentence = %q, want %q", got, want)
	}
}

// TestBlankDoc checks that blanking keeps every line and removes only
// the doc comment of the symbol, in each comment style.
func TestBlankDoc(t *testing.T) {
	for _, c := range []struct {
		name, src  string
		line, end  int
		want       string
		docstrings bool
	}{
		{"go", "package p\n\n// F does a thing\n// well.\nfunc F() {\n}\n", 5, 6, "package p\n\n\n\nfunc F() {\n}\n", false},
		{"jsdoc", "x()\n/**\n * Adds.\n * @param a\n */\nfunction add(a) {\n  return a\n}\n", 6, 8, "x()\n\n\n\n\nfunction add(a) {\n  return a\n}\n", false},
		{"py", "class A:\n    def f(self,\n          x):\n        \"\"\"Do it.\n\n        More.\n        \"\"\"\n        return x\n", 2, 8, "class A:\n    def f(self,\n          x):\n        pass\n\n\n\n        return x\n", true},
		{"py-one-line", "# note\ndef g():\n    'One line.'\n    return 1\n", 2, 4, "\ndef g():\n    pass\n    return 1\n", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			lines := strings.Split(c.src, "\n")
			if c.docstrings {
				blankDocstring(lines, c.line-1, c.end-1)
			}
			blankComment(lines, c.line-1)
			if got := strings.Join(lines, "\n"); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestBlankFromQrels: --blank blanks the doc comments of the data set's
// own qrels, whatever the rule would pick now, and leaves the data set as
// it is.
func TestBlankFromQrels(t *testing.T) {
	set, repos := t.TempDir(), t.TempDir()
	files := map[string]string{
		"repos.tsv":     "name\tlang\tkind\tsource\tversion\tpath\tsplit\nm\tgo\tgomod\texample.com/m\tv1.0.0\t.\ttune\n",
		"queries.jsonl": `{"_id":"m-01","repo":"m","text":"adds two numbers and rounds the sum"}` + "\n",
		"qrels.tsv":     "query-id\trepo\tpath\tsymbol\tstart\tend\nm-01\tm\tadd.go\tAdd\t5\t8\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(set, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src := "package m\n\n// Add adds two numbers\n// and rounds the sum.\nfunc Add(a, b float64) int {\n\ts := a + b\n\treturn int(s + 0.5)\n}\n\n" +
		"// Sub subtracts the second number from the first one, and the rule might pick it.\nfunc Sub(a, b int) int {\n\td := a - b\n\treturn d\n}\n"
	dir := filepath.Join(repos, "m")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "add.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs strings.Builder
	if err := runBenchCodeGen(context.Background(), []string{"--blank", "--repos", repos, set}, &out, &errs); err != nil {
		t.Fatalf("%v: %s", err, errs.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "add.go"))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(src, "// Add adds two numbers\n// and rounds the sum.\n", "\n\n", 1)
	if string(b) != want {
		t.Errorf("add.go after --blank:\n%s\nwant\n%s", b, want)
	}
	for name, text := range files {
		if b, err := os.ReadFile(filepath.Join(set, name)); err != nil || string(b) != text {
			t.Errorf("%s changed: %v %q", name, err, b)
		}
	}
	if err := runBenchCodeGen(context.Background(), []string{"--blank", "--repos", repos, set}, &out, &errs); err == nil || !strings.Contains(err.Error(), "blanked already") {
		t.Errorf("second run: %v, want blanked already", err)
	}
}
