package main

import (
	"strings"
	"testing"
)

// TestInfo checks that fileinfo info prints the file_info tool's answer
// and, with --json, its metadata; an unknown file is an error.
func TestInfo(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod":   "module example.com/m\n",
		"lib.go":   "package m\n\nfunc Helper() int { return 1 }\n",
		"main.go":  "package m\n\nfunc Run() int { return Helper() }\n",
		"notes.md": "# Notes\n",
	})
	code, stdout, stderr := runCLI(t, "info", "--root", root, "lib.go")
	if code != 0 || !strings.Contains(stdout, "## Source Code") || !strings.Contains(stdout, "called by: `Run` (main.go:3)") {
		t.Errorf("info lib.go: exit %d, %s %s", code, stdout, stderr)
	}
	code, stdout, _ = runCLI(t, "info", "--root", root, "--json", "lib.go")
	if code != 0 || !strings.Contains(stdout, `"status": "prompt_ready"`) || strings.Contains(stdout, "## Source Code") {
		t.Errorf("info --json: exit %d, %s", code, stdout)
	}
	if code, _, stderr = runCLI(t, "info", "--root", root, "nope.go"); code != 1 || !strings.Contains(stderr, "nope.go") {
		t.Errorf("info nope.go: exit %d, %s", code, stderr)
	}
}
