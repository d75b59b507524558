package main

import (
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
