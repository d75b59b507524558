package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// An rpcFront stands before the go-sdk's streamable HTTP handler and
// makes its answers JSON-RPC's, whatever the client posts:
//
//   - a body that is not JSON gets a parse error (-32700), one that is
//     not a JSON-RPC 2.0 message an invalid request error (-32600), a
//     batch an invalid request error per call in it: HTTP 400, as the
//     transport asks of input a server cannot accept, where the go-sdk
//     answered plain text;
//   - a call of a method the server does not have gets -32601 with its
//     id: HTTP 200, as for any answer to a request (404 for protocol
//     2026-07-28 on, which says so), where the go-sdk answered 400 and
//     plain text; a notification of one is accepted (202) and dropped:
//     JSON-RPC answers no notification;
//   - a call goes to the go-sdk under a private id, and its answer, as
//     JSON or in an event stream, comes back with the client's id exactly
//     as sent (see envelope.go); a call whose id is in flight in the
//     session is refused (-32600), and a cancellation of no call in
//     flight dropped;
//   - any other error the go-sdk answers in plain text (a session it does
//     not know, a wrong Accept header) becomes a JSON-RPC error of the
//     same HTTP status.
//
// Requests the go-sdk would refuse before reading the body (a rebound
// Host, a Content-Type or Accept it does not take) reach it unread, so
// that it answers them as before; so do GETs and DELETEs.
type rpcFront struct {
	next    http.Handler
	maxBody int64
	log     *slog.Logger
	ids     atomic.Int64 // draws private ids

	mu       sync.Mutex
	sessions map[string]*calls // by Mcp-Session-Id
}

// serverMethods are the methods a client may call or notify on a
// fileinfo server: those of MCP's server side that the go-sdk serves
// (TestServerMethods keeps the list in step with it).
var serverMethods = map[string]bool{
	"initialize": true, "ping": true,
	"tools/list": true, "tools/call": true,
	"resources/list": true, "resources/templates/list": true, "resources/read": true,
	"resources/subscribe": true, "resources/unsubscribe": true,
	"prompts/list": true, "prompts/get": true,
	"completion/complete": true, "logging/setLevel": true,
	"subscriptions/listen":      true,
	"notifications/initialized": true, "notifications/cancelled": true,
	"notifications/progress": true, "notifications/roots/list_changed": true,
}

func (f *rpcFront) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		f.next.ServeHTTP(w, r)
		return
	}
	rw := &rpcWriter{ResponseWriter: w, id: nullID}
	defer rw.finish()
	if rebound(r) || !postable(r) {
		f.next.ServeHTTP(rw, r)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, f.maxBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			rw.answer(http.StatusRequestEntityTooLarge, errorAnswer(nullID, jsonrpc.CodeInvalidRequest,
				fmt.Sprintf("Invalid Request: a body of more than %d bytes is over this server's limit", mbe.Limit)))
			return
		}
		rw.answer(http.StatusBadRequest, errorAnswer(nullID, jsonrpc.CodeParseError, "Parse error: reading the body: "+err.Error()))
		return
	}
	s := sortMessage(body)
	if !s.pass {
		f.log.Warn("refused a message", "why", s.why, "bytes", len(body), "start", prefix(body, 120))
		if s.answer == nil { // a batch of notifications only
			rw.answer(http.StatusAccepted, nil)
			return
		}
		rw.answer(http.StatusBadRequest, s.answer)
		return
	}
	e := s.env
	if e.hasMethod && !serverMethods[e.method] {
		if _, err := jsonrpc.DecodeMessage(withID(s.msg, e, []byte("0"))); err != nil {
			rw.answer(http.StatusBadRequest, invalid(s.msg, e, err))
			return
		}
		if !e.call() {
			rw.answer(http.StatusAccepted, nil)
			return
		}
		status := http.StatusOK
		if r.Header.Get("Mcp-Protocol-Version") >= "2026-07-28" {
			status = http.StatusNotFound
		}
		rw.answer(status, errorAnswer(answerID(s.msg, e), jsonrpc.CodeMethodNotFound,
			fmt.Sprintf("Method not found: %q; this server's methods are those of MCP's server side (tools/list, tools/call, resources/read, ...)", e.method)))
		return
	}
	session := r.Header.Get("Mcp-Session-Id")
	c := f.calls(session)
	defer f.release(session, c)
	in := door{next: &f.ids, calls: c}.enter(s)
	switch {
	case in.answer != nil:
		f.log.Warn("refused a message", "why", in.why, "bytes", len(body), "start", prefix(body, 120))
		rw.answer(http.StatusBadRequest, in.answer)
		return
	case in.msg == nil:
		rw.answer(http.StatusAccepted, nil)
		return
	}
	if in.private != 0 {
		rw.id = answerID(s.msg, e)
		rw.private, rw.calls = in.private, c
		defer c.done(in.private) // unanswered: the stream broke
	}
	r.Body = io.NopCloser(bytes.NewReader(in.msg))
	r.ContentLength = int64(len(in.msg))
	f.next.ServeHTTP(rw, r)
	rw.finish() // while the call is still recorded: a held answer needs its id
}

// calls returns the calls in flight of session. Requests of no session
// yet (an initialize, from any number of clients) share nothing: each
// gets a table of its own.
func (f *rpcFront) calls(session string) *calls {
	if session == "" {
		return &calls{}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.sessions[session]
	if c == nil {
		if f.sessions == nil {
			f.sessions = map[string]*calls{}
		}
		c = &calls{}
		f.sessions[session] = c
	}
	return c
}

// release forgets session's calls once none is in flight: a session
// ends without telling the front.
func (f *rpcFront) release(session string, c *calls) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.sessions[session] == c && c.len() == 0 {
		delete(f.sessions, session)
	}
}

// rebound reports whether r reached a loopback address under a host name
// that is not loopback: the go-sdk refuses it (DNS rebinding).
func rebound(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	return ok && loopbackHost(hostPart(local.String())) && !loopbackHost(hostPart(r.Host))
}

// postable reports whether a POST's headers are those streamable HTTP
// asks for: a JSON body, and an answer as JSON or as an event stream.
func postable(r *http.Request) bool {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return false
	}
	var js, sse bool
	for _, v := range r.Header.Values("Accept") {
		for _, part := range strings.Split(v, ",") {
			base, _, _ := strings.Cut(part, ";")
			switch strings.ToLower(strings.TrimSpace(base)) {
			case "application/json", "application/*":
				js = true
			case "text/event-stream", "text/*":
				sse = true
			case "*/*":
				js, sse = true, true
			}
		}
	}
	return js && sse
}

// hostPart returns the host of a host:port, or hostport without brackets.
func hostPart(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.Trim(hostport, "[]")
}

// loopbackHost reports whether host names this machine's loopback
// interface.
func loopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// An rpcWriter is the response writer the go-sdk answers a POST through.
// It puts the client's id back into the answer to the call of private
// (JSON, or events of a stream), and turns a plain-text error into a
// JSON-RPC error of the same status, with id.
type rpcWriter struct {
	http.ResponseWriter
	id      json.RawMessage // the call's id as sent, or null
	private int64           // the call's private id; 0: none
	calls   *calls

	status   int
	mode     int          // how the body goes out: pass, events, held
	held     bytes.Buffer // held: the whole body; events: an event not yet ended
	finished bool
}

const (
	modePass   = iota // as written
	modeEvents        // an event stream, each event's data restored
	modeHeld          // JSON or a plain-text error: rewritten at the end
)

// take returns the client's id for private, once.
func (w *rpcWriter) take(private int64) ([]byte, bool) {
	if w.private == 0 || private != w.private {
		return nil, false
	}
	return w.calls.done(private)
}

// answer writes the whole answer body with status; a nil body is none.
func (w *rpcWriter) answer(status int, body []byte) {
	if body != nil {
		w.Header().Set("Content-Type", "application/json")
	}
	w.ResponseWriter.WriteHeader(status)
	w.status = status
	w.ResponseWriter.Write(body)
}

func (w *rpcWriter) WriteHeader(status int) {
	if w.status != 0 {
		return
	}
	w.status = status
	ct, _, _ := mime.ParseMediaType(w.Header().Get("Content-Type"))
	switch {
	case ct == "text/event-stream":
		w.mode = modeEvents
	case ct == "application/json" || status >= 400:
		w.mode = modeHeld
		return // the header goes out with the rewritten body
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *rpcWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	switch w.mode {
	case modeHeld:
		return w.held.Write(p)
	case modeEvents:
		w.held.Write(p)
		if err := w.events(); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return w.ResponseWriter.Write(p)
}

// events writes out the events of the stream that have ended.
func (w *rpcWriter) events() error {
	for {
		buf := w.held.Bytes()
		i := bytes.Index(buf, []byte("\n\n"))
		if i < 0 {
			return nil
		}
		ev := restoreEvent(buf[:i+2], w.take)
		w.held.Next(i + 2)
		if _, err := w.ResponseWriter.Write(ev); err != nil {
			return err
		}
	}
}

// restoreEvent returns ev, one server-sent event ending in a blank line,
// with the id of the message its data holds restored.
func restoreEvent(ev []byte, take func(int64) ([]byte, bool)) []byte {
	lines := bytes.Split(bytes.TrimSuffix(ev, []byte("\n\n")), []byte("\n"))
	var data [][]byte
	first := -1
	for i, l := range lines {
		if d, ok := bytes.CutPrefix(l, []byte("data:")); ok {
			if first < 0 {
				first = i
			}
			data = append(data, bytes.TrimPrefix(d, []byte(" ")))
		}
	}
	if first < 0 {
		return ev
	}
	msg := bytes.Join(data, []byte("\n"))
	out := restoreID(msg, take)
	if len(out) == len(msg) && bytes.Equal(out, msg) {
		return ev
	}
	var b bytes.Buffer
	for i, l := range lines {
		switch {
		case i == first:
			for _, d := range bytes.Split(out, []byte("\n")) {
				b.WriteString("data: ")
				b.Write(d)
				b.WriteByte('\n')
			}
		case bytes.HasPrefix(l, []byte("data:")):
		default:
			b.Write(l)
			b.WriteByte('\n')
		}
	}
	b.WriteByte('\n')
	return b.Bytes()
}

// Flush sends what has been written of an event stream.
func (w *rpcWriter) Flush() {
	if w.mode == modeHeld {
		return
	}
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the writer's deadlines.
func (w *rpcWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// finish writes out what was held: JSON with its id restored, or a
// plain-text error as a JSON-RPC error; and the rest of a stream. It
// does so once.
func (w *rpcWriter) finish() {
	if w.finished {
		return
	}
	w.finished = true
	switch w.mode {
	case modeEvents:
		if w.held.Len() > 0 { // an event the go-sdk did not end
			w.ResponseWriter.Write(w.held.Bytes())
		}
	case modeHeld:
		body := w.held.Bytes()
		hd := w.Header()
		ct, _, _ := mime.ParseMediaType(hd.Get("Content-Type"))
		if ct == "application/json" {
			body = restoreBody(body, w.take)
		} else {
			code := int64(jsonrpc.CodeInvalidRequest)
			if w.status >= 500 {
				code = jsonrpc.CodeInternalError
			}
			body = errorAnswer(w.id, code, strings.TrimSpace(string(body)))
			hd.Set("Content-Type", "application/json")
		}
		hd.Del("Content-Length")
		w.ResponseWriter.WriteHeader(w.status)
		w.ResponseWriter.Write(body)
	}
}

// restoreBody restores the id in a JSON body: one message or an array
// of them.
func restoreBody(body []byte, take func(int64) ([]byte, bool)) []byte {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '[' {
		return restoreID(trimmed, take)
	}
	var msgs []json.RawMessage
	if json.Unmarshal(trimmed, &msgs) != nil {
		return body
	}
	for i, m := range msgs {
		msgs[i] = restoreID(m, take)
	}
	out, err := json.Marshal(msgs)
	if err != nil {
		return body
	}
	return out
}
