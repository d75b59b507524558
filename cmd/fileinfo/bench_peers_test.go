package main

import (
	"encoding/json"
	"os/exec"
	"testing"
)

// TestBenchPeers runs `bench peers` on a small tree beside cindex,
// csearch and rg (skipped where they are not installed) and checks the
// report holds every step, the hits of each tool and the ratios.
func TestBenchPeers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs it many times")
	}
	for _, peer := range []string{"cindex", "csearch", "rg"} {
		if _, err := exec.LookPath(peer); err != nil {
			t.Skipf("%s is not installed (apt-get install codesearch ripgrep)", peer)
		}
	}
	root := writeTree(t, map[string]string{
		"lib.py":  "def parse_config(path):\n    return open(path).read()\n",
		"main.py": "from lib import parse_config\n\ndef main():\n    parse_config('x')\n",
		"util.go": "package util\n\n// ParseConfig reads a file.\nfunc ParseConfig() {}\n",
	})
	bin := buildFileinfo(t)
	code, stdout, stderr := runCLI(t, "bench", "peers", "--root", root, "--query", "parse_config", "--symbol", "lib.parse_config",
		"--runs", "1", "--json", "--fileinfo", bin)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep peerReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	got := map[string]peerStep{}
	for _, s := range rep.Steps {
		got[s.Tool+" "+s.What] = s
	}
	for _, want := range []string{"fileinfo index", "cindex index", "fileinfo search", "fileinfo callers", "csearch search", "rg search"} {
		s, ok := got[want]
		if !ok {
			t.Errorf("no %q step in %s", want, stdout)
			continue
		}
		if s.Seconds <= 0 || s.RSSMB <= 0 {
			t.Errorf("%s: %.3f s, %.1f MB; want both measured", want, s.Seconds, s.RSSMB)
		}
	}
	// Both grep tools find the two lines that say parse_config and the
	// callers the one caller.
	for _, k := range []string{"csearch search", "rg search"} {
		if got[k].Hits != 3 {
			t.Errorf("%s: %d hits, want 3", k, got[k].Hits)
		}
	}
	if got["fileinfo callers"].Hits < 2 || got["fileinfo index"].DiskMB <= 0 || got["cindex index"].DiskMB <= 0 {
		t.Errorf("callers %d lines, disk %.3f / %.3f MB", got["fileinfo callers"].Hits, got["fileinfo index"].DiskMB, got["cindex index"].DiskMB)
	}
	for _, k := range []string{"index/seconds/cindex", "index/rss/cindex", "index/disk/cindex", "search/seconds/csearch", "search/seconds/rg"} {
		if rep.Ratios[k] <= 0 {
			t.Errorf("ratio %s = %v, want > 0", k, rep.Ratios[k])
		}
	}
}
