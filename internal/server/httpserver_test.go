package server

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveHTTP serves s over HTTP within lim on a loopback port and returns
// its address.
func serveHTTP(t *testing.T, s *session, lim HTTPLimits) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := s.srv.HTTPServer("", lim)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// expectHangUp reads conn until the server closes it, failing after
// hangBound.
func expectHangUp(t *testing.T, conn net.Conn) {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(hangBound))
	_, err := io.Copy(io.Discard, conn)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("the server held the connection for %v", hangBound)
	}
}

// expectOpen fails if the server has closed conn or written to it.
func expectOpen(t *testing.T, conn net.Conn) {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	n, err := conn.Read(make([]byte, 1))
	if ne, ok := err.(net.Error); !ok || !ne.Timeout() || n > 0 {
		t.Errorf("without the timeouts the server answered or hung up: read %d bytes, %v", n, err)
	}
}

// TestHTTPServerDropsSlowClients: a client that stalls in its headers or
// body is disconnected by the read timeouts. Each stalled request goes
// both to a server with timeouts the test sets small and to one whose
// timeouts are hours: the first hangs up and the second does not, so the
// timeouts are what hung up, whatever the time each took on a loaded
// machine.
func TestHTTPServerDropsSlowClients(t *testing.T) {
	s := connect(t, shop, Options{})
	const timeout = 300 * time.Millisecond
	addr := serveHTTP(t, s, HTTPLimits{ReadHeaderTimeout: timeout, ReadTimeout: timeout})
	patient := serveHTTP(t, s, HTTPLimits{ReadHeaderTimeout: time.Hour, ReadTimeout: time.Hour})
	dial := func(addr, send string) net.Conn {
		t.Helper()
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		if _, err := io.WriteString(conn, send); err != nil {
			t.Fatal(err)
		}
		return conn
	}
	for _, tc := range []struct{ name, send string }{
		{"stalled headers", "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n"},
		{"stalled body", "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
			"Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\":"},
		{"stalled chunked body", "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
			"Accept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"jso\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			control := dial(patient, tc.send)
			expectHangUp(t, dial(addr, tc.send))
			expectOpen(t, control)
		})
	}
}

func TestHTTPServerRefusesLargeBodies(t *testing.T) {
	s := connect(t, shop, Options{})
	addr := serveHTTP(t, s, HTTPLimits{MaxBodyBytes: 1000})
	post := func(body string) int {
		t.Helper()
		req, _ := http.NewRequest("POST", "http://"+addr+HTTPPath, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	if code := post(ping[:len(ping)-1] + `,"params":{"_meta":{"pad":"` + strings.Repeat("a", 1000) + `"}}}`); code != http.StatusRequestEntityTooLarge {
		t.Errorf("a body over the limit: status %d, want 413", code)
	}
	if code := post(ping); code != http.StatusOK {
		t.Errorf("a ping after it: status %d", code)
	}
}

func TestHTTPServerRefusesLargeHeaders(t *testing.T) {
	s := connect(t, shop, Options{})
	addr := serveHTTP(t, s, HTTPLimits{MaxHeaderBytes: 1000})
	req, _ := http.NewRequest("GET", "http://"+addr+HTTPPath, nil)
	req.Header.Set("X-Pad", strings.Repeat("a", 8000))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("8 KB of headers for a limit of 1000 bytes: status %d, want 431", resp.StatusCode)
	}
}

// TestHTTPServerKeepsStreams checks that the body timeout does not cut the
// streams of streamable HTTP: a tools/call answered as an event stream
// after several timeouts, and the standalone GET stream, which carries a
// list change long after it opened.
func TestHTTPServerKeepsStreams(t *testing.T) {
	s := connect(t, shop, Options{})
	const timeout = 200 * time.Millisecond
	addr := serveHTTP(t, s, HTTPLimits{ReadHeaderTimeout: timeout, ReadTimeout: timeout, IdleTimeout: timeout})
	mcp.AddTool(s.srv.MCP(), &mcp.Tool{Name: "slow"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		for i := range 5 { // progress makes the answer an event stream
			req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: req.Params.GetProgressToken(), Progress: float64(i)})
			time.Sleep(timeout)
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
	})
	changed := make(chan struct{}, 10)
	client := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	})
	ctx := context.Background()
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + addr + HTTPPath, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "slow", Meta: mcp.Meta{"progressToken": "p"}})
	if err != nil || res.IsError || text(res) != "done" {
		t.Fatalf("a call answered after 5 timeouts: %v, %v", res, err)
	}
	time.Sleep(3 * timeout)
	for len(changed) > 0 { // the list changed when "slow" was added
		<-changed
	}
	s.srv.MCP().RemoveTools("slow")
	select {
	case <-changed:
	case <-time.After(hangBound):
		t.Fatal("no tools/list_changed on the GET stream opened 8 timeouts ago")
	}
}
