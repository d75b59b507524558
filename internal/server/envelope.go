package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"unicode/utf8"
)

// The transports read each JSON-RPC message a client sends before the
// go-sdk does, and each the session answers before the client does, for
// two reasons:
//
//   - The go-sdk decodes an id into an int64 or a float64: request id
//     9007199254740993 came back as 9007199254740992, 1.5 as 1, 1e2 as
//     100, "\u00e9" as "é". A call therefore reaches the session under a
//     private id, an integer the transport draws, and its answer leaves
//     with the id's original bytes put back: ids are echoed exactly as
//     sent.
//   - Over HTTP the go-sdk answers a body that is not JSON, or a call of
//     a method it does not know, with plain text and status 400 instead
//     of a JSON-RPC error (see http.go).
//
// The envelope of a message is what the transports read of it: where its
// top-level "id" is, and its "method". Only the envelope is scanned; the
// rest of a message (a report may be megabytes) is skipped without being
// decoded.

// span is where a value lies in a message: msg[start:end]. The zero span
// is absent.
type span struct{ start, end int }

func (s span) ok() bool { return s.end > 0 }

// envelope is what a transport reads of one JSON-RPC message.
type envelope struct {
	id        span   // the top-level "id"
	method    string // the top-level "method", when it is a string
	hasMethod bool   // "method" is there, whatever its value
	params    span   // the top-level "params"
}

// call reports whether the message is a call: a request with an id.
func (e envelope) call() bool { return e.hasMethod && e.id.ok() }

// errDuplicateKey is scanEnvelope's error for a message with two ids,
// methods or params: which one a decoder takes is its own business.
var errDuplicateKey = errors.New("a message names its id, method or params once")

// scanEnvelope reads the envelope of msg, which must be a valid JSON
// object (json.Valid): keys are compared after unescaping, and
// case-sensitively, as the go-sdk's decoder does.
func scanEnvelope(msg []byte) (envelope, error) {
	var e envelope
	i := skipSpace(msg, 0)
	if i >= len(msg) || msg[i] != '{' {
		return e, errors.New("not a JSON object")
	}
	i = skipSpace(msg, i+1)
	for i < len(msg) && msg[i] != '}' {
		kEnd := skipValue(msg, i)
		key := msg[i:kEnd]
		i = skipSpace(msg, kEnd)
		i = skipSpace(msg, min(i+1, len(msg))) // past ':'
		vEnd := skipValue(msg, i)
		val := span{i, vEnd}
		switch unquote(key) {
		case "id":
			if e.id.ok() {
				return e, errDuplicateKey
			}
			e.id = val
		case "method":
			if e.hasMethod {
				return e, errDuplicateKey
			}
			e.hasMethod = true
			if i < len(msg) && msg[i] == '"' {
				e.method = unquote(msg[i:vEnd])
			}
		case "params":
			if e.params.ok() {
				return e, errDuplicateKey
			}
			e.params = val
		}
		i = skipSpace(msg, vEnd)
		if i < len(msg) && msg[i] == ',' {
			i = skipSpace(msg, i+1)
		}
	}
	return e, nil
}

// requestID returns where the "requestId" of params (a span of msg)
// lies: the call a notifications/cancelled names.
func requestID(msg []byte, params span) span {
	if !params.ok() || params.start >= len(msg) || msg[params.start] != '{' {
		return span{}
	}
	sub, err := scanKeys(msg[params.start:params.end], "requestId")
	if err != nil || !sub.ok() {
		return span{}
	}
	return span{params.start + sub.start, params.start + sub.end}
}

// scanKeys returns where the value of key lies in obj, a valid JSON
// object; a key named twice is an error.
func scanKeys(obj []byte, key string) (span, error) {
	var found span
	i := skipSpace(obj, 1)
	for i < len(obj) && obj[i] != '}' {
		kEnd := skipValue(obj, i)
		k := obj[i:kEnd]
		i = skipSpace(obj, kEnd)
		i = skipSpace(obj, min(i+1, len(obj))) // past ':'
		vEnd := skipValue(obj, i)
		if unquote(k) == key {
			if found.ok() {
				return span{}, errDuplicateKey
			}
			found = span{i, vEnd}
		}
		i = skipSpace(obj, vEnd)
		if i < len(obj) && obj[i] == ',' {
			i = skipSpace(obj, i+1)
		}
	}
	return found, nil
}

// unquote returns the string a JSON string literal (valid) holds.
func unquote(lit []byte) string {
	if len(lit) < 2 || lit[0] != '"' {
		return ""
	}
	if bytes.IndexByte(lit, '\\') < 0 && utf8.Valid(lit) {
		return string(lit[1 : len(lit)-1])
	}
	var s string
	json.Unmarshal(lit, &s) // valid JSON: cannot fail
	return s
}

// skipSpace returns the index of the first byte at or after i that is
// not JSON whitespace.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the index just past the JSON value that starts at
// b[i]. b must be valid JSON; on anything else it returns an index no
// greater than len(b).
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return len(b)
	}
	switch b[i] {
	case '"':
		for j := i + 1; j < len(b); {
			q := bytes.IndexByte(b[j:], '"')
			if q < 0 {
				return len(b)
			}
			j += q
			escaped := false // by an odd run of backslashes before it
			for k := j - 1; k > i && b[k] == '\\'; k-- {
				escaped = !escaped
			}
			if !escaped {
				return j + 1
			}
			j++
		}
		return len(b)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				j = skipValue(b, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(b)
	}
	j := i
	for j < len(b) {
		switch b[j] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return j
		}
		j++
	}
	return j
}

// idKind sorts the raw value of an id.
func idKind(raw []byte) (ok bool, why string) {
	if len(raw) == 0 {
		return false, "an id is a string or a number"
	}
	switch c := raw[0]; {
	case c == '"':
		if !utf8.Valid(raw) {
			return false, "an id is valid UTF-8"
		}
		return true, ""
	case c == '-' || c >= '0' && c <= '9':
		return true, ""
	case c == 'n':
		return false, "an id is not null in MCP"
	}
	return false, "an id is a string or a number"
}

// idKey is the key of an id in the calls in flight: a string by its
// value (escapes decoded), a number by its bytes.
func idKey(raw []byte) string {
	if raw[0] == '"' {
		return "s" + unquote(raw)
	}
	return "n" + string(raw)
}

// splice returns msg with msg[s.start:s.end] replaced by with, in a new
// slice.
func splice(msg []byte, s span, with []byte) []byte {
	out := make([]byte, 0, len(msg)-(s.end-s.start)+len(with))
	out = append(out, msg[:s.start]...)
	out = append(out, with...)
	return append(out, msg[s.end:]...)
}

// calls are the calls in flight of one session under their private ids,
// with the ids their client gave them.
type calls struct {
	mu    sync.Mutex
	raw   map[int64][]byte // private id → the client's id, as sent
	byKey map[string]int64 // idKey of the client's id → private id
}

// add records a call of the client's id raw under private; it reports
// false, recording nothing, when a call of that id is in flight.
func (c *calls) add(raw []byte, private int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := idKey(raw)
	if _, dup := c.byKey[k]; dup {
		return false
	}
	if c.raw == nil {
		c.raw, c.byKey = map[int64][]byte{}, map[string]int64{}
	}
	c.raw[private] = bytes.Clone(raw)
	c.byKey[k] = private
	return true
}

// done forgets the call of private and returns the client's id for it.
func (c *calls) done(private int64) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	raw, ok := c.raw[private]
	if ok {
		delete(c.raw, private)
		delete(c.byKey, idKey(raw))
	}
	return raw, ok
}

// private returns the private id of the call in flight of the client's
// id raw.
func (c *calls) private(raw []byte) (int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.byKey[idKey(raw)]
	return p, ok
}

// len is how many calls are in flight.
func (c *calls) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.raw)
}

// restoreID returns msg, a message the session encoded, with the
// client's id put back if it answers a call under a private id: take,
// given the private id, returns the client's id and forgets the call.
// Requests the session sends (sampling, roots) keep their ids: they have
// a method. Anything else is returned as is.
func restoreID(msg []byte, take func(private int64) ([]byte, bool)) []byte {
	id, ok := responseID(msg)
	if !ok {
		return msg
	}
	private, err := strconv.ParseInt(string(msg[id.start:id.end]), 10, 64)
	if err != nil {
		return msg
	}
	raw, ok := take(private)
	if !ok {
		return msg
	}
	return splice(msg, id, raw)
}

// responseID returns where the id of msg lies if msg is a response: an
// object with a "result" or an "error" and no "method" before it. It
// reads no further than it needs: the go-sdk writes "jsonrpc", "id" and
// then "result", so an answer of megabytes costs its first bytes.
func responseID(msg []byte) (span, bool) {
	var id span
	response := false
	i := skipSpace(msg, 0)
	if i >= len(msg) || msg[i] != '{' {
		return span{}, false
	}
	i = skipSpace(msg, i+1)
	for i < len(msg) && msg[i] != '}' {
		kEnd := skipValue(msg, i)
		key := unquote(msg[i:kEnd])
		i = skipSpace(msg, kEnd)
		i = skipSpace(msg, min(i+1, len(msg))) // past ':'
		switch key {
		case "method":
			return span{}, false
		case "result", "error":
			response = true
		}
		if response && id.ok() {
			return id, true
		}
		vEnd := skipValue(msg, i)
		if key == "id" {
			id = span{i, vEnd}
			if response {
				return id, true
			}
		}
		i = skipSpace(msg, vEnd)
		if i < len(msg) && msg[i] == ',' {
			i = skipSpace(msg, i+1)
		}
	}
	return span{}, false
}
