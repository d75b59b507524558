package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fileinfo/fileinfo/internal/deps"
)

// TestMain keeps the dependency cache of every test here, and of the
// binaries they start, in a temporary directory, never in the user's.
// The go command the tests run (buildFileinfo) keeps the user's build
// cache: by default it lies under XDG_CACHE_HOME too, and an empty one
// made each run compile the module, the standard library and the
// grammars afresh with -race, 7 to 17 minutes on two loaded cores, past
// go test's 10-minute timeout.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "fileinfo-cmd-test-cache")
	if err != nil {
		panic(err)
	}
	if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil && os.Getenv("GOCACHE") == "" {
		os.Setenv("GOCACHE", strings.TrimSpace(string(out)))
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// TestDepsCommand lists, indexes and searches a project's dependencies:
// golang.org/x/sync at the version fileinfo's own go.mod locks (in the
// module cache), and one that is not on disk.
func TestDepsCommand(t *testing.T) {
	ds, err := deps.Resolve(filepath.Join("..", ".."), deps.Options{})
	if err != nil {
		t.Fatal(err)
	}
	version := ""
	for _, d := range ds {
		if d.Name == "golang.org/x/sync" {
			version = d.Version
		}
	}
	root := t.TempDir()
	mod := fmt.Sprintf("module example.com/app\n\ngo 1.22\n\nrequire (\n\tgolang.org/x/sync %s\n\texample.com/gone v1.0.0\n)\n", version)
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "deps", "--root", root)
	if code != 0 {
		t.Fatalf("deps: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"golang.org/x/sync  " + version, "present", "example.com/gone", "fetch with: go mod download example.com/gone@v1.0.0"} {
		if !strings.Contains(out, want) {
			t.Errorf("deps output lacks %q:\n%s", want, out)
		}
	}
	code, out, errOut = runCLI(t, "deps", "--root", root, "--index")
	if code != 0 || !strings.Contains(out, "indexed") || !strings.Contains(errOut, "indexed go/golang.org/x/sync@"+version) {
		t.Fatalf("deps --index: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "search", "--root", root, "--scope", "deps", "run functions in goroutines and wait for the first error")
	if code != 0 || !strings.Contains(out, "golang.org/x/sync@"+version+" errgroup/errgroup.go:") {
		t.Fatalf("search --scope deps: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, _, errOut = runCLI(t, "deps", "--deps", "some"); code != 2 {
		t.Errorf("deps --deps some: exit %d, want a usage error: %s", code, errOut)
	}
}

// TestDepsRefusesOutside: fileinfo deps shows, in text and JSON, why a
// lockfile's dependency that leads outside node_modules is not read, and
// --index builds nothing of it.
func TestDepsRefusesOutside(t *testing.T) {
	base := t.TempDir()
	for p, content := range map[string]string{
		"victim/package.json": `{"name": "victim", "version": "0.1.0"}`,
		"victim/README.md":    "# victim\n\nhunter2-outside\n",
		"project/package-lock.json": `{"lockfileVersion": 3, "packages": {"": {},
			"node_modules/../../victim": {"name": "victim", "version": "0.1.0"},
			"node_modules/ok": {"version": "1.0.0"}}}`,
		"project/node_modules/ok/package.json": `{"name": "ok", "version": "1.0.0"}`,
		"project/node_modules/ok/README.md":    "# ok\n",
		"project/node_modules/ok/index.js":     "exports.f = function f() {};\n",
	} {
		p = filepath.Join(base, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root := filepath.Join(base, "project")
	code, out, errOut := runCLI(t, "deps", "--root", root, "--deps", "all", "--index")
	if code != 0 {
		t.Fatalf("deps --index: exit %d: %s", code, errOut)
	}
	var line string
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 4 && f[1] == "victim" {
			line = l
		}
	}
	if f := strings.Fields(line); len(f) < 5 || f[4] != "refused" ||
		!strings.HasSuffix(line, `not read: package-lock.json: install path "node_modules/../../victim" has a path element ".."`) || !strings.Contains(out, "1 refused") {
		t.Errorf("deps output lacks the refusal of victim:\n%s", out)
	}
	if strings.Contains(errOut, "victim") || !strings.Contains(errOut, "indexed npm/ok@1.0.0") {
		t.Errorf("deps --index built:\n%s", errOut)
	}
	code, out, errOut = runCLI(t, "deps", "--root", root, "--deps", "all", "--json")
	var got struct {
		Deps []struct {
			Name, Status, Index, Reason, Dir string
		}
	}
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil {
		t.Fatalf("deps --json: exit %d, %v: %s\n%s", code, err, out, errOut)
	}
	for _, d := range got.Deps {
		switch d.Name {
		case "victim":
			if d.Status != "refused" || d.Index != "refused" || d.Dir != "" || !strings.Contains(d.Reason, `path element ".."`) {
				t.Errorf("victim: %+v", d)
			}
		case "ok":
			if d.Index != "indexed" {
				t.Errorf("ok: %+v", d)
			}
		}
	}
}

// TestDepsNoneSaysWhereItLooked: a project without a manifest is told
// which files were looked for; a fresh Python clone lists what its
// pyproject.toml declares.
func TestDepsNoneSaysWhereItLooked(t *testing.T) {
	root := t.TempDir()
	code, out, errOut := runCLI(t, "deps", "--root", root)
	if code != 0 || !strings.Contains(out, "No dependencies") || !strings.Contains(out, "package-lock.json") || !strings.Contains(out, "pyproject.toml") {
		t.Fatalf("deps of an empty root: exit %d\n%s\n%s", code, out, errOut)
	}
	os.WriteFile(filepath.Join(root, "pyproject.toml"), []byte("[project]\nname = \"a\"\ndependencies = [\"requests>=2.28\"]\n"), 0o644)
	code, out, errOut = runCLI(t, "deps", "--root", root)
	if code != 0 || !strings.Contains(out, "requests") || !strings.Contains(out, "(>=2.28)") || !strings.Contains(out, "pip install -e .") {
		t.Fatalf("deps of a fresh Python clone: exit %d\n%s\n%s", code, out, errOut)
	}
}
