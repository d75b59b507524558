package server

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fileinfo/fileinfo/enrich"
)

// Modes of file_info.
const (
	modePrompt   = "prompt"   // hand the prompt to the caller's model
	modeSampling = "sampling" // ask the client's model through MCP sampling
)

// statusEnriched is file_info's status when sampling produced a report
// that was saved.
const statusEnriched = "enriched"

// samplingKey names file_info's sampling request in a multi-round-trip
// result.
const samplingKey = "report"

// samplingMaxTokens is how long an answer may be, in the client model's
// tokens: a report of a large part fits.
const samplingMaxTokens = 8192

// multiRoundTripVersion is the first protocol version on which a tool
// must return its sampling request (InputRequests) instead of sending it.
const multiRoundTripVersion = "2026-07-28"

// samplingParams is the sampling request for prompt p.
func samplingParams(p *enrich.Prompt) *mcp.CreateMessageParams {
	return &mcp.CreateMessageParams{
		SystemPrompt: enrich.SystemPrompt,
		MaxTokens:    samplingMaxTokens,
		Messages: []*mcp.SamplingMessage{{
			Role:    "user",
			Content: &mcp.TextContent{Text: p.Text + "\n\n" + enrich.AnswerInstructions},
		}},
	}
}

// sample completes file_info's loop through the client's model: it asks
// for the report of prompt p (on protocol versions from 2026-07-28 by
// returning the request, earlier by sending it), then validates and saves
// the answer like report_file_info. Whatever goes wrong — no sampling
// offered, an error, a refusal, a timeout, an answer that does not
// validate — it falls back to the prompt, with a note saying why.
func (s *Server) sample(ctx context.Context, req *mcp.CallToolRequest, ws *workspace, src *source, p *enrich.Prompt, out fileInfoOut) (*mcp.CallToolResult, fileInfoOut, error) {
	fallback := func(why string) (*mcp.CallToolResult, fileInfoOut, error) {
		s.log.Info("sampling fell back to a prompt", "path", out.Path, "why", why)
		out.Status, out.Prompt = statusPromptReady, p.Text
		note := "(Sampling did not complete: " + why + ". Answer this prompt yourself and call report_file_info.)\n\n"
		return textResult(note + p.Text), out, nil
	}
	if caps := req.ClientCapabilities(); caps == nil || caps.Sampling == nil {
		return fallback("the client does not offer sampling")
	}
	var answer string
	if resp, ok := req.Params.InputResponses[samplingKey]; ok {
		if req.Params.RequestState != src.digest {
			return fallback("the file changed while its report was being written")
		}
		answer = answerText(resp)
	} else if multiRoundTrip(req) {
		res := &mcp.CallToolResult{
			InputRequests: mcp.InputRequestMap{samplingKey: samplingParams(p)},
			RequestState:  src.digest,
		}
		return res, fileInfoOut{}, nil
	} else {
		sctx, cancel := context.WithTimeout(ctx, s.opt.SamplingTimeout)
		defer cancel()
		res, err := req.Session.CreateMessage(sctx, samplingParams(p))
		if err != nil {
			if sctx.Err() != nil && ctx.Err() == nil {
				return fallback(fmt.Sprintf("the client's model did not answer within %v", s.opt.SamplingTimeout))
			}
			return fallback("the client's model answered with an error: " + err.Error())
		}
		answer = answerText(res)
	}
	if strings.TrimSpace(answer) == "" {
		return fallback("the client's model gave no text answer")
	}
	r, err := enrich.ParseAnswer(answer)
	if err != nil {
		return fallback(err.Error())
	}
	if p.Parts > 1 {
		r.Part = p.Part
	} else {
		r.Part = 0
	}
	rep, err := ws.saveReport(out.Path, src, *r, s.opt.Version)
	if err != nil {
		return fallback("its report was refused: " + err.Error())
	}
	out.Status, out.Artifact = statusEnriched, statusEnriched
	msg := fmt.Sprintf("The client's model documented %s; saved to %s.", out.Path, rep.Artifact)
	if p.Parts > 1 {
		msg += fmt.Sprintf(" This was part %d of %d; call file_info with mode sampling for the others.", p.Part, p.Parts)
	}
	if len(rep.Undocumented) > 0 {
		msg += " Still undocumented: " + strings.Join(rep.Undocumented, ", ") + "."
	}
	return textResult(msg), out, nil
}

// multiRoundTrip reports whether the client speaks a protocol on which a
// tool returns its sampling request instead of sending it.
func multiRoundTrip(req *mcp.CallToolRequest) bool {
	ip := req.Session.InitializeParams()
	return ip == nil || ip.ProtocolVersion >= multiRoundTripVersion
}

// answerText returns the text of a sampling result.
func answerText(r any) string {
	var contents []mcp.Content
	switch r := r.(type) {
	case *mcp.CreateMessageResult:
		contents = []mcp.Content{r.Content}
	case *mcp.CreateMessageWithToolsResult:
		contents = r.Content
	}
	var b strings.Builder
	for _, c := range contents {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// defaultSamplingTimeout bounds a sampling request sent to the client.
const defaultSamplingTimeout = 2 * time.Minute
