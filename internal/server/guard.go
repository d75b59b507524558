package server

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// guard returns receiving middleware that keeps one bad request from
// ending the session or the process, whatever the transport:
//
//   - A panic in any method's handler (a tool's, a resource's, a prompt's
//     or the SDK's own) is recovered and logged with the method, what it
//     named (tool, resource URI or prompt), the call's "path" argument if
//     it has one, and the stack. A tools/call answers a tool error
//     (IsError) saying so; any other method answers a JSON-RPC internal
//     error (-32603).
//   - A JSON-RPC error whose data is not JSON is given data that is: the
//     SDK's ResourceNotFoundError quotes the URI with %q, which writes a
//     control character as \x00, and the response that cannot be encoded
//     then breaks the connection (stdio ends; a streamable HTTP session
//     answers empty 200s from then on).
func guard(log *slog.Logger) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
			defer func() {
				if v := recover(); v != nil {
					res, err = recovered(log, method, req, v, debug.Stack())
				}
			}()
			res, err = next(ctx, method, req)
			return res, encodable(req, err)
		}
	}
}

// recovered logs the panic v of the handler of method and returns what
// the client is answered instead.
func recovered(log *slog.Logger, method string, req mcp.Request, v any, stack []byte) (mcp.Result, error) {
	attrs := []any{"method", method}
	what := method
	switch req := req.(type) {
	case *mcp.CallToolRequest:
		if req.Params == nil {
			break
		}
		what = "tool " + req.Params.Name
		attrs = append(attrs, "tool", req.Params.Name)
		var args struct {
			Path string `json:"path"`
		}
		if json.Unmarshal(req.Params.Arguments, &args) == nil && args.Path != "" {
			attrs = append(attrs, "path", args.Path)
		}
	case *mcp.ReadResourceRequest:
		if req.Params == nil {
			break
		}
		what = "resource " + req.Params.URI
		attrs = append(attrs, "uri", req.Params.URI)
	case *mcp.GetPromptRequest:
		if req.Params == nil {
			break
		}
		what = "prompt " + req.Params.Name
		attrs = append(attrs, "prompt", req.Params.Name)
	}
	log.Error("handler panicked", append(attrs, "panic", fmt.Sprint(v), "stack", string(stack))...)
	msg := fmt.Sprintf("%s failed with an internal error: %v", what, v)
	if _, ok := req.(*mcp.CallToolRequest); ok {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{
			Text: msg + ". This is a bug in fileinfo, not in your arguments; the server is still running, so other calls (and this tool on other inputs) can work.",
		}}}, nil
	}
	return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: msg}
}

// encodable returns err, or a copy of it whose data is valid JSON if it is
// a JSON-RPC error with invalid data. A resource-not-found error of a
// resources/read gets {"uri": ...} again, properly encoded; any other
// loses its data.
func encodable(req mcp.Request, err error) error {
	werr, ok := err.(*jsonrpc.Error) // only an unwrapped one keeps its data on the wire
	if !ok || len(werr.Data) == 0 || json.Valid(werr.Data) {
		return err
	}
	fixed := *werr
	fixed.Data = nil
	if rr, ok := req.(*mcp.ReadResourceRequest); ok && rr.Params != nil && werr.Code == mcp.CodeResourceNotFound {
		fixed.Data, _ = json.Marshal(struct {
			URI string `json:"uri"`
		}{rr.Params.URI}) // a struct of a string always encodes
	}
	return &fixed
}

// recoverBackground, deferred first thing in a background goroutine, logs
// a panic of the work it names, with the stack, instead of letting it end
// the process.
func (s *Server) recoverBackground(doing string) {
	if v := recover(); v != nil {
		s.log.Error("background work panicked", "doing", doing, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
	}
}
