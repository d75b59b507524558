package codeindex

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/internal/dirstamp"
)

// backdate sets the times of root and everything under it an hour back,
// as a tree looks that was not touched just before it was indexed, and
// that has an index directory already (whose making changes the root).
func backdate(t *testing.T, root string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(root, ".artifacts", ".index"), 0o755); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	err := filepath.Walk(root, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// stampTree writes the directory stamps of root after a walk as a full
// check makes it, and returns the index's directory.
func stampTree(t *testing.T, root string) string {
	t.Helper()
	dir := filepath.Join(root, ".artifacts", ".index")
	began := time.Now()
	scan := StartScan(context.Background(), root, SelectOptions{Dir: dir})
	if _, err := scan.Selection(); err != nil {
		t.Fatal(err)
	}
	if err := WriteDirStamps(dir, root, scan.Listing(), began); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCheckDirs(t *testing.T) {
	files := map[string]string{
		"a/alpha.go":           "package a\n\nfunc Alpha() {}\n",
		"a/b/beta.go":          "package b\n\nfunc Beta() {}\n",
		"c/.gitignore":         "gen/\n",
		"c/gamma.go":           "package c\n",
		"README.md":            "# r\n",
		".git/info/attributes": "",
	}
	for _, tc := range []struct {
		name   string
		change func(root string) error
		stale  string // "" : the check holds
	}{
		{"nothing", func(string) error { return nil }, ""},
		{"edited in place", func(r string) error { // not the stamps' business: Changed's
			return os.WriteFile(filepath.Join(r, "a/alpha.go"), []byte("package a\n\nfunc Alpha2() {}\n"), 0o644)
		}, ""},
		{"added", func(r string) error {
			return os.WriteFile(filepath.Join(r, "a/b/new.go"), []byte("package b\n"), 0o644)
		}, "a/b changed"},
		{"removed", func(r string) error { return os.Remove(filepath.Join(r, "a/alpha.go")) }, "a changed"},
		{"renamed", func(r string) error {
			return os.Rename(filepath.Join(r, "c/gamma.go"), filepath.Join(r, "c/delta.go"))
		}, "c changed"},
		{"directory added", func(r string) error { return os.Mkdir(filepath.Join(r, "d"), 0o755) }, ". changed"},
		{"ignore rules edited", func(r string) error {
			return os.WriteFile(filepath.Join(r, "c/.gitignore"), []byte("gen/\nold/\n"), 0o644)
		}, "c/.gitignore changed"},
		{"exclude file made", func(r string) error {
			return os.WriteFile(filepath.Join(r, ".git/info/exclude"), []byte("a/\n"), 0o644)
		}, ".git/info/exclude changed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeFiles(t, root, files)
			backdate(t, root)
			dir := stampTree(t, root)
			if err := tc.change(root); err != nil {
				t.Fatal(err)
			}
			f, err := CheckDirs(root, dir)
			switch {
			case tc.stale == "" && err != nil:
				t.Errorf("CheckDirs: %v, want it to hold", err)
			case tc.stale != "" && (!errors.Is(err, ErrStale) || !strings.Contains(err.Error(), tc.stale)):
				t.Errorf("CheckDirs: %v, want %q", err, tc.stale)
			}
			if tc.stale == "" && f.Checked < 5 { // ., a, a/b, c, c/.gitignore, .git/info/exclude
				t.Errorf("checked %d paths", f.Checked)
			}
		})
	}
}

// TestCheckDirsUnsure: a directory changed as the full check walked, or
// just before, cannot be vouched for by its time, but by its listing:
// the next check lists it again (Relisted) and holds while nothing was
// added, removed, replaced or written there, a file the full check read
// counting as unchanged (Changed). On a tree left alone the full check
// stamps every directory by time.
func TestCheckDirsUnsure(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(root string) error
		stale  string // "": the check holds
	}{
		{"nothing", func(string) error { return nil }, ""},
		{"added", func(r string) error {
			return os.WriteFile(filepath.Join(r, "a/new.go"), []byte("package a\n"), 0o644)
		}, "a changed since it was listed"},
		{"removed", func(r string) error { return os.Remove(filepath.Join(r, "a/beta.go")) }, "a changed since it was listed"},
		{"replaced", func(r string) error { // same name, size and time: another inode
			p := filepath.Join(r, "a/alpha.go")
			info, err := os.Stat(p)
			if err != nil {
				return err
			}
			if err := os.WriteFile(p+".tmp", []byte("package b\n"), 0o644); err != nil {
				return err
			}
			if err := os.Chtimes(p+".tmp", info.ModTime(), info.ModTime()); err != nil {
				return err
			}
			return os.Rename(p+".tmp", p)
		}, "a changed since it was listed"},
		{"written", func(r string) error {
			return os.WriteFile(filepath.Join(r, "a/alpha.go"), []byte("package a\n\nfunc A() {}\n"), 0o644)
		}, "a changed since it was listed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeFiles(t, root, map[string]string{"a/alpha.go": "package a\n", "a/beta.go": "package a\n"})
			if err := os.MkdirAll(filepath.Join(root, ".artifacts", ".index"), 0o755); err != nil {
				t.Fatal(err)
			}
			dir := stampTree(t, root) // a was made just now
			if err := tc.change(root); err != nil {
				t.Fatal(err)
			}
			f, err := CheckDirs(root, dir)
			switch {
			case tc.stale == "" && err != nil:
				t.Fatalf("CheckDirs after a walk of a tree just made: %v, want it to hold", err)
			case tc.stale != "" && (!errors.Is(err, ErrStale) || !strings.Contains(err.Error(), tc.stale)):
				t.Fatalf("CheckDirs: %v, want %q", err, tc.stale)
			case err != nil:
				return
			}
			if f.Relisted < 2 { // . and a
				t.Errorf("%d directories listed again, want . and a", f.Relisted)
			}
			if f.Changed("a/alpha.go") {
				t.Error("a file the full check read, untouched since, is reported changed")
			}
		})
	}
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"a/alpha.go": "package a\n"})
	backdate(t, root)
	f, err := CheckDirs(root, stampTree(t, root))
	if err != nil || f.Relisted != 0 {
		t.Fatalf("CheckDirs of a tree left alone: %v, %d listed again", err, f.Relisted)
	}
}

// TestListedStampWalkDiffers: a directory whose listing now is not the
// one the walk read, or whose file is not as the walk found it, keeps
// its unsure stamp.
func TestListedStampWalkDiffers(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"a/alpha.go": "package a\n"})
	ns := time.Now().UnixNano()
	unsure := dirstamp.Of(root, "a", ns)
	if unsure.Size != dirstamp.Unsure {
		t.Fatalf("a directory made just now: %+v", unsure)
	}
	des, err := os.ReadDir(filepath.Join(root, "a"))
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Lstat(filepath.Join(root, "a/alpha.go"))
	if err != nil {
		t.Fatal(err)
	}
	listing := func(size int64) *docsearch.Listing {
		l := docsearch.NewListing()
		l.AddDir("a", slices.Clone(des))
		l.SetStats(func(p string) (docsearch.FileStat, bool) {
			return docsearch.FileStat{Mode: info.Mode(), Size: size, MTime: info.ModTime().UnixNano()}, p == "a/alpha.go"
		})
		return l
	}
	if s := listedStamp(root, "a", listing(info.Size()), ns, unsure); s.Size != dirstamp.Listed {
		t.Errorf("the walk's listing: %+v, want Listed", s)
	}
	if s := listedStamp(root, "a", listing(info.Size()+1), ns, unsure); s != unsure {
		t.Errorf("a file the walk found another size: %+v, want it unsure", s)
	}
	writeFiles(t, root, map[string]string{"a/beta.go": "package a\n"})
	if s := listedStamp(root, "a", listing(info.Size()), ns, unsure); s != unsure {
		t.Errorf("a file the walk did not list: %+v, want it unsure", s)
	}
}

func TestCheckDirsNoStamps(t *testing.T) {
	root := t.TempDir()
	if _, err := CheckDirs(root, filepath.Join(root, ".artifacts", ".index")); !errors.Is(err, ErrStale) {
		t.Errorf("CheckDirs without stamps: %v", err)
	}
	dir := filepath.Join(root, "idx")
	writeFiles(t, dir, map[string]string{DirStampsFile: "fidirs\x00\x01 damaged"})
	if _, err := CheckDirs(root, dir); !errors.Is(err, ErrStale) {
		t.Errorf("CheckDirs of a damaged file: %v", err)
	}
}

// TestFreshnessChanged: a file a search returns is trusted only while
// it is as old as the last full check.
func TestFreshnessChanged(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"a/alpha.go": "package a\n", "a/beta.go": "package a\n"})
	backdate(t, root)
	f, err := CheckDirs(root, stampTree(t, root))
	if err != nil {
		t.Fatal(err)
	}
	if f.Changed("a/alpha.go") {
		t.Error("an untouched file is reported changed")
	}
	if err := os.WriteFile(filepath.Join(root, "a/alpha.go"), []byte("package a\n\nfunc A() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(root, "a/beta.go"))
	for _, p := range []string{"a/alpha.go", "a/beta.go", "a"} {
		if !f.Changed(p) {
			t.Errorf("%s: not reported changed", p)
		}
	}
}

// TestWriteDirStampsLeavesIndexOut: saving the index changes its
// directory, which must not fail the check.
func TestWriteDirStampsLeavesIndexOut(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"a/alpha.go": "package a\n", ".artifacts/.index/docsearch.idx": "x", ".artifacts/note.md": "# n\n"})
	backdate(t, root)
	dir := stampTree(t, root)
	if err := os.WriteFile(filepath.Join(dir, "docsearch.idx"), []byte("y"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "new"), []byte("y"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := CheckDirs(root, dir); err != nil {
		t.Errorf("CheckDirs after the index was saved: %v", err)
	}
}

func TestDirStampsRoundTrip(t *testing.T) {
	in := []dirStamp{{Path: ".", Size: 4096, MTime: 1}, {Path: ".git/info/exclude", Size: dirstamp.Absent, MTime: 0}, {Path: "a", Size: 4096, MTime: -5}, {Path: "a/.gitignore", Size: 3, MTime: 1 << 60}, {Path: "b", Size: dirstamp.Unsure, MTime: 7}, {Path: "c", Size: dirstamp.Listed, MTime: -1 << 62}}
	since, out, err := decodeDirStamps(encodeDirStamps(42, in))
	if err != nil || since != 42 || !reflect.DeepEqual(out, in) {
		t.Errorf("round trip: %d %v %v", since, out, err)
	}
	for _, bad := range []struct {
		name string
		b    []byte
	}{
		{"short", []byte("fidirs")},
		{"unsorted", encodeDirStamps(1, []dirStamp{{Path: "b", Size: 1, MTime: 1}, {Path: "a", Size: 1, MTime: 1}})},
		{"outside", encodeDirStamps(1, []dirStamp{{Path: "../a", Size: 1, MTime: 1}})},
		{"size", encodeDirStamps(1, []dirStamp{{Path: "a", Size: -4, MTime: 1}})},
	} {
		if _, _, err := decodeDirStamps(bad.b); err == nil {
			t.Errorf("%s: decoded", bad.name)
		}
	}
	b := encodeDirStamps(1, in)
	b[len(b)-1] ^= 1
	if _, _, err := decodeDirStamps(b); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("a flipped bit: %v", err)
	}
}

func FuzzDirStamps(f *testing.F) {
	f.Add(encodeDirStamps(3, []dirStamp{{Path: ".", Size: 4096, MTime: 1}, {Path: "a", Size: dirstamp.Absent, MTime: 0}}))
	f.Add(encodeDirStamps(0, nil))
	f.Add(encodeDirStamps(5, []dirStamp{{Path: "a", Size: dirstamp.Unsure, MTime: 2}, {Path: "b", Size: dirstamp.Listed, MTime: -7}}))
	f.Add([]byte(dirStampsMagic))
	f.Fuzz(func(t *testing.T, b []byte) {
		since, stamps, err := decodeDirStamps(b)
		if err != nil {
			return
		}
		again := encodeDirStamps(since, stamps)
		s2, st2, err := decodeDirStamps(again)
		if err != nil || s2 != since || !reflect.DeepEqual(st2, stamps) {
			t.Fatalf("re-encoded stamps do not decode alike: %v", err)
		}
	})
}

// BenchmarkCheckDirs is the quick check of a tree of 1,000 directories
// of 10 files each: its cost is an lstat per directory, whatever the
// files.
func BenchmarkCheckDirs(b *testing.B) {
	root := b.TempDir()
	for i := range 1000 {
		d := filepath.Join(root, fmt.Sprintf("d%02d", i/100), fmt.Sprintf("e%03d", i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
		for j := range 10 {
			if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("f%d.c", j)), []byte("int f(void);\n"), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	old := time.Now().Add(-time.Hour)
	filepath.Walk(root, func(p string, _ os.FileInfo, err error) error { return os.Chtimes(p, old, old) })
	dir := filepath.Join(b.TempDir(), "idx")
	scan := StartScan(context.Background(), root, SelectOptions{})
	if _, err := scan.Selection(); err != nil {
		b.Fatal(err)
	}
	if err := WriteDirStamps(dir, root, scan.Listing(), time.Now()); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := CheckDirs(root, dir); err != nil {
			b.Fatal(err)
		}
	}
}
