package enrich

import (
	"slices"
	"strings"
	"testing"
)

// TestSameNamedNested checks that callables sharing a qualified name in
// one file are named apart by their line everywhere a model or a reader
// meets them (testdata/nested.txtar).
func TestSameNamedNested(t *testing.T) {
	r := loadArchive(t, "nested.txtar")
	f, src := r.file(t, "views.py")
	p, err := NewBuilder().Prompt(f, r.graph, src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"View.as_view.view@8", "View.as_view.view@15", "View.name@22", "View.name@26"} {
		if !slices.Contains(p.Symbols, want) || !strings.Contains(p.Text, "`"+want+"`") {
			t.Errorf("prompt lacks %s: symbols %q", want, p.Symbols)
		}
	}
	if slices.Contains(p.Symbols, "View.as_view.view") {
		t.Errorf("prompt still asks for the shared name: %q", p.Symbols)
	}
	basic := string(RenderBasic(f, r.graph))
	for _, want := range []string{"`def view(**kwargs)` (line 8)", "`def view(**kwargs)` (line 15)"} {
		if strings.Count(basic, want) != 1 {
			t.Errorf("basic artifact has %d headings %q:\n%s", strings.Count(basic, want), want, basic)
		}
	}

	report := &Report{Path: "views.py", Overview: "Views.", Functions: []Function{
		{Name: "View.as_view.view@8", Purpose: "Builds a view per request.", Implementation: "1. Instantiate.\n2. Dispatch."},
		{Name: "View.as_view.view@15", Purpose: "Reuses one view.", Implementation: "1. Dispatch."},
	}, Classes: []Class{{Name: "View", Purpose: "A view.", Methods: []Function{
		{Name: "as_view", Purpose: "Makes the view function.", Implementation: "1. Define view.\n2. Return it."},
		{Name: "name@22", Purpose: "Gets the name.", Implementation: "1. Return it."},
		{Name: "View.name@26", Purpose: "Sets the name.", Implementation: "1. Store it."},
	}}}}
	if err := Validate(report, f, nil); err != nil {
		t.Fatalf("a report naming each by its line is refused: %v", err)
	}
	md, err := RenderEnriched(f, r.graph, report, Digests{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Builds a view per request.", "Reuses one view.", "Gets the name.", "Sets the name."} {
		if strings.Count(string(md), "**Purpose**: "+want) != 1 {
			t.Errorf("enriched artifact shows %q %d times:\n%s", want, strings.Count(string(md), want), md)
		}
	}
	bad := &Report{Path: "views.py", Overview: "Views.", Functions: []Function{{Name: "View.as_view.view", Purpose: "Either.", Implementation: "1. Go."}},
		Classes: []Class{{Name: "View", Methods: []Function{{Name: "name", Purpose: "Either.", Implementation: "1. Go."}}}}}
	err = Validate(bad, f, nil)
	if err == nil || !strings.Contains(err.Error(), "View.as_view.view@8") || !strings.Contains(err.Error(), "name@26") {
		t.Errorf("the shared names alone: err %v, want the names with lines", err)
	}
}

// TestUsedAsValue checks that a function whose name is passed or stored
// rather than called says so, in the prompt and the artifact, instead of
// only "none found" (testdata/refs.txtar).
func TestUsedAsValue(t *testing.T) {
	r := loadArchive(t, "refs.txtar")
	f, src := r.file(t, "flaskish/logging.py")
	p, err := NewBuilder().Prompt(f, r.graph, src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "  - used as a value, not called, in: `flaskish.app.make` (flaskish/app.py:4), `flaskish.logging.create_logger` (flaskish/logging.py:5)"; !strings.Contains(p.Text, want) {
		t.Errorf("prompt lacks %q:\n%s", want, p.Text)
	}
	md := string(RenderBasic(f, r.graph))
	for _, want := range []string{"**Called by:** none found in the call graph.\n\n**Used as a value, not called** (found by name):\n- in `flaskish.app.make` at `flaskish/app.py:4`\n"} {
		if !strings.Contains(md, want) {
			t.Errorf("artifact lacks %q:\n%s", want, md)
		}
	}
	if strings.Count(md, "Used as a value") != 1 {
		t.Errorf("create_logger, used nowhere, has a Used as a value list:\n%s", md)
	}
}

// TestCallbackNotAlsoAValue: a function passed to a call that calls it
// back is its caller's by a callback edge at that site; the prompt does
// not also list that site as a use "not called" (eslint's
// fixes.sort(compareMessagesByFixRange) was both), while a use stored
// elsewhere stays one.
func TestCallbackNotAlsoAValue(t *testing.T) {
	r := loadArchive(t, "refs.txtar")
	f, src := r.file(t, "fixer/fixer.js")
	p, err := NewBuilder().Prompt(f, r.graph, src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"  - called by: `Fixer.apply` (fixer/fixer.js:8)",
		"  - used as a value, not called, in: `fixer.fixer.Fixer.orders` (fixer/fixer.js:12)\n",
	} {
		if !strings.Contains(p.Text, want) {
			t.Errorf("prompt lacks %q:\n%s", want, p.Text)
		}
	}
}
