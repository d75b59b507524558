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
				// Without rerank, for the order to compare with.
				plain := connect(t, docsRepo(), Options{})
				pcs, _ := samplingClient(t, plain, version, func(*mcp.CreateMessageRequest) (string, error) { return "ok [Source 1]", nil })
				before, _ := callAnswer(t, pcs, "ask_docs", map[string]any{"question": "prices in a store"})
				if len(before.Sources) < 2 {
					t.Fatalf("need two sources, got %+v", before.Sources)
				}

				s := connect(t, docsRepo(), Options{SamplingRerank: true})
				var reranks int
				cs, _ := samplingClient(t, s, version, func(req *mcp.CreateMessageRequest) (string, error) {
					if strings.HasPrefix(req.Params.SystemPrompt, "You rank documents") {
						reranks++
						return tc.ranking, nil
					}
					return "ok [Source 1]", nil
				})
				after, _ := callAnswer(t, cs, "ask_docs", map[string]any{"question": "prices in a store"})
				if after.Status != "answered" || reranks != 1 {
					t.Fatalf("with rerank: %+v after %d rerank requests", after, reranks)
				}
				got, want := []string{after.Sources[0].Path, after.Sources[1].Path}, []string{before.Sources[0].Path, before.Sources[1].Path}
				if tc.swapped {
					slices.Reverse(want)
				}
				if !slices.Equal(got, want) {
					t.Errorf("sources %q, want %q", got, want)
				}
			})
		}
	}
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
