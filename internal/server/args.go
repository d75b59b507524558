package server

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A Range is the values a numeric argument takes: from Min to Max, both
// included, and whole numbers only when Integer is set. It never holds
// NaN or an infinity.
type Range struct {
	Min, Max float64
	Integer  bool
}

// IntRange is the Range of whole numbers from lo to hi.
func IntRange(lo, hi int) Range { return Range{Min: float64(lo), Max: float64(hi), Integer: true} }

// String says what r takes, as a tool error or a usage line says it:
// "an integer from 1 to 50", "a number from 0 to 1".
func (r Range) String() string {
	kind := "a number"
	if r.Integer {
		kind = "an integer"
	}
	return fmt.Sprintf("%s from %s to %s", kind, formatNum(r.Min), formatNum(r.Max))
}

// Check returns nil if v is in r, else an error naming name (when not
// empty) and r: "limit: -1 is out of range; want an integer from 1 to 50".
func (r Range) Check(name string, v float64) error { return r.check(name, formatNum(v), v) }

// check is Check, saying v as shown.
func (r Range) check(name, shown string, v float64) error {
	if name != "" {
		name += ": "
	}
	switch {
	case math.IsNaN(v) || v < r.Min || v > r.Max:
		return fmt.Errorf("%s%s is out of range; want %s", name, shown, r)
	case r.Integer && v != math.Trunc(v):
		return fmt.Errorf("%s%s is not an integer; want %s", name, shown, r)
	}
	return nil
}

// Parse parses s, a flag's text, as a value of r: NaN, an infinity, a
// number out of r (however large) or not a number at all is an error
// naming name (when not empty), s as given, and r.
func (r Range) Parse(name, s string) (float64, error) {
	shown := strings.TrimSpace(s)
	v, err := strconv.ParseFloat(shown, 64)
	if err != nil && !math.IsInf(v, 0) { // too large a number parses to ±Inf: out of range
		if name != "" {
			name += ": "
		}
		return 0, fmt.Errorf("%s%q is not a number; want %s", name, s, r)
	}
	if err := r.check(name, shown, v); err != nil {
		return 0, err
	}
	return v, nil
}

// formatNum writes v as briefly as it reads, whole numbers in full:
// 1, 0.5, 1000000, NaN.
func formatNum(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Bounds that do not come from elsewhere.
const (
	maxLineNumber = 100_000_000 // a line of a file: far beyond the largest file read
	maxParts      = 10_000      // a part of a file_info prompt: a 2 MB file at a budget of 50 tokens
)

// argRanges are the ranges of the tools' numeric arguments, by tool and
// by argument: the one place they are stated. addTool writes them into
// each tool's input schema (minimum, maximum, integer or number, never
// null), which clients see; checkArgs enforces them on every call before
// the go-sdk decodes it; the CLI's flags of the same meaning take them
// (ArgRange). Every numeric argument of a tool must have one: addTool
// panics otherwise. An argument left out takes its default, which the
// handler picks.
var argRanges = map[string]map[string]Range{
	"file_info":           {"part": IntRange(1, maxParts), "max_tokens": IntRange(1, maxTokensLimit)},
	"report_file_info":    {"part": IntRange(1, maxParts)},
	"inspect_source":      {"start_line": IntRange(1, maxLineNumber), "end_line": IntRange(1, maxLineNumber)},
	"search_docs":         {"limit": IntRange(1, maxSearchLimit), "min_score": {Min: 0, Max: 1}},
	"find_symbol":         {"limit": IntRange(1, maxSymbols)},
	"callers":             {"depth": IntRange(1, maxDepth), "limit": IntRange(1, maxRows)},
	"callees":             {"depth": IntRange(1, maxDepth), "limit": IntRange(1, maxRows)},
	"ask_docs":            {"max_tokens": IntRange(1, maxContextTokens)},
	"get_working_example": {"max_tokens": IntRange(1, maxContextTokens)},
	"explain_error":       {"max_tokens": IntRange(1, maxContextTokens)},
	"open_view":           {"line": IntRange(1, maxLineNumber)},
}

// ArgRange returns the range of the numeric argument arg of tool, for a
// CLI flag of the same meaning. It panics if there is none: the caller
// names a fixed pair.
func ArgRange(tool, arg string) Range {
	r, ok := argRanges[tool][arg]
	if !ok {
		panic(fmt.Sprintf("server.ArgRange: tool %s has no numeric argument %s", tool, arg))
	}
	return r
}

// addTool registers t, handled by h, with an input schema inferred from
// In and stating the ranges of argRanges.
func addTool[In, Out any](s *Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) {
	schema, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("tool %s: %v", t.Name, err)) // the In types are fixed at build time
	}
	if err := applyRanges(t.Name, schema); err != nil {
		panic(err)
	}
	t.InputSchema = schema
	if t.Annotations == nil || !t.Annotations.ReadOnlyHint {
		s.writers[t.Name] = true
	}
	// No output schema: the text content is the answer a model reads, and
	// the structured content only its metadata, which the text says too.
	// The go-sdk would infer one from Out; as any, it sends out as
	// structured content all the same. Output schemas were 1,329 of the
	// 13,741 characters of tools/list (issue 32).
	mcp.AddTool(s.mcp, t, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		res, out, err := h(ctx, req, in)
		if err != nil {
			return res, nil, err
		}
		return res, out, nil
	})
}

// applyRanges writes the ranges of tool's arguments into its input
// schema; a numeric property without a range, or a range without a
// property, is an error.
func applyRanges(tool string, schema *jsonschema.Schema) error {
	ranges := argRanges[tool]
	for name := range ranges {
		if schema.Properties[name] == nil {
			return fmt.Errorf("tool %s: argRanges names %s, which it does not take", tool, name)
		}
	}
	for name, p := range schema.Properties {
		r, ok := ranges[name]
		numeric := p.Type == "integer" || p.Type == "number" || slices.Contains(p.Types, "integer") || slices.Contains(p.Types, "number")
		switch {
		case numeric && !ok:
			return fmt.Errorf("tool %s: numeric argument %s has no range in argRanges", tool, name)
		case !ok:
			continue
		}
		p.Type, p.Types = "number", nil
		if r.Integer {
			p.Type = "integer"
		}
		p.Minimum, p.Maximum = &r.Min, &r.Max
	}
	return nil
}

// checkArgs returns receiving middleware that refuses a tools/call whose
// numeric arguments are not in their ranges (argRanges) with a tool
// error a model can act on, naming each argument and its range, before
// the go-sdk decodes them: its own schema check said of null
// "<invalid reflect.Value> has type null". The refusal of a tool that
// writes says that nothing was.
func (s *Server) checkArgs() mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if call, ok := req.(*mcp.CallToolRequest); ok && call.Params != nil {
				if msg := badArgs(call.Params.Name, call.Params.Arguments); msg != "" {
					if s.writers[call.Params.Name] {
						msg += "; nothing was written"
					}
					return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}, nil
				}
			}
			return next(ctx, method, req)
		}
	}
}

// badArgs says what is wrong with the numeric arguments of a call of
// tool, "" if nothing is (or args is not an object, which the go-sdk
// refuses in its own words).
func badArgs(tool string, args json.RawMessage) string {
	ranges := argRanges[tool]
	if len(ranges) == 0 {
		return ""
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(args, &m) != nil {
		return ""
	}
	var errs []string
	for _, name := range slices.Sorted(maps.Keys(ranges)) {
		raw, ok := m[name]
		if !ok {
			continue
		}
		if err := checkArg(name, raw, ranges[name]); err != nil {
			errs = append(errs, err.Error())
		}
	}
	return strings.Join(errs, "; ")
}

// checkArg checks raw, the JSON value of the argument name, against r;
// the error shows raw as the client sent it.
func checkArg(name string, raw json.RawMessage, r Range) error {
	shown := strings.TrimSpace(string(raw))
	if len(shown) > 40 {
		shown = shown[:40] + "…"
	}
	if len(raw) == 0 || !(raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') {
		return fmt.Errorf("%s: %s is not a number; want %s, or leave %s out for its default", name, shown, r, name)
	}
	v, err := strconv.ParseFloat(string(raw), 64)
	if err != nil && !math.IsInf(v, 0) { // too large a number parses to ±Inf: out of range
		return fmt.Errorf("%s: %s is not a number; want %s", name, shown, r)
	}
	return r.check(name, shown, v)
}
