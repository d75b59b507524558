package main

import (
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestViewAddr(t *testing.T) {
	for _, tc := range []struct {
		addr, token, want, err string
	}{
		{"", "", "", ""},
		{":0", "", "127.0.0.1:0", ""},
		{":8080", "", "127.0.0.1:8080", ""},
		{"localhost:8080", "", "localhost:8080", ""},
		{"[::1]:9", "", "[::1]:9", ""},
		{"0.0.0.0:8080", "", "", "beyond this machine"},
		{"0.0.0.0:8080", "tok", "0.0.0.0:8080", ""},
		{"8080", "", "", "want host:port"},
	} {
		got, err := viewAddr(tc.addr, tc.token)
		if got != tc.want || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("viewAddr(%q, %q) = %q, %v; want %q, error with %q", tc.addr, tc.token, got, err, tc.want, tc.err)
		}
	}
}

// TestServeViewOutlivesStdin: `serve --view` whose stdin closes (the MCP
// client went away) keeps the view serving, says so on stderr, and on
// SIGTERM stops saying why, with exit 0 (issue 32: it exited silently).
func TestServeViewOutlivesStdin(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildFileinfo(t)
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n\nfunc F() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "serve", root, "--view", "127.0.0.1:0", "--no-watch", "--no-docs", "--no-deps")
	cmd.Env = raceEnv()
	cmd.Stdin = strings.NewReader("") // ends at once
	var stderr logBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
		}
	}()
	link := regexp.MustCompile(`url="?(http://[^"\s]+\?token=([^"\s&]+))`)
	var m []string
	for deadline := time.Now().Add(time.Minute); m == nil || !strings.Contains(stderr.String(), "keeps serving"); {
		select {
		case err := <-exited:
			t.Fatalf("serve --view exited (%v) after stdin closed:\n%s", err, stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no view link and no word of stdin in a minute:\n%s", stderr.String())
		}
		m = link.FindStringSubmatch(stderr.String())
	}
	u, err := url.Parse(m[1])
	if err != nil {
		t.Fatal(err)
	}
	// The workspace loads in the background: the tree lists a.go once
	// it has.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		req, _ := http.NewRequest("GET", "http://"+u.Host+"/api/tree", nil)
		req.Header.Set("Authorization", "Bearer "+m[2])
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("the view after stdin closed: %v\n%s", err, stderr.String())
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == 200 && strings.Contains(string(body), "a.go") {
			break
		}
		if resp.StatusCode != 200 || time.Now().After(deadline) {
			t.Fatalf("GET /api/tree after stdin closed: %s %.200s", resp.Status, body)
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("exit after SIGTERM: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("still running a minute after SIGTERM")
	}
	if !regexp.MustCompile(`msg=stopping reason="?terminated`).MatchString(stderr.String()) {
		t.Errorf("stderr does not say it stopped on SIGTERM:\n%s", stderr.String())
	}
}
