package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// TestNumbersRefusedReadably: a number out of its range, null, a string
// for a number or a fraction for an integer gets a tool error a model can
// act on, naming the argument and its range (issue 30: limit: null gave
// "<invalid reflect.Value> has type null").
func TestNumbersRefusedReadably(t *testing.T) {
	s := connect(t, shop, Options{NoWatch: true})
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"find_symbol", map[string]any{"query": "x", "limit": nil}, "limit: null is not a number; want an integer from 1 to 100, or leave limit out for its default"},
		{"find_symbol", map[string]any{"query": "x", "limit": -1}, "limit: -1 is out of range; want an integer from 1 to 100"},
		{"search_docs", map[string]any{"query": "x", "limit": -1}, "limit: -1 is out of range; want an integer from 1 to 100"},
		{"search_docs", map[string]any{"query": "x", "min_score": nil}, "min_score: null is not a number; want a number from 0 to 1, or leave min_score out for its default"},
		{"search_docs", map[string]any{"query": "x", "min_score": json.RawMessage("1e400")}, "min_score: 1e400 is out of range; want a number from 0 to 1"},
		{"search_docs", map[string]any{"query": "x", "min_score": json.RawMessage("-1e400")}, "min_score: -1e400 is out of range; want a number from 0 to 1"},
		{"callers", map[string]any{"symbol": "x", "depth": 2.5}, "depth: 2.5 is not an integer; want an integer from 1 to 5"},
		{"callees", map[string]any{"symbol": "x", "depth": "2"}, `depth: "2" is not a number; want an integer from 1 to 5, or leave depth out for its default`},
		{"inspect_source", map[string]any{"path": "main.go", "start_line": 0, "end_line": 5}, "start_line: 0 is out of range; want an integer from 1 to 100000000"},
		{"file_info", map[string]any{"path": "main.go", "part": -2, "max_tokens": 2e6}, "max_tokens: 2000000 is out of range; want an integer from 1 to 1000000; part: -2 is out of range; want an integer from 1 to 10000; nothing was written"},
		{"report_file_info", map[string]any{"path": "main.go", "part": 0}, "part: 0 is out of range; want an integer from 1 to 10000; nothing was written"},
		{"ask_docs", map[string]any{"question": "x", "max_tokens": json.RawMessage("9223372036854775808")}, "max_tokens: 9223372036854775808 is out of range; want an integer from 1 to 60000"},
	} {
		res := s.call(tc.tool, tc.args)
		if got := text(res); !res.IsError || got != tc.want {
			t.Errorf("%s %v: %q (error %v)\nwant %q", tc.tool, tc.args, got, res.IsError, tc.want)
		}
	}
}

// TestArgRanges checks every numeric argument of every tool over MCP:
// each kind of bad value is refused naming the argument and its range,
// and the ends of the range pass the check.
func TestArgRanges(t *testing.T) {
	s := connect(t, shop, Options{NoWatch: true})
	for tool, ranges := range argRanges {
		for name, r := range ranges {
			bad := []json.RawMessage{[]byte("null"), []byte(`"1"`), []byte("true"), []byte("{}"), []byte("[1]"), []byte("1e400"), []byte("-1e400"),
				json.RawMessage(formatNum(r.Min - 1)), json.RawMessage(formatNum(r.Max + 1))}
			if r.Integer {
				bad = append(bad, json.RawMessage(formatNum(r.Min+0.5)))
			}
			for _, v := range bad {
				res := s.call(tool, map[string]any{name: v})
				if msg := text(res); !res.IsError || !strings.HasPrefix(msg, name+": ") || !strings.Contains(msg, "want "+r.String()) {
					t.Errorf("%s %s=%s: %q", tool, name, v, msg)
				}
			}
			for _, v := range []float64{r.Min, r.Max} {
				args, _ := json.Marshal(map[string]float64{name: v})
				if msg := badArgs(tool, args); msg != "" {
					t.Errorf("%s %s=%v refused: %s", tool, name, v, msg)
				}
			}
		}
	}
}

// TestInputSchemasStateRanges: the input schema clients see states each
// numeric argument's range, as a number that is never null.
func TestInputSchemasStateRanges(t *testing.T) {
	s := connect(t, shop, Options{NoWatch: true})
	res, err := s.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, tool := range res.Tools {
		data, _ := json.Marshal(tool.InputSchema)
		var schema jsonschema.Schema
		if err := json.Unmarshal(data, &schema); err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		for name, p := range schema.Properties {
			r, ok := argRanges[tool.Name][name]
			if p.Type != "integer" && p.Type != "number" && !ok {
				continue
			}
			seen++
			if !ok || p.Minimum == nil || p.Maximum == nil || *p.Minimum != r.Min || *p.Maximum != r.Max || p.Type != map[bool]string{true: "integer", false: "number"}[r.Integer] || len(p.Types) > 0 {
				t.Errorf("%s.%s: schema %s; range %v", tool.Name, name, data, r)
			}
		}
	}
	want := 0
	for _, rs := range argRanges {
		want += len(rs)
	}
	if seen != want {
		t.Errorf("%d numeric arguments in the schemas, %d in argRanges", seen, want)
	}
}

func TestApplyRangesRefusesGaps(t *testing.T) {
	type in struct {
		Limit int    `json:"limit"`
		Name  string `json:"name"`
	}
	schema, err := jsonschema.For[in](nil)
	if err != nil {
		t.Fatal(err)
	}
	argRanges["test_tool"] = map[string]Range{}
	defer delete(argRanges, "test_tool")
	if err := applyRanges("test_tool", schema); err == nil || !strings.Contains(err.Error(), "limit has no range") {
		t.Errorf("a numeric argument without a range: %v", err)
	}
	argRanges["test_tool"] = map[string]Range{"limit": IntRange(1, 2), "depth": IntRange(1, 2)}
	if err := applyRanges("test_tool", schema); err == nil || !strings.Contains(err.Error(), "depth, which it does not take") {
		t.Errorf("a range of no argument: %v", err)
	}
}

func TestRangeParse(t *testing.T) {
	r := IntRange(1, 50)
	for _, tc := range []struct {
		in, err string
		want    float64
	}{
		{"1", "", 1}, {"50", "", 50}, {" 7 ", "", 7}, {"1e1", "", 10},
		{"0", "limit: 0 is out of range; want an integer from 1 to 50", 0},
		{"-1", "limit: -1 is out of range; want an integer from 1 to 50", 0},
		{"51", "limit: 51 is out of range; want an integer from 1 to 50", 0},
		{"2.5", "limit: 2.5 is not an integer; want an integer from 1 to 50", 0},
		{"NaN", "limit: NaN is out of range; want an integer from 1 to 50", 0},
		{"Inf", "limit: Inf is out of range; want an integer from 1 to 50", 0},
		{"-Inf", "limit: -Inf is out of range; want an integer from 1 to 50", 0},
		{"1e400", "limit: 1e400 is out of range; want an integer from 1 to 50", 0},
		{"ten", `limit: "ten" is not a number; want an integer from 1 to 50`, 0},
		{"", `limit: "" is not a number; want an integer from 1 to 50`, 0},
	} {
		got, err := r.Parse("limit", tc.in)
		if (err == nil) != (tc.err == "") || err != nil && err.Error() != tc.err || got != tc.want {
			t.Errorf("Parse(%q) = %v, %v; want %v, %q", tc.in, got, err, tc.want, tc.err)
		}
	}
	if got := (Range{Min: 0, Max: 1}).String(); got != "a number from 0 to 1" {
		t.Errorf("String() = %q", got)
	}
}
