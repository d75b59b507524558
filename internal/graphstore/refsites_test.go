package graphstore

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/fileinfo/fileinfo/callgraph"
)

// refsTree writes a tree whose functions are used as values, not called,
// in Go, Python, JavaScript and TypeScript, in their own files and in
// others; and Rust and C, whose extraction finds no such uses.
func refsTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for p, src := range map[string]string{
		"go.mod":          "module example.com/x\n",
		"lib/lib.go":      "package lib\n\nfunc Helper() {}\n\nvar hook = Helper\n",
		"lib/other.go":    "package lib\n\nfunc use() { run(Helper) }\n\nfunc run(f func()) { f() }\n",
		"app/app.go":      "package app\n\nimport \"example.com/x/lib\"\n\nvar h = lib.Helper\n",
		"py/__init__.py":  "",
		"py/tasks.py":     "def by_name(x):\n    return x\n\n\ndef order(xs):\n    return sorted(xs, key=by_name)\n",
		"py/user.py":      "from py.tasks import by_name\n\nITEMS = sorted([], key=by_name)\n",
		"web/a.js":        "export function handler() {}\napp.use(handler);\n",
		"web/b.js":        "import { handler } from './a.js';\nlisten(handler);\n",
		"ts/t.ts":         "export function cb(): void {}\nsetTimeout(cb, 1);\n",
		"ts/u.ts":         "import { cb } from './t';\nqueue.push(cb);\n",
		"rust/src/lib.rs": "fn f() {}\nfn g() { let h = f; h(); }\n",
		"c/a.c":           "static int open_fn(void) { return 0; }\nstruct ops o = { .open = open_fn };\n",
	} {
		write(t, root, p, src)
	}
	age(t, root)
	return root
}

// expectReferences checks that refs gives every node of want the
// references want gives it, and that the tree has some in each language
// of langs.
func expectReferences(t *testing.T, want *callgraph.Graph, refs func(id callgraph.SymbolID) []callgraph.Reference, langs ...string) {
	t.Helper()
	found := map[string]int{}
	for id := range want.Len() {
		id := callgraph.SymbolID(id)
		w, got := want.References(id), refs(id)
		if !reflect.DeepEqual(got, w) {
			t.Fatalf("References(%s) = %v, a fresh build's %v", want.Node(id).Qualified, got, w)
		}
		if len(w) > 0 {
			found[want.Node(id).Language]++
		}
	}
	for _, l := range langs {
		if found[l] == 0 {
			t.Errorf("no %s function has references: %v", l, found)
		}
	}
}

// TestRestoredReferences checks that a restart's graph, restored over
// slim files, and the saved symbols index read in place give every
// node a fresh build's references (on main they found none), and that
// damage to the index's sites is never an answer: the restore reads
// them from graph.bin instead.
func TestRestoredReferences(t *testing.T) {
	langs := []string{"go", "python", "javascript", "typescript"}
	for _, c := range []struct{ discard, damage bool }{{false, false}, {true, false}, {false, true}} {
		// Discard: saved as `fileinfo index` saves, the build taking the
		// files over.
		damage := c.damage
		t.Run(fmt.Sprintf("discard=%v,damaged=%v", c.discard, damage), func(t *testing.T) {
			root := refsTree(t)
			ctx := context.Background()
			if _, err := Sync(ctx, Options{Root: root, Key: "test", Discard: c.discard}); err != nil {
				t.Fatal(err)
			}
			files, _, _ := fresh(t, root)
			want := callgraph.Build(files)
			snap, err := Sync(ctx, Options{Root: root, Key: "test", Lazy: true})
			if err != nil {
				t.Fatal(err)
			}
			defer snap.Extractions().Close()
			if snap.bare == nil || snap.symbols == nil {
				t.Fatalf("the load did not leave the files bare (%v) with a current symbols index (%v)", snap.bare != nil, snap.symbols != nil)
			}
			s, err := OpenSymbols(ctx, Options{Root: root, Key: "test", ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			expectReferences(t, want, func(id callgraph.SymbolID) []callgraph.Reference {
				rs, _ := callgraph.ReferencesAmong(s.Node(id), s.RefSites(s.Node(id).Name), 0, nil)
				return rs
			}, langs...)
			if damage {
				damageRefs(t, filepath.Join(root, ".artifacts", ".index", SymbolsFile))
			}
			g, err := snap.RestoreGraph()
			if err != nil {
				t.Fatal(err)
			}
			expectReferences(t, want, g.References, langs...)
		})
	}
}

// damageRefs flips a byte of the refs section of the symbols index at
// file, in place.
func damageRefs(t *testing.T, file string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s, err := parseSymbols(data)
	if err != nil || s.refs == 0 {
		t.Fatalf("no sites to damage: %v", err)
	}
	f, err := os.OpenFile(file, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	at := int64(s.secOff[secRefs]) + 4
	if _, err := f.WriteAt([]byte{data[at] ^ 0x5a}, at); err != nil {
		t.Fatal(err)
	}
	if _, err := savedRefSites(filepath.Dir(file), symbolsIdentity(t, file)); err == nil {
		t.Fatal("the damaged sites read back")
	}
}

func symbolsIdentity(t *testing.T, file string) [16]byte {
	t.Helper()
	s, err := ReadSymbols(file)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	return s.identity()
}

// TestSymbolsOldVersion checks that an index of version 1, which has no
// reference sites, is stale, never read as version 2.
func TestSymbolsOldVersion(t *testing.T) {
	good, err := encodeSymbols(&State{Key: "k"}, nil, nil, nil, nil, symBlock)
	if err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint32(good[8:], 1)
	if _, err := parseSymbols(good); !errors.Is(err, ErrStale) {
		t.Fatalf("a version 1 index: %v, want ErrStale", err)
	}
}

// randomSites returns n sites of names among k, sorted as RefSitesOf
// sorts them, and nodes with those names.
func randomSites(r *rand.Rand, n, k int) ([]callgraph.Node, []callgraph.RefSite) {
	var nodes []callgraph.Node
	for i := range k {
		nodes = append(nodes, callgraph.Node{Qualified: fmt.Sprintf("m.f%02d", i), Name: fmt.Sprintf("f%02d", i), Kind: "function", File: "m.py"})
	}
	sites := make([]callgraph.RefSite, n)
	for i := range sites {
		s := callgraph.RefSite{Name: fmt.Sprintf("f%02d", r.IntN(k+1)), Caller: "m", File: fmt.Sprintf("d/%d.py", i%5), Line: i, Go: i%3 == 0}
		if i%4 == 1 {
			s.Receiver = "mod"
			for j := range r.IntN(3) {
				s.Imports = append(s.Imports, callgraph.RefImport{Path: fmt.Sprintf("p%d", j), Resolved: "r"})
			}
		}
		sites[i] = s
	}
	sortSites(sites)
	return nodes, sites
}

// sortSites sorts sites by name, then file, as RefSitesOf does.
func sortSites(sites []callgraph.RefSite) {
	for i := 1; i < len(sites); i++ {
		for j := i; j > 0 && (sites[j].Name < sites[j-1].Name || sites[j].Name == sites[j-1].Name && sites[j].File < sites[j-1].File); j-- {
			sites[j], sites[j-1] = sites[j-1], sites[j]
		}
	}
}

// TestSymbolsRefSitesRoundTrip writes sites and reads them back, all and
// by name: those of a node's name, in order; no other.
func TestSymbolsRefSitesRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 7, 300} {
		nodes, sites := randomSites(r, n, 9)
		data, err := encodeSymbols(&State{Key: "k"}, nodes, nil, nil, sites, symBlock)
		if err != nil {
			t.Fatal(err)
		}
		s, err := parseSymbols(data)
		if err != nil {
			t.Fatal(err)
		}
		var want []callgraph.RefSite
		for _, x := range sites {
			if x.Name != "f09" { // no node's name
				want = append(want, x)
			}
		}
		var all []callgraph.RefSite
		if err := Guard(func() { all = s.allRefSites() }); err != nil || len(all)+len(want) > 0 && !reflect.DeepEqual(all, want) {
			t.Fatalf("%d sites: read back %v (%v), want %v", n, all, err, want)
		}
		for i := range 10 {
			name := fmt.Sprintf("f%02d", i)
			var w []callgraph.RefSite
			for _, x := range want {
				if x.Name == name {
					w = append(w, x)
				}
			}
			if got := s.RefSites(name); len(got)+len(w) > 0 && !reflect.DeepEqual(got, w) {
				t.Fatalf("%d sites: RefSites(%s) = %v, want %v", n, name, got, w)
			}
		}
	}
}

// FuzzSymbolsRefSites reads arbitrary bytes as a symbols index with
// reference sites: every failure is an error or a CorruptError, never
// another panic nor a hang, and what reads back whole is in order.
func FuzzSymbolsRefSites(f *testing.F) {
	nodes, sites := randomSites(rand.New(rand.NewPCG(5, 6)), 40, 4)
	good, err := encodeSymbols(&State{Key: "k"}, nodes, nil, nil, sites, symBlock)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)-7])
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := parseSymbols(data)
		if err != nil {
			return
		}
		Guard(func() {
			for _, name := range []string{"f00", "f01", "f03", "f04", ""} {
				s.RefSites(name)
			}
		})
		var all []callgraph.RefSite
		if Guard(func() { all = s.allRefSites() }) == nil {
			for i := 1; i < len(all); i++ {
				if all[i].Name < all[i-1].Name {
					t.Fatalf("sites read back out of order at %d", i)
				}
			}
		}
	})
}

// TestSymbolsRebuiltWithSites checks that a symbols index of version 1
// beside an unchanged graph.bin, as an upgrade finds it, is written
// again with the reference sites, decoded from graph.bin's files.
func TestSymbolsRebuiltWithSites(t *testing.T) {
	root := refsTree(t)
	ctx := context.Background()
	if _, err := Sync(ctx, Options{Root: root, Key: "test"}); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, ".artifacts", ".index", SymbolsFile)
	f, err := os.OpenFile(file, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	var v [4]byte
	binary.LittleEndian.PutUint32(v[:], 1)
	if _, err := f.WriteAt(v[:], 8); err != nil {
		t.Fatal(err)
	}
	f.Close()
	snap, err := Sync(ctx, Options{Root: root, Key: "test", Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	if x := snap.Extractions(); x != nil {
		defer x.Close()
	}
	s, err := OpenSymbols(ctx, Options{Root: root, Key: "test", ReadOnly: true})
	if err != nil {
		t.Fatalf("the version 1 index was not written again: %v", err)
	}
	defer s.Close()
	files, _, _ := fresh(t, root)
	want := callgraph.Build(files)
	expectReferences(t, want, func(id callgraph.SymbolID) []callgraph.Reference {
		rs, _ := callgraph.ReferencesAmong(s.Node(id), s.RefSites(s.Node(id).Name), 0, nil)
		return rs
	}, "go", "python", "javascript", "typescript")
}
