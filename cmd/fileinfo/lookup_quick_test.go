package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLookupQuickCheck checks callers answers after a quick check (the
// directories and the answer's files) once a full check has stamped the
// directories, and makes the full check whenever the quick one sees a
// change, cannot vouch for an error, or --full asks for it.
func TestLookupQuickCheck(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"lib/lib.py":   "def f():\n    pass\n",
		"app/main.py":  "from lib.lib import f\n\ndef g():\n    f()\n",
		"app/other.py": "def unrelated():\n    pass\n",
	})
	base := time.Now().Add(-time.Hour).Truncate(time.Second)
	edits := map[string]time.Time{}
	// date sets every directory, and every file not edited, outside
	// .artifacts to base; the files named get a minute after the last
	// edit (a change a stamp must see), and keep it.
	date := func(edited ...string) {
		t.Helper()
		for _, f := range edited {
			edits[f] = base.Add(time.Duration(len(edits)+1) * time.Minute)
		}
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Name() == ".artifacts" {
				return filepath.SkipDir
			}
			if err == nil {
				rel, _ := filepath.Rel(root, p)
				when, ok := edits[filepath.ToSlash(rel)]
				if !ok {
					when = base
				}
				os.Chtimes(p, when, when)
			}
			return nil
		})
	}
	callers := func(args ...string) (stdout string, quick bool) {
		t.Helper()
		code, stdout, stderr := runCLI(t, append([]string{"callers", "--root", root}, args...)...)
		if code != 0 {
			t.Fatalf("callers %v: exit %d: %s", args, code, stderr)
		}
		return stdout, strings.Contains(stderr, "index: quick check:")
	}
	date()
	callers("lib.lib.f") // builds the state; .artifacts changes the root
	date()
	if _, quick := callers("lib.lib.f"); quick {
		t.Fatal("no directory stamps yet, and a quick check answered")
	}
	out, quick := callers("lib.lib.f") // the full check stamped them
	if !quick || !strings.Contains(out, "app.main.g") {
		t.Fatalf("quick %v, answer:\n%s", quick, out)
	}

	// An edit in place of a file the answer names: seen.
	writeFiles(t, root, map[string]string{"app/main.py": "from lib.lib import f\n\ndef g():\n    pass\n"})
	date("app/main.py")
	if out, quick = callers("lib.lib.f"); quick || strings.Contains(out, "app.main.g") {
		t.Errorf("after main.py stopped calling f: quick %v, answer:\n%s", quick, out)
	}

	// A file added: its directory changed.
	writeFiles(t, root, map[string]string{"lib/user.py": "from lib.lib import f\n\ndef u():\n    f()\n"})
	os.Chtimes(filepath.Join(root, "lib/user.py"), base, base) // lib's own time is now
	if out, quick = callers("lib.lib.f"); quick || !strings.Contains(out, "lib.user.u") {
		t.Errorf("after lib/user.py was added: quick %v, answer:\n%s", quick, out)
	}
	date()
	callers("lib.lib.f") // stamps again
	if _, quick = callers("lib.lib.f"); !quick {
		t.Fatal("no quick check after the tree settled")
	}

	// An edit in place of a file the answer does not name: the quick
	// check's stated limit; --full sees it.
	writeFiles(t, root, map[string]string{"app/other.py": "from lib.lib import f\n\ndef unrelated():\n    f()\n"})
	date("app/other.py")
	if out, quick = callers("lib.lib.f"); !quick || strings.Contains(out, "unrelated") {
		t.Errorf("an unnamed file edited in place: quick %v, answer:\n%s", quick, out)
	}
	if out, quick = callers("--full", "lib.lib.f"); quick || !strings.Contains(out, "app.other.unrelated") {
		t.Errorf("--full: quick %v, answer:\n%s", quick, out)
	}

	// A name the index does not have: the error may rest on any file,
	// so the full check answers (here: the name was added in place).
	date()
	callers("lib.lib.f")
	if _, quick = callers("lib.lib.f"); !quick {
		t.Fatal("no quick check after the tree settled")
	}
	writeFiles(t, root, map[string]string{"app/other.py": "def unrelated():\n    brand_new()\n\ndef brand_new():\n    pass\n"})
	date("app/other.py")
	if out, quick = callers("app.other.brand_new"); quick || !strings.Contains(out, "app.other.unrelated") {
		t.Errorf("callers of a name only an edit in place made: quick %v, answer:\n%s", quick, out)
	}
}

// TestLookupQuickCheckUnsureDir: a directory changed just before the
// full check (within dirstamp.Slack, so its time cannot vouch for it)
// is vouched for by its listing: the next callers answers from the
// quick check, listing it again, and a file added to it afterwards
// fails the check, so the callers after that sees the file.
func TestLookupQuickCheckUnsureDir(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"lib/lib.py":  "def f():\n    pass\n",
		"app/main.py": "from lib.lib import f\n\ndef g():\n    f()\n",
	})
	base := time.Now().Add(-time.Hour).Truncate(time.Second)
	age := func() {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Name() == ".artifacts" {
				return filepath.SkipDir
			}
			if err == nil {
				os.Chtimes(p, base, base)
			}
			return nil
		})
	}
	callers := func() (stdout, stderr string) {
		t.Helper()
		code, stdout, stderr := runCLI(t, "callers", "--root", root, "lib.lib.f")
		if code != 0 {
			t.Fatalf("callers: exit %d: %s", code, stderr)
		}
		return stdout, stderr
	}
	age()
	callers() // builds the state
	age()
	// lib changes now (a note beside the sources, dated as they are):
	// the full check that follows finds it unsure by its time.
	writeFiles(t, root, map[string]string{"lib/notes.txt": "notes\n"})
	os.Chtimes(filepath.Join(root, "lib/notes.txt"), base, base)
	if _, stderr := callers(); strings.Contains(stderr, "index: quick check:") {
		t.Fatal("no directory stamps yet, and a quick check answered")
	}
	out, stderr := callers()
	if !strings.Contains(stderr, "index: quick check:") || !strings.Contains(stderr, "1 of them listed again") || !strings.Contains(out, "app.main.g") {
		t.Fatalf("after the full check stamped lib unsure: answer:\n%s\nstderr:\n%s", out, stderr)
	}
	writeFiles(t, root, map[string]string{"lib/user.py": "from lib.lib import f\n\ndef u():\n    f()\n"})
	os.Chtimes(filepath.Join(root, "lib/user.py"), base, base)
	os.Chtimes(filepath.Join(root, "lib"), base, base) // only its listing tells
	if out, stderr = callers(); strings.Contains(stderr, "index: quick check:") || !strings.Contains(out, "lib.user.u") {
		t.Errorf("after lib/user.py was added: answer:\n%s\nstderr:\n%s", out, stderr)
	}
}

// TestLookupQuickAfterIndex: the first callers after `fileinfo index`
// answers from the quick check: index stamps the directories its walk
// entered beside the symbols index it writes (it left that to the first
// lookup, which walked the tree and stat'd every file again).
func TestLookupQuickAfterIndex(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"lib/lib.py":  "def f():\n    pass\n",
		"app/main.py": "from lib.lib import f\n\ndef g():\n    f()\n",
	})
	ageTree(t, root)
	if code, stdout, stderr := runCLI(t, "index", "--root", root); code != 0 {
		t.Fatalf("index: exit %d, %q %s", code, stdout, stderr)
	}
	code, stdout, stderr := runCLI(t, "callers", "--root", root, "lib.lib.f")
	if code != 0 || !strings.Contains(stdout, "app.main.g") {
		t.Fatalf("callers: exit %d, %q %s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "index: quick check:") {
		t.Errorf("the first callers after index made the full check: %s", stderr)
	}
}
