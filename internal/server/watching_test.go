package server

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/artifacts"
	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/internal/watch"
)

// snapshot renders what a workspace knows — files and digests, the
// graph's nodes, edges and unresolved calls, the files left out and why —
// as sorted text.
func snapshot(ws *workspace) string {
	ws.mu.RLock()
	defer ws.mu.RUnlock()
	var lines []string
	for p, s := range ws.files {
		lines = append(lines, "file "+p+" "+s.digest)
	}
	g := ws.callGraph()
	for id := range g.Len() {
		n := g.Node(callgraph.SymbolID(id))
		lines = append(lines, fmt.Sprintf("node %s %s:%d-%d %s", n.Qualified, n.File, n.Line, n.EndLine, n.Kind))
	}
	for _, e := range g.Edges() {
		lines = append(lines, fmt.Sprintf("edge %s -> %s %s:%d %s", g.Node(e.Caller).Qualified, g.Node(e.Callee).Qualified, e.File, e.Line, e.Resolution))
	}
	for _, u := range g.Unresolved() {
		lines = append(lines, fmt.Sprintf("unresolved %+v", u))
	}
	for _, sk := range ws.skippedNow() {
		lines = append(lines, "skipped "+sk.Path+": "+sk.Reason)
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// fresh loads root from scratch and returns its snapshot.
func fresh(t *testing.T, root string) string {
	t.Helper()
	ws, err := openWorkspace(root, 0, discard())
	if err != nil {
		t.Fatal(err)
	}
	defer ws.close()
	if err := ws.load(context.Background(), Options{NoDocs: true}); err != nil {
		t.Fatal(err)
	}
	return snapshot(ws)
}

// hangBound is how long a test waits for what must come before it fails:
// it bounds a hang, and says nothing of speed, which a loaded machine
// (two shared cores, the race detector) makes many times slower.
const hangBound = time.Minute

// settle waits until the server's workspace equals a fresh load of its
// root, failing after hangBound.
func settle(t *testing.T, s *session, what string) {
	t.Helper()
	want := fresh(t, s.root)
	deadline := time.Now().Add(hangBound)
	var got string
	for time.Now().Before(deadline) {
		if got = snapshot(s.srv.workspace()); got == want {
			return
		}
		time.Sleep(20 * time.Millisecond)
		want = fresh(t, s.root)
	}
	t.Fatalf("%s: the watched workspace does not equal a fresh load:\n%s", what, diffLines(got, want))
}

func diffLines(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	var b strings.Builder
	for _, l := range g {
		if !slices.Contains(w, l) {
			b.WriteString("+ " + l + "\n")
		}
	}
	for _, l := range w {
		if !slices.Contains(g, l) {
			b.WriteString("- " + l + "\n")
		}
	}
	return b.String()
}

// watched starts a server with a fast watcher and waits for its load.
func watched(t *testing.T, files map[string]string) *session {
	t.Helper()
	return watchedWith(t, files, Options{})
}

// watchedWith is watched with more options.
func watchedWith(t *testing.T, files map[string]string, opt Options) *session {
	t.Helper()
	opt.Debounce = 20 * time.Millisecond
	s := connect(t, files, opt)
	if _, err := s.srv.ready(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the watcher to start", func() bool { return s.srv.workspace().watchState().Mode == watch.Events })
	return s
}

// artifactStatus is the status of rel's artifact as the server sees it
// now, without a tool call (file_info may write it again).
func (s *session) artifactStatus(rel string) artifacts.Status {
	ws := s.srv.workspace()
	ws.mu.RLock()
	defer ws.mu.RUnlock()
	src, ok := ws.files[rel]
	if !ok {
		return artifacts.Missing
	}
	st, _ := ws.artifactStatus(rel, ws.fingerprint(src))
	return st
}

// waitFor polls cond until it holds, failing after hangBound.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(hangBound); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting %v for %s", hangBound, what)
}

func TestWatchFollowsEditsOfCallers(t *testing.T) {
	s := watched(t, shop)
	var fi fileInfoOut
	var rep reportOut
	s.ok("file_info", map[string]any{"path": "lib/store.go"}, &fi)
	s.ok("report_file_info", storeReport(), &rep)

	// An editor's rename-over save of main.go drops its calls of Put and
	// Get: lib/store.go's artifact goes stale without any tool reading main.go.
	tmp := filepath.Join(s.root, "main.go___jb_tmp___")
	writeTree(t, s.root, map[string]string{"main.go___jb_tmp___": "package main\n\nimport \"example.com/shop/lib\"\n\nfunc main() { lib.NewStore() }\n"})
	if err := os.Rename(tmp, filepath.Join(s.root, "main.go")); err != nil {
		t.Fatal(err)
	}
	// (file_info would render it again at once: only callers changed.)
	waitFor(t, "lib/store.go to go stale", func() bool { return s.artifactStatus("lib/store.go") == artifacts.Stale })
	settle(t, s, "rename-over save")

	// A new nested directory with a caller in it.
	writeTree(t, s.root, map[string]string{"cmd/tool/deep/x.go": "package deep\n\nimport \"example.com/shop/lib\"\n\nfunc X() { lib.NewStore().Put(\"k\", 2) }\n"})
	waitFor(t, "the new caller", func() bool {
		res := s.ok("file_info", map[string]any{"path": "lib/store.go", "refresh": true}, &fi)
		return strings.Contains(text(res), "called by: `X` (cmd/tool/deep/x.go:5)")
	})
	settle(t, s, "mkdir -p and a new file")

	// rm -rf of the directory.
	if err := os.RemoveAll(filepath.Join(s.root, "cmd")); err != nil {
		t.Fatal(err)
	}
	settle(t, s, "rm -rf cmd")
	if st := s.srv.workspace().watchState(); st.Batches == 0 || st.Dirs < 2 {
		t.Errorf("watch state %+v", st)
	}
}

// TestWatchRandomOperations applies random sequences of file operations —
// create, modify, editor-style rename-over, rename, delete, mkdir, rm -rf,
// .gitignore changes — and checks that once they stop, the watched
// workspace equals a fresh load of the same tree.
func TestWatchRandomOperations(t *testing.T) {
	rounds, ops := 6, 25
	if testing.Short() {
		rounds = 2
	}
	for round := range rounds {
		rng := rand.New(rand.NewPCG(uint64(round), 7))
		files := map[string]string{"go.mod": "module example.com/r\n"}
		for i := range 4 {
			files[fmt.Sprintf("p%d/f%d.go", i%2, i)] = goFile(rng, i%2, i)
		}
		s := watched(t, files)
		for range ops {
			randomOp(t, rng, s.root)
			if rng.IntN(4) == 0 {
				time.Sleep(time.Duration(rng.IntN(60)) * time.Millisecond) // let some batches split
			}
		}
		settle(t, s, fmt.Sprintf("round %d", round))
	}
}

// goFile returns a Go file of package p%d calling functions of both packages.
func goFile(rng *rand.Rand, pkg, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package p%d\n\n", pkg)
	if pkg == 1 {
		b.WriteString("import \"example.com/r/p0\"\n\n")
	}
	fmt.Fprintf(&b, "func F%d() {\n", n)
	for range rng.IntN(4) {
		if pkg == 1 && rng.IntN(2) == 0 {
			fmt.Fprintf(&b, "\tp0.F%d()\n", rng.IntN(8))
		} else {
			fmt.Fprintf(&b, "\tF%d()\n", rng.IntN(8))
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// randomOp performs one random file operation under root.
func randomOp(t *testing.T, rng *rand.Rand, root string) {
	t.Helper()
	var existing []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.Contains(p, ".artifacts") {
			existing = append(existing, p)
		}
		return nil
	})
	pkg := rng.IntN(3) // p2 is a directory that comes and goes
	n := rng.IntN(8)
	newPath := filepath.Join(root, fmt.Sprintf("p%d", pkg), fmt.Sprintf("f%d.go", n))
	write := func(p string) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(goFile(rng, min(pkg, 1), n)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pick := func() string { return existing[rng.IntN(len(existing))] }
	switch op := rng.IntN(9); {
	case op <= 2 || len(existing) == 0: // create or modify
		write(newPath)
	case op == 3: // editor-style save: temp file renamed over the real one
		p := pick()
		write(p + "___jb_tmp___")
		os.Rename(p+"___jb_tmp___", p)
	case op == 4: // rename
		os.MkdirAll(filepath.Dir(newPath), 0o755)
		os.Rename(pick(), newPath)
	case op == 5: // delete
		os.Remove(pick())
	case op == 6: // mkdir -p with a file, in a new nested directory
		p := filepath.Join(root, fmt.Sprintf("p%d", pkg), "sub", fmt.Sprintf("deep%d", n), "g.go")
		write(p)
	case op == 7: // rm -rf a package directory
		os.RemoveAll(filepath.Join(root, fmt.Sprintf("p%d", pkg)))
	case op == 8: // ignore, or stop ignoring, a directory
		if rng.IntN(2) == 0 {
			os.WriteFile(filepath.Join(root, ".gitignore"), []byte(fmt.Sprintf("p%d/sub/\n", pkg)), 0o644)
		} else {
			os.Remove(filepath.Join(root, ".gitignore"))
		}
	}
}

// TestNoLeaksAcrossSwitches switches the workspace back and forth and
// checks that goroutines and inotify instances do not pile up.
func TestNoLeaksAcrossSwitches(t *testing.T) {
	other := t.TempDir()
	s := watchedWith(t, shop, Options{AllowRoots: []string{other}})
	writeTree(t, other, map[string]string{"a/x.py": "def f():\n    pass\n"})
	switchTo := func(root string) {
		var out setRootOut
		s.ok("set_workspace_root", map[string]any{"path": root}, &out)
		waitFor(t, "the watcher", func() bool { return s.srv.workspace().watchState().Mode == watch.Events })
	}
	switchTo(other)
	switchTo(s.root)
	runtime.GC()
	goroutines, inotify := runtime.NumGoroutine(), inotifyFDs(t)
	for range 5 {
		switchTo(other)
		switchTo(s.root)
	}
	waitFor(t, "goroutines to settle", func() bool { return runtime.NumGoroutine() <= goroutines })
	if got := inotifyFDs(t); got > inotify {
		t.Errorf("inotify instances: %d after 10 switches, %d before", got, inotify)
	}
	if inotify != 1 {
		t.Errorf("%d inotify instances open, want 1 (the current workspace's)", inotify)
	}
}

// inotifyFDs counts the process's open inotify instances.
func inotifyFDs(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	n := 0
	for _, e := range entries {
		if target, err := os.Readlink("/proc/self/fd/" + e.Name()); err == nil && target == "anon_inode:inotify" {
			n++
		}
	}
	return n
}

// TestChangesDuringLoadAreApplied creates, changes and adds files while
// the first load runs, after its walk: they are in the graph once the load
// has ended, without any tool reading them.
func TestChangesDuringLoadAreApplied(t *testing.T) {
	during := map[string]string{
		"late.go":      "package main\n\nfunc late() { main() }\n",
		"lib/store.go": shop["lib/store.go"] + "\nfunc (s *Store) Len() int { return len(s.m) }\n",
		"newdir/x.go":  "package newdir\n\nimport \"example.com/shop/lib\"\n\nfunc X() { lib.NewStore() }\n",
	}
	hook := func(root string) {
		for p, content := range during {
			full := filepath.Join(root, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Error(err)
			}
			if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
				t.Error(err)
			}
		}
	}
	s := connect(t, shop, Options{Debounce: 20 * time.Millisecond, hooks: &testHooks{load: hook}})
	if _, err := s.srv.ready(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	settle(t, s, "changes made during the first load")
	var st indexStatusOut
	s.ok("index_status", map[string]any{}, &st)
	if st.Files != 4 { // main.go, lib/store.go, late.go, newdir/x.go
		t.Errorf("index_status counts %d files, want 4", st.Files)
	}
}
