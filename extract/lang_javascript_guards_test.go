package extract

import (
	"fmt"
	"strings"
	"testing"
)

// A call on a name inside a branch guarded by a test of that name
// carries the test: a function called with it, or instanceof; the
// innermost test wins, and a call outside the branch carries none.
func TestJSGuards(t *testing.T) {
	for _, path := range []string{"a.js", "a.ts", "a.tsx"} {
		t.Run(path, func(t *testing.T) {
			f := extractString(t, path, `function run(obj, other, k) {
  if (isMap(obj)) {
    obj.get(k);
    if (obj instanceof Special) obj.special();
  } else if (util.isSet(obj)) { obj.add(k); }
  isMap(obj) ? obj.has(k) : obj.none();
  ready && isMap(obj) && obj.keys();
  if (ready && (obj instanceof Set)) obj.clear();
  if (isMap(other)) obj.values();
  obj.after();
}
`)
			var got []string
			for _, c := range f.Calls {
				if c.Receiver == "obj" {
					got = append(got, fmt.Sprintf("%s:%s", c.Name, c.Guard()))
				}
			}
			want := "get:isMap special:instanceof Special add:util.isSet has:isMap none: keys:isMap clear:instanceof Set values: after:"
			if g := strings.Join(got, " "); g != want {
				t.Errorf("guards:\n got  %s\n want %s", g, want)
			}
		})
	}
}
