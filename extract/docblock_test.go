package extract

import "testing"

// TestDocBlockAcrossBlankLines: in Java, Kotlin and PHP, as in
// JavaScript, a `/** */` block documents the next declaration across
// blank lines (javac, Kotlin's KDoc binding and PHP's compiler keep it so; Scaladoc's
// rule is left as it was: a blank line ends it); a
// `/* */` block, a `//` line and a file's licence block do not.
func TestDocBlockAcrossBlankLines(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      map[string]string // symbol name -> doc
	}{
		{"A.java", `package p;

/**
 * A set.
 */

public class A {
    /** Adds one. */

    @Override
    public void add(int x) {}

    /* Not a doc. */

    void plain() {}

    // A note.

    void noted() {}
}
`, map[string]string{"A": "A set.", "add": "Adds one.", "plain": "", "noted": ""}},
		{"a.kt", `package p

/** A box. */

class Box {
    /** Opens it. */

    fun open() {}

    /* Not a doc. */

    fun shut() {}
}
`, map[string]string{"Box": "A box.", "open": "Opens it.", "shut": ""}},
		{"a.php", `<?php

/**
 * @license MIT
 */

function licensed() {}

/** Says hello. */

function hello() {}

/* Not a doc. */

function plain() {}

class K {
    /** Runs. */

    public function run() {}
}
`, map[string]string{"licensed": "", "hello": "Says hello.", "plain": "", "run": "Runs."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := extractString(t, tc.name, tc.src)
			got := map[string]string{}
			for _, s := range f.Symbols {
				got[s.Name] = s.Doc
			}
			for name, doc := range tc.want {
				d, ok := got[name]
				if !ok {
					t.Errorf("no symbol %s in %v", name, got)
					continue
				}
				if d != doc {
					t.Errorf("%s doc = %q, want %q", name, d, doc)
				}
			}
		})
	}
}
