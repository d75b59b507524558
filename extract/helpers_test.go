package extract

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// The tests extract deep and large inputs (100,000 nested calls, 2,000
// nested definitions), which a loaded machine under -race parses many
// times slower than parseTimeout allows for: they get thirty times its
// bound, which still cuts a grammar that loops.
// TestParserHangIsSkipped sets its own.
func init() {
	bound := parseTimeout
	parseTimeout = func(n int) time.Duration { return 30 * bound(n) }
}

// extractString extracts src as the file at path (its extension picks the
// language) under a throwaway root.
func extractString(t *testing.T, path, src string) *File {
	t.Helper()
	// Minified sources are extracted too: the tests of bounds feed the
	// extractor one-line files on purpose.
	ex, err := New(t.TempDir(), Options{KeepMinified: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	f, err := ex.Source(context.Background(), path, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// symbolLine renders the facts of a symbol that tests assert on:
// "kind qualified parent=P line=S-E".
func symbolLine(s Symbol) string {
	return fmt.Sprintf("%s %s parent=%s line=%d-%d", s.Kind, s.Qualified, s.Parent, s.StartLine, s.EndLine)
}

// expectSymbols checks that f has exactly the given symbols, in order, as
// rendered by symbolLine.
func expectSymbols(t *testing.T, f *File, want ...string) {
	t.Helper()
	var got []string
	for _, s := range f.Symbols {
		got = append(got, symbolLine(s))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("symbols of %s:\ngot:\n  %s\nwant:\n  %s", f.Path, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// symbol returns the symbol with the qualified name q, failing the test if
// there is none.
func symbol(t *testing.T, f *File, q string) Symbol {
	t.Helper()
	for _, s := range f.Symbols {
		if s.Qualified == q {
			return s
		}
	}
	t.Fatalf("no symbol %s in %s", q, f.Path)
	return Symbol{}
}

// callLine renders a call as "caller -> receiver.name @line".
func callLine(c Call) string {
	name := c.Name
	if c.Receiver != "" {
		name = c.Receiver + "." + name
	}
	return fmt.Sprintf("%s -> %s @%d", c.Caller, name, c.Line)
}

// expectCalls checks that f has exactly the given calls, in order, as
// rendered by callLine.
func expectCalls(t *testing.T, f *File, want ...string) {
	t.Helper()
	var got []string
	for _, c := range f.Calls {
		got = append(got, callLine(c))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls of %s:\ngot:\n  %s\nwant:\n  %s", f.Path, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// importLine renders an import as "path as alias {name as alias, ...} @line".
func importLine(im Import) string {
	s := im.Path
	if im.Alias != "" {
		s += " as " + im.Alias
	}
	if len(im.Names) > 0 {
		var ns []string
		for _, n := range im.Names {
			if n.Alias != "" {
				ns = append(ns, n.Name+" as "+n.Alias)
			} else {
				ns = append(ns, n.Name)
			}
		}
		s += " {" + strings.Join(ns, ", ") + "}"
	}
	if im.Resolved != "" {
		s += " => " + im.Resolved
	}
	return fmt.Sprintf("%s @%d", s, im.Line)
}

// expectImports checks that f has exactly the given imports, in order, as
// rendered by importLine.
func expectImports(t *testing.T, f *File, want ...string) {
	t.Helper()
	var got []string
	for _, im := range f.Imports {
		got = append(got, importLine(im))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("imports of %s:\ngot:\n  %s\nwant:\n  %s", f.Path, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// expectSignatures checks the signature of each qualified name.
func expectSignatures(t *testing.T, f *File, want map[string]string) {
	t.Helper()
	for q, sig := range want {
		if got := symbol(t, f, q).Signature; got != sig {
			t.Errorf("signature of %s = %q, want %q", q, got, sig)
		}
	}
}

// expectBases checks the bases of each qualified name, joined by ",".
func expectBases(t *testing.T, f *File, want map[string]string) {
	t.Helper()
	for q, bases := range want {
		if got := strings.Join(symbol(t, f, q).Bases, ","); got != bases {
			t.Errorf("bases of %s = %q, want %q", q, got, bases)
		}
	}
}

// bindingLine renders a binding as "scope: target type=T = value @line",
// leaving out an empty type or value.
func bindingLine(b Binding) string {
	s := b.Scope + ": " + b.Target
	if b.Type != "" {
		s += " type=" + b.Type
	}
	if b.Value != "" {
		s += " = " + b.Value
	}
	return fmt.Sprintf("%s @%d", s, b.Line)
}

// expectBindings checks that f has exactly the given bindings, in order,
// as rendered by bindingLine.
func expectBindings(t *testing.T, f *File, want ...string) {
	t.Helper()
	var got []string
	for _, b := range f.Bindings {
		got = append(got, bindingLine(b))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("bindings of %s:\ngot:\n  %s\nwant:\n  %s", f.Path, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
