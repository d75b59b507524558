package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadDocQuestions(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "set.tsv")
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(name, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("# comment\nread a file\tio.md:2 files.md:1\n\n")
	qs, err := readDocQuestions(name)
	if err != nil || len(qs) != 1 || qs[0].Text != "read a file" || qs[0].Qrels["io.md"] != 2 || qs[0].Qrels["files.md"] != 1 {
		t.Fatalf("got %+v, %v", qs, err)
	}
	for _, bad := range []string{"no tab\n", "q\tio.md\n", "q\tio.md:x\n", "q\t\n"} {
		write(bad)
		if _, err := readDocQuestions(name); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestBenchDocs(t *testing.T) {
	bench, corpora := t.TempDir(), t.TempDir()
	files := map[string]string{
		"lib/install.md":  "# Installing\n\nInstall the package with pip.\n",
		"lib/logging.rst": "Logging\n=======\n\nConfigure log levels and handlers.\n",
		"lib/deep/cli.md": "# Command line\n\nRun commands from the shell.\n",
	}
	for p, s := range files {
		full := filepath.Join(corpora, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	q := "install the package\tinstall.md:2\nlog levels\tlogging.rst:2\nrun commands from a shell\tdeep/cli.md:2 install.md:1\n"
	if err := os.WriteFile(filepath.Join(bench, "lib.tsv"), []byte(q), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if err := runBenchDocs(context.Background(), []string{"--peer=false", "--mode", "bm25", "--corpora", corpora, bench}, &out, &errb); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	for _, want := range []string{"lib       fileinfo     3     3  1.000  1.000", "all       fileinfo     3     3  1.000"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
