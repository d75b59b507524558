package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// sorted is a message a client sent, as sortMessage sorted it: either it
// goes on to the session (pass), or the client gets answer instead (nil:
// nothing). why says why a message did not pass, for logs.
type sorted struct {
	msg    []byte // the message, without surrounding space
	env    envelope
	pass   bool
	answer []byte
	why    string
}

// sortMessage sorts b, one message a client sent, as JSON-RPC 2.0 and
// MCP ask, whatever the transport:
//
//   - a message that is not JSON gets a parse error (-32700, id null);
//   - JSON that is not a JSON-RPC 2.0 message (null, 42, [], {}, a wrong
//     "jsonrpc", an id that is null, an object or not UTF-8, two ids)
//     gets an invalid request error (-32600), with the message's id,
//     exactly as sent, when it has a usable one, else null;
//   - a batch gets an invalid request error for each call in it, as an
//     array: MCP 2025-06-18 dropped batching;
//
// The rest pass, their envelope read; the door (enter) checks the rest
// of each against what the go-sdk decodes.
func sortMessage(b []byte) sorted {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return sorted{answer: errorAnswer(nullID, jsonrpc.CodeParseError, "Parse error: an empty message"), why: "empty"}
	}
	if !json.Valid(b) {
		err := json.Unmarshal(b, new(json.RawMessage))
		return sorted{answer: errorAnswer(nullID, jsonrpc.CodeParseError,
			fmt.Sprintf("Parse error: not one JSON value: %v", err)), why: "not JSON"}
	}
	switch b[0] {
	case '{':
	case '[':
		return sorted{answer: batchAnswer(b), why: "batch"}
	default:
		return sorted{answer: errorAnswer(nullID, jsonrpc.CodeInvalidRequest,
			`Invalid Request: a message is a JSON object, such as {"jsonrpc":"2.0","id":1,"method":"ping"}`), why: "not an object"}
	}
	e, err := scanEnvelope(b)
	if err != nil {
		return sorted{answer: errorAnswer(nullID, jsonrpc.CodeInvalidRequest, "Invalid Request: "+err.Error()), why: "ambiguous"}
	}
	if e.id.ok() {
		if ok, why := idKind(b[e.id.start:e.id.end]); !ok {
			return sorted{answer: errorAnswer(nullID, jsonrpc.CodeInvalidRequest, "Invalid Request: "+why), why: "bad id"}
		}
	}
	return sorted{msg: b, env: e, pass: true}
}

// nullID is the id of an answer to a message whose id is unknown.
var nullID = json.RawMessage("null")

// answerID is the id to answer a message with: its id, as sent, if it
// is a request with a usable one, else null.
func answerID(msg []byte, e envelope) json.RawMessage {
	if !e.call() {
		return nullID
	}
	raw := msg[e.id.start:e.id.end]
	if ok, _ := idKind(raw); !ok {
		return nullID
	}
	return raw
}

// invalid answers msg, which jsonrpc.DecodeMessage refused with err.
func invalid(msg []byte, e envelope, err error) []byte {
	return errorAnswer(answerID(msg, e), jsonrpc.CodeInvalidRequest,
		fmt.Sprintf(`Invalid Request: not a JSON-RPC 2.0 message such as {"jsonrpc":"2.0","id":1,"method":"ping"}: %v`, err))
}

// batchAnswer answers a batch, a JSON array: an empty one with an error,
// any other with an array of errors, one per call in it and one per
// element that is not a message. It returns nil if that array is empty.
func batchAnswer(batch []byte) []byte {
	var elems []json.RawMessage
	if err := json.Unmarshal(batch, &elems); err != nil || len(elems) == 0 {
		return errorAnswer(nullID, jsonrpc.CodeInvalidRequest, "Invalid Request: an empty batch")
	}
	var answers []json.RawMessage
	for _, elem := range elems {
		s := sortMessage(elem)
		if !s.pass {
			if s.answer != nil && s.why != "batch" {
				answers = append(answers, s.answer)
			} else {
				answers = append(answers, errorAnswer(nullID, jsonrpc.CodeInvalidRequest, "Invalid Request: a batch inside a batch"))
			}
			continue
		}
		if _, err := jsonrpc.DecodeMessage(withID(s.msg, s.env, []byte("0"))); err != nil {
			answers = append(answers, invalid(s.msg, s.env, err))
			continue
		}
		if s.env.call() {
			answers = append(answers, errorAnswer(answerID(s.msg, s.env), jsonrpc.CodeInvalidRequest,
				"Invalid Request: batches are not supported (MCP 2025-06-18 dropped them); send one message at a time"))
		}
	}
	if len(answers) == 0 {
		return nil
	}
	data, _ := json.Marshal(answers) // valid elements always encode
	return data
}

// withID returns msg with the id of a call set to id.
func withID(msg []byte, e envelope, id []byte) []byte {
	if !e.call() {
		return msg
	}
	return splice(msg, e.id, id)
}

// errorAnswer returns a JSON-RPC 2.0 error response.
func errorAnswer(id json.RawMessage, code int64, message string) []byte {
	var resp struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	resp.JSONRPC, resp.ID = "2.0", id
	resp.Error.Code, resp.Error.Message = code, message
	data, _ := json.Marshal(resp) // id is valid JSON: null, or from a valid message
	return data
}

// methodCancelled is the notification that cancels a call by its id.
const methodCancelled = "notifications/cancelled"

// door swaps the ids of one session's calls (see envelope.go).
type door struct {
	next  *atomic.Int64 // draws private ids
	calls *calls
}

// entry is what the door lets in of a message.
type entry struct {
	msg     []byte // what the session gets; nil: nothing
	private int64  // a call's private id, else 0
	answer  []byte // the client's answer instead, if any
	why     string // why the message did not go in, for logs
}

// enter readies s, a message that sortMessage passed, for the session: a
// call goes in under a new private id, recorded with the client's id; a
// cancellation names the call's private id, and one of no call in flight
// is dropped (the session would cancel another call of that id). Each
// message must decode as the go-sdk decodes it.
func (d door) enter(s sorted) entry {
	msg, e := s.msg, s.env
	if e.call() {
		raw := msg[e.id.start:e.id.end]
		p := d.next.Add(1)
		in := splice(msg, e.id, strconv.AppendInt(nil, p, 10))
		if _, err := jsonrpc.DecodeMessage(in); err != nil {
			return entry{answer: invalid(msg, e, err), why: "not JSON-RPC 2.0"}
		}
		if !d.calls.add(raw, p) {
			return entry{answer: errorAnswer(raw, jsonrpc.CodeInvalidRequest,
				"Invalid Request: a call of id "+string(raw)+" is still in flight; give each call its own id"), why: "duplicate id"}
		}
		return entry{msg: in, private: p}
	}
	if _, err := jsonrpc.DecodeMessage(msg); err != nil {
		return entry{answer: invalid(msg, e, err), why: "not JSON-RPC 2.0"}
	}
	if e.method == methodCancelled {
		rid := requestID(msg, e.params)
		if !rid.ok() {
			return entry{msg: msg}
		}
		p, ok := d.calls.private(msg[rid.start:rid.end])
		if !ok {
			return entry{why: "cancels no call in flight"}
		}
		return entry{msg: splice(msg, rid, strconv.AppendInt(nil, p, 10))}
	}
	return entry{msg: msg}
}
