package server

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func callAnswer(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (answerOut, string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if res.IsError {
		t.Fatalf("%s failed: %s", tool, text(res))
	}
	var out answerOut
	data, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(data, &out)
	return out, text(res)
}

func TestAnswerToolsWithSampling(t *testing.T) {
	for _, version := range []string{"", "2025-06-18"} {
		t.Run("version "+version, func(t *testing.T) {
			s := connect(t, docsRepo(), Options{})
			var prompts, systems []string
			cs, calls := samplingClient(t, s, version, func(req *mcp.CreateMessageRequest) (string, error) {
				prompts = append(prompts, req.Params.Messages[0].Content.(*mcp.TextContent).Text)
				systems = append(systems, req.Params.SystemPrompt)
				return "Prices are cents [Source 1].", nil
			})
			out, msg := callAnswer(t, cs, "ask_docs", map[string]any{"question": "What unit are prices in?"})
			if out.Status != "answered" || out.Answer != "Prices are cents [Source 1]." || calls.Load() != 1 {
				t.Fatalf("ask_docs = %+v", out)
			}
			if len(out.Sources) == 0 || out.Sources[0].Path != "docs/guide.md" || !strings.Contains(msg, "[Source 1] Guide") {
				t.Errorf("sources %+v; text %q", out.Sources, msg)
			}
			if !strings.Contains(prompts[0], "Question: What unit are prices in?") || !strings.Contains(prompts[0], "[Source 1]") ||
				!strings.Contains(prompts[0], "Prices are integers in cents") || !strings.Contains(systems[0], "[Source N]") {
				t.Errorf("the sampled prompt:\n%s\nsystem: %s", prompts[0], systems[0])
			}
			out, _ = callAnswer(t, cs, "explain_error", map[string]any{"error": "panic: negative price for apple", "context": "s.Put(\"apple\", -1)"})
			if out.Status != "answered" || !strings.Contains(prompts[1], "Error:") || !strings.Contains(prompts[1], "negative price") || !strings.Contains(systems[1], "fix") {
				t.Errorf("explain_error = %+v\n%s", out, prompts[1])
			}
			out, _ = callAnswer(t, cs, "get_working_example", map[string]any{"task": "put a price in a store"})
			if out.Status != "answered" || !strings.Contains(prompts[2], "s.Put(\"apple\", 120)") || !strings.Contains(systems[2], "complete working example") {
				t.Errorf("get_working_example = %+v\n%s", out, prompts[2])
			}
		})
	}
}

func TestAnswerToolsWithoutSampling(t *testing.T) {
	s := connect(t, docsRepo(), Options{})
	cs, _ := samplingClient(t, s, "", nil)
	out, msg := callAnswer(t, cs, "ask_docs", map[string]any{"question": "How do I install it?", "max_tokens": 500})
	if out.Status != statusPromptReady || out.Answer != "" || !strings.Contains(out.Prompt, "[Source 1]") || !strings.Contains(msg, "## System") {
		t.Errorf("ask_docs without sampling = %+v", out)
	}
	if n := s.srv.count(out.Prompt); n > 800 {
		t.Errorf("a 500-token budget gave a %d-token prompt", n)
	}
	// Nothing found is not an error: the prompt says so.
	out, _ = callAnswer(t, cs, "ask_docs", map[string]any{"question": "qqqq zzzz xxxx"})
	if len(out.Sources) != 0 || !strings.Contains(out.Prompt, "none were found") {
		t.Errorf("no sources: %+v", out)
	}
	s.fails("ask_docs", map[string]any{"question": "  "}, "empty")
	s.fails("explain_error", map[string]any{"error": "x", "max_tokens": 10_000_000}, "max_tokens")
	s.fails("get_working_example", map[string]any{"task": "x", "scopes": []string{"nope"}}, "nope")
}

func TestAnswerSamplingErrorFallsBack(t *testing.T) {
	s := connect(t, docsRepo(), Options{})
	cs, _ := samplingClient(t, s, "2025-06-18", func(*mcp.CreateMessageRequest) (string, error) { return "", errors.New("refused by the user") })
	out, msg := callAnswer(t, cs, "ask_docs", map[string]any{"question": "What unit are prices in?"})
	if out.Status != statusPromptReady || !strings.Contains(out.Note, "refused by the user") || !strings.Contains(msg, "## Prompt") {
		t.Errorf("after a refusal: %+v", out)
	}
}

func TestKeyWords(t *testing.T) {
	for q, want := range map[string]string{
		"What does the Store.Put method do when the price is negative?": "Store.Put method price negative",
		`error: open "/tmp/x.json": no such file`:                       "open x.json such file",
	} {
		if got := keyWords(q); got != want {
			t.Errorf("keyWords(%q) = %q, want %q", q, got, want)
		}
	}
}

// A code result is a symbol's document: ask_docs quotes its source, not
// nothing because the file itself is no document of the index.
func TestAskDocsQuotesCode(t *testing.T) {
	s := connect(t, docsRepo(), Options{})
	waitFor(t, "the code index", func() bool { return s.srv.workspace().code.complete() })
	out, _ := callAnswer(t, s.cs, "ask_docs", map[string]any{"question": "NewStore"})
	var code *answerSource
	for i := range out.Sources {
		if out.Sources[i].Path == "lib/store.go" {
			code = &out.Sources[i]
		}
	}
	if code == nil || !strings.Contains(out.Prompt, "func NewStore") {
		t.Fatalf("no quoted code source: sources %+v\nprompt:\n%s", out.Sources, out.Prompt)
	}
}
