package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADME keeps the README a newcomer's five minutes: under 1,500
// words, its test command the one .ci/run runs, and every command the CLI
// has in its CLI reference.
func TestREADME(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile(filepath.Join("..", "..", ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(strings.Fields(string(readme))); n > 1500 {
		t.Errorf("README.md is %d words, want at most 1,500: move detail to docs/", n)
	}
	var test string
	for _, line := range strings.Split(string(readme), "\n") {
		if strings.Contains(line, "go test -race ./...") {
			test = line
		}
	}
	if test == "" || !strings.Contains(string(ci), "\n"+test+"\n") {
		t.Errorf(".ci/run does not run the README's test command %q", test)
	}
	for _, c := range commands() {
		if !strings.Contains(string(readme), "fileinfo "+c.name) {
			t.Errorf("the README's CLI reference lacks fileinfo %s", c.name)
		}
	}
}
