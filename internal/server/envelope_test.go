package server

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// FuzzEnvelope checks scanEnvelope against encoding/json on any input:
// it never panics, and on a JSON object it finds the id and the method
// a decoder finds, or says a key comes twice. restoreID then puts any id
// back in place of the id found, changing nothing else.
func FuzzEnvelope(f *testing.F) {
	for _, seed := range []string{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"id":"a\"b","method":"x","params":{"requestId":[1,{"id":2}]}}`,
		`{"\u0069d" : 9007199254740993 , "result":{"id":3}}`, `{"id":1,"id":2}`, `{"ID":1}`, `{"id":`, `[1]`, `{}`, `{"method":7,"id":null}`, "{\"id\":\"\xff\"}"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		e, err := scanEnvelope(msg) // must not panic, whatever msg is
		if e.id.ok() && (e.id.start < 0 || e.id.end > len(msg) || e.id.start > e.id.end) {
			t.Fatalf("id span %v out of %d bytes", e.id, len(msg))
		}
		requestID(msg, e.params)
		if id, ok := responseID(msg); ok && (id.start < 0 || id.end > len(msg) || id.start > id.end) {
			t.Fatalf("response id span %v out of %d bytes", id, len(msg))
		}
		if !json.Valid(msg) || bytes.TrimSpace(msg)[0] != '{' {
			return
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(msg, &m); err != nil {
			t.Fatal(err)
		}
		if err != nil {
			return // a key twice: encoding/json takes the last
		}
		if id, ok := m["id"]; ok != e.id.ok() || ok && string(id) != string(msg[e.id.start:e.id.end]) {
			t.Fatalf("%s: id %s, scanned %v", msg, id, e.id)
		}
		var method string
		if raw, ok := m["method"]; ok != e.hasMethod || ok && json.Unmarshal(raw, &method) == nil && method != e.method {
			t.Fatalf("%s: method %s, scanned %q", msg, raw, e.method)
		}
		if e.hasMethod {
			return
		}
		// A response with an integer id: restoreID puts back another.
		_, hasResult := m["result"]
		_, hasError := m["error"]
		if id, ok := responseID(msg); ok != (e.id.ok() && (hasResult || hasError)) || ok && id != e.id {
			t.Fatalf("%s: responseID = %v, %v; scanned id %v", msg, id, ok, e.id)
		}
		if !e.id.ok() || !hasResult && !hasError {
			return
		}
		private, perr := strconv.ParseInt(string(msg[e.id.start:e.id.end]), 10, 64)
		out := restoreID(msg, func(p int64) ([]byte, bool) { return []byte(`"restored"`), p == private })
		if perr != nil {
			if !bytes.Equal(out, msg) {
				t.Fatalf("%s: restored %s, though its id is no private id", msg, out)
			}
			return
		}
		if want := string(msg[:e.id.start]) + `"restored"` + string(msg[e.id.end:]); string(out) != want {
			t.Fatalf("%s: restored %s, want %s", msg, out, want)
		}
	})
}

// bigResult is an answer to a call the size of a large tool result, with
// its id at the start as the go-sdk writes it.
func bigResult(size int) []byte {
	text := strings.Repeat(`line of source \"quoted\" {braces} [brackets]\n`, size/48)
	return []byte(`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"` + text + `"}],"isError":false}}`)
}

// BenchmarkRestoreID measures what putting a client's id back costs an
// answer of 1 MB: one scan of its envelope and one copy.
func BenchmarkRestoreID(b *testing.B) {
	msg := bigResult(1 << 20)
	b.SetBytes(int64(len(msg)))
	b.ReportAllocs()
	for b.Loop() {
		out := restoreID(msg, func(int64) ([]byte, bool) { return []byte(`9007199254740993`), true })
		if len(out) == len(msg) {
			b.Fatal("not restored")
		}
	}
}

// BenchmarkAdmit measures what sorting and swapping the id of a 1 MB
// call (a large report_file_info) costs a line of stdio, the go-sdk's
// decoding included.
func BenchmarkAdmit(b *testing.B) {
	text := strings.Repeat(`step of a summary \"quoted\"\n`, (1<<20)/30)
	line := []byte(`{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/call","params":{"name":"report_file_info","arguments":{"path":"a.go","overview":"` + text + `","functions":[]}}}`)
	d := door{next: new(atomic.Int64), calls: &calls{}}
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		in, answer, _ := admit(line, len(line), DefaultMaxLine, d)
		if in == nil || answer != nil {
			b.Fatalf("not admitted: %s", answer)
		}
		d.calls.done(d.next.Load())
	}
}
