package extract

import (
	"context"
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
			want := "get:isMap special:instanceof Special add:util.isSet has:isMap none:!isMap keys:isMap clear:instanceof Set values: after:"
			if g := strings.Join(got, " "); g != want {
				t.Errorf("guards:\n got  %s\n want %s", g, want)
			}
		})
	}
}

// The branch where a test fails is guarded by its negation; `!` negates
// a test; the statements after `if (!test) return;` (or throw, break,
// continue) are guarded by the test; so is the right of `!test || …`;
// typeof compares narrow too.
func TestJSGuardsNegated(t *testing.T) {
	for _, path := range []string{"a.js", "a.ts", "a.tsx"} {
		t.Run(path, func(t *testing.T) {
			f := extractString(t, path, `function run(obj, k) {
  if (isMap(obj)) { obj.a(); } else { obj.b(); }
  if (!(obj instanceof Foo)) obj.c(); else obj.d();
  isMap(obj) ? obj.e() : obj.f();
  isMap(obj) || obj.g();
  !isMap(obj) || obj.h();
  if (typeof obj === "string") obj.i(); else obj.j();
  if (typeof obj !== "string") obj.k();
  for (const x of k) {
    if (!isSet(obj)) continue;
    obj.l();
  }
  if (!isMap(obj)) {
    log();
    return;
  }
  obj.m();
  if (isSet(obj)) return;
  obj.n();
}
function other(obj) {
  if (!isMap(obj)) { log(); }
  obj.o();
  if (!isMap(obj)) return; else obj.p();
  obj.q();
}
`)
			var got []string
			for _, c := range f.Calls {
				if c.Receiver == "obj" {
					got = append(got, fmt.Sprintf("%s:%s", c.Name, c.Guard()))
				}
			}
			want := "a:isMap b:!isMap c:!instanceof Foo d:instanceof Foo e:isMap f:!isMap g:!isMap h:isMap " +
				"i:typeof string j:!typeof string k:!typeof string l:isSet m:isMap n:!isSet o: p:isMap q:"
			if g := strings.Join(got, " "); g != want {
				t.Errorf("guards:\n got  %s\n want %s", g, want)
			}
		})
	}
}

// BenchmarkExtractJSGuarded extracts a generated file whose every call
// has a name as receiver, several blocks deep: the guard of each is
// looked for from its receiver up.
func BenchmarkExtractJSGuarded(b *testing.B) {
	var sb strings.Builder
	for i := range 200 {
		fmt.Fprintf(&sb, "function f%d(a, b) {\n  if (isMap(a)) {\n    for (const x of b) {\n      if (!(x instanceof Foo)) continue;\n", i)
		for j := range 10 {
			fmt.Fprintf(&sb, "      x.m%d(a.get(%d), b.map((y) => y.n(a.k())));\n", j, j)
		}
		sb.WriteString("    }\n  } else { a.add(b); }\n}\n")
	}
	src := []byte(sb.String())
	ex, err := New(b.TempDir(), Options{Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer ex.Close()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ex.Source(context.Background(), "a.js", src); err != nil {
			b.Fatal(err)
		}
	}
}
