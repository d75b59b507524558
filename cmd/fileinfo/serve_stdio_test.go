package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestServeStdioSurvivesBadLines drives `fileinfo serve` over stdio with
// lines a hostile or broken client sends, each of which used to end the
// process: each must get its JSON-RPC error, and a ping after it its
// answer. Closing stdin then ends the server cleanly, and the session's
// CPU profile (--cpuprofile) is written.
func TestServeStdioSurvivesBadLines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildFileinfo(t)
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n\nfunc F() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	prof := filepath.Join(t.TempDir(), "cpu.prof")
	cmd := exec.Command(bin, "serve", "--root", root, "--no-watch", "--no-docs", "--cpuprofile", prof)
	cmd.Env = raceEnv()
	var stderr logBuffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var waitErr error
	exited := make(chan struct{})
	go func() {
		waitErr = cmd.Wait()
		close(exited)
	}()
	defer func() {
		select {
		case <-exited:
		default:
			cmd.Process.Kill()
			<-exited
		}
	}()
	answers := make(chan map[string]json.RawMessage)
	go func() {
		defer close(answers)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m map[string]json.RawMessage
			if json.Unmarshal(sc.Bytes(), &m) != nil {
				m = map[string]json.RawMessage{"unparsable": json.RawMessage(fmt.Sprintf("%q", sc.Text()))}
			}
			answers <- m
		}
	}()
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			t.Fatalf("write %.60q: %v\n%s", line, err, stderr.String())
		}
	}
	recv := func(what string) map[string]json.RawMessage {
		t.Helper()
		select {
		case m, ok := <-answers:
			if !ok {
				t.Fatalf("%s: the server closed stdout\n%s", what, stderr.String())
			}
			return m
		case <-time.After(time.Minute):
			t.Fatalf("%s: no answer in a minute", what)
		}
		return nil
	}

	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"probe","version":"1"}}}`)
	if m := recv("initialize"); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	huge := `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":"` + strings.Repeat("a", 50<<20) + `"}}`
	for i, tc := range []struct {
		name, line string
		code       int64
	}{
		{"not JSON", `{{{`, -32700},
		{"null", `null`, -32600},
		{"empty batch", `[]`, -32600},
		{"number", `42`, -32600},
		{"a 50 MB line", huge, -32600},
		{"NUL in a resource URI", `{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"fileinfo://artifacts/\u0000"}}`, -32602},
		{"SOH in a resource URI", `{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"\u0001"}}`, -32602},
	} {
		send(tc.line)
		var e struct {
			Code int64 `json:"code"`
		}
		if m := recv(tc.name); json.Unmarshal(m["error"], &e) != nil || e.Code != tc.code {
			t.Errorf("%s: answered %v, want error %d", tc.name, m, tc.code)
		}
		id := fmt.Sprintf(`"ping-%d"`, i)
		send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		if m := recv("ping after " + tc.name); string(m["id"]) != id || m["result"] == nil {
			t.Fatalf("ping after %s: answered %v\n%s", tc.name, m, stderr.String())
		}
	}
	stdin.Close()
	select {
	case <-exited:
		if waitErr != nil {
			t.Errorf("fileinfo serve exited with %v after stdin closed\n%s", waitErr, stderr.String())
		}
	case <-time.After(time.Minute):
		t.Fatalf("fileinfo serve still running a minute after stdin closed")
	}
	// A profile is gzipped protocol buffers.
	if b, err := os.ReadFile(prof); err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("--cpuprofile: %d bytes, %v; want a gzipped profile", len(b), err)
	}
}

// logBuffer collects a process's output, readable while it is written.
type logBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
