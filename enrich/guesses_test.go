package enrich

import (
	"slices"
	"strings"
	"testing"
)

// TestGuessesAreLabelled: a call resolved by name only is no fact: the
// prompt (called by, calls, connections) and the artifact (Called by,
// Connections) list it apart, in a labelled list of guesses, and
// CallerKeys marks it; a call resolved from its receiver's type is a
// fact; many calls left unresolved for a shared name are reported.
func TestGuessesAreLabelled(t *testing.T) {
	r := loadArchive(t, "guesses.txtar")
	models, msrc := r.file(t, "app/models.py")
	views, vsrc := r.file(t, "app/views.py")

	p, err := sharedBuilder().Prompt(models, r.graph, msrc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	expectLines(t, "models prompt", p.Text,
		"  - called by: (none found)",
		"  - possible callers (by name only, unverified): `checkout` (app/views.py:5)",
		"  - called by: `stock` (app/views.py:9)",
		"- Called from `app/views.py`: `stock`",
		"- Possibly called from `app/views.py` (by name only, unverified): `checkout`",
	)
	expectNoLines(t, "models prompt", p.Text, "(by name only)")

	p, err = sharedBuilder().Prompt(views, r.graph, vsrc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	expectLines(t, "views prompt", p.Text,
		"  - calls: (none resolved)",
		"  - possible callees (by name only, unverified): `Cart.finish` (app/models.py:10)",
		"  - calls: `Store` (app/models.py:1), `Store.add` (app/models.py:2)",
		"  - 3 calls not resolved: several symbols are named `add`",
	)

	art := string(RenderBasic(models, r.graph))
	expectLines(t, "models artifact", art,
		"**Called by:** none found in the call graph.",
		"**Possible callers** (by name only, unverified): `checkout` in `app/views.py`.",
		"- `stock` in `app/views.py`",
		"- Called from `app/views.py`: `stock`",
		"- Possibly called from `app/views.py` (by name only, unverified): `checkout`",
	)
	expectNoLines(t, "models artifact", art, "- `checkout` in `app/views.py`")
	expectLines(t, "views artifact", string(RenderBasic(views, r.graph)),
		"**Unresolved calls:** 3 calls not resolved: several symbols are named `add`.",
		"- Calls into `app/models.py`: `Store`, `Store.add`",
		"- Possibly calls into `app/models.py` (by name only, unverified): `Cart.finish`",
	)

	// The new lines are no prose: an artifact reads back to its report.
	rep := &Report{Path: views.Path, Overview: "Views.", Functions: []Function{
		{Name: "checkout", Purpose: "Checks out.", Implementation: "1. Finish the basket."},
		{Name: "stock", Purpose: "Stocks.", Implementation: "1. Add one."},
		{Name: "fill", Purpose: "Fills.", Implementation: "1. Add three times.\n2. Return."},
	}}
	md, err := RenderEnriched(views, r.graph, rep, Digests{})
	if err != nil {
		t.Fatal(err)
	}
	back := Recover(md, views)
	if back == nil || len(back.Functions) != 3 || back.Functions[2].Implementation != rep.Functions[2].Implementation || back.Functions[2].Purpose != rep.Functions[2].Purpose {
		t.Errorf("Recover(RenderEnriched(views)) = %+v, want %+v\n%s", back, rep, md)
	}

	got := CallerKeys(models, r.graph)
	want := []string{
		"app.views.checkout (app/views.py) -> Cart.finish (by name only)",
		"app.views.stock (app/views.py) -> Store",
		"app.views.stock (app/views.py) -> Store.add",
	}
	if !slices.Equal(got, want) {
		t.Errorf("CallerKeys = %q, want %q", got, want)
	}
}

// expectLines checks that text has each of lines as a whole line.
func expectLines(t *testing.T, what, text string, lines ...string) {
	t.Helper()
	have := strings.Split(text, "\n")
	for _, l := range lines {
		if !slices.Contains(have, l) {
			t.Errorf("%s: no line %q in\n%s", what, l, text)
		}
	}
}

// expectNoLines checks that no line of text contains any of subs.
func expectNoLines(t *testing.T, what, text string, subs ...string) {
	t.Helper()
	for _, l := range strings.Split(text, "\n") {
		for _, s := range subs {
			if strings.Contains(l, s) {
				t.Errorf("%s: line %q has %q", what, l, s)
			}
		}
	}
}
