package graphstore

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
)

// fresh extracts root from scratch and builds its graph: what Sync must
// equal.
func fresh(t *testing.T, root string) ([]extract.File, []callgraph.Node, []callgraph.Edge) {
	t.Helper()
	ex, err := extract.New(root, extract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	files, _, err := ex.All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	g := callgraph.Build(files)
	nodes := make([]callgraph.Node, g.Len())
	for i := range nodes {
		nodes[i] = g.Node(callgraph.SymbolID(i))
	}
	return files, nodes, g.Edges()
}

func write(t testing.TB, root, rel, src string) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

// pySource is a random Python module calling functions of its own and
// of the other modules, with a class hierarchy and assignments (which
// carry expressions).
func pySource(r *rand.Rand, mod, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "from pkg import m%d\nimport pkg.m%d as other\n\n", r.IntN(n), r.IntN(n))
	fmt.Fprintf(&b, "class Base%d:\n    def run(self, x):\n        return self.step(x)\n    def step(self, x):\n        return x\n\n", mod)
	fmt.Fprintf(&b, "class Child%d(Base%d):\n    def step(self, x):\n        y = [f%d(x), other.f%d(x)]\n        return super().step(y)\n\n", mod, mod, r.IntN(4), r.IntN(4))
	for i := range 1 + r.IntN(4) {
		fmt.Fprintf(&b, "def f%d(x=%d):\n    h = Child%d()\n    v = h.run(x) or m%d.f%d(x)\n    return v\n\n", i, r.IntN(9), mod, r.IntN(n), r.IntN(4))
	}
	return b.String()
}

func jsSource(r *rand.Rand, name, other string) string {
	return fmt.Sprintf("import { %s%d } from './%s';\nconst util = require('./%s');\n\nexport function %s%d(x) {\n  return %s%d(x) + util.%s%d(x);\n}\n\nmodule.exports.helper = function helper() { return %s%d(1); };\n",
		other, r.IntN(3), other, other, name, r.IntN(3), other, r.IntN(3), other, r.IntN(3), name, r.IntN(3))
}

func goSource(r *rand.Rand, n int) string {
	var b strings.Builder
	b.WriteString("package lib\n\ntype T struct{}\n\nfunc (T) M() int { return G0() }\n\n")
	for i := range n {
		fmt.Fprintf(&b, "// G%d does a thing.\nfunc G%d() int { var t T; _ = t.M; return G%d() }\n\n", i, i, r.IntN(n))
	}
	return b.String()
}

// TestSyncEqualsFresh makes random edits (rewrite, add, delete, touch
// with the same content, rewrite keeping size and time stamp) between
// Syncs, and checks each Sync's snapshot, and the state it saved, equal a
// fresh extraction and build.
func TestSyncEqualsFresh(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	root := t.TempDir()
	const n = 6
	write(t, root, "go.mod", "module example.com/x\n")
	write(t, root, "lib/lib.go", goSource(r, 3))
	for i := range n {
		write(t, root, fmt.Sprintf("pkg/m%d.py", i), pySource(r, i, n))
	}
	write(t, root, "pkg/__init__.py", "")
	write(t, root, "web/a.js", jsSource(r, "a", "b"))
	write(t, root, "web/b.js", jsSource(r, "b", "a"))
	ctx := context.Background()
	for step := range 12 {
		snap, err := Sync(ctx, Options{Root: root, Key: "test"})
		if err != nil {
			t.Fatal(err)
		}
		files, nodes, edges := fresh(t, root)
		if !reflect.DeepEqual(snap.Files, files) {
			t.Fatalf("step %d: files differ from a fresh extraction", step)
		}
		if g := snap.Graph(); !reflect.DeepEqual(g.Nodes(), nodes) || !reflect.DeepEqual(g.Edges(), edges) {
			t.Fatalf("step %d: graph differs from a fresh build: %d/%d nodes, %d/%d edges", step, len(g.Nodes()), len(nodes), len(g.Edges()), len(edges))
		}
		// Again with nothing changed: the saved graph, restored, answers
		// as a fresh build.
		again, err := Sync(ctx, Options{Root: root, Key: "test"})
		if err != nil {
			t.Fatal(err)
		}
		want := callgraph.Build(files)
		for what, g := range map[string]*callgraph.Graph{"synced": snap.Graph(), "restored": again.Graph()} {
			if g.Len() != want.Len() || !reflect.DeepEqual(g.Edges(), want.Edges()) ||
				!reflect.DeepEqual(g.Unresolved(), want.Unresolved()) || !reflect.DeepEqual(g.Skipped(), want.Skipped()) {
				t.Fatalf("step %d: the %s graph differs from a fresh build", step, what)
			}
		}
		if again.Extracted != 0 || !again.Graph().Restored() {
			t.Fatalf("step %d: an unchanged Sync extracted %d files, restored %v", step, again.Extracted, again.Graph().Restored())
		}
		for _, f := range files {
			src, _ := os.ReadFile(filepath.Join(root, f.Path))
			if snap.Digests[f.Path] != digest(src) {
				t.Fatalf("step %d: digest of %s is %q, want that of its content", step, f.Path, snap.Digests[f.Path])
			}
		}
		if step%6 != 0 && snap.Extracted == len(files) { // step 6 follows a go.mod change
			t.Errorf("step %d: all %d files extracted again", step, len(files))
		}
		// The next change.
		i := r.IntN(n)
		p := fmt.Sprintf("pkg/m%d.py", i)
		switch step % 6 {
		case 0:
			write(t, root, p, pySource(r, i, n))
			write(t, root, "web/b.js", jsSource(r, "b", "a"))
		case 1:
			write(t, root, fmt.Sprintf("pkg/new%d.py", step), pySource(r, n+step, n))
		case 2:
			os.Remove(filepath.Join(root, p))
		case 3: // same content, new time stamp
			now := time.Now().Add(time.Duration(step) * time.Second)
			os.Chtimes(filepath.Join(root, "lib/lib.go"), now, now)
		case 4: // same size and time stamp, other content: the hash catches it
			full := filepath.Join(root, "lib/lib.go")
			st, _ := os.Stat(full)
			src, _ := os.ReadFile(full)
			os.WriteFile(full, bytes.Replace(src, []byte("G0()"), []byte("G1()"), 1), 0o644)
			os.Chtimes(full, st.ModTime(), st.ModTime())
		case 5:
			write(t, root, "go.mod", "module example.com/y\n")
		}
	}
}

// TestUnchangedReusesAll checks a second Sync extracts nothing and builds
// no graph.
func TestUnchangedReusesAll(t *testing.T) {
	root := t.TempDir()
	write(t, root, "a.py", "def f():\n    g()\n\ndef g():\n    pass\n")
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(root, "a.py"), old, old)
	ctx := context.Background()
	if _, err := Sync(ctx, Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	snap, err := Sync(ctx, Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if snap.Extracted != 0 || snap.Reused != 1 || !snap.Graph().Restored() || len(snap.Graph().Edges()) != 1 {
		t.Errorf("second Sync: extracted %d, reused %d, graph restored %v, %d edges; want 0, 1, true, 1", snap.Extracted, snap.Reused, snap.Graph().Restored(), len(snap.Graph().Edges()))
	}
}

// TestRebuildsBadFile checks a corrupt, truncated or old-version file is
// rebuilt with a log line.
func TestRebuildsBadFile(t *testing.T) {
	for name, spoil := range map[string]func([]byte) []byte{
		"corrupt":   func(b []byte) []byte { b[len(b)-1] ^= 0xff; return b },
		"truncated": func(b []byte) []byte { return b[:len(b)/2] },
		"version":   func(b []byte) []byte { b[len(magic)]++; return b },
		"garbage":   func([]byte) []byte { return []byte("not a graph") },
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, "a.py", "def f():\n    g()\n\ndef g():\n    pass\n")
			ctx := context.Background()
			if _, err := Sync(ctx, Options{Root: root}); err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(root, ".artifacts", ".index", FileName)
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(file, spoil(data), 0o644)
			var logs bytes.Buffer
			snap, err := Sync(ctx, Options{Root: root, Log: slog.New(slog.NewTextHandler(&logs, nil))})
			if err != nil {
				t.Fatal(err)
			}
			if snap.Extracted != 1 || len(snap.Graph().Edges()) != 1 || !strings.Contains(logs.String(), "rebuilding") {
				t.Errorf("extracted %d, %d edges, log %q; want 1, 1 and a rebuild line", snap.Extracted, len(snap.Graph().Edges()), logs.String())
			}
			if _, err := Load(file); err != nil {
				t.Errorf("the rebuilt file does not load: %v", err)
			}
		})
	}
}

// TestKeyChangeRebuilds checks a state saved under another key is not used.
func TestKeyChangeRebuilds(t *testing.T) {
	root := t.TempDir()
	write(t, root, "a.py", "def f():\n    pass\n")
	ctx := context.Background()
	Sync(ctx, Options{Root: root, Key: "v1"})
	snap, err := Sync(ctx, Options{Root: root, Key: "v2"})
	if err != nil || snap.Extracted != 1 {
		t.Errorf("Sync with a new key: extracted %d, err %v; want 1, nil", snap.Extracted, err)
	}
}

func FuzzDecode(f *testing.F) {
	st := &State{Key: "k", Files: []Entry{{Path: "a.py", Size: 3, File: &extract.File{Path: "a.py", Symbols: []extract.Symbol{{Name: "f"}}}}},
		Edges: []callgraph.Edge{{Caller: 0, Callee: 0, Line: 2}}}
	data, err := Encode(st)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data[headerSize:])
	f.Add([]byte{})
	// A real Python file, whose expression table the decoder checks.
	root := f.TempDir()
	os.WriteFile(filepath.Join(root, "m.py"), []byte("import os\n\ndef f(a):\n    x = g(a, k=[a.b, *a])\n    return os.path.join(x)\n"), 0o644)
	if _, err := Sync(context.Background(), Options{Root: root}); err != nil {
		f.Fatal(err)
	}
	if saved, err := os.ReadFile(filepath.Join(root, ".artifacts", ".index", FileName)); err == nil {
		f.Add(saved[headerSize:])
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		st, err := decodePayload(payload)
		if err != nil {
			return
		}
		again, err := Encode(st)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Decode(again); err != nil {
			t.Fatalf("a decoded state does not decode after encoding: %v", err)
		}
	})
}

// TestNoSaveThroughLink checks nothing is written through a .artifacts
// that links outside the root.
func TestNoSaveThroughLink(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	write(t, root, "a.py", "def f():\n    pass\n")
	if err := os.Symlink(outside, filepath.Join(root, ".artifacts")); err != nil {
		t.Skip(err)
	}
	var logs bytes.Buffer
	if _, err := Sync(context.Background(), Options{Root: root, Log: slog.New(slog.NewTextHandler(&logs, nil))}); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(outside); len(ents) > 0 || !strings.Contains(logs.String(), "symbolic link") {
		t.Errorf("wrote %v outside the root; log %q", ents, logs.String())
	}
}

// TestDefaultSizeSharesState checks the default and the explicit default
// file size share one saved state (serve passes it, the CLI does not).
func TestDefaultSizeSharesState(t *testing.T) {
	root := t.TempDir()
	write(t, root, "a.py", "def f():\n    pass\n")
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(root, "a.py"), old, old)
	ctx := context.Background()
	Sync(ctx, Options{Root: root})
	snap, err := Sync(ctx, Options{Root: root, Extract: extract.Options{MaxFileSize: extract.DefaultMaxFileSize}})
	if err != nil || snap.Extracted != 0 {
		t.Errorf("extracted %d, err %v; want the saved state reused", snap.Extracted, err)
	}
}

// TestReadOnlyRootNotWritten checks a root without write permission (Go's
// module cache) gets no saved graph, even when the user could write it.
func TestReadOnlyRootNotWritten(t *testing.T) {
	root := t.TempDir()
	write(t, root, "a.py", "def f():\n    pass\n")
	os.Chmod(root, 0o555)
	defer os.Chmod(root, 0o755)
	snap, err := Sync(context.Background(), Options{Root: root})
	if err != nil || len(snap.Files) != 1 {
		t.Fatalf("Sync: %v, %d files", err, len(snap.Files))
	}
	if _, err := os.Stat(filepath.Join(root, ".artifacts")); err == nil {
		t.Error("wrote .artifacts into a read-only root")
	}
}

// TestSyncClosesExtractorFirst checks that Sync lets its parsers (and
// the C heap's free pages) go once every file is extracted, before
// Passed and the graph's build, not when it returns.
func TestSyncClosesExtractorFirst(t *testing.T) {
	root := t.TempDir()
	write(t, root, "go.mod", "module example.com/x\n")
	write(t, root, "a.go", "package x\n\nfunc A() { B() }\n\nfunc B() {}\n")
	var order []string
	extractedHook = func() { order = append(order, "closed") }
	defer func() { extractedHook = nil }()
	passed := func(context.Context) error { order = append(order, "passed"); return nil }
	if _, err := Sync(context.Background(), Options{Root: root, Key: "test", Passed: passed}); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(order) != "[closed passed]" {
		t.Errorf("order %v; want the extractor closed before Passed", order)
	}
}

// TestBuildKeyNamesTheBinary: the key of saved states names the
// executable's write time, so that a dev build without VCS data, which
// is "(devel)" whatever its code, does not reuse the graph an older
// build saved.
func TestBuildKeyNamesTheBinary(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	st, err := os.Stat(exe)
	if err != nil {
		t.Skip(err)
	}
	if k := buildKey(); !strings.Contains(k, st.ModTime().UTC().Format(time.RFC3339Nano)) {
		t.Errorf("buildKey() = %q; want the executable's time %s in it", k, st.ModTime().UTC())
	}
}
