package docsearch

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// codeTextByFmt is CodeText as it was first written, with fmt and a
// growing builder: the reference for the text's bytes.
func codeTextByFmt(path string, s CodeSymbol) string {
	var b strings.Builder
	decl := ""
	if s.Decl {
		decl = declMark
	}
	if s.Test {
		decl += testMark
	}
	fmt.Fprintf(&b, "%s %s%s\n%s\n%s:%d-%d\n", oneLine(s.Kind), oneLine(s.Name), decl, oneLine(s.Signature), path, s.Line, max(s.End, s.Line))
	stale := ""
	if s.Stale {
		stale = "(stale) "
	}
	if p := strings.TrimSpace(s.Purpose); p != "" {
		fmt.Fprintf(&b, "Purpose: %s%s\n", stale, p)
	}
	if im := strings.TrimSpace(s.Implementation); im != "" {
		fmt.Fprintf(&b, "Implementation: %s%s\n", stale, im)
	}
	if d := strings.TrimSpace(s.Doc); d != "" {
		b.WriteString(cutAt(d, maxCodeDoc))
		b.WriteByte('\n')
	}
	if body := strings.TrimSpace(s.Body); body != "" {
		b.WriteString(cutAt(body, maxCodeBody))
		b.WriteByte('\n')
	}
	if len(s.Calls) > 0 {
		calls := slices.Clone(s.Calls)
		slices.Sort(calls)
		calls = slices.Compact(calls)
		if len(calls) > maxCodeCalls {
			calls = calls[:maxCodeCalls]
		}
		fmt.Fprintf(&b, "calls: %s\n", strings.Join(calls, " "))
	}
	return b.String()
}

// codeTextCases are symbols with every part of a code text, and without.
func codeTextCases() map[string]CodeSymbol {
	var many []string
	for i := range 3 * maxCodeCalls {
		many = append(many, fmt.Sprintf("f%03d", (i*7)%(2*maxCodeCalls)))
	}
	return map[string]CodeSymbol{
		"bare":            {Name: "f", Kind: "function", Line: 3},
		"end before line": {Name: "f", Kind: "function", Line: 9, End: 2},
		"full": {Name: "Flask.register_blueprint", Kind: "method", Signature: "def register_blueprint(self, bp)",
			Doc: "  Registers a blueprint.  ", Body: "def register_blueprint(self, bp):\n\tpass\n", Calls: []string{"b", "a", "b"},
			Line: 10, End: 42, Purpose: "Adds routes.", Implementation: "Loops.", Stale: true, Decl: true},
		"test":           {Name: "tests.parse_all", Kind: "function", Body: "fn parse_all() {}", Line: 4, End: 4, Test: true},
		"test prototype": {Name: "tests.helper", Kind: "function", Line: 4, Decl: true, Test: true},
		"fresh prose":    {Name: "g", Kind: "function", Purpose: " p ", Implementation: "i", Line: 1, End: 1},
		"multi-line":     {Name: "a\nb", Kind: "type\t", Signature: "struct {\n\tx int\n}", Line: 5, End: 7},
		"long":           {Name: "h", Kind: "function", Doc: strings.Repeat("doc words ", 400), Body: strings.Repeat("x := y\n", 400), Line: 1, End: 401},
		"many calls":     {Name: "k", Kind: "function", Calls: many, Line: 1, End: 2},
		"unicode":        {Name: "名前", Kind: "function", Body: strings.Repeat("é", 1000), Line: 1, End: 2},
		"blank fields":   {Name: "m", Kind: "function", Doc: " \n ", Body: "\t", Purpose: " ", Line: 1},
	}
}

// TestCodeTextSameBytes: CodeText writes what it always wrote.
func TestCodeTextSameBytes(t *testing.T) {
	for name, s := range codeTextCases() {
		t.Run(name, func(t *testing.T) {
			if got, want := CodeText("pkg/a.py", s), codeTextByFmt("pkg/a.py", s); got != want {
				t.Errorf("CodeText:\n%q\nwant\n%q", got, want)
			}
		})
	}
}

// TestCodeTextOneBuffer: a code document holds its text as long as the
// index does, so CodeText allocates it once at its size, not in a
// growing builder whose spare capacity stays held. Beside it are only
// the parts made on the way: whitespace collapsed, a cut marked, the
// calls sorted in a copy.
func TestCodeTextOneBuffer(t *testing.T) {
	for name, s := range codeTextCases() {
		parts := testing.AllocsPerRun(50, func() {
			oneLine(s.Kind)
			oneLine(s.Name)
			oneLine(s.Signature)
			cutAt(strings.TrimSpace(s.Doc), maxCodeDoc)
			cutAt(strings.TrimSpace(s.Body), maxCodeBody)
		})
		if len(s.Calls) > 0 {
			parts++
		}
		if got := testing.AllocsPerRun(50, func() { CodeText("pkg/a.py", s) }); got != parts+1 {
			t.Errorf("%s: %v allocations; want %v, the text's and its parts'", name, got, parts+1)
		}
	}
}

func FuzzCodeText(f *testing.F) {
	f.Add("function", "f", "func f()", "doc", "body", "a b a", "p", "i", 3, 9, true, false)
	f.Add("", "", "", "", "", "", "", "", 0, -1, false, true)
	f.Fuzz(func(t *testing.T, kind, name, sig, doc, body, calls, purpose, impl string, line, end int, stale, decl bool) {
		s := CodeSymbol{Kind: kind, Name: name, Signature: sig, Doc: doc, Body: body, Calls: strings.Fields(calls),
			Purpose: purpose, Implementation: impl, Line: line, End: end, Stale: stale, Decl: decl}
		if got, want := CodeText("p.go", s), codeTextByFmt("p.go", s); got != want {
			t.Errorf("CodeText:\n%q\nwant\n%q", got, want)
		}
	})
}

func BenchmarkCodeText(b *testing.B) {
	s := codeTextCases()["full"]
	b.ReportAllocs()
	for b.Loop() {
		CodeText("pkg/a.py", s)
	}
}
