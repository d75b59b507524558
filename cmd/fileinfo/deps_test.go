package main

import (
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
