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

// sampled is the outcome of asking the client's model.
type sampled struct {
	text    string              // the answer, when there is one
	pending *mcp.CallToolResult // the request to return, on protocols from 2026-07-28
	failed  string              // why there is no answer: fall back to a prompt
}

// askModel asks the client's model through MCP sampling. On protocol
// versions from 2026-07-28 the first call returns the request (pending)
// with state, and the retry that carries the answer must carry state
// back; earlier versions get the request sent, bounded by
// Options.SamplingTimeout. A client without sampling, an error, a refusal
// or a timeout set failed.
func (s *Server) askModel(ctx context.Context, req *mcp.CallToolRequest, state string, params *mcp.CreateMessageParams) sampled {
	return s.askModelAs(ctx, req, samplingKey, state, params)
}

// askModelAs is askModel with the request named key, for a tool that asks
// more than one thing in turn.
func (s *Server) askModelAs(ctx context.Context, req *mcp.CallToolRequest, key, state string, params *mcp.CreateMessageParams) sampled {
	if caps := req.ClientCapabilities(); caps == nil || caps.Sampling == nil {
		return sampled{failed: "the client does not offer sampling"}
	}
	if resp, ok := req.Params.InputResponses[key]; ok {
		if req.Params.RequestState != state {
			return sampled{failed: "what was asked about changed while the answer was being written"}
		}
		return s.answered(answerText(resp))
	}
	if multiRoundTrip(req) {
		return sampled{pending: &mcp.CallToolResult{
			InputRequests: mcp.InputRequestMap{key: params},
			RequestState:  state,
		}}
	}
	sctx, cancel := context.WithTimeout(ctx, s.opt.SamplingTimeout)
	defer cancel()
	res, err := req.Session.CreateMessage(sctx, params)
	if err != nil {
		if sctx.Err() != nil && ctx.Err() == nil {
			return sampled{failed: fmt.Sprintf("the client's model did not answer within %v", s.opt.SamplingTimeout)}
		}
		return sampled{failed: "the client's model answered with an error: " + err.Error()}
	}
	return s.answered(answerText(res))
}

func (s *Server) answered(text string) sampled {
	if strings.TrimSpace(text) == "" {
		return sampled{failed: "the client's model gave no text answer"}
	}
	return sampled{text: text}
}

// sample completes file_info's loop through the client's model: it asks
// for the report of prompt p, then validates and saves the answer like
// report_file_info. Whatever goes wrong — no sampling offered, an error, a
// refusal, a timeout, an answer that does not validate — it falls back to
// the prompt, with a note saying why.
func (s *Server) sample(ctx context.Context, req *mcp.CallToolRequest, ws *workspace, src *source, text []byte, p *enrich.Prompt, out fileInfoOut) (*mcp.CallToolResult, fileInfoOut, error) {
	fallback := func(why string) (*mcp.CallToolResult, fileInfoOut, error) {
		s.log.Info("sampling fell back to a prompt", "path", out.Path, "why", why)
		out.Status = statusPromptReady
		note := "(Sampling did not complete: " + why + ". Answer this prompt yourself and call report_file_info.)\n\n"
		return textResult(note + p.Text), out, nil
	}
	got := s.askModel(ctx, req, src.digest, samplingParams(p))
	switch {
	case got.pending != nil:
		return got.pending, fileInfoOut{}, nil
	case got.failed != "":
		return fallback(got.failed)
	}
	r, err := enrich.ParseAnswer(got.text)
	if err != nil {
		return fallback(err.Error())
	}
	if p.Parts > 1 {
		r.Part = p.Part
	} else {
		r.Part = 0
	}
	rep, note, err := ws.saveReport(out.Path, src, text, *r, s.opt.Version)
	if err != nil {
		return fallback("its report was refused: " + err.Error())
	}
	out.Status, out.Artifact = statusEnriched, rep.ArtifactStatus
	msg := fmt.Sprintf("The client's model documented %s; saved to %s.", out.Path, rep.Artifact)
	if p.Parts > 1 {
		msg += fmt.Sprintf(" This was part %d of %d; call file_info with mode sampling for the others.", p.Part, p.Parts)
	}
	if len(rep.Undocumented) > 0 {
		msg += " Still undocumented: " + strings.Join(rep.Undocumented, ", ") + "."
	}
	return textResult(msg + note), out, nil
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
