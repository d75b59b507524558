package main

import (
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/extract"
)

func TestSummary(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"Return the md5 hash of a string.\n\nMore detail.", "Return the md5 hash of a string."},
		{"Converts a string to an integer.\n@param string A string to convert.", "Converts a string to an integer."},
		{"Split the path\ninto head and tail", "Split the path into head and tail"},
		{"Version 1.2 of the format. Second sentence.", "Version 1.2 of the format."},
	} {
		if got := summary(c.doc); got != c.want {
			t.Errorf("summary(%q) = %q, want %q", c.doc, got, c.want)
		}
	}
}

func TestWithoutDocstring(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"one line", "def f(x):\n    \"\"\"Doc.\"\"\"\n    return x", "def f(x):\n    return x"},
		{"multi-line", "def f(x):\n    '''Doc\n    more.\n    '''\n    return x", "def f(x):\n    return x"},
		{"raw, after a wrapped def", "def f(a,\n      b):  # note\n    r\"\"\"Doc.\"\"\"\n    return a", "def f(a,\n      b):  # note\n    return a"},
		{"plain string", "def f():\n    'Doc.'\n    pass", "def f():\n    pass"},
		{"no docstring", "def f():\n    x = 1\n    return x", "def f():\n    x = 1\n    return x"},
	} {
		if got := withoutDocstring(strings.Split(c.src, "\n")); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestFilePairs(t *testing.T) {
	ex, err := extract.New(os.TempDir(), extract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	py := []byte(`def md5_hex(text):
    """Return the md5 hash of a string as hex.

    Longer text.
    """
    import hashlib
    return hashlib.md5(text.encode()).hexdigest()

def short():
    """Too short to pair."""

def undocumented(x):
    y = x + 1
    return y
`)
	f, err := ex.Source(t.Context(), "m.py", py)
	if err != nil {
		t.Fatal(err)
	}
	got := filePairs(f, py)
	want := pair{"Return the md5 hash of a string as hex.", "def md5_hex(text):\n    import hashlib\n    return hashlib.md5(text.encode()).hexdigest()", "md5_hex", "Longer text."}
	if len(got) != 1 || got[0] != want {
		t.Errorf("python pairs = %q, want [%q]", got, want)
	}

	dts := []byte(`interface Array<T> {
    /**
     * Returns the index of the first occurrence of a value in an array.
     * @param searchElement The value to locate.
     */
    indexOf(searchElement: T): number;
}
`)
	f, err = ex.Source(t.Context(), "lib.d.ts", dts)
	if err != nil {
		t.Fatal(err)
	}
	got = filePairs(f, dts)
	want = pair{"Returns the index of the first occurrence of a value in an array.", "    indexOf(searchElement: T): number;", "indexOf", "@param searchElement The value to locate."}
	if len(got) != 1 || got[0] != want {
		t.Errorf("declaration pairs = %q, want [%q]", got, want)
	}
}

func TestPackName(t *testing.T) {
	for pkg, want := range map[string]string{
		"@types/node@22.10.1": "types-node-22.10.1.tgz",
		"lodash@4.17.21":      "lodash-4.17.21.tgz",
	} {
		if got := packName(pkg); got != want {
			t.Errorf("packName(%q) = %q, want %q", pkg, got, want)
		}
	}
}

func TestIsTestPath(t *testing.T) {
	for name, want := range map[string]bool{
		"test/test_os.py": true, "idlelib/idle_test/x.py": true, "unittest/case.py": false,
		"json/decoder.py": false, "test_x.py": true,
	} {
		if got := isTestPath(name); got != want {
			t.Errorf("isTestPath(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestDebFileGlob(t *testing.T) {
	for pkg, want := range map[string]string{
		"python3-numpy=1:1.24.2-1+deb12u1": "python3-numpy_1%3a1.24.2-1+deb12u1_*.deb",
		"python3-scipy=1.10.1-2":           "python3-scipy_1.10.1-2_*.deb",
	} {
		if got := debFileGlob(pkg); got != want {
			t.Errorf("debFileGlob(%q) = %q, want %q", pkg, got, want)
		}
	}
}

// TestDebCorpora checks the pins of the Debian corpora and which of a
// package's files they read: its Python modules, not its tests or data.
func TestDebCorpora(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range debCorpora {
		name, version, ok := strings.Cut(c.pkg, "=")
		if !ok || version == "" || !strings.HasPrefix(name, "python3-") || c.name() != name {
			t.Errorf("%q: want python3-NAME=VERSION", c.pkg)
		}
		if seen[name] {
			t.Errorf("%s pinned twice", name)
		}
		seen[name] = true
		if !strings.HasPrefix(c.integrity, "sha256-") || len(c.integrity) != len("sha256-")+44 || c.license == "" || !c.deb {
			t.Errorf("%s: integrity %q, licence %q", c.pkg, c.integrity, c.license)
		}
	}
	keep := debCorpora[0].keep
	for name, want := range map[string]bool{
		"usr/lib/python3/dist-packages/numpy/linalg/linalg.py":            true,
		"usr/lib/python3/dist-packages/numpy/linalg/tests/test_linalg.py": false,
		"usr/lib/python3/dist-packages/numpy/core/_methods.pyi":           false,
		"usr/share/doc/python3-numpy/examples/example.py":                 false,
	} {
		if got := keep(name); got != want {
			t.Errorf("keep(%q) = %v, want %v", name, got, want)
		}
	}
	if c := corpora[0]; c.name() != "pyodide" {
		t.Errorf("npm corpus name %q, want pyodide", c.name())
	}
}

func TestSectionItems(t *testing.T) {
	rest := strings.Repeat("More about the cache and how it expires entries. ", 6)
	page := "# Title\n\nShort.\n\n## Caching results\n\nThe cache keeps every response for ten minutes by default. " +
		"It is shared.\n\n" + rest + "\n\n```sh\n# not a heading\n```\n\n## Install\n\n```sh\nnpm i x\n```\n" + rest + "\n"
	got := sectionItems(page)
	if len(got) != 1 {
		t.Fatalf("items = %q, want one, of the caching section", got)
	}
	it := got[0]
	if it.name != "Caching results" || it.query != "The cache keeps every response for ten minutes by default." {
		t.Errorf("item %q: %q", it.name, it.query)
	}
	if strings.Contains(it.code, "ten minutes") || !strings.HasPrefix(it.code, "It is shared.") || !strings.Contains(it.code, "# not a heading") {
		t.Errorf("document %q: want the section without its first sentence, fences whole", it.code)
	}
}

func TestWriteKnownItem(t *testing.T) {
	src := t.TempDir()
	var b strings.Builder
	for i := range 5 {
		fmt.Fprintf(&b, "// F%d returns the sum of a list of %d integer values.\nfunc F%d(xs []int) int {\n\ts := %d\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s\n}\n\n", i, i, i, i)
	}
	if err := os.WriteFile(filepath.Join(src, "sum.go"), []byte("package sum\n\n"+b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := writeKnownItem(dir, []string{src}, knownItemOptions{docs: 4, queries: 2}); err != nil {
		t.Fatal(err)
	}
	lines := func(name string) []string {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSpace(string(data)), "\n")
	}
	corpus, queries, qrels := lines("corpus.jsonl"), lines("queries.jsonl"), lines("qrels/test.tsv")
	if len(corpus) != 4 || len(queries) != 2 || len(qrels) != 3 || qrels[1] != "q0\tc0\t1" {
		t.Fatalf("corpus %d, queries %d, qrels %q", len(corpus), len(queries), qrels)
	}
	var q struct{ Text string }
	if err := json.Unmarshal([]byte(queries[0]), &q); err != nil || !strings.HasPrefix(q.Text, "returns the sum") {
		t.Errorf("query %s: want the doc sentence without the function's name", queries[0])
	}
	for _, c := range corpus {
		if strings.Contains(c, "// F") {
			t.Errorf("document %s keeps its doc comment", c)
		}
	}
}

func TestCheckIntegrity(t *testing.T) {
	data := []byte("package bytes")
	s256, s512 := sha256.Sum256(data), sha512.Sum512(data)
	for _, c := range []struct {
		integrity string
		ok        bool
	}{
		{"sha256-" + base64.StdEncoding.EncodeToString(s256[:]), true},
		{"sha512-" + base64.StdEncoding.EncodeToString(s512[:]), true},
		{"sha256-" + base64.StdEncoding.EncodeToString(s512[:]), false},
		{"sha512-" + base64.StdEncoding.EncodeToString(s256[:]), false},
		{"md5-" + base64.StdEncoding.EncodeToString(s256[:16]), false},
		{"", false},
	} {
		if err := checkIntegrity("pkg", data, c.integrity); (err == nil) != c.ok {
			t.Errorf("checkIntegrity(%q) = %v, want ok %v", c.integrity, err, c.ok)
		}
	}
}

func TestDocRest(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"Return the hash.\n\n    Longer   text,\n    on two lines.", "Longer text, on two lines."},
		{"Only one sentence.", ""},
		{"First. Second sentence.", "Second sentence."},
	} {
		if got := docRest(c.doc, summary(c.doc)); got != c.want {
			t.Errorf("docRest(%q) = %q, want %q", c.doc, got, c.want)
		}
	}
}

func TestPairCache(t *testing.T) {
	dir := t.TempDir()
	c := corpus{source: source{pkg: "python3-x=1:1.0-1+b1", integrity: "sha256-abc/d+e="}}
	if _, ok := readPairCache(dir, c); ok {
		t.Fatal("empty cache: pairs found")
	}
	ps := []pair{{query: "Return x.", code: "def f():\n    return x", name: "f", rest: "More."}, {query: "q", code: "c"}}
	if err := writePairCache(dir, c, ps); err != nil {
		t.Fatal(err)
	}
	got, ok := readPairCache(dir, c)
	if !ok || !slices.Equal(got, ps) {
		t.Errorf("cache gave %q, %v; want %q", got, ok, ps)
	}
	other := c
	other.integrity = "sha256-other="
	if _, ok := readPairCache(dir, other); ok {
		t.Error("another integrity read the cached pairs")
	}
	if _, ok := readPairCache("", c); ok {
		t.Error("no cache dir: pairs found")
	}
}
