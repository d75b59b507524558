package server

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// samplingClient connects a client whose model answers every sampling
// request with answer (or fails, or hangs), speaking protocol version
// (empty: the newest).
func samplingClient(t *testing.T, s *session, version string, answer func(*mcp.CreateMessageRequest) (string, error)) (*mcp.ClientSession, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	var opts *mcp.ClientOptions
	if answer != nil {
		opts = &mcp.ClientOptions{CreateMessageHandler: func(ctx context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			calls.Add(1)
			text, err := answer(req)
			if err != nil {
				return nil, err
			}
			return &mcp.CreateMessageResult{Role: "assistant", Model: "fixed", Content: &mcp.TextContent{Text: text}}, nil
		}}
	}
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := s.srv.MCP().Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "sampler", Version: "1"}, opts).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, &calls
}

func callFileInfo(t *testing.T, cs *mcp.ClientSession, args map[string]any) (fileInfoOut, string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "file_info", Arguments: args})
	return fileInfoResult(t, res, err)
}

// fileInfoResult decodes file_info's answer, failing t on an error.
func fileInfoResult(t *testing.T, res *mcp.CallToolResult, err error) (fileInfoOut, string) {
	t.Helper()
	if err != nil {
		t.Fatalf("file_info: %v", err)
	}
	if res.IsError {
		t.Fatalf("file_info failed: %s", text(res))
	}
	var out fileInfoOut
	data, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(data, &out)
	return out, text(res)
}

func reportJSON(t *testing.T) string {
	data, err := json.Marshal(storeReport())
	if err != nil {
		t.Fatal(err)
	}
	return "Here is the documentation:\n```json\n" + string(data) + "\n```"
}

func TestFileInfoSampling(t *testing.T) {
	for _, version := range []string{"", "2025-11-25", "2025-06-18", "2024-11-05"} {
		name := version
		if name == "" {
			name = "newest"
		}
		t.Run(name, func(t *testing.T) {
			s := connect(t, shop, Options{})
			var prompt string
			cs, calls := samplingClient(t, s, version, func(req *mcp.CreateMessageRequest) (string, error) {
				prompt = req.Params.Messages[0].Content.(*mcp.TextContent).Text
				if !strings.Contains(req.Params.SystemPrompt, "JSON") {
					return "", errors.New("no system prompt")
				}
				return reportJSON(t), nil
			})
			out, msg := callFileInfo(t, cs, map[string]any{"path": "lib/store.go", "mode": "sampling"})
			if out.Status != statusEnriched || out.Artifact != "enriched" || calls.Load() != 1 {
				t.Fatalf("sampling: %+v (%d sampling calls): %s", out, calls.Load(), msg)
			}
			if !strings.Contains(prompt, "## Source Code") || !strings.Contains(prompt, "reply with only its arguments") {
				t.Errorf("the sampled prompt:\n%s", prompt)
			}
			if md := s.read(".artifacts/lib/store.go.md"); !strings.Contains(md, "status: enriched") || !strings.Contains(md, "Sets a key's value") {
				t.Errorf("artifact:\n%s", md)
			}
			// Fresh now: no second sampling.
			out, _ = callFileInfo(t, cs, map[string]any{"path": "lib/store.go", "mode": "sampling"})
			if out.Status != statusUpToDate || calls.Load() != 1 {
				t.Errorf("second call: %+v after %d sampling calls", out, calls.Load())
			}
		})
	}
}

// TestFileInfoSamplingFallsBack: when sampling fails — no sampling, an
// answer that is no report, an error, or no answer within the timeout —
// file_info answers with the prompt and why, and leaves the artifact as it
// was. The client that never answers is cut by a timeout the test sets
// small; the test checks the message names it, not how long it took: a
// fallback that waited for the answer would wait for the test's end, and
// fail at the generous bound of hangBound.
func TestFileInfoSamplingFallsBack(t *testing.T) {
	for _, tc := range []struct {
		name    string
		version string
		answer  func(*mcp.CreateMessageRequest) (string, error)
		timeout time.Duration
		why     string
	}{
		{"no sampling", "", nil, 0, "does not offer sampling"},
		{"bad JSON", "2025-06-18", func(*mcp.CreateMessageRequest) (string, error) { return "I'd rather not.", nil }, 0, "no JSON object"},
		{"unknown name", "2025-06-18", func(*mcp.CreateMessageRequest) (string, error) {
			return `{"path":"lib/store.go","overview":"x","functions":[{"name":"Nope","purpose":"p","implementation":"1. x"}]}`, nil
		}, 0, `"Nope"`},
		{"error", "2025-06-18", func(*mcp.CreateMessageRequest) (string, error) { return "", errors.New("user declined") }, 0, "user declined"},
		{"timeout", "2025-06-18", nil, 200 * time.Millisecond, "did not answer within 200ms"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := connect(t, shop, Options{SamplingTimeout: tc.timeout}) // 0: the default, minutes
			answer := tc.answer
			never := make(chan struct{}) // the answer that comes when the test ends
			if tc.timeout > 0 {
				answer = func(*mcp.CreateMessageRequest) (string, error) {
					<-never
					return reportJSON(t), nil
				}
			}
			cs, _ := samplingClient(t, s, tc.version, answer)
			t.Cleanup(func() { close(never) }) // before the client closes, which waits for it
			type result struct {
				res *mcp.CallToolResult
				err error
			}
			got := make(chan result, 1)
			go func() {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "file_info", Arguments: map[string]any{"path": "lib/store.go", "mode": "sampling"}})
				got <- result{res, err}
			}()
			var a result
			select {
			case a = <-got:
			case <-time.After(hangBound):
				t.Fatalf("file_info waited %v for the client's model", hangBound)
			}
			out, msg := fileInfoResult(t, a.res, a.err)
			if out.Status != statusPromptReady || !strings.Contains(msg, tc.why) || !strings.Contains(msg, "## Source Code") {
				t.Errorf("status %s; text starts %q", out.Status, msg[:min(300, len(msg))])
			}
			if md := s.read(".artifacts/lib/store.go.md"); !strings.Contains(md, "status: basic") {
				t.Errorf("a failed sampling changed the artifact:\n%s", md)
			}
		})
	}
	s := connect(t, shop, Options{})
	s.fails("file_info", map[string]any{"path": "lib/store.go", "mode": "magic"}, "mode")
}
