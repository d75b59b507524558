package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fileinfo/fileinfo/internal/codeindex"
	"github.com/fileinfo/fileinfo/internal/fixture"
	"github.com/fileinfo/fileinfo/internal/graphstore"
)

// hostileWorkspace is a workspace whose answers the commands below know.
var hostileWorkspace = map[string]string{
	"main.py": "from lib import f\n\ndef g():\n    f()\n\ndef h():\n    g()\n",
	"lib.py":  "def f():\n    pass\n",
}

// stateTemplate returns a workspace with good saved state: graph.bin and
// the code stamps, as the lookups and index leave them.
func stateTemplate(t *testing.T) string {
	t.Helper()
	root := writeTree(t, hostileWorkspace)
	for _, args := range [][]string{{"symbols", "--root", root, "f"}, {"index", "--root", root}, {"index", "--root", root}} {
		if code, _, stderr := runCLI(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	return root
}

// copyTree copies the regular files under src into a new directory.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755)
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// runGuarded is runCLI, failing t if the command does not return: a
// state file that blocks it (a FIFO) would otherwise hang the test.
func runGuarded(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run(ctx, args, &out, &errb) }()
	select {
	case code = <-done:
		return code, out.String(), errb.String()
	case <-ctx.Done():
		t.Fatalf("%v did not return: blocked on a state file", args)
		return 0, "", ""
	}
}

// stateFiles are the saved files of the workspace and who reads them.
var stateFiles = []struct {
	name  string // under .artifacts/.index
	valid func([]byte) error
}{
	{graphstore.FileName, func(b []byte) error { _, err := graphstore.Decode(b); return err }},
	{codeindex.StampsFile, codeindex.CheckStamps},
}

// TestHostileStateFiles puts in place of each saved state file what a
// hostile or unlucky user leaves there (a link to /dev/zero, a FIFO, a
// 1 TB sparse file, garbage, a truncated copy) and runs every command that
// reads it: each must give the right answer, say in a log line which file
// it rebuilds and why, and leave a good file in its place.
func TestHostileStateFiles(t *testing.T) {
	template := stateTemplate(t)
	commands := []struct {
		file string   // the state file it reads
		args []string // after the command name: --root is added
		want string
	}{
		{graphstore.FileName, []string{"symbols", "f"}, "lib.f (function) lib.py:1"},
		{graphstore.FileName, []string{"callers", "f"}, "<- main.g (main.py:4) [import]"},
		{graphstore.FileName, []string{"callees", "--depth", "2", "h"}, "-> lib.f (main.py:4) [import] def lib.py:1"},
		{graphstore.FileName, []string{"callgraph", "--symbol", "h", "--format", "mermaid"}, "n3 -->|import| n1"},
		{graphstore.FileName, []string{"info", "lib.py"}, "called by: `g` (main.py:4)"},
		{codeindex.StampsFile, []string{"index"}, "code: 2 source files, 2 read again"},
	}
	for _, how := range fixture.Spoilings {
		for _, c := range commands {
			t.Run(string(how)+"/"+c.args[0], func(t *testing.T) {
				root := copyTree(t, template)
				index := filepath.Join(root, ".artifacts", ".index")
				for _, f := range stateFiles {
					fixture.Spoil(t, filepath.Join(index, f.name), how)
				}
				args := append([]string{c.args[0], "--root", root}, c.args[1:]...)
				code, stdout, stderr := runGuarded(t, args...)
				if code != 0 || !strings.Contains(stdout, c.want) {
					t.Fatalf("%v: exit %d, %q; want %q\n%s", c.args, code, stdout, c.want, stderr)
				}
				file := filepath.Join(index, c.file)
				if !strings.Contains(stderr, file) {
					t.Errorf("%v: no log line naming %s: %q", c.args, file, stderr)
				}
				expectGoodState(t, file, c.file)
			})
		}
	}
}

// expectGoodState checks the file at path is a regular file that
// decodes as the state file name.
func expectGoodState(t *testing.T, path, name string) {
	t.Helper()
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("%s not replaced by a regular file: %v", path, err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range stateFiles {
		if f.name == name {
			if err := f.valid(data); err != nil {
				t.Errorf("%s was not rebuilt: %v", path, err)
			}
		}
	}
}

// TestServeHostileStateFiles starts `fileinfo serve` on workspaces whose
// graph.bin is spoiled (see TestHostileStateFiles): each must start,
// answer file_info as from scratch, log the rebuild and save a good file.
func TestServeHostileStateFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildFileinfo(t)
	template := stateTemplate(t)
	for _, how := range fixture.Spoilings {
		t.Run(string(how), func(t *testing.T) {
			root := copyTree(t, template)
			file := filepath.Join(root, ".artifacts", ".index", graphstore.FileName)
			fixture.Spoil(t, file, how)
			ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, "serve", "--root", root, "--no-watch", "--no-docs", "--no-deps")
			cmd.Env = raceEnv()
			var stderr logBuffer
			cmd.Stderr = &stderr
			client := mcp.NewClient(&mcp.Implementation{Name: "hostile-state", Version: "0"}, nil)
			cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
			if err != nil {
				t.Fatalf("connect: %v\n%s", err, stderr.String())
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "file_info", Arguments: map[string]any{"path": "lib.py"}})
			cs.Close()
			if err != nil || res.IsError || !strings.Contains(toolText(res), "called by: `g` (main.py:4)") {
				t.Fatalf("file_info: %v %+v\n%s", err, res, stderr.String())
			}
			if !strings.Contains(stderr.String(), "rebuilding the saved graph") || !strings.Contains(stderr.String(), file) {
				t.Errorf("no log line of the rebuild of %s:\n%s", file, stderr.String())
			}
			expectGoodState(t, file, graphstore.FileName)
		})
	}
}
