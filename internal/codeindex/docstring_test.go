package codeindex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const shopPy = `"""Shop sells things."""

import os


class Store:
    """Keeps the prices of things.

    A store reads them once.
    """

    limit = 10

    @property
    def size(
        self,
        extra: int = 0,  # extra room
    ) -> int:
        r"""Tell how many prices are kept."""
        return len(self.prices) + extra

    def price(self, name):
        """
        Look a price up by name, with a long explanation that goes on
        for a while and names every corner case of the lookup.
        """
        return self.prices[name]

    def note(self):
        # Writes the note down.
        msg = """not a docstring"""
        return msg


# Opens the shop.
def open_shop():
    x = 1
    "a string later on"
    return Store()
`

// TestPythonDocstringOnce checks that a Python symbol's docstring is in
// its text once, as its Doc, and not again at the head of its body,
// where it stood before the code (a long one left the code out of the
// indexed head), while strings that are not the docstring stay.
func TestPythonDocstringOnce(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "shop.py"), []byte(shopPy), 0o644); err != nil {
		t.Fatal(err)
	}
	f := extractOne(t, root, "shop.py")
	cf := File(f, []byte(shopPy), nil)
	for _, c := range []struct {
		sym, doc, gone string
		keep           []string
	}{
		{"Store.size", "Tell how many prices are kept.", "Tell how many", []string{"def size(", "extra: int = 0,", "return len(self.prices) + extra"}},
		{"Store.price", "Look a price up by name", "Look a price", []string{"def price(self, name):", "return self.prices[name]"}},
		{"Store", "Keeps the prices of things.", "Keeps the prices", []string{"class Store:", "limit = 10"}},
		{"Store.note", "", "\x00", []string{"# Writes the note down.", `msg = """not a docstring"""`}}, // no docstring
		{"open_shop", "Opens the shop.", "Opens the shop", []string{`"a string later on"`, "return Store()"}},
	} {
		s := symbol(t, cf, c.sym)
		if !strings.HasPrefix(s.Doc, c.doc) {
			t.Errorf("%s: doc %q, want %q first", c.sym, s.Doc, c.doc)
		}
		if strings.Contains(s.Body, c.gone) {
			t.Errorf("%s: body repeats the docstring:\n%s", c.sym, s.Body)
		}
		for _, k := range c.keep {
			if !strings.Contains(s.Body, k) {
				t.Errorf("%s: body lost %q:\n%s", c.sym, k, s.Body)
			}
		}
	}
	if s := symbol(t, cf, "Store.price"); strings.Contains(s.Body, `"""`) || strings.Contains(s.Body, "corner case") {
		t.Errorf("Store.price: the docstring's other lines stayed:\n%s", s.Body)
	}
}

// TestDocstringLinesOnlyItsOwn checks the line matching alone: a string
// that opens the body but is not the docstring read (other words) stays,
// and so does an unclosed one.
func TestDocstringLinesOnlyItsOwn(t *testing.T) {
	lines := splitLines([]byte("def f():\n    'other words here'\n    return 1\n"))
	if _, _, ok := docstringLines(lines, 1, 3, "Some doc."); ok {
		t.Error("a string with other words taken for the docstring")
	}
	if from, to, ok := docstringLines(lines, 1, 3, "other words here"); !ok || from != 2 || to != 2 {
		t.Errorf("one-line docstring: %d-%d %v", from, to, ok)
	}
	lines = splitLines([]byte("def f():\n    \"\"\"Open doc\n    return 1\n"))
	if _, _, ok := docstringLines(lines, 1, 3, "Open doc"); ok {
		t.Error("an unclosed docstring taken")
	}
}

func FuzzDocstringLines(f *testing.F) {
	f.Add(shopPy, 14, 20, "Tell how many prices are kept.")
	f.Add("def f():\n    '''x\n", 1, 2, "x")
	f.Add("", 0, 5, "doc")
	f.Fuzz(func(t *testing.T, src string, start, end int, doc string) {
		lines := splitLines([]byte(src))
		from, to, ok := docstringLines(lines, start, end, doc)
		if !ok {
			return
		}
		if from <= start || from > to || to > min(end, len(lines)) {
			t.Fatalf("lines %d-%d out of %d-%d (%d lines)", from, to, start, end, len(lines))
		}
		if b := body(lines, start, end, from, to); len(b) > maxBody+1 {
			t.Fatalf("body of %d bytes", len(b))
		}
	})
}
