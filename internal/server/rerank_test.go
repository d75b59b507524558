package server

import (
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fileinfo/fileinfo/docsearch"
)

func TestRerankThroughSampling(t *testing.T) {
	for _, version := range []string{"", "2025-06-18"} {
		for _, tc := range []struct {
			name, ranking string
			swapped       bool
		}{
			{"reversed", "[2, 1]", true},
			{"bad JSON keeps the order", "the second one", false},
		} {
			t.Run(version+" "+tc.name, func(t *testing.T) {
				s := connect(t, docsRepo(), Options{SamplingRerank: true})
				// A question asked while the code index builds may find code it
				// cannot yet quote, and its sources then skip that result.
				waitFor(t, "the code index", func() bool { return s.srv.workspace().code.complete() })
				var reranks int
				var shown []string // the candidates' paths, in the order the model saw them
				cs, _ := samplingClient(t, s, version, func(req *mcp.CreateMessageRequest) (string, error) {
					if strings.HasPrefix(req.Params.SystemPrompt, "You rank documents") {
						reranks++
						shown = candidatePaths(req.Params.Messages[0].Content.(*mcp.TextContent).Text)
						return tc.ranking, nil
					}
					return "ok [Source 1]", nil
				})
				after, _ := callAnswer(t, cs, "ask_docs", map[string]any{"question": "prices in a store"})
				if after.Status != "answered" || reranks != 1 {
					t.Fatalf("with rerank: %+v after %d rerank requests", after, reranks)
				}
				if len(shown) < 2 || len(after.Sources) < 2 {
					t.Fatalf("need two candidates and two sources, got %q and %+v", shown, after.Sources)
				}
				// The order compared with is the one the model was shown, not a
				// second server's: two searches may break a tie either way.
				got, want := []string{after.Sources[0].Path, after.Sources[1].Path}, slices.Clone(shown[:2])
				if tc.swapped {
					slices.Reverse(want)
				}
				if !slices.Equal(got, want) {
					t.Errorf("sources %q, want %q (shown %q)", got, want, shown)
				}
			})
		}
	}
}

// candidatePaths reads the paths of a rerank prompt's numbered candidate
// lines ("2. Title — path: summary").
func candidatePaths(prompt string) []string {
	var paths []string
	for _, line := range strings.Split(prompt, "\n") {
		num, rest, ok := strings.Cut(line, ". ")
		if !ok || num == "" || strings.Trim(num, "0123456789") != "" {
			continue
		}
		_, path, ok := strings.Cut(rest, " — ")
		if !ok {
			continue
		}
		path, _, _ = strings.Cut(path, ": ")
		paths = append(paths, path)
	}
	return paths
}

func TestParseOrder(t *testing.T) {
	for text, want := range map[string][]int{
		"[3, 1]":              {2, 0},
		"Ranking: [2,2,9,0]":  {1},
		"none":                nil,
		"[\"a\"]":             nil,
		"```json\n[1]\n```":   {0},
		"[1, 2] and then [3]": nil,
	} {
		if got := parseOrder(text, 3); !slices.Equal(got, want) {
			t.Errorf("parseOrder(%q) = %v, want %v", text, got, want)
		}
	}
	rs := []docsearch.Result{{Path: "a"}, {Path: "b"}, {Path: "c"}}
	if got := reorder(rs, []int{2}); got[0].Path != "c" || got[1].Path != "a" || got[2].Path != "b" {
		t.Errorf("reorder = %v", got)
	}
}
