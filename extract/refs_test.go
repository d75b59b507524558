package extract

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	sitter "github.com/smacker/go-tree-sitter"
)

// TestRefs checks, per language, which names used as values are
// recorded: arguments, stored values, returns and collections, but not
// called names, keys or declarations.
func TestRefs(t *testing.T) {
	for _, tc := range []struct {
		path, src string
		want      []string // caller: receiver.name@line
	}{
		{"a.go", "package cobra\n\nfunc NoArgs() error { return nil }\n\nvar root = &Command{Use: \"x\", Args: NoArgs}\n\nfunc run() { register(NoArgs); h := helper; f(pkg.Fn) }\n",
			[]string{": NoArgs@5", "run: NoArgs@7", "run: helper@7", "run: pkg.Fn@7"}}, // no go.mod: the module is ""
		{"b.py", "def create_logger(app):\n    stream = wsgi_errors_stream\n    sorted(xs, key=by_name)\n    go(self.method)\n    return [helper]\n",
			[]string{"b.create_logger: wsgi_errors_stream@2", "b.create_logger: xs@3", "b.create_logger: by_name@3", "b.create_logger: self.method@4", "b.create_logger: helper@5"}},
		{"c.js", "function handler() {}\napp.use(handler);\nconst x = { onClick: onClick2, other };\nmodule.exports = [obj.fn];\n",
			[]string{"c: handler@2", "c: onClick2@3", "c: other@3", "c: obj.fn@4"}},
		{"d.ts", "export const routes = { get: getUser };\nfunction f(): Handler { return next; }\n",
			[]string{"d: getUser@1", "d.f: next@2"}},
		{"e.rb", "def f\n  g(h)\nend\n", nil}, // not a language refs are recorded for
	} {
		f := extractString(t, tc.path, tc.src)
		var got []string
		for _, r := range f.Refs {
			name := r.Name
			if r.Receiver != "" {
				name = r.Receiver + "." + name
			}
			got = append(got, fmt.Sprintf("%s: %s@%d", r.Caller, name, r.Line))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: refs\n%q\nwant\n%q", tc.path, got, tc.want)
		}
	}
}

// TestRefsPastDeadlineSkip: references cut short at the file's deadline
// would make a list that differs from run to run with the machine's
// load; past it, refs gives none and marks the file over budget, so it is
// skipped with a reason rather than served in part.
func TestRefsPastDeadlineSkip(t *testing.T) {
	var src strings.Builder
	src.WriteString("package p\n\nfunc f() {}\n\nfunc g() {\n")
	for i := range 600 {
		fmt.Fprintf(&src, "\tuse(f, %d)\n", i)
	}
	src.WriteString("}\n")
	tree := parseWith(t, "p.go", src.String())
	defer tree.Close()
	qc := sitter.NewQueryCursor()
	defer qc.Close()
	f := &fileInfo{path: "p.go", src: []byte(src.String()), lang: LanguageOf("p.go", nil), budget: cpuBudget{until: -time.Second, set: true}}
	if refs := f.refs(tree.RootNode(), nil, qc); refs != nil || !f.overBudget {
		t.Errorf("past the deadline: %d refs, over budget %v; want none, and the file over budget", len(refs), f.overBudget)
	}
	f = &fileInfo{path: "p.go", src: []byte(src.String()), lang: LanguageOf("p.go", nil)}
	if refs := f.refs(tree.RootNode(), nil, qc); len(refs) == 0 || f.overBudget {
		t.Errorf("without a deadline: %d refs, over budget %v", len(refs), f.overBudget)
	}
}
