package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestCorpusSweep runs `fileinfo callgraph` over real trees and fails on
// a non-zero exit or on any file skipped for an internal error (a panic
// the recovery hid). It runs when FILEINFO_SWEEP is set, over the trees
// present on the machine:
//
//   - the Python standard library with its tests (and the site-packages
//     beside it), from python3's sysconfig;
//   - Debian's /usr/lib/python3/dist-packages and /usr/lib/python3.*;
//   - GOROOT/src;
//   - the Linux kernel's scripts/ and tools/, and the whole tree when
//     FILEINFO_SWEEP=kernel, from $FILEINFO_KERNEL or an unpacked
//     /usr/src/linux-source-*;
//   - every directory in $FILEINFO_SWEEP_DIRS (colon-separated).
//
// The README's test command runs it (without -race: the Python library
// alone is 17,000 files).
func TestCorpusSweep(t *testing.T) {
	mode := os.Getenv("FILEINFO_SWEEP")
	if mode == "" {
		t.Skip("set FILEINFO_SWEEP=1 to run fileinfo callgraph over the real trees on this machine")
	}
	dirs := sweepDirs(mode)
	if len(dirs) == 0 {
		t.Fatal("no tree to sweep on this machine")
	}
	for _, dir := range dirs {
		t.Run(dir, func(t *testing.T) {
			var stderr bytes.Buffer
			start := time.Now()
			code := run(context.Background(), []string{"callgraph", "--format", "pycg", "--root", dir}, io.Discard, &stderr)
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			t.Logf("%s: exit %d in %v (heap now %d MB)", dir, code, time.Since(start).Round(time.Millisecond), m.HeapAlloc>>20)
			if code != 0 {
				t.Fatalf("fileinfo callgraph --root %s: exit %d: %s", dir, code, stderr.String())
			}
			if strings.Contains(stderr.String(), "internal error") {
				t.Errorf("files skipped for an internal error:\n%s", stderr.String())
			}
		})
	}
}

// sweepDirs lists the trees present on this machine; see TestCorpusSweep.
func sweepDirs(mode string) []string {
	var dirs []string
	add := func(d string) {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			for _, seen := range dirs {
				if seen == d {
					return
				}
			}
			dirs = append(dirs, d)
		}
	}
	if out, err := exec.Command("python3", "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])").Output(); err == nil {
		add(strings.TrimSpace(string(out)))
	}
	add("/usr/lib/python3/dist-packages")
	debian, _ := filepath.Glob("/usr/lib/python3.*")
	for _, d := range debian {
		add(d)
	}
	add(filepath.Join(runtime.GOROOT(), "src"))
	kernel := os.Getenv("FILEINFO_KERNEL")
	if kernel == "" {
		if trees, _ := filepath.Glob("/usr/src/linux-source-*/scripts"); len(trees) > 0 {
			kernel = filepath.Dir(trees[0])
		}
	}
	if kernel != "" {
		add(filepath.Join(kernel, "scripts"))
		add(filepath.Join(kernel, "tools"))
		if mode == "kernel" {
			add(kernel)
		}
	}
	for _, d := range filepath.SplitList(os.Getenv("FILEINFO_SWEEP_DIRS")) {
		add(d)
	}
	return dirs
}
