package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxToolListTokens bounds what tools/list costs a client's context on
// every conversation, in cl100k_base tokens (issue 21). Measured
// 2026-11-28: see TestToolListTokens's log. Raised from 3,000 when the
// input schemas came to state the range of each of the 16 numeric
// arguments (issue 30): 2,978 tokens before, 3,069 after, of which
// trimmed descriptions gave back 17.
const maxToolListTokens = 3100

// TestToolMetadata checks what a client shows and a model reads before
// it calls anything: every tool has a title, hints that match what it does, and the server's
// instructions name it.
func TestToolMetadata(t *testing.T) {
	s := connect(t, shop, Options{})
	res, err := s.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	instructions := s.cs.InitializeResult().Instructions
	if n := strings.Count(instructions, ". "); n < 2 || n > 6 {
		t.Errorf("instructions have %d sentences, want 3-5:\n%s", n+1, instructions)
	}
	for _, tool := range res.Tools {
		a := tool.Annotations
		// annotations.title is read by clients of every MCP version; a
		// tool's own title (2025-06-18) would only repeat it.
		if a == nil || a.Title == "" || tool.Title != "" && tool.Title != a.Title {
			t.Errorf("%s: title %q, annotations %+v: want a title in the annotations", tool.Name, tool.Title, a)
			continue
		}
		if a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("%s: openWorldHint is not false; every tool works on the workspace only", tool.Name)
		}
		if a.ReadOnlyHint && !a.IdempotentHint {
			t.Errorf("%s: read-only but not idempotent", tool.Name)
		}
		if !a.ReadOnlyHint && a.DestructiveHint == nil {
			t.Errorf("%s: writes but leaves destructiveHint at its default (true) unsaid", tool.Name)
		}
		if !strings.Contains(instructions, tool.Name) {
			t.Errorf("the server instructions never name %s:\n%s", tool.Name, instructions)
		}
	}
}

// TestToolListTokens keeps tools/list, which a client puts in front of
// its model in every conversation, under maxToolListTokens.
func TestToolListTokens(t *testing.T) {
	s := connect(t, shop, Options{})
	res, err := s.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	n := s.srv.count(string(data))
	t.Logf("tools/list: %d tools, %d bytes, %d tokens", len(res.Tools), len(data), n)
	if n >= maxToolListTokens {
		t.Errorf("tools/list is %d tokens, want under %d; shorten descriptions or schemas", n, maxToolListTokens)
	}
}

// maxToolListChars bounds the JSON of the tools/list result (issue 32:
// 13,741 characters before its descriptions and schemas were trimmed).
const maxToolListChars = 11000

// TestToolListSize keeps tools/list under maxToolListChars while every
// tool still says what it does and documents each argument, nested ones
// (report_file_info's functions and methods) included.
func TestToolListSize(t *testing.T) {
	s := connect(t, shop, Options{})
	res, err := s.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("tools/list: %d tools, %d characters", len(res.Tools), len(data))
	if len(data) > maxToolListChars {
		t.Errorf("tools/list is %d characters, want at most %d", len(data), maxToolListChars)
	}
	for _, tool := range res.Tools {
		if len(tool.Description) < 40 {
			t.Errorf("%s: description %q says too little", tool.Name, tool.Description)
		}
		raw, _ := json.Marshal(tool.InputSchema)
		var schema jsonschema.Schema
		if err := json.Unmarshal(raw, &schema); err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		expectDocumented(t, tool.Name, &schema)
	}
}

// expectDocumented fails for each property of schema, or of the objects
// its arrays hold, that has no description.
func expectDocumented(t *testing.T, where string, schema *jsonschema.Schema) {
	t.Helper()
	for name, p := range schema.Properties {
		if strings.TrimSpace(p.Description) == "" {
			t.Errorf("%s.%s: no description", where, name)
		}
		if p.Items != nil {
			expectDocumented(t, where+"."+name+"[]", p.Items)
		}
	}
}

// TestFileInfoSentOnce checks that file_info's prompt, and an up-to-date
// artifact, travel once: as text, with only metadata as structured
// content.
func TestFileInfoSentOnce(t *testing.T) {
	src, _ := bigFile()
	s := connect(t, map[string]string{"go.mod": "module m\n", "big.go": src}, Options{})
	for _, call := range []map[string]any{
		{"path": "big.go"},
		{"path": "big.go", "max_tokens": 1500, "part": 2},
	} {
		var out fileInfoOut
		res := s.ok("file_info", call, &out)
		expectSentOnce(t, res, "## Source Code")
	}
}

// expectSentOnce fails unless res's text content holds want and res is
// no larger than that text plus 1 KB.
func expectSentOnce(t *testing.T, res *mcp.CallToolResult, want string) {
	t.Helper()
	body := text(res)
	if !strings.Contains(body, want) {
		t.Fatalf("text lacks %q: %.300s", want, body)
	}
	meta, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if len(meta) > 1024 || strings.Contains(string(meta), "## Source Code") {
		t.Errorf("structured content is %d bytes, want only metadata: %.300s", len(meta), meta)
	}
	if bodyJSON, _ := json.Marshal(body); len(whole) > len(bodyJSON)+1024 {
		t.Errorf("response is %d bytes for a %d-byte text: more than 1 KB besides it", len(whole), len(bodyJSON))
	}
}

// TestArtifactsGitignore checks that a served workspace's .artifacts/
// ignores the search index, so its markdown can be committed.
func TestArtifactsGitignore(t *testing.T) {
	s := connect(t, shop, Options{})
	var fi fileInfoOut
	s.ok("file_info", map[string]any{"path": "lib/store.go"}, &fi)
	if got := s.read(".artifacts/.gitignore"); !strings.Contains(got, "\n.index/\n") {
		t.Errorf(".artifacts/.gitignore = %q", got)
	}
}
