package server

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/internal/deps"
)

// TestMain keeps the dependency cache of every test in this package in a
// temporary directory, never in the user's, and removes the benchmarks'
// copy of golang.org/x/tools (xtoolsCopy) when they are done: 39 MB
// left in the temporary directory by each run.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "fileinfo-server-test-cache")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	removeXtoolsCopy()
	os.Exit(code)
}

// lockedSync is the golang.org/x/sync version fileinfo's own go.mod
// locks: building this package's tests put it in the module cache.
func lockedSync(t *testing.T) deps.Dep {
	t.Helper()
	ds, err := deps.Resolve(filepath.Join("..", ".."), deps.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		if d.Name == "golang.org/x/sync" && d.Status == deps.Present {
			return d
		}
	}
	t.Fatal("golang.org/x/sync is not in the module cache")
	return deps.Dep{}
}

// waitDeps polls index_status until the dependency index holds want
// versions and is idle.
func (s *session) waitDeps(want int) indexStatusOut {
	s.t.Helper()
	var st indexStatusOut
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		s.ok("index_status", map[string]any{}, &st)
		if st.Deps.Indexed == want && st.Deps.Indexing == "" {
			return st
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.t.Fatalf("dependency index: %+v, want %d indexed", st.Deps, want)
	return st
}

func TestDependencySearch(t *testing.T) {
	sync := lockedSync(t)
	s := connect(t, map[string]string{
		"go.mod": fmt.Sprintf("module example.com/app\n\ngo 1.22\n\nrequire (\n\tgolang.org/x/sync %s\n\texample.com/gone v1.0.0\n)\n", sync.Version),
		"main.go": "package main\n\nimport (\n\t\"context\"\n\n\t\"golang.org/x/sync/errgroup\"\n)\n\n" +
			"func main() {\n\tg, _ := errgroup.WithContext(context.Background())\n\tg.Go(func() error { return nil })\n\t_ = g.Wait()\n}\n",
	}, Options{})
	st := s.waitDeps(1)
	if st.Deps.Resolved != 2 || st.Deps.Missing != 1 {
		t.Errorf("deps status %+v: want 2 resolved, 1 missing", st.Deps)
	}
	key := "golang.org/x/sync@" + sync.Version

	var out searchDocsOut
	s.ok("search_docs", map[string]any{"query": "wait for a group of goroutines and return the first error", "scopes": []string{"deps"}}, &out)
	if len(out.Results) == 0 {
		t.Fatal("no dependency results")
	}
	top := out.Results[0]
	if !strings.HasPrefix(top.Path, "deps:"+key+"/errgroup/") || !strings.Contains(top.Summary, key+" errgroup/errgroup.go:") ||
		!strings.Contains(top.Title, key) {
		t.Errorf("top result %+v: want errgroup of %s", top, key)
	}
	s.ok("search_docs", map[string]any{"query": "errgroup Group Go", "scopes": []string{"deps:golang.org/x/sync"}}, &out)
	if len(out.ResultsByScope["deps:golang.org/x/sync"]) == 0 {
		t.Errorf("deps:golang.org/x/sync found nothing: %+v", out)
	}
	s.fails("search_docs", map[string]any{"query": "x", "scopes": []string{"deps:nope"}}, "nope is not an indexed dependency", "golang.org/x/sync")

	// Without scopes the project alone is searched.
	s.ok("search_docs", map[string]any{"query": "errgroup Group Go first error"}, &out)
	for _, r := range out.Results {
		if strings.HasPrefix(r.Path, "deps:") {
			t.Errorf("an unscoped search returned a dependency: %s", r.Path)
		}
	}

	// The hit opens with fetch_doc, and the source read-only.
	var doc struct{ Content string }
	s.ok("fetch_doc", map[string]any{"path": top.Path}, &doc)
	if !strings.Contains(doc.Content, "errgroup") {
		t.Errorf("fetch_doc %s: %.200s", top.Path, doc.Content)
	}
	var src inspectOut
	s.ok("inspect_source", map[string]any{"path": "deps:" + key + "/errgroup/errgroup.go", "start_line": 1, "end_line": 400}, &src)
	if !strings.Contains(src.Text, "package errgroup") {
		t.Errorf("inspect_source of the dependency: %.200s", src.Text)
	}
	s.fails("inspect_source", map[string]any{"path": "deps:" + key + "/../../../../etc/passwd", "start_line": 1, "end_line": 2}, "not a clean path")
	s.fails("inspect_source", map[string]any{"path": "deps:example.com/gone@v1.0.0/x.go", "start_line": 1, "end_line": 2}, "not a file of an indexed dependency")

	var list listDocsOut
	s.ok("list_docs", map[string]any{"scope": "deps"}, &list)
	if len(list.Deps) != 1 || list.Deps[0].Name != "golang.org/x/sync" || list.Deps[0].Symbols == 0 {
		t.Errorf("list_docs deps = %+v", list.Deps)
	}

	// file_info's prompt shows what the file's calls into it do.
	var fi struct{ Prompt string }
	res := s.ok("file_info", map[string]any{"path": "main.go"}, &fi)
	prompt := text(res) + fi.Prompt
	for _, want := range []string{"### Dependency APIs called (at the locked versions)",
		"- `golang.org/x/sync/errgroup.WithContext` from " + key, "`golang.org/x/sync/errgroup.Group.Go` from " + key} {
		if !strings.Contains(prompt, want) {
			t.Errorf("file_info prompt lacks %q", want)
		}
	}

	// Dropping the dependency from go.mod drops it from the index.
	writeTree(t, s.root, map[string]string{"go.mod": "module example.com/app\n\ngo 1.22\n"})
	s.waitDeps(0)
	s.fails("search_docs", map[string]any{"query": "errgroup", "scopes": []string{"deps:golang.org/x/sync"}}, "not an indexed dependency")
}

// TestDependencyCacheShared: a second workspace locking the same version
// reads the per-user cache; nothing is written into the module cache.
func TestDependencyCacheShared(t *testing.T) {
	sync := lockedSync(t)
	mod := fmt.Sprintf("module example.com/app\n\ngo 1.22\n\nrequire golang.org/x/sync %s\n", sync.Version)
	cache := t.TempDir()
	before := dirStamp(t, sync.Dir)
	for i := range 2 {
		start := time.Now()
		s := connect(t, map[string]string{"go.mod": mod}, Options{DepsCache: cache})
		s.waitDeps(1)
		t.Logf("workspace %d: dependency index ready in %s", i+1, time.Since(start).Round(time.Millisecond))
	}
	entries, err := filepath.Glob(filepath.Join(cache, "go", "*", "*.json.gz"))
	if err != nil || len(entries) != 1 {
		t.Errorf("cache holds %v, want one API", entries)
	}
	if after := dirStamp(t, sync.Dir); after != before {
		t.Errorf("the module cache directory changed: %s -> %s", before, after)
	}
}

// dirStamp sums the names, sizes and modification times under dir.
func dirStamp(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %d %d;", p, fi.Size(), fi.ModTime().UnixNano())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%d files, %x", strings.Count(b.String(), ";"), sha256.Sum256([]byte(b.String())))
}

// hostileNPM writes, under base, a project whose package-lock.json names
// two directories outside it as dependencies (an install path that
// climbs out of node_modules, and a node_modules entry that links out),
// one real dependency, and the directory beside it they point at, which
// holds a secret. It returns the project's root.
func hostileNPM(t *testing.T, base string) string {
	t.Helper()
	writeTree(t, base, map[string]string{
		"victim/package.json":  `{"name": "victim", "version": "0.1.0", "types": "index.d.ts"}`,
		"victim/.env":          "API_TOKEN=hunter2-outside\n",
		"victim/README.md":     "# victim\n\nThe passphrase is hunter2-outside.\n",
		"victim/index.d.ts":    "/** Returns hunter2-outside, the passphrase. */\nexport declare function passphrase(): string;\n",
		"project/package.json": `{"name": "app", "dependencies": {"victim": "0.1.0", "evil": "0.1.0", "ok": "1.0.0"}}`,
		"project/package-lock.json": `{"name": "app", "lockfileVersion": 3, "packages": {
			"": {"name": "app"},
			"node_modules/../../victim": {"name": "victim", "version": "0.1.0"},
			"node_modules/evil": {"version": "0.1.0"},
			"node_modules/ok": {"version": "1.0.0", "integrity": "sha512-ok"}}}`,
		"project/node_modules/ok/package.json": `{"name": "ok", "version": "1.0.0", "types": "index.d.ts"}`,
		"project/node_modules/ok/README.md":    "# ok\n\nParses passphrase files.\n",
		"project/node_modules/ok/index.d.ts":   "/** Parses a passphrase file. */\nexport declare function parse(text: string): string;\n",
		"project/main.js":                      "const ok = require('ok');\nok.parse('x');\n",
	})
	if err := os.Symlink(filepath.Join("..", "..", "victim"), filepath.Join(base, "project", "node_modules", "evil")); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(base, "project")
}

// TestDependencyLockfileOutside: a lockfile's paths are data. Neither an
// install path that climbs out of node_modules nor a package linked out
// of it is indexed, read or searched; index_status says why each was
// refused.
func TestDependencyLockfileOutside(t *testing.T) {
	root := hostileNPM(t, t.TempDir())
	s := connect(t, nil, Options{Root: root, AllDeps: true})
	st := s.waitDeps(1)
	res := s.ok("index_status", map[string]any{}, &st)
	if st.Deps.Refused != 2 || len(st.Deps.RefusedDeps) != 2 {
		t.Fatalf("deps status %+v: want victim and evil refused", st.Deps)
	}
	reasons := map[string]string{}
	for _, r := range st.Deps.RefusedDeps {
		reasons[r.Name] = r.Reason
	}
	if !strings.Contains(reasons["victim"], `has a path element ".."`) || !strings.Contains(reasons["evil"], "outside") {
		t.Errorf("refusals %+v: want the .. path and the link out named", reasons)
	}
	if txt := text(res); !strings.Contains(txt, "2 refused") || !strings.Contains(txt, `Dependency not read: npm "victim"@"0.1.0" (package-lock.json)`) {
		t.Errorf("index_status text lacks the refusals:\n%s", txt)
	}

	var out searchDocsOut
	s.ok("search_docs", map[string]any{"query": "hunter2-outside passphrase", "scopes": []string{"deps"}}, &out)
	for _, r := range out.Results {
		if strings.Contains(r.Path, "victim") || strings.Contains(r.Path, "evil") || strings.Contains(r.Summary, "hunter2") {
			t.Errorf("search found the outside directory: %+v", r)
		}
	}
	for _, p := range []string{"deps:victim@0.1.0/.env", "deps:evil@0.1.0/.env", "deps:victim@0.1.0/README.md"} {
		msg := s.fails("inspect_source", map[string]any{"path": p, "start_line": 1, "end_line": 5}, "not a file of an indexed dependency")
		if strings.Contains(msg, "hunter2") {
			t.Errorf("inspect_source %s: %s", p, msg)
		}
	}
	// The real dependency is indexed and readable.
	var src inspectOut
	s.ok("inspect_source", map[string]any{"path": "deps:ok@1.0.0/index.d.ts", "start_line": 1, "end_line": 5}, &src)
	if !strings.Contains(src.Text, "parse") {
		t.Errorf("inspect_source of ok: %q", src.Text)
	}
}

// TestDependenciesNotInstalled: a fresh clone whose lockfile names
// dependencies that are not installed yet is told which file names them,
// what is missing and how to fetch it, not that it has no lockfile.
func TestDependenciesNotInstalled(t *testing.T) {
	s := connect(t, map[string]string{
		"package.json":      `{"name": "app", "dependencies": {"left-pad": "^1.3.0"}}`,
		"package-lock.json": `{"name": "app", "lockfileVersion": 3, "packages": {"": {"name": "app"}, "node_modules/left-pad": {"version": "1.3.0"}}}`,
		"index.js":          "module.exports = () => 1;\n",
	}, Options{})
	waitFor(t, "the dependencies resolved", func() bool {
		var st indexStatusOut
		s.ok("index_status", map[string]any{}, &st)
		return st.Deps.Resolved == 1 && st.Deps.Indexing == ""
	})
	msg := s.fails("search_docs", map[string]any{"query": "pad", "scopes": []string{"deps"}}, "package-lock.json names 1", "left-pad@1.3.0 missing", "npm ci")
	if strings.Contains(msg, "no lockfile") {
		t.Errorf("a lockfile's dependencies not installed are reported as no lockfile: %s", msg)
	}
}
