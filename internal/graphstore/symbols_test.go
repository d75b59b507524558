package graphstore

import (
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/internal/fixture"
)

// age dates every file under root an hour back, as a checkout's are: a
// file modified within a clock tick of a save is never trusted.
func age(t *testing.T, root string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			os.Chtimes(p, old, old)
		}
		return nil
	})
}

// symbolsTree writes a small tree of Go, Python and JavaScript with
// classes, calls across files and doc comments.
func symbolsTree(t *testing.T) string {
	t.Helper()
	r := rand.New(rand.NewPCG(3, 4))
	root := t.TempDir()
	write(t, root, "go.mod", "module example.com/x\n")
	write(t, root, "lib/lib.go", goSource(r, 5))
	for i := range 4 {
		write(t, root, fmt.Sprintf("pkg/m%d.py", i), pySource(r, i, 4))
	}
	write(t, root, "pkg/__init__.py", "")
	write(t, root, "web/a.js", jsSource(r, "a", "b"))
	write(t, root, "web/b.js", jsSource(r, "b", "a"))
	age(t, root)
	return root
}

// TestSymbolsMatchGraph checks the symbols index Sync saves reads back
// as the graph it was made from: nodes, callers and callees in edge
// order, and the names indexes.
func TestSymbolsMatchGraph(t *testing.T) {
	root := symbolsTree(t)
	ctx := context.Background()
	snap, err := Sync(ctx, Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	g := snap.Graph()
	s, err := OpenSymbols(ctx, Options{Root: root})
	if err != nil {
		t.Fatalf("OpenSymbols after Sync: %v", err)
	}
	defer s.Close()
	if err := s.Verify(); err != nil {
		t.Fatal(err)
	}
	if s.Len() != g.Len() || g.Len() == 0 {
		t.Fatalf("%d nodes, want %d", s.Len(), g.Len())
	}
	byQual, byName, byFile := map[string][]callgraph.SymbolID{}, map[string][]callgraph.SymbolID{}, map[string][]callgraph.SymbolID{}
	docs := 0
	for i := range g.Len() {
		id := callgraph.SymbolID(i)
		n := g.Node(id)
		if got := s.Node(id); got != n {
			t.Fatalf("node %d: %+v, want %+v", id, got, n)
		}
		if !reflect.DeepEqual(s.Callers(id), g.Callers(id)) || !reflect.DeepEqual(s.Callees(id), g.Callees(id)) {
			t.Fatalf("node %s: callers %v / callees %v, want %v / %v", n.Qualified, s.Callers(id), s.Callees(id), g.Callers(id), g.Callees(id))
		}
		byQual[n.Qualified] = append(byQual[n.Qualified], id)
		byName[strings.ToLower(n.Name)] = append(byName[strings.ToLower(n.Name)], id)
		byFile[n.File] = append(byFile[n.File], id)
		if _, doc, _ := s.Detail(id); doc != "" {
			docs++
		}
	}
	for q, ids := range byQual {
		if got := s.Qualified(q); !slices.Equal(got, ids) {
			t.Errorf("Qualified(%q) = %v, want %v", q, got, ids)
		}
	}
	var names []string
	for n, ids := range byName {
		names = append(names, n)
		if got := s.Named(n); !slices.Equal(got, ids) {
			t.Errorf("Named(%q) = %v, want %v", n, got, ids)
		}
	}
	for f, ids := range byFile {
		if got := s.InFile(f); !slices.Equal(got, ids) {
			t.Errorf("InFile(%q) = %v, want %v", f, got, ids)
		}
	}
	if got := s.Qualified("no.such.name"); len(got) != 0 {
		t.Errorf("Qualified of an unknown name: %v", got)
	}
	var each []string
	s.EachName(func(n string) bool { each = append(each, n); return true })
	slices.Sort(names)
	if !slices.Equal(each, names) {
		t.Errorf("EachName: %v, want %v", each, names)
	}
	if docs == 0 {
		t.Error("no node has its doc comment")
	}
}

// TestSymbolsStale checks OpenSymbols refuses an index the tree has
// moved on from, and that the next Sync makes it current again.
func TestSymbolsStale(t *testing.T) {
	ctx := context.Background()
	for _, change := range []string{"edit", "add", "remove", "key"} {
		t.Run(change, func(t *testing.T) {
			root := symbolsTree(t)
			if _, err := Sync(ctx, Options{Root: root}); err != nil {
				t.Fatal(err)
			}
			opt := Options{Root: root}
			switch change {
			case "edit":
				write(t, root, "lib/lib.go", "package lib\n\nfunc Only() {}\n")
			case "add":
				write(t, root, "pkg/extra.py", "def extra():\n    pass\n")
			case "remove":
				os.Remove(filepath.Join(root, "web/b.js"))
			case "key":
				opt.Key = "other"
			}
			if s, err := OpenSymbols(ctx, opt); !errors.Is(err, ErrStale) {
				if s != nil {
					s.Close()
				}
				t.Fatalf("after %s: OpenSymbols returned %v, want ErrStale", change, err)
			}
			age(t, root)
			if _, err := Sync(ctx, opt); err != nil {
				t.Fatal(err)
			}
			s, err := OpenSymbols(ctx, opt)
			if err != nil {
				t.Fatalf("after Sync: %v", err)
			}
			defer s.Close()
			if change == "edit" && len(s.Qualified("example.com/x/lib.Only")) != 1 {
				t.Error("the edited file's symbol is not in the index")
			}
		})
	}
}

// TestSymbolsWrittenForSavedGraph checks a graph saved before symbols
// indexes existed gets one on the next Sync, without being rebuilt.
func TestSymbolsWrittenForSavedGraph(t *testing.T) {
	root := symbolsTree(t)
	ctx := context.Background()
	if _, err := Sync(ctx, Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, ".artifacts", ".index", SymbolsFile)
	os.Remove(file)
	snap, err := Sync(ctx, Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if snap.Extracted != 0 {
		t.Errorf("extracted %d files again", snap.Extracted)
	}
	s, err := OpenSymbols(ctx, Options{Root: root})
	if err != nil {
		t.Fatalf("no symbols index after Sync: %v", err)
	}
	s.Close()
}

// TestSymbolsCorrupt checks a damaged symbols index is refused at open
// (header, sizes) or on the first read of a damaged block, never read
// as an answer; Verify finds any damaged byte.
func TestSymbolsCorrupt(t *testing.T) {
	root := symbolsTree(t)
	ctx := context.Background()
	if _, err := Sync(ctx, Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, ".artifacts", ".index", SymbolsFile)
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// Every byte flipped in turn (a sample of them on a big file).
	step := max(1, len(good)/400)
	for at := 0; at < len(good); at += step {
		bad := slices.Clone(good)
		bad[at] ^= 0x5a
		s, err := parseSymbols(bad)
		if err != nil {
			continue // refused at open
		}
		if err := s.Verify(); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("byte %d flipped: Verify says %v", at, err)
		}
		// A lookup over every node fails, never answers.
		err = Guard(func() {
			for i := range s.Len() {
				s.Node(callgraph.SymbolID(i))
				s.Callers(callgraph.SymbolID(i))
				s.Callees(callgraph.SymbolID(i))
				s.Detail(callgraph.SymbolID(i))
			}
			s.EachName(func(string) bool { return true })
			for _, w := range []string{"f", "a.f", "zzz"} {
				s.EachNameHolding([]string{w}, func(string, []callgraph.SymbolID) bool { return true })
			}
			for k := range s.config + s.files {
				s.stamp(k)
			}
		})
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("byte %d flipped: reading everything says %v", at, err)
		}
	}
	for _, n := range []int{0, 7, symHeaderSize, len(good) / 2, len(good) - 1} {
		if _, err := parseSymbols(good[:n]); !errors.Is(err, ErrCorrupt) {
			t.Errorf("truncated to %d bytes: %v, want ErrCorrupt", n, err)
		}
	}
	for _, how := range fixture.Spoilings {
		t.Run(string(how), func(t *testing.T) {
			os.WriteFile(file, good, 0o644)
			fixture.Spoil(t, file, how)
			done := make(chan error, 1)
			go func() {
				s, err := OpenSymbols(ctx, Options{Root: root})
				if s != nil {
					s.Close()
				}
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil {
					t.Fatal("a spoiled symbols index opened")
				}
			case <-time.After(20 * time.Second):
				t.Fatal("OpenSymbols blocked on a spoiled file")
			}
			// Sync replaces it.
			if _, err := Sync(ctx, Options{Root: root}); err != nil {
				t.Fatal(err)
			}
			s, err := OpenSymbols(ctx, Options{Root: root})
			if err != nil {
				t.Fatalf("after Sync: %v", err)
			}
			s.Close()
		})
	}
}

// FuzzSymbols reads arbitrary bytes as a symbols index: every failure is
// an error or a CorruptError, never another panic nor a hang.
func FuzzSymbols(f *testing.F) {
	st := &State{Key: "k", Files: []Entry{{Path: "a.py", Size: 3, ModTime: 9}}}
	nodes := []callgraph.Node{{Qualified: "a.f", Name: "f", Kind: "function", File: "a.py", Line: 1}, {Qualified: "a.g", Name: "g", File: "a.py", Line: 4}}
	edges := []callgraph.Edge{{Caller: 0, Callee: 1, File: "a.py", Line: 2, Resolution: callgraph.Local}}
	good, err := encodeSymbols(st, nodes, edges, nil, nil, symBlock)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := parseSymbols(data)
		if err != nil {
			return
		}
		Guard(func() {
			for i := range min(s.Len(), 100) {
				s.Node(callgraph.SymbolID(i))
				s.Callers(callgraph.SymbolID(i))
				s.Callees(callgraph.SymbolID(i))
				s.Detail(callgraph.SymbolID(i))
			}
			s.Qualified("a.f")
			s.Named("f")
			s.InFile("a.py")
			s.EachName(func(string) bool { return true })
			for _, w := range []string{"f", "a.f", "zzz"} {
				s.EachNameHolding([]string{w}, func(string, []callgraph.SymbolID) bool { return true })
			}
		})
		s.Verify()
	})
}

// TestStateIgnoredByGit checks what Sync saves leaves git status clean:
// its directory ignores itself.
func TestStateIgnoredByGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	root := symbolsTree(t)
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(git, args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	run("init", "-q")
	run("add", ".")
	run("commit", "-qm", "x")
	if _, err := Sync(context.Background(), Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".artifacts", ".index", SymbolsFile)); err != nil {
		t.Fatal(err)
	}
	if st := run("status", "--porcelain"); st != "" {
		t.Errorf("git status after Sync:\n%s", st)
	}
}

// bigSymbols encodes a graph of n nodes and e random edges, as a C tree
// of 5,000 files would give, summed in blocks of block bytes.
func bigSymbols(t testing.TB, n, e int, block uint64) []byte {
	t.Helper()
	r := rand.New(rand.NewPCG(5, 6))
	nodes := make([]callgraph.Node, n)
	for i := range nodes {
		f := fmt.Sprintf("dir%d/file%d.c", i%300, i%5000)
		nodes[i] = callgraph.Node{Qualified: fmt.Sprintf("%s:fn%d", f, i), Name: fmt.Sprintf("fn%d", i), Kind: "function", File: f, Line: i % 2000, Language: "c"}
	}
	edges := make([]callgraph.Edge, e)
	for i := range edges {
		edges[i] = callgraph.Edge{Caller: callgraph.SymbolID(r.IntN(n)), Callee: callgraph.SymbolID(r.IntN(n)), File: nodes[i%n].File, Line: i % 3000, Resolution: callgraph.Import}
	}
	data, err := encodeSymbols(&State{Key: "k"}, nodes, edges, nil, nil, block)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestSymbolsLookupSumsLittle checks a lookup verifies (and so faults
// in) about what it reads, not megabytes around each record: the callers
// of one name with their nodes, as `fileinfo callers` reads them, sum
// less than 256 KiB of a 30 MB index.
func TestSymbolsLookupSumsLittle(t *testing.T) {
	data := bigSymbols(t, 100_000, 300_000, symBlock)
	s, err := parseSymbols(data)
	if err != nil {
		t.Fatal(err)
	}
	var callers int
	if err := Guard(func() {
		ids := s.Named("fn4242")
		if len(ids) != 1 {
			t.Fatalf("%d nodes named fn4242", len(ids))
		}
		for _, e := range s.Callers(ids[0]) {
			s.Node(e.Caller)
			callers++
		}
	}); err != nil {
		t.Fatal(err)
	}
	verified := 0
	for b := range s.verified {
		if s.verified[b].Load() {
			verified++
		}
	}
	if summed := uint64(verified) * s.block; callers == 0 || summed > 256<<10 {
		t.Errorf("a lookup of %d callers summed %d blocks of %d bytes (%d KiB) of a %d MB index", callers, verified, s.block, summed>>10, len(data)>>20)
	}
}

// TestSymbolsBlockSizes checks an index summed in blocks of any size
// the format allows reads back as the same graph (1 MiB is what the
// first writers used: such an index stays usable), and any other size
// is refused.
func TestSymbolsBlockSizes(t *testing.T) {
	want := bigSymbols(t, 3000, 9000, symBlock)
	ws, err := parseSymbols(want)
	if err != nil {
		t.Fatal(err)
	}
	for _, block := range []uint64{minSymBlock, symBlock, 64 << 10, maxSymBlock} {
		data := bigSymbols(t, 3000, 9000, block)
		s, err := parseSymbols(data)
		if err != nil {
			t.Fatalf("block %d: %v", block, err)
		}
		if err := s.Verify(); err != nil {
			t.Fatalf("block %d: %v", block, err)
		}
		for i := range s.Len() {
			id := callgraph.SymbolID(i)
			if s.Node(id) != ws.Node(id) || !reflect.DeepEqual(s.Callers(id), ws.Callers(id)) {
				t.Fatalf("block %d: node %d reads differently", block, i)
			}
		}
	}
	for _, block := range []uint64{0, 1, minSymBlock / 2, symBlock + 1, 3 << 12, 2 * maxSymBlock} {
		bad := slices.Clone(want)
		p := symHeaderSize - 12
		bad[p], bad[p+1], bad[p+2], bad[p+3] = byte(block), byte(block>>8), byte(block>>16), byte(block>>24)
		// Re-seal the header, so that only the block size is wrong.
		h := crc32.Checksum(bad[:symHeaderSize-8], crc32.MakeTable(crc32.Castagnoli))
		bad[symHeaderSize-4], bad[symHeaderSize-3], bad[symHeaderSize-2], bad[symHeaderSize-1] = byte(h), byte(h>>8), byte(h>>16), byte(h>>24)
		if _, err := parseSymbols(bad); !errors.Is(err, ErrCorrupt) {
			t.Errorf("block size %d: %v, want ErrCorrupt", block, err)
		}
	}
}
