package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// lineClient speaks raw newline-delimited JSON-RPC to a server served
// over LineTransport.
type lineClient struct {
	t   *testing.T
	in  *io.PipeWriter // the server's input
	out *bufio.Reader  // the server's output
	n   int
	// dead is set once a read or write failed: the session is over, and
	// later steps fail at once instead of timing out.
	dead bool
}

// serveLines serves a server on shop over a LineTransport of pipes with
// the given line limit, and completes the MCP handshake. setup, if any,
// readies the server before the session starts.
func serveLines(t *testing.T, maxLine int, setup ...func(*Server)) *lineClient {
	t.Helper()
	root := t.TempDir()
	writeTree(t, root, shop)
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := New(ctx, Options{Root: root, NoWatch: true, NoDocs: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range setup {
		f(srv)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- srv.Run(ctx, &LineTransport{In: inR, Out: outW, MaxLine: maxLine, Logger: discard()})
		outW.Close()
	}()
	t.Cleanup(func() {
		inW.Close() // EOF ends the session
		go io.Copy(io.Discard, outR)
		select {
		case <-done:
		case <-time.After(hangBound):
			t.Errorf("the session did not end %v after its input did", hangBound)
		}
		cancel()
		srv.Close()
	})
	c := &lineClient{t: t, in: inW, out: bufio.NewReaderSize(outR, 1<<16)}
	c.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if resp := c.recv(); string(resp["id"]) != `"init"` || resp["result"] == nil {
		t.Fatalf("initialize: %v", resp)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return c
}

// send writes line and a newline to the server.
func (c *lineClient) send(line string) {
	c.t.Helper()
	if c.dead {
		c.t.Fatal("the session ended earlier")
	}
	c.dead = true // until it succeeds
	written := make(chan error, 1)
	go func() {
		_, err := io.WriteString(c.in, line+"\n")
		written <- err
	}()
	select {
	case err := <-written:
		if err != nil {
			c.t.Fatalf("write %.80q: %v", line, err)
		}
		c.dead = false
	case <-time.After(hangBound):
		c.t.Fatalf("write %.80q: the server read nothing in %v", line, hangBound)
	}
}

// recv reads one line the server wrote and decodes it as an object.
func (c *lineClient) recv() map[string]json.RawMessage {
	c.t.Helper()
	line := c.recvLine()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil {
		c.t.Fatalf("the server wrote %q: %v", line, err)
	}
	return m
}

func (c *lineClient) recvLine() []byte {
	c.t.Helper()
	if c.dead {
		c.t.Fatal("the session ended earlier")
	}
	c.dead = true // until it succeeds
	type read struct {
		line []byte
		err  error
	}
	got := make(chan read, 1)
	go func() {
		line, err := c.out.ReadBytes('\n')
		got <- read{line, err}
	}()
	select {
	case r := <-got:
		if r.err != nil {
			c.t.Fatalf("reading the server's output: %v (the session ended?)", r.err)
		}
		c.dead = false
		return r.line
	case <-time.After(hangBound):
		c.t.Fatalf("no answer from the server in %v", hangBound)
	}
	return nil
}

// ping pings the server, which must answer before anything else.
func (c *lineClient) ping() {
	c.t.Helper()
	c.n++
	id := fmt.Sprintf(`"ping-%d"`, c.n)
	c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
	if resp := c.recv(); string(resp["id"]) != id || resp["result"] == nil {
		c.t.Fatalf("ping %s: answer %v", id, resp)
	}
}

// wireError is the error member of a JSON-RPC response.
type wireError struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
}

// expectError reads a response that must be an error of code with id.
func expectError(t *testing.T, resp map[string]json.RawMessage, code int64, id string) {
	t.Helper()
	var e wireError
	if err := json.Unmarshal(resp["error"], &e); err != nil || e.Code != code || string(resp["id"]) != id || string(resp["jsonrpc"]) != `"2.0"` {
		t.Errorf("got %v; want error %d with id %s", resp, code, id)
	}
	if e.Message == "" {
		t.Errorf("error %d without a message", e.Code)
	}
}

func TestLineTransportAnswersBadLines(t *testing.T) {
	const maxLine = 4096
	c := serveLines(t, maxLine)
	ping := func(id string) string { return `{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}` }
	for _, tc := range []struct {
		name, line string
		code       int64  // 0: no answer
		id         string // the answer's id
	}{
		{"not JSON", `{{{`, -32700, "null"},
		{"truncated", `{"jsonrpc":"2.0","id":1,"method":"pi`, -32700, "null"},
		{"trailing data", ping("1") + ` x`, -32700, "null"},
		{"two values", ping("1") + ping("2"), -32700, "null"},
		{"an id of invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"nope\"}", -32600, "null"},
		{"a null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, -32600, "null"},
		{"two ids", `{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`, -32600, "null"},
		{"null", `null`, -32600, "null"},
		{"number", `42`, -32600, "null"},
		{"string", `"ping"`, -32600, "null"},
		{"empty batch", `[]`, -32600, "null"},
		{"empty object", `{}`, -32600, "null"},
		{"unknown members", `{"foo":"boo"}`, -32600, "null"},
		{"version 1.0", `{"jsonrpc":"1.0","id":7,"method":"ping"}`, -32600, "7"},
		{"no version", `{"id":"x","method":"ping"}`, -32600, `"x"`},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600, "null"},
		{"a string of numbers for id", `{"jsonrpc":"2.0","id":"1.5","method":"nope"}`, -32601, `"1.5"`},
		{"a fractional id of an unknown method", `{"jsonrpc":"2.0","id":1.5,"method":"nope"}`, -32601, "1.5"},
		{"version 1.0 with a big id", `{"jsonrpc":"1.0","id":9007199254740993,"method":"ping"}`, -32600, "9007199254740993"},
		{"a cancellation of no call", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":12345}}`, 0, ""},
		{"method not a string", `{"jsonrpc":"2.0","id":8,"method":42}`, -32600, "8"},
		{"nested too deep", `{"jsonrpc":"2.0","id":12,"method":"ping","params":{"a":` + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + `}}`, -32600, "12"},
		{"response without id", `{"jsonrpc":"2.0","result":{}}`, -32600, "null"},
		{"unknown method", ping("9")[:len(ping("9"))-6] + `nope"}`, -32601, "9"},
		{"NUL in a resource URI", `{"jsonrpc":"2.0","id":10,"method":"resources/read","params":{"uri":"fileinfo://artifacts/\u0000"}}`, int64(mcp.CodeResourceNotFound), "10"},
		{"too long", ping("11")[:len(ping("11"))-1] + `,"params":{"pad":"` + strings.Repeat("a", 3*maxLine) + `"}}`, -32600, "null"},
		{"blank", "   \t", 0, ""},
		{"a response nobody asked for", `{"jsonrpc":"2.0","id":99,"result":{}}`, 0, ""},
		{"notification of no method", `{"jsonrpc":"2.0","method":"notifications/nope"}`, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c.t = t
			c.send(tc.line)
			if tc.code != 0 {
				expectError(t, c.recv(), tc.code, tc.id)
			}
			c.ping()
		})
	}
}

func TestLineTransportBatches(t *testing.T) {
	c := serveLines(t, 0)
	// Batches are answered with an error per call, so that a client
	// waiting for them hears back; notifications get none.
	c.send(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":"b","method":"ping"},3]`)
	var resps []map[string]json.RawMessage
	if line := c.recvLine(); json.Unmarshal(line, &resps) != nil || len(resps) != 3 {
		t.Fatalf("batch answered %s; want 3 errors", line)
	}
	expectError(t, resps[0], -32600, "1")
	expectError(t, resps[1], -32600, `"b"`)
	expectError(t, resps[2], -32600, "null")
	c.ping()
	// A batch of notifications only gets no answer.
	c.send(`[{"jsonrpc":"2.0","method":"notifications/initialized"}]`)
	c.ping()
}

func TestLineTransportLineLimit(t *testing.T) {
	const maxLine = 1000
	c := serveLines(t, maxLine)
	// A ping padded to exactly the limit is served, with a CRLF ending.
	head := `{"jsonrpc":"2.0","id":"edge","method":"ping","params":{"_meta":{"pad":"`
	tail := `"}}}`
	line := head + strings.Repeat("p", maxLine-len(head)-len(tail)) + tail
	if len(line) != maxLine {
		t.Fatal(len(line))
	}
	c.send(line + "\r")
	if resp := c.recv(); string(resp["id"]) != `"edge"` || resp["result"] == nil {
		t.Fatalf("a line of the limit's length: %v", resp)
	}
	// One byte more is refused, saying the limit.
	c.send(head + strings.Repeat("p", maxLine-len(head)-len(tail)+1) + tail)
	resp := c.recv()
	expectError(t, resp, -32600, "null")
	if !bytes.Contains(resp["error"], []byte("1000 bytes")) {
		t.Errorf("the error does not say the limit: %s", resp["error"])
	}
	c.ping()
}

func TestLineReader(t *testing.T) {
	const max = 100
	long := strings.Repeat("x", 50*max)
	in := "a\r\n\n" + strings.Repeat("y", max) + "\n" + strings.Repeat("z", max+1) + "\r\n" + long + "\n" + long + "\r\nlast"
	lr := newLineReader(strings.NewReader(in), max)
	type got struct {
		line string
		size int
		eof  bool
	}
	want := []got{{"a", 1, false}, {"", 0, false}, {strings.Repeat("y", max), max, false},
		{"<nil>", max + 1, false}, {"<nil>", len(long), false}, {"<nil>", len(long), false}, {"last", 4, true}}
	for i, w := range want {
		line, size, err := lr.next()
		g := got{string(line), size, err == io.EOF}
		if line == nil {
			g.line = "<nil>"
		}
		if err != nil && err != io.EOF {
			t.Fatal(err)
		}
		if g != w {
			t.Errorf("line %d: got %.20q (%d bytes, EOF %v), want %.20q (%d bytes, EOF %v)", i, g.line, g.size, g.eof, w.line, w.size, w.eof)
		}
		// A long line is skipped, not held.
		if c := cap(lr.line); c > 2*(max+2) {
			t.Errorf("line %d: the reader holds %d bytes for a limit of %d", i, c, max)
		}
	}
}

// FuzzScreen checks that any line either goes in, and then the go-sdk's
// decoder takes it and any call in it has a private id, or is answered
// with one JSON-RPC error response or an array of them.
func FuzzScreen(f *testing.F) {
	for _, seed := range []string{`{{{`, `null`, `[]`, `42`, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, `[{"jsonrpc":"2.0","id":1.5,"method":"x"},7]`,
		`{"jsonrpc":"2.0","id":"\u0000","method":1}`, `{"jsonrpc":"2.0","id":1e400}`, " \t", `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`, `{"jsonrpc":"2.0","\u0069d":2,"method":"ping"}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		d := door{next: new(atomic.Int64), calls: &calls{}}
		d.calls.add([]byte("1"), d.next.Add(1)) // a call in flight
		in, answer, why := admit(line, len(line), 1<<20, d)
		if in != nil {
			if answer != nil {
				t.Fatalf("let %q in with an answer %s", line, answer)
			}
			msg, err := jsonrpc.DecodeMessage(in)
			if err != nil {
				t.Fatalf("let %q in as %q, which the go-sdk refuses: %v", line, in, err)
			}
			if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
				if p, ok := req.ID.Raw().(int64); !ok || p < 2 {
					t.Fatalf("let the call %q in as %q, without a private id", line, in)
				}
			}
			return
		}
		if answer == nil {
			return
		}
		if why == "" {
			t.Errorf("answered %q without a reason", line)
		}
		var one struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   *wireError      `json:"error"`
		}
		many := []*struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   *wireError      `json:"error"`
		}{&one}
		if answer[0] == '[' {
			many = nil
			if err := json.Unmarshal(answer, &many); err != nil || len(many) == 0 {
				t.Fatalf("%q answered %s: %v", line, answer, err)
			}
		} else if err := json.Unmarshal(answer, &one); err != nil {
			t.Fatalf("%q answered %s: %v", line, answer, err)
		}
		for _, a := range many {
			if a.JSONRPC != "2.0" || a.Error == nil || a.Error.Code > -32600 || a.Error.Message == "" || len(a.ID) == 0 {
				t.Fatalf("%q answered %s, not JSON-RPC 2.0 errors", line, answer)
			}
		}
	})
}
