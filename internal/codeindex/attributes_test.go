package codeindex

import (
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/extract"
)

// TestAttributesFrom: the decorators, annotations and attributes right
// above a symbol's line are its own, over several lines too; a comment,
// a blank line or the code before ends them.
func TestAttributesFrom(t *testing.T) {
	for _, c := range []struct {
		name, lang, src string
		line, want      int
	}{
		{"python route", "python", "x = 1\n\n@app.route(\"/checkout\")\ndef confirm():\n    pass\n", 4, 3},
		{"python stacked, multi-line", "python", "import x\n\n@login_required\n@app.route(\n    \"/checkout\",\n    methods=[\"POST\"])\ndef confirm():\n", 7, 3},
		{"python comment above", "python", "# the checkout\ndef confirm():\n", 2, 2},
		{"python after a block", "python", "class A:\n    x = 1\n    def f(self):\n", 3, 3},
		{"java javadoc then annotations", "java", "/** Lists. */\n@Deprecated\n@GetMapping(\"/orders\")\npublic String list() {\n", 4, 2},
		{"java after a field", "java", "int n;\npublic String list() {\n", 2, 2},
		{"csharp attribute", "csharp", "}\n[HttpGet(\"orders\")]\n[Obsolete]\npublic IActionResult List()\n", 4, 2},
		{"csharp array is no attribute", "csharp", "[0]\nvoid F()\n", 2, 2},
		{"rust", "rust", "/// Old.\n#[deprecated(note = \"use new\")]\npub fn old() {\n", 3, 2},
		{"go has none", "go", "// Deprecated: use New.\nfunc Old() {\n", 2, 2},
		{"first line", "python", "def f():\n", 1, 1},
	} {
		lines := splitLines([]byte(c.src))
		if got := attributesFrom(lines, c.line, c.lang); got != c.want {
			t.Errorf("%s: attributesFrom = %d, want %d", c.name, got, c.want)
		}
	}
}

// FuzzAttributesFrom: any text and line gives a line within [1, line],
// and never reads outside the file.
func FuzzAttributesFrom(f *testing.F) {
	f.Add("@a\n@b(\n x)\ndef f():\n", 4, "python")
	f.Add("[X]\n[\nvoid F()\n", 3, "csharp")
	f.Add("", 1, "rust")
	f.Fuzz(func(t *testing.T, src string, line int, lang string) {
		lines := splitLines([]byte(src))
		got := attributesFrom(lines, line, lang)
		_ = attributeText(lines, line, lang)
		if line >= 1 && line <= len(lines)+1 && (got < 1 || got > line) {
			t.Fatalf("attributesFrom(%q, %d) = %d", src, line, got)
		}
		if (line < 1 || line > len(lines)+1) && got != line {
			t.Fatalf("attributesFrom(%q, %d) = %d, want the line back", src, line, got)
		}
	})
}

// TestAttributeText: of the attributes above a symbol, those holding a
// string or a deprecation mark lead its body, each with its continuation
// lines; bare ones do not.
func TestAttributeText(t *testing.T) {
	for _, c := range []struct {
		name, lang, src string
		line            int
		want            string
	}{
		{"route kept, bare dropped", "python", "@property\n@app.route(\n    \"/checkout\")\n@login_required\ndef confirm():\n", 5,
			"@app.route(\n    \"/checkout\")\n"},
		{"bare only", "python", "@property\ndef name(self):\n", 2, ""},
		{"deprecated, no string", "java", "@Override\n@Deprecated\npublic void run() {\n", 3, "@Deprecated\n"},
		{"rust note", "rust", "#[inline]\n#[deprecated(note = \"use new\")]\npub fn old() {\n", 3, "#[deprecated(note = \"use new\")]\n"},
		{"csharp obsolete", "csharp", "[Obsolete]\n[HttpGet(\"orders\")]\npublic IActionResult List()\n", 3, "[Obsolete]\n[HttpGet(\"orders\")]\n"},
		{"none", "go", "func F() {\n", 1, ""},
	} {
		if got := attributeText(splitLines([]byte(c.src)), c.line, c.lang); got != c.want {
			t.Errorf("%s: attributeText = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestFileBodyHoldsAttributes: a decorated function's document holds its
// route's decorator, where a question about the route finds it; its line
// is still its name's.
func TestFileBodyHoldsAttributes(t *testing.T) {
	src := []byte("from flask import Flask\napp = Flask(__name__)\n\n\n@app.route(\"/checkout/confirm\", methods=[\"POST\"])\n@login_required\ndef confirm():\n    return \"ok\"\n")
	f := &extract.File{Path: "app.py", Language: "python", Module: "app", Symbols: []extract.Symbol{
		{Name: "confirm", Qualified: "app.confirm", Kind: extract.KindFunction, Signature: "def confirm()", StartLine: 7, EndLine: 8},
	}}
	cf := File(f, src, nil)
	for _, s := range cf.Symbols {
		if s.Name != "app.confirm" {
			continue
		}
		if !strings.HasPrefix(s.Body, "@app.route(\"/checkout/confirm\", methods=[\"POST\"])\ndef confirm():") || s.Line != 7 {
			t.Errorf("body %q, line %d; want the route's decorator first and not the bare one, line 7", s.Body, s.Line)
		}
		return
	}
	t.Fatal("no document for app.confirm")
}
