package extract

import (
	"fmt"
	"slices"
	"testing"
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
