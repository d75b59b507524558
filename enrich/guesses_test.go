package enrich

import (
	"slices"
	"strings"
	"testing"
)

// TestGuessesAreLabelled: a call resolved by name only says so in the
// prompt (called by, calls, connections), the artifact (Called by,
// Connections) and CallerKeys; a call resolved from its receiver's type
// does not; many calls left unresolved for a shared name are reported.
func TestGuessesAreLabelled(t *testing.T) {
	r := loadArchive(t, "guesses.txtar")
	models, msrc := r.file(t, "app/models.py")
	views, vsrc := r.file(t, "app/views.py")

	p, err := sharedBuilder().Prompt(models, r.graph, msrc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	expectLines(t, "models prompt", p.Text,
		"  - called by: `checkout` (app/views.py:5) (by name only)",
		"  - called by: `stock` (app/views.py:9)",
		"- Called from `app/views.py`: `checkout` (by name only), `stock`",
	)

	p, err = sharedBuilder().Prompt(views, r.graph, vsrc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	expectLines(t, "views prompt", p.Text,
		"  - calls: `Cart.finish` (app/models.py:10) (by name only)",
		"  - calls: `Store` (app/models.py:1), `Store.add` (app/models.py:2)",
		"  - 3 calls not resolved: several symbols are named `add`",
	)

	expectLines(t, "models artifact", string(RenderBasic(models, r.graph)),
		"- `checkout` in `app/views.py` (by name only)",
		"- `stock` in `app/views.py`",
	)
	expectLines(t, "views artifact", string(RenderBasic(views, r.graph)),
		"**Unresolved calls:** 3 calls not resolved: several symbols are named `add`.",
		"- Calls into `app/models.py`: `Cart.finish` (by name only), `Store`, `Store.add`",
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
