package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fileinfo/fileinfo/docsearch"
)

// rerankKey names the rerank request in a multi-round-trip result.
const rerankKey = "rerank"

// rerankCandidates is how many results the model is asked to order.
const rerankCandidates = 12

// rerank asks the client's model, through sampling, which of the first
// results answer the question best, and puts those first; the others keep
// their order. Any failure or an answer that is not a JSON array of
// candidate numbers keeps the original order. On multi-round-trip
// protocols the order travels in the request state ("state;3,1,2"), since
// the retry that carries the answer's sampling result no longer carries
// the rerank's; pending is the rerank request to return.
func (s *Server) rerank(ctx context.Context, req *mcp.CallToolRequest, question string, found []docsearch.Result, state string) ([]docsearch.Result, string, *mcp.CallToolResult) {
	n := min(len(found), rerankCandidates)
	if base, order, ok := strings.Cut(req.Params.RequestState, ";"); ok && base == state {
		return reorder(found, parseOrder("["+order+"]", n)), req.Params.RequestState, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Question: %s\n\nCandidate documents:\n", question)
	for i, r := range found[:n] {
		fmt.Fprintf(&b, "%d. %s — %s", i+1, r.Title, r.Path)
		if r.Summary != "" {
			fmt.Fprintf(&b, ": %s", r.Summary)
		}
		b.WriteByte('\n')
	}
	b.WriteString("\nReply with only a JSON array of the numbers of the documents that help answer the question, most useful first, e.g. [3, 1].")
	got := s.askModelAs(ctx, req, rerankKey, state, &mcp.CreateMessageParams{
		SystemPrompt: "You rank documents by how well they answer a question. Reply with a JSON array of numbers only.",
		MaxTokens:    200,
		Messages:     []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: b.String()}}},
	})
	switch {
	case got.pending != nil:
		return found, state, got.pending
	case got.failed != "":
		s.log.Info("rerank skipped", "why", got.failed)
		return found, state, nil
	}
	order := parseOrder(got.text, n)
	nums := make([]string, len(order))
	for i, k := range order {
		nums[i] = strconv.Itoa(k + 1)
	}
	return reorder(found, order), state + ";" + strings.Join(nums, ","), nil
}

// parseOrder reads a JSON array of 1-based candidate numbers out of text
// and returns them 0-based, valid and distinct; nil when there is none.
func parseOrder(text string, n int) []int {
	start, end := strings.IndexByte(text, '['), strings.LastIndexByte(text, ']')
	if start < 0 || end < start {
		return nil
	}
	var nums []int
	if json.Unmarshal([]byte(text[start:end+1]), &nums) != nil {
		return nil
	}
	seen := map[int]bool{}
	var order []int
	for _, k := range nums {
		if k >= 1 && k <= n && !seen[k] {
			seen[k] = true
			order = append(order, k-1)
		}
	}
	return order
}

// reorder puts the results at order first, then the rest in their order.
func reorder(found []docsearch.Result, order []int) []docsearch.Result {
	out := make([]docsearch.Result, 0, len(found))
	used := map[int]bool{}
	for _, k := range order {
		out = append(out, found[k])
		used[k] = true
	}
	for i, r := range found {
		if !used[i] {
			out = append(out, r)
		}
	}
	return out
}
