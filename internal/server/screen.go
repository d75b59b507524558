package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// screen decides the fate of a line of a LineTransport, of size bytes;
// line is nil if size is over limit. Either the session gets it (pass), or
// the client gets answer (nil: nothing, for a blank line or a batch of
// notifications). why says why a line did not pass, for logs; it is empty
// for a blank line.
//
// A line passes if jsonrpc.DecodeMessage, which the go-sdk's session uses,
// decodes it: then the session cannot fail on it.
func screen(line []byte, size, limit int) (pass bool, answer []byte, why string) {
	if line == nil && size > 0 {
		return false, errorAnswer(nullID, jsonrpc.CodeInvalidRequest,
			fmt.Sprintf("Invalid Request: a message of %d bytes is over this server's limit of %d bytes; it was skipped", size, limit)), "too long"
	}
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return false, nil, ""
	}
	if !json.Valid(line) {
		err := json.Unmarshal(line, new(json.RawMessage))
		return false, errorAnswer(nullID, jsonrpc.CodeParseError,
			fmt.Sprintf("Parse error: not one JSON value per line: %v", err)), "not JSON"
	}
	switch line[0] {
	case '{':
		if _, err := jsonrpc.DecodeMessage(line); err != nil {
			return false, invalid(line, err), "not JSON-RPC 2.0"
		}
		if fractionalID(line) {
			// DecodeMessage truncates it: the answer would name
			// another call.
			return false, errorAnswer(nullID, jsonrpc.CodeInvalidRequest,
				"Invalid Request: an id is a string or an integer"), "fractional id"
		}
		return true, nil, ""
	case '[':
		return false, batchAnswer(line), "batch"
	}
	return false, errorAnswer(nullID, jsonrpc.CodeInvalidRequest,
		`Invalid Request: a message is a JSON object, such as {"jsonrpc":"2.0","id":1,"method":"ping"}`), "not an object"
}

// nullID is the id of an answer to a message whose id is unknown.
var nullID = json.RawMessage("null")

// invalid answers the JSON object msg, which jsonrpc.DecodeMessage
// refused with err.
func invalid(msg []byte, err error) []byte {
	return errorAnswer(callID(msg), jsonrpc.CodeInvalidRequest,
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
	for _, e := range elems {
		msg, err := jsonrpc.DecodeMessage(e)
		if err == nil && fractionalID(e) {
			err = errors.New("an id is a string or an integer")
		}
		if err != nil {
			answers = append(answers, invalid(e, err))
			continue
		}
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
			id, _ := json.Marshal(req.ID.Raw()) // a string or an int64
			answers = append(answers, errorAnswer(id, jsonrpc.CodeInvalidRequest,
				"Invalid Request: batches are not supported (MCP 2025-06-18 dropped them); send one message per line"))
		}
	}
	if len(answers) == 0 {
		return nil
	}
	data, _ := json.Marshal(answers) // valid elements always encode
	return data
}

// callID returns the id of msg, a JSON value, to answer it with: its id
// if it is a request (it has a method) whose id is a string or an
// integer, else null.
func callID(msg []byte) json.RawMessage {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method json.RawMessage `json:"method"`
	}
	var id any
	if json.Unmarshal(msg, &m) != nil || m.Method == nil || json.Unmarshal(m.ID, &id) != nil {
		return nullID
	}
	switch v := id.(type) {
	case string:
		data, _ := json.Marshal(v) // invalid UTF-8 becomes U+FFFD
		return data
	case float64:
		if v == math.Trunc(v) && math.Abs(v) <= 1<<53 {
			return m.ID
		}
	}
	return nullID
}

// fractionalID reports whether msg, a JSON-RPC message, has a number
// for id that is not an integer.
func fractionalID(msg []byte) bool {
	var m struct {
		ID any `json:"id"`
	}
	if json.Unmarshal(msg, &m) != nil {
		return false
	}
	f, ok := m.ID.(float64)
	return ok && f != math.Trunc(f)
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
	data, _ := json.Marshal(resp) // id is valid JSON: null, or from json
	return data
}
