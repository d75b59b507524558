package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// echoedIDs are ids a client may give a call, each of which must come
// back byte for byte: the go-sdk alone answered 9007199254740992 to
// 9007199254740993, 1 to 1.5, 100 to 1e2 and "aé" to "a\u00e9".
var echoedIDs = []string{
	`9007199254740993`, `-9007199254740993`, `123456789012345678901234567890`, `1.5`, `1e2`, `1E+2`, `1.0`, `-0`, `0`, `-7`,
	`"a\u00e9"`, `"\ud83d\ude00"`, `"é"`, `""`, `"x y"`, `"9007199254740993"`, `"\"quoted\""`,
}

// blocking registers a tool "block" on srv that runs until its call is
// cancelled, and returns a channel that gets a value when one starts and
// one that gets a value when one is cancelled.
func blocking(srv *Server) (started, cancelled chan struct{}) {
	started, cancelled = make(chan struct{}, 10), make(chan struct{}, 10)
	mcp.AddTool(srv.MCP(), &mcp.Tool{Name: "block"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		started <- struct{}{}
		select {
		case <-ctx.Done():
			cancelled <- struct{}{}
			return nil, nil, ctx.Err()
		case <-time.After(time.Minute):
			return nil, nil, nil
		}
	})
	return started, cancelled
}

// wait waits for a value on ch, failing t after 10 s.
func wait(t *testing.T, ch chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatalf("no %s in 10 s", what)
	}
}

// rawID returns the bytes of the id of the JSON-RPC message msg.
func rawID(t *testing.T, msg []byte) string {
	t.Helper()
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(msg, &m); err != nil {
		t.Fatalf("%s: %v", msg, err)
	}
	return string(m.ID)
}

// errCode returns the code of the JSON-RPC error response msg, 0 if it
// is none.
func errCode(msg []byte) int64 {
	var m struct {
		JSONRPC string     `json:"jsonrpc"`
		Error   *wireError `json:"error"`
	}
	if json.Unmarshal(msg, &m) != nil || m.JSONRPC != "2.0" || m.Error == nil || m.Error.Message == "" {
		return 0
	}
	return m.Error.Code
}

func TestLineTransportEchoesIDs(t *testing.T) {
	c := serveLines(t, 0)
	for _, id := range echoedIDs {
		c.t = t
		c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		want := `{"jsonrpc":"2.0","id":` + id + `,"result":{}}` + "\n"
		if got := string(c.recvLine()); got != want {
			t.Errorf("ping %s answered\n%s want\n%s", id, got, want)
		}
		// An error of the go-sdk's, and a tool's result.
		c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"no/such"}`)
		if got := c.recvLine(); rawID(t, got) != id || errCode(got) != -32601 {
			t.Errorf("an unknown method of id %s answered %s", id, got)
		}
		c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"index_status","arguments":{}}}`)
		if got := c.recvLine(); rawID(t, got) != id || !bytes.Contains(got, []byte(`"result"`)) {
			t.Errorf("index_status of id %s answered %.200s", id, got)
		}
	}
}

// TestLineTransportCancelsByClientID: a cancellation names the call by
// the client's id, which reaches the session as the call's private id; a
// second call of an id in flight is refused.
func TestLineTransportCancelsByClientID(t *testing.T) {
	var started, cancelled chan struct{}
	c := serveLines(t, 0, func(s *Server) { started, cancelled = blocking(s) })
	const id = `9007199254740993`
	c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"block","arguments":{}}}`)
	wait(t, started, "call of block")
	c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
	if got := c.recvLine(); rawID(t, got) != id || errCode(got) != -32600 || !bytes.Contains(got, []byte("in flight")) {
		t.Errorf("a second call of an id in flight answered %s", got)
	}
	// The go-sdk would read 9007199254740992 here; the cancellation of
	// another call of that id must not reach it either.
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9007199254740992}}`)
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `,"reason":"test"}}`)
	wait(t, cancelled, "cancellation")
	if got := c.recvLine(); rawID(t, got) != id {
		t.Errorf("the cancelled call answered %s", got)
	}
	// The id is free again.
	c.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
	if got := string(c.recvLine()); got != `{"jsonrpc":"2.0","id":`+id+`,"result":{}}`+"\n" {
		t.Errorf("a ping after the cancellation answered %s", got)
	}
}

// TestServerMethods keeps serverMethods in step with the go-sdk: over
// stdio, where the go-sdk alone says which methods it has, a call of a
// listed method is never answered -32601, and one of any other is. A
// listed notification sent as a call is an invalid request.
func TestServerMethods(t *testing.T) {
	c := serveLines(t, 0)
	names := []string{"tasks/get", "tasks/list", "tasks/result", "tasks/cancel", "roots/list", "sampling/createMessage",
		"elicitation/create", "notifications/message", "server/discover", "resources/templates/read", "tools/get", "shutdown"}
	for m := range serverMethods {
		names = append(names, m)
	}
	for i, m := range names {
		if m == "initialize" {
			continue // a second one is refused, whatever the method table
		}
		id, _ := json.Marshal(i)
		c.send(`{"jsonrpc":"2.0","id":` + string(id) + `,"method":"` + m + `","params":{}}`)
		got := c.recvLine()
		for rawID(t, got) != string(id) { // a notification the call caused
			got = c.recvLine()
		}
		if unknown := errCode(got) == -32601; unknown == serverMethods[m] {
			t.Errorf("%s: the go-sdk answered %s; serverMethods[%q] = %v", m, got, m, serverMethods[m])
		}
	}
}

// httpClient speaks raw JSON-RPC to a server's HTTP handler, in one
// session.
type httpClient struct {
	t       *testing.T
	url     string
	session string
}

// post posts body, with the session's headers and more headers (name,
// value...), and returns the status, the content type and the body.
func (c *httpClient) post(body string, hdr ...string) (int, string, []byte) {
	c.t.Helper()
	req, err := http.NewRequest("POST", c.url, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.session != "" {
		req.Header.Set("Mcp-Session-Id", c.session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if id := res.Header.Get("Mcp-Session-Id"); id != "" {
		c.session = id
	}
	return res.StatusCode, res.Header.Get("Content-Type"), data
}

// message returns the JSON-RPC message of an answer: the body of a JSON
// one, the data of the one event of an event stream that is a response.
func message(t *testing.T, ctype string, body []byte) []byte {
	t.Helper()
	if !strings.HasPrefix(ctype, "text/event-stream") {
		return body
	}
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		if d, ok := bytes.CutPrefix(sc.Bytes(), []byte("data: ")); ok && !bytes.Contains(d, []byte(`"method"`)) {
			return bytes.Clone(d)
		}
	}
	t.Fatalf("no response in the stream %q", body)
	return nil
}

// serveRaw serves s over HTTP and returns a raw client with an
// initialized session.
func serveRaw(t *testing.T, s *session) *httpClient {
	t.Helper()
	ts := httptest.NewServer(s.srv.Handler(""))
	t.Cleanup(ts.Close)
	c := &httpClient{t: t, url: ts.URL + HTTPPath}
	code, ctype, body := c.post(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if msg := message(t, ctype, body); code != 200 || c.session == "" || rawID(t, msg) != `"init"` {
		t.Fatalf("initialize: %d %s %s", code, c.session, body)
	}
	if code, _, body := c.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); code != http.StatusAccepted {
		t.Fatalf("initialized: %d %s", code, body)
	}
	return c
}

// ping checks that the session still answers.
func (c *httpClient) ping() {
	c.t.Helper()
	code, ctype, body := c.post(`{"jsonrpc":"2.0","id":"alive","method":"ping"}`)
	if msg := message(c.t, ctype, body); code != 200 || string(msg) != `{"jsonrpc":"2.0","id":"alive","result":{}}` {
		c.t.Fatalf("ping: %d %s", code, body)
	}
}

func TestHTTPAnswersByTheBook(t *testing.T) {
	s := connect(t, shop, Options{NoWatch: true})
	c := serveRaw(t, s)
	for _, tc := range []struct {
		name   string
		body   string
		status int
		code   int64  // 0: no answer
		id     string // the answer's id, byte for byte
	}{
		{"not JSON", `{not json`, 400, -32700, "null"},
		{"truncated", `{"jsonrpc":"2.0","id":1,"method":"pi`, 400, -32700, "null"},
		{"empty", ``, 400, -32700, "null"},
		{"two values", `{"jsonrpc":"2.0","id":1,"method":"ping"}{}`, 400, -32700, "null"},
		{"a number", `42`, 400, -32600, "null"},
		{"an empty batch", `[]`, 400, -32600, "null"},
		{"an empty object", `{}`, 400, -32600, "null"},
		{"version 1.0", `{"jsonrpc":"1.0","id":9007199254740993,"method":"ping"}`, 400, -32600, "9007199254740993"},
		{"an object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, 400, -32600, "null"},
		{"a null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, 400, -32600, "null"},
		{"two ids", `{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`, 400, -32600, "null"},
		{"method not a string", `{"jsonrpc":"2.0","id":8,"method":42}`, 400, -32600, "8"},
		{"a notification sent as a call", `{"jsonrpc":"2.0","id":1e2,"method":"notifications/initialized"}`, 400, -32600, "1e2"},
		{"a call without its params", `{"jsonrpc":"2.0","id":"p","method":"tools/call"}`, 400, -32600, `"p"`},
		{"unknown method", `{"jsonrpc":"2.0","id":9007199254740993,"method":"no/such"}`, 200, -32601, "9007199254740993"},
		{"unknown method, fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"no/such"}`, 200, -32601, "1.5"},
		{"unknown method, escaped id", `{"jsonrpc":"2.0","id":"a\u00e9","method":"no/such"}`, 200, -32601, `"a\u00e9"`},
		{"a batch", `[{"jsonrpc":"2.0","id":1.5,"method":"ping"}]`, 400, -32600, ""},
		{"a notification of no method", `{"jsonrpc":"2.0","method":"notifications/nope"}`, 202, 0, ""},
		{"a cancellation of no call", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`, 202, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c.t = t
			code, ctype, body := c.post(tc.body)
			if code != tc.status {
				t.Errorf("status %d, want %d: %s", code, tc.status, body)
			}
			switch {
			case tc.code == 0:
				if len(body) != 0 {
					t.Errorf("a notification answered %s", body)
				}
			case tc.id == "": // a batch: an array of errors
				var errs []json.RawMessage
				if json.Unmarshal(body, &errs) != nil || len(errs) != 1 || errCode(errs[0]) != -32600 || rawID(t, errs[0]) != "1.5" {
					t.Errorf("a batch answered %s", body)
				}
			default:
				msg := message(t, ctype, body)
				if !strings.HasPrefix(ctype, "application/json") || errCode(msg) != tc.code || rawID(t, msg) != tc.id {
					t.Errorf("answered %s (%s); want error %d with id %s", msg, ctype, tc.code, tc.id)
				}
			}
			c.ping()
		})
	}
}

func TestHTTPEchoesIDs(t *testing.T) {
	s := connect(t, shop, Options{NoWatch: true})
	c := serveRaw(t, s)
	for _, id := range echoedIDs {
		code, ctype, body := c.post(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		if msg := message(t, ctype, body); code != 200 || string(msg) != `{"jsonrpc":"2.0","id":`+id+`,"result":{}}` {
			t.Errorf("ping %s answered %d %s", id, code, body)
		}
		code, ctype, body = c.post(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"inspect_source","arguments":{"path":"main.go","start_line":1,"end_line":2}}}`)
		if msg := message(t, ctype, body); code != 200 || rawID(t, msg) != id || !bytes.Contains(msg, []byte("package main")) {
			t.Errorf("inspect_source of id %s answered %d %s", id, code, body)
		}
	}
	// Another session's error of the go-sdk's, in plain text before,
	// carries the id too.
	code, ctype, body := c.post(`{"jsonrpc":"2.0","id":1e2,"method":"ping"}`, "Mcp-Session-Id", "no-such-session")
	if code != http.StatusNotFound || !strings.HasPrefix(ctype, "application/json") || errCode(body) != -32600 || rawID(t, body) != "1e2" {
		t.Errorf("a ping in no session: %d %s %s", code, ctype, body)
	}
}

// TestHTTPCancelsByClientID: over HTTP too, a cancellation names the
// call by the client's id, and a second call of an id in flight in the
// session is refused; another session may use the id.
func TestHTTPCancelsByClientID(t *testing.T) {
	s := connect(t, shop, Options{NoWatch: true})
	started, cancelled := blocking(s.srv)
	c := serveRaw(t, s)
	other := &httpClient{t: t, url: c.url}
	other.post(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	other.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	const id = `"call-1"`
	type answer struct {
		code  int
		ctype string
		body  []byte
	}
	first := make(chan answer, 1)
	go func() {
		code, ctype, body := c.post(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"block","arguments":{}}}`)
		first <- answer{code, ctype, body}
	}()
	wait(t, started, "call of block")
	code, ctype, body := c.post(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
	if msg := message(t, ctype, body); code != 400 || errCode(msg) != -32600 || rawID(t, msg) != id {
		t.Errorf("a second call of an id in flight: %d %s", code, body)
	}
	code, ctype, body = other.post(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
	if msg := message(t, ctype, body); code != 200 || string(msg) != `{"jsonrpc":"2.0","id":`+id+`,"result":{}}` {
		t.Errorf("the same id in another session: %d %s", code, body)
	}
	if code, _, body := other.post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `}}`); code != 202 {
		t.Errorf("a cancellation in another session: %d %s", code, body)
	}
	select {
	case <-cancelled:
		t.Fatal("another session's cancellation cancelled the call")
	case <-time.After(100 * time.Millisecond):
	}
	if code, _, body := c.post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `}}`); code != 202 {
		t.Errorf("the cancellation: %d %s", code, body)
	}
	wait(t, cancelled, "cancellation")
	select {
	case a := <-first:
		if msg := message(t, a.ctype, a.body); rawID(t, msg) != id {
			t.Errorf("the cancelled call answered %s", a.body)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the cancelled call was not answered")
	}
	c.ping()
}

// TestRestoreEvent: an event's data gets its id back; the other fields
// and other events are kept as they are.
func TestRestoreEvent(t *testing.T) {
	take := func(p int64) ([]byte, bool) {
		if p == 7 {
			return []byte(`1.5`), true
		}
		return nil, false
	}
	for _, tc := range []struct{ in, want string }{
		{"event: message\nid: s_1\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n\n", "event: message\nid: s_1\ndata: {\"jsonrpc\":\"2.0\",\"id\":1.5,\"result\":{}}\n\n"},
		{"data: {\"jsonrpc\":\"2.0\",\"id\":8,\"result\":{}}\n\n", "data: {\"jsonrpc\":\"2.0\",\"id\":8,\"result\":{}}\n\n"},
		{"data: {\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"sampling/createMessage\"}\n\n", "data: {\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"sampling/createMessage\"}\n\n"},
		{"event: prime\nid: s_0\ndata:\n\n", "event: prime\nid: s_0\ndata:\n\n"},
		{"data: {\"jsonrpc\":\"2.0\",\ndata: \"id\":7,\"result\":{}}\n\n", "data: {\"jsonrpc\":\"2.0\",\ndata: \"id\":1.5,\"result\":{}}\n\n"},
	} {
		if got := string(restoreEvent([]byte(tc.in), take)); got != tc.want {
			t.Errorf("restoreEvent(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestDoorCancellation: a cancellation reaches the session under the
// call's private id, or not at all.
func TestDoorCancellation(t *testing.T) {
	d := door{next: new(atomic.Int64), calls: &calls{}}
	in := d.enter(sortMessage([]byte(`{"jsonrpc":"2.0","id":"x","method":"ping"}`)))
	if in.private == 0 || string(in.msg) != `{"jsonrpc":"2.0","id":1,"method":"ping"}` {
		t.Fatalf("the call went in as %s (%d)", in.msg, in.private)
	}
	got := d.enter(sortMessage([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":"r","requestId":"\u0078"}}`)))
	if string(got.msg) != `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":"r","requestId":1}}` {
		t.Errorf("the cancellation went in as %s", got.msg)
	}
	if raw, ok := d.calls.done(in.private); !ok || string(raw) != `"x"` {
		t.Errorf("done(%d) = %s, %v", in.private, raw, ok)
	}
	if got := d.enter(sortMessage([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"x"}}`))); got.msg != nil || got.answer != nil {
		t.Errorf("a cancellation of a call no longer in flight: %s %s", got.msg, got.answer)
	}
}

// TestFrontSessions: calls of a session share its table of ids in
// flight; requests of no session yet (initialize, from any number of
// clients) share nothing, so that two clients' id 1 do not collide.
func TestFrontSessions(t *testing.T) {
	f := &rpcFront{}
	if a, b := f.calls(""), f.calls(""); !a.add([]byte("1"), 1) || !b.add([]byte("1"), 2) {
		t.Error("two requests of no session share a table")
	}
	a := f.calls("s1")
	if !a.add([]byte("1"), 3) || f.calls("s1").add([]byte("1"), 4) || !f.calls("s2").add([]byte("1"), 5) {
		t.Error("a session's calls are not its own")
	}
	f.release("s1", a)
	if f.calls("s1") != a {
		t.Error("a session with a call in flight was forgotten")
	}
	a.done(3)
	f.release("s1", a)
	if f.calls("s1") == a {
		t.Error("a session with no call in flight was kept")
	}
}

// TestHTTPJSONAnswersEchoIDs: answers sent as one JSON body, rather than
// an event stream, get the client's id back too.
func TestHTTPJSONAnswersEchoIDs(t *testing.T) {
	s := connect(t, shop, Options{NoWatch: true})
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.srv.MCP() }, &mcp.StreamableHTTPOptions{JSONResponse: true})
	ts := httptest.NewServer(&rpcFront{next: sdk, maxBody: DefaultMaxLine, log: discard()})
	defer ts.Close()
	c := &httpClient{t: t, url: ts.URL}
	if code, _, body := c.post(`{"jsonrpc":"2.0","id":1e0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`); code != 200 || rawID(t, body) != "1e0" {
		t.Fatalf("initialize: %d %s", code, body)
	}
	c.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for _, id := range echoedIDs {
		code, ctype, body := c.post(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		if !strings.HasPrefix(ctype, "application/json") || code != 200 || string(body) != `{"jsonrpc":"2.0","id":`+id+`,"result":{}}` {
			t.Errorf("ping %s answered %d %s %s", id, code, ctype, body)
		}
	}
}

func TestRestoreBody(t *testing.T) {
	take := func(p int64) ([]byte, bool) { return []byte(`"c` + strconv.FormatInt(p, 10) + `"`), p < 10 }
	for in, want := range map[string]string{
		`{"jsonrpc":"2.0","id":3,"result":{}}`:                                        `{"jsonrpc":"2.0","id":"c3","result":{}}`,
		`[{"jsonrpc":"2.0","id":3,"result":{}},{"jsonrpc":"2.0","id":11,"error":{}}]`: `[{"jsonrpc":"2.0","id":"c3","result":{}},{"jsonrpc":"2.0","id":11,"error":{}}]`,
		`{"jsonrpc":"2.0","id":3,"method":"roots/list"}`:                              `{"jsonrpc":"2.0","id":3,"method":"roots/list"}`,
	} {
		if got := string(restoreBody([]byte(in), take)); got != want {
			t.Errorf("restoreBody(%s) = %s, want %s", in, got, want)
		}
	}
}
