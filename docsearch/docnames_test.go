package docsearch

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestPassagesNameCode: a README section is cut into passages at blank
// lines, list items and headings; each passage names what its code spans
// call or spell as a path, what its heading calls, and what the code block
// after it calls, and nothing of an example's built-ins.
func TestPassagesNameCode(t *testing.T) {
	readme := strings.Join([]string{
		"You may specify a required (mandatory) option using `.requiredOption()`.",
		"",
		"```js",
		"program.requiredOption('-c, --cheese <type>', 'pizza must have cheese');",
		"console.log(program.opts());",
		"```",
		"",
		"* `minVersion(range)`: Return the lowest version that can match the range.",
		"* `intersects(r1, r2)`: Return true if the two ranges intersect.",
		"1. Call ``Flask.register_blueprint`` to attach it, or :func:`url_for`.",
		"",
		"### semver.clean(version)",
		"Cleans a string into a valid version.",
	}, "\n")
	got := passages("Options", splitLines(readme))
	want := []passage{
		{"Options\nYou may specify a required (mandatory) option using `.requiredOption()`.\n", []string{"opts", "requiredOption"}},
		{"Options\n* `minVersion(range)`: Return the lowest version that can match the range.\n", []string{"minVersion"}},
		{"Options\n* `intersects(r1, r2)`: Return true if the two ranges intersect.\n", []string{"intersects"}},
		{"Options\n1. Call ``Flask.register_blueprint`` to attach it, or :func:`url_for`.\n", []string{"register_blueprint", "url_for"}},
		{"semver.clean(version)\nCleans a string into a valid version.\n", []string{"clean"}},
	}
	if len(got) != len(want) {
		t.Fatalf("%d passages %q, want %d", len(got), got, len(want))
	}
	for i := range want {
		if got[i].text != want[i].text || !slices.Equal(got[i].names, want[i].names) {
			t.Errorf("passage %d: %q %q, want %q %q", i, got[i].text, got[i].names, want[i].text, want[i].names)
		}
	}
}

// TestCodeNames: a call names its callee, a bare span names the last part
// of its path, prose in a span names nothing, and keywords name nothing.
func TestCodeNames(t *testing.T) {
	for _, c := range []struct {
		s    string
		span bool
		want []string
	}{
		{"app.use(mw)", false, []string{"use"}},
		{"Router", true, []string{"Router"}},
		{"Router", false, nil},
		{"res.json", true, []string{"json"}},
		{"Command#option()", true, []string{"option"}},
		{"npm install semver", true, nil},
		{"if (x) return done(y)", false, []string{"done"}},
		{"require('x')", true, nil},
		{"", true, nil},
	} {
		if got := codeNames(c.s, c.span); !slices.Equal(got, c.want) {
			t.Errorf("codeNames(%q, %v) = %q, want %q", c.s, c.span, got, c.want)
		}
	}
}

// docsWeighed returns the built-in code weights with the docs feature
// weighed 1, the best of the weights tried on the tuning split in the
// twenty-fifth session (docs/code-search.md), or not at all.
func docsWeighed(on bool) []float64 {
	w := CodeWeights()
	w[featDocs] = 0
	if on {
		w[featDocs] = 1
	}
	return w
}

// TestDocsNameRanksTheFunction: the README says, in the question's words,
// which function makes an option mandatory; the function's own code says
// "required", not "mandatory", and another function's comment matches
// the question better. Weighed, the docs passage puts the named function
// first; unweighed, it is not.
func TestDocsNameRanksTheFunction(t *testing.T) {
	ix := openTest(t, mapFS(map[string]string{
		"README.md": "# commander\n\n## Options\n\nTo make an option mandatory, declare it with `.requiredOption()`: parsing fails without it.\n\n" +
			"## Help\n\nThe help lists every option with its description.\n",
	}), Options{})
	putCode(t, ix, []CodeFile{{Path: "lib/option.js", Symbols: []CodeSymbol{
		{Name: "lib.option.Option.requiredOption", Kind: "method", Signature: "requiredOption(flags, description)",
			Body: "const o = this.createOption(flags, description);\no.required = true;\nreturn this.addOption(o);", Line: 10, End: 14},
		{Name: "lib.option.Option.hideHelp", Kind: "method", Signature: "hideHelp(hide = true)",
			Doc:  "Hide an option from the help: make it an option for scripts.",
			Body: "this.hidden = !!hide;\nreturn this;", Line: 20, End: 23},
	}}})
	const q = "make an option mandatory"
	if got := firstCode(t, ix, q, docsWeighed(true)); got != "lib.option.Option.requiredOption" {
		t.Errorf("first %s, want lib.option.Option.requiredOption", got)
	}
	if got := firstCode(t, ix, q, docsWeighed(false)); got == "lib.option.Option.requiredOption" {
		t.Errorf("without the docs feature, %s is first too: the test shows nothing", got)
	}
}

// TestDocsNameAddsTheFunction: a function whose code holds none of the
// question's words is no candidate of either list; the docs name it in
// the question's words, and weighed, it joins the results.
func TestDocsNameAddsTheFunction(t *testing.T) {
	ix := openTest(t, mapFS(map[string]string{
		"README.md": "# semver\n\n## Functions\n\n* `clean(version)`: Strip a leading v and equals sign from a version string.\n" +
			"* `valid(v)`: Return the parsed version, or null.\n",
	}), Options{})
	putCode(t, ix, []CodeFile{
		{Path: "functions/clean.js", Symbols: []CodeSymbol{{Name: "functions.clean.clean", Kind: "function", Signature: "const clean = (version, options)",
			Body: "const s = parse(version.trim().replace(/^[=v]+/, ''), options);\nreturn s ? s.version : null;", Line: 2, End: 5}}},
		{Path: "internal/text.js", Symbols: []CodeSymbol{{Name: "internal.text.stripComments", Kind: "function", Signature: "function stripComments(text)",
			Body: "return text.replace(/#.*$/gm, '');", Line: 1, End: 3}}},
	})
	symbols := func(w []float64) []string {
		res, err := ix.Search(ctx, Query{Text: "strip the leading equals sign", Scopes: []string{ScopeCode}, MinScore: zero(), CodeWeights: w})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range res.Results {
			out = append(out, r.Symbol)
		}
		return out
	}
	if got := symbols(docsWeighed(true)); !slices.Contains(got, "functions.clean.clean") {
		t.Errorf("results %q, want functions.clean.clean among them", got)
	}
	if got := symbols(docsWeighed(false)); !slices.Equal(got, []string{"internal.text.stripComments"}) {
		t.Errorf("unweighed, results %q, want internal.text.stripComments alone", got)
	}
}

// FuzzPassages: any section's text cuts into passages without a panic,
// and every name is an identifier.
func FuzzPassages(f *testing.F) {
	f.Add("Options", "Use `.requiredOption()`.\n\n```js\np.x(1)\n```\n* `a(b)`: c\n### h(x)\ny")
	f.Add("", "``` \n`` `a` ``\n1) `b.c`\n~~~\nz(")
	f.Fuzz(func(t *testing.T, heading, text string) {
		for _, p := range passages(heading, splitLines(text)) {
			for _, n := range p.names {
				if n == "" || !identStart(n[0]) {
					t.Fatalf("name %q of %q is no identifier", n, text)
				}
				for i := 0; i < len(n); i++ {
					if !identPart(n[i]) {
						t.Fatalf("name %q of %q is no identifier", n, text)
					}
				}
			}
		}
	})
}

// BenchmarkDocNamed: the docs lookup of one question over a README of
// 200 sections, each naming two functions in list items: the docs list of
// a code search's lexical pass, and the passages read from it.
func BenchmarkDocNamed(b *testing.B) {
	var readme strings.Builder
	readme.WriteString("# lib\n\n")
	for i := range 200 {
		fmt.Fprintf(&readme, "## Part %d\n\n* `fn%d(x)`: Return the version %d of a range, or null.\n* `other%d()`: Strip a prefix.\n\n", i, i, i, i)
	}
	ix := openTest(b, mapFS(map[string]string{"README.md": readme.String()}), Options{})
	const q = "lowest version a range can match"
	qw := ix.queryIDF(q)
	code, dead := ix.keeper(Query{Scopes: []string{ScopeCode}})
	docs, _ := ix.keeper(Query{Scopes: []string{ScopeDocs}})
	b.ResetTimer()
	for b.Loop() {
		ix.mu.RLock()
		_, _, hits := ix.lexicalSearchAlso(q, code, docs, dead)
		if len(ix.docNamed(q, qw, hits)) == 0 {
			b.Fatal("no names")
		}
		ix.mu.RUnlock()
	}
}

// TestPassagesCodeStaysUnderItsHeading: a code block right under a
// heading gives its names to the heading's first passage, not to the
// passage of the heading before; a code block before a heading gives its
// names to no passage of the next heading.
func TestPassagesCodeStaysUnderItsHeading(t *testing.T) {
	text := "Use `a()` here.\n\n## Next\n\n```js\nb(1)\n```\n\nThen this.\n\n## Last\n\n```\nc()\n```\n## End\nDone.\n"
	got := passages("First", splitLines(text))
	if len(got) != 3 || !slices.Equal(got[0].names, []string{"a"}) || !slices.Equal(got[1].names, []string{"b"}) || len(got[2].names) != 0 {
		t.Errorf("passages %q, want a's under First, b's under Next and none under End", got)
	}
}
