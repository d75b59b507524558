package main

import (
	"os"
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
	want := pair{"Return the md5 hash of a string as hex.", "def md5_hex(text):\n    import hashlib\n    return hashlib.md5(text.encode()).hexdigest()"}
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
	want = pair{"Returns the index of the first occurrence of a value in an array.", "    indexOf(searchElement: T): number;"}
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
