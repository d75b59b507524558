package callgraph

import "testing"

// TestCUpdateAddedFile adds and removes a .c file no include can mean:
// it and the headers it includes are re-resolved (their includers
// change), not every file that read the include graph; a header an
// include may mean still re-resolves them all. Each step equals Build.
func TestCUpdateAddedFile(t *testing.T) {
	root := writeArchive(t, `
-- include/util.h --
int helper(int x);
static inline int twice(int x) { return helper(x) * 2; }
-- lib/util.c --
#include <util.h>
int helper(int x) { return x + 1; }
-- src/a.c --
#include <util.h>
int run_a(void) { return helper(1) + twice(2); }
-- src/b.c --
#include <util.h>
int run_b(void) { return helper(3); }
-- src/c.c --
#include "../include/util.h"
int run_c(void) { return twice(4); }
`)
	ex := newExtractor(t, root)
	g := Build(extractAll(t, ex))
	steps := []struct {
		what, path, src string // src "" removes the file
		most            int    // files re-resolved at most
	}{
		{"a new .c file", "src/d.c", "#include <util.h>\nint run_d(void) { return helper(5) + twice(6); }\n", 2},
		{"it goes", "src/d.c", "", 1},
		{"a new header nothing includes", "src/extra.h", "static inline int thrice(int x) { return helper(x) * 3; }\n", 1},
		{"a header an include may mean", "src/include/util.h", "int helper(int x);\n", 7},
	}
	for _, s := range steps {
		writeAndUpdate(t, g, ex, root, s.path, s.src)
		if g.lastResolved > s.most {
			t.Errorf("%s: %d files re-resolved, want at most %d", s.what, g.lastResolved, s.most)
		}
		if d := graphDiff(g, Build(extractAll(t, ex))); d != "" {
			t.Fatalf("%s: Update differs from Build:\n%s", s.what, d)
		}
	}
}
