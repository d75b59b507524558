package enrich

import (
	"strings"
	"testing"
)

// TestMethodsInAnotherFile: Go methods may be declared in another file
// than their type. A report lists them under the type in the file that
// declares the methods, and a refusal names the file that declares what
// the report put in the wrong one.
func TestMethodsInAnotherFile(t *testing.T) {
	r := loadArchive(t, "split.txtar")
	ops, _ := r.file(t, "store/store_ops.go")
	store, _ := r.file(t, "store/store.go")
	method := func(name string) Function { return Function{Name: name, Purpose: "p", Implementation: "1. i"} }

	// The methods under their type, in the file that declares them.
	rep := &Report{Path: ops.Path, Overview: "o", Classes: []Class{{Name: "Store", Methods: []Function{method("Put"), method("Get")}}}}
	if err := Validate(rep, ops, r.graph); err != nil {
		t.Errorf("methods under their type in the file of the methods: %v", err)
	}
	if missing := Undocumented(rep, ops); len(missing) != 0 {
		t.Errorf("undocumented after reporting every method: %q", missing)
	}
	body, err := RenderEnriched(ops, r.graph, rep, Digests{})
	if err != nil || !strings.Contains(string(body), "Put") {
		t.Errorf("RenderEnriched = %v", err)
	}

	// The type's purpose belongs to the file that declares it.
	rep.Classes[0].Purpose = "keeps values"
	expectRefusal(t, Validate(rep, ops, r.graph), `class "Store" is declared in store/store.go`)

	// A method reported with its type's file names the file it is in.
	rep = &Report{Path: store.Path, Overview: "o", Classes: []Class{{Name: "Store", Purpose: "keeps values", Methods: []Function{method("Len"), method("Put")}}}}
	expectRefusal(t, Validate(rep, store, r.graph), `"Put" of Store is declared in store/store_ops.go`)
}

func expectRefusal(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error = %v; want one saying %s", err, want)
	}
}
