package graphstore

import (
	"context"
	"errors"
	"github.com/fileinfo/fileinfo/internal/dirstamp"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// aged is the time ageTree sets: one time, so that dating a file again
// leaves its stamp as it was.
var aged = time.Now().Add(-time.Hour).Truncate(time.Second)

// ageTree dates every file and directory under root an hour back, as a
// checkout's are; the saved state's directory is left alone.
func ageTree(t *testing.T, root string) {
	t.Helper()
	old := aged
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == ".artifacts" {
			return filepath.SkipDir
		}
		if err == nil {
			os.Chtimes(p, old, old)
		}
		return nil
	})
}

// quickTree is symbolsTree synced, its directories aged, and checked in
// full once, which saves the directory stamps.
func quickTree(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	root := symbolsTree(t)
	ageTree(t, root)
	if _, err := Sync(ctx, Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	ageTree(t, root) // the root's time changed as Sync made .artifacts
	s, err := OpenSymbols(ctx, Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	return root
}

// openQuick returns OpenSymbolsQuick's error, closing what it opened.
func openQuick(t *testing.T, root string) (Quick, error) {
	t.Helper()
	s, q, err := OpenSymbolsQuick(context.Background(), Options{Root: root})
	if s != nil {
		s.Close()
	}
	return q, err
}

// TestSymbolsQuick checks the quick open trusts the index only while
// every stamped directory and ignore file is as the full check found
// it, and only for the index that check found current.
func TestSymbolsQuick(t *testing.T) {
	ctx := context.Background()
	q, err := openQuick(t, quickTree(t))
	if err != nil {
		t.Fatalf("after a full check: %v", err)
	}
	// The root, lib, pkg, web; each one's .gitignore; .git/info/exclude.
	if q.Dirs != 9 {
		t.Errorf("checked %d paths, want 9", q.Dirs)
	}
	if _, err := openQuick(t, symbolsTree(t)); !errors.Is(err, ErrStale) {
		t.Errorf("no directory stamps: %v, want ErrStale", err)
	}
	for _, change := range []string{"add", "remove", "rename", "gitignore", "gitignore edited", "exclude", "new dir", "rewritten", "key"} {
		t.Run(change, func(t *testing.T) {
			var root string
			if change == "gitignore edited" {
				root = symbolsTree(t)
				write(t, root, "pkg/.gitignore", "nothing.py\n")
				ageTree(t, root)
				if _, err := Sync(ctx, Options{Root: root}); err != nil {
					t.Fatal(err)
				}
				ageTree(t, root)
				s, err := OpenSymbols(ctx, Options{Root: root})
				if err != nil {
					t.Fatal(err)
				}
				s.Close()
				if _, err := openQuick(t, root); err != nil {
					t.Fatal(err)
				}
			} else {
				root = quickTree(t)
			}
			opt := Options{Root: root}
			switch change {
			case "gitignore edited":
				// In place: pkg's own time stays; the rule hides m1.py.
				write(t, root, "pkg/.gitignore", "m1.py\n")
				os.Chtimes(filepath.Join(root, "pkg"), aged, aged)
			case "add":
				write(t, root, "pkg/extra.py", "def extra():\n    pass\n")
			case "remove":
				os.Remove(filepath.Join(root, "web/b.js"))
			case "rename":
				os.Rename(filepath.Join(root, "web/b.js"), filepath.Join(root, "web/c.js"))
			case "gitignore":
				write(t, root, "pkg/.gitignore", "m1.py\n")
			case "exclude":
				write(t, root, ".git/info/exclude", "lib/\n")
			case "new dir":
				write(t, root, "lib/sub/x.go", "package sub\n")
			case "rewritten":
				// Another index, as Sync writes after an edit in place
				// (no directory changes), beside the stamps of the one
				// before (Sync stamps the index it writes, so they are
				// put back, as an older build's Sync left them): the
				// stamps vouch for the one the full check found.
				stamps := filepath.Join(root, ".artifacts", ".index", SymbolsDirsFile)
				before, err := os.ReadFile(stamps)
				if err != nil {
					t.Fatal(err)
				}
				write(t, root, "lib/lib.go", "package lib\n\nfunc Only() {}\n")
				ageTree(t, root)
				if _, err := Sync(ctx, opt); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(stamps, before, 0o644); err != nil {
					t.Fatal(err)
				}
			case "key":
				opt.Key = "other"
			}
			s, _, err := OpenSymbolsQuick(ctx, opt)
			if !errors.Is(err, ErrStale) {
				if s != nil {
					s.Close()
				}
				t.Fatalf("after %s: %v, want ErrStale", change, err)
			}
			if change == "rewritten" && !strings.Contains(err.Error(), "another symbols index") {
				t.Errorf("after %s: %v, want it to name the index", change, err)
			}
		})
	}
}

// TestSymbolsQuickUnsure checks a directory changed within dirstamp.Slack
// of the full check is vouched for by its listing (the root, where Sync
// made .artifacts just before): the quick check lists it again and
// holds while it holds what the walk read, fails once a file is added
// to it whatever its time says, and trusts its time again once a later
// full check stamps it.
func TestSymbolsQuickUnsure(t *testing.T) {
	ctx := context.Background()
	root := symbolsTree(t)
	ageTree(t, root)
	// Sync makes .artifacts: the root changes just before the check.
	if _, err := Sync(ctx, Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	s, err := OpenSymbols(ctx, Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	q, err := openQuick(t, root)
	if err != nil || q.Relisted != 1 {
		t.Fatalf("the root changed as the check ran: %d relisted, %v; want 1, nil", q.Relisted, err)
	}
	write(t, root, "added.py", "def added():\n    pass\n")
	os.Chtimes(filepath.Join(root, "added.py"), aged, aged)
	os.Chtimes(root, aged, aged) // only the listing tells
	if _, err := openQuick(t, root); !errors.Is(err, ErrStale) || !strings.Contains(err.Error(), "listed") {
		t.Fatalf("a file added to a directory vouched for by its listing: %v, want ErrStale", err)
	}
	os.Remove(filepath.Join(root, "added.py"))
	ageTree(t, root)
	if s, err = OpenSymbols(ctx, Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if q, err := openQuick(t, root); err != nil || q.Relisted != 0 {
		t.Fatalf("after a later full check: %d relisted, %v", q.Relisted, err)
	}
}

// TestSymbolsChanged checks Changed sees a file edited in place, gone,
// or not in the index, and nothing else.
func TestSymbolsChanged(t *testing.T) {
	root := quickTree(t)
	s, q, err := OpenSymbolsQuick(context.Background(), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	all := []string{"go.mod", "lib/lib.go", "pkg/m0.py", "pkg/m3.py", "web/a.js", "web/b.js"}
	if p, err := s.Changed(q.Root, all); p != "" || err != nil {
		t.Fatalf("nothing changed: Changed = %q, %v", p, err)
	}
	write(t, root, "pkg/m3.py", "def edited():\n    pass\n") // an edit in place: no directory changes
	if _, err := openQuick(t, root); err != nil {
		t.Errorf("an edit in place failed the directory check: %v", err)
	}
	for _, tc := range []struct {
		paths []string
		want  string
	}{
		{all, "pkg/m3.py"},
		{[]string{"lib/lib.go", "web/a.js"}, ""},
		{[]string{"web/a.js", "nowhere.py"}, "nowhere.py"},
		{[]string{"README.md"}, "README.md"},
	} {
		if p, err := s.Changed(q.Root, tc.paths); p != tc.want || err != nil {
			t.Errorf("Changed(%v) = %q, %v; want %q", tc.paths, p, err, tc.want)
		}
	}
	os.Remove(filepath.Join(root, "web/a.js"))
	if p, _ := s.Changed(q.Root, []string{"web/a.js"}); p != "web/a.js" {
		t.Errorf("a removed file: Changed = %q", p)
	}
}

// FuzzDirStamps checks the directory stamps decoder never panics, and
// that what it accepts encodes back to the same bytes.
func FuzzDirStamps(f *testing.F) {
	var id [16]byte
	copy(id[:], "0123456789abcdef")
	f.Add(encodeDirs(42, id, nil))
	f.Add(encodeDirs(time.Now().UnixNano(), id, []dirRec{{Path: "", Size: 4096, MTime: 7}, {Path: ".gitignore", Size: dirstamp.Absent, MTime: 0}, {Path: "a/b", Size: dirstamp.Unsure, MTime: -3}}))
	f.Add([]byte(symDirsMagic))
	f.Fuzz(func(t *testing.T, b []byte) {
		since, id, recs, err := decodeDirs(b)
		if err != nil {
			return
		}
		if again := encodeDirs(since, id, recs); !reflect.DeepEqual(again, b) {
			t.Fatalf("decoded %d records that encode to other bytes", len(recs))
		}
	})
}
