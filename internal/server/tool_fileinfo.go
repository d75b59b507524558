package server

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fileinfo/fileinfo/artifacts"
	"github.com/fileinfo/fileinfo/enrich"
	"github.com/fileinfo/fileinfo/extract"
)

// Statuses of a file_info answer.
const (
	statusPromptReady = "prompt_ready" // answer the prompt with report_file_info
	statusUpToDate    = "up_to_date"   // the enriched artifact is current; here it is
	statusSummary     = "summary"      // minified, or lines too crowded for a prompt: what it is
)

// maxTokensLimit bounds a call's max_tokens: larger prompts than this fit
// no model's context usefully.
const maxTokensLimit = 1_000_000

type fileInfoIn struct {
	Path      string `json:"path" jsonschema:"the file, relative to the root"`
	Part      int    `json:"part,omitempty" jsonschema:"which part, when parts > 1"`
	Refresh   bool   `json:"refresh,omitempty" jsonschema:"all symbols, even if up to date"`
	MaxTokens int    `json:"max_tokens,omitempty" jsonschema:"default 24000; a bigger file comes in parts"`
	Mode      string `json:"mode,omitempty" jsonschema:"prompt (default), or sampling: your client's model answers"`
}

type fileInfoOut struct {
	Status       string   `json:"status" jsonschema:"prompt_ready: the text content is the prompt; answer it by calling report_file_info. up_to_date: the text content is the current enriched artifact. enriched: sampling wrote it. summary: the file is minified, or its lines declare more symbols than a prompt can list; the text content says what it is and why, and there is nothing to report"`
	Path         string   `json:"path"`
	Language     string   `json:"language"`
	Tokens       int      `json:"tokens" jsonschema:"size of prompt in cl100k_base tokens"`
	Part         int      `json:"part"`
	Parts        int      `json:"parts" jsonschema:"how many prompts the file takes; call again with part for each"`
	StartLine    int      `json:"start_line" jsonschema:"first source line in this part"`
	EndLine      int      `json:"end_line" jsonschema:"last source line in this part"`
	Symbols      []string `json:"symbols" jsonschema:"the names this part asks to document"`
	Artifact     string   `json:"artifact" jsonschema:"the artifact's status: missing, basic, partial (some symbols have no prose yet), enriched or stale"`
	ArtifactPath string   `json:"artifact_path" jsonschema:"where the artifact is, relative to the workspace root"`
	Missing      []string `json:"missing,omitempty" jsonschema:"when artifact is partial: the symbols it has no prose for yet; a report may name only these, and the prose already saved is kept"`
	Changed      []string `json:"changed,omitempty" jsonschema:"when the artifact is stale: the symbols whose source changed since it was written; the prompt asks only about them and about those without prose (refresh: true asks about all)"`
}

// The prompt, or the up-to-date artifact, travels once: as the result's
// text content. fileInfoOut carries only what describes it, so a
// response is its prompt plus well under 1 KB (TestFileInfoSentOnce).

func (s *Server) fileInfo(ctx context.Context, req *mcp.CallToolRequest, in fileInfoIn) (*mcp.CallToolResult, fileInfoOut, error) {
	var out fileInfoOut
	switch in.Mode {
	case "", modePrompt, modeSampling:
	default:
		return nil, out, fmt.Errorf("mode %q: want %q or %q", in.Mode, modePrompt, modeSampling)
	}
	budget := s.opt.MaxTokens
	if in.MaxTokens != 0 { // checkArgs checked its range
		budget = in.MaxTokens
	}
	ws, rel, err := s.locate(ctx, req, in.Path)
	if err != nil {
		return nil, out, err
	}
	src, text, err := ws.current(ctx, rel)
	if un, ok := errors.AsType[*unextracted](err); ok && un.minified {
		out.Path, out.ArtifactPath = rel, path.Join(artifacts.Dir, rel+".md")
		fp := artifacts.Fingerprint{SourceSHA256: artifacts.SourceDigest(un.src), CallersDigest: artifacts.CallersDigest(nil)}
		st, _ := ws.artifactStatus(rel, fp)
		return s.summary(in, extract.Summarize(rel, un.src, un.reason), nil, st, out)
	}
	if err != nil {
		return nil, out, err
	}
	out.Path, out.Language, out.ArtifactPath = rel, src.file.Language, path.Join(artifacts.Dir, rel+".md")

	ws.mu.RLock()
	fp := ws.fingerprint(src)
	status, serr := ws.artifactStatus(rel, fp)
	var basic []byte
	if serr == nil && (status == artifacts.Missing || status == artifacts.Stale && ws.isBasic(rel)) {
		basic = enrich.RenderBasic(src.file, ws.enrichGraph())
	}
	var p *enrich.Prompt
	var since *sinceReport
	opts := enrich.Options{MaxTokens: budget, Part: in.Part, Dependencies: ws.deps.used(src.file)}
	// A stale artifact whose record says what each symbol's prose was
	// written from is asked about only what changed since.
	if status == artifacts.Stale && !in.Refresh && in.Part == 0 {
		since = ws.changesSince(rel, src, text)
	}
	switch {
	case since != nil && since.none():
	case since != nil:
		p, err = s.builder.Incremental(src.file, ws.enrichGraph(), text, since.prev, since.ask(), since.what.FileLevel, opts)
		if p != nil {
			out.Changed = since.what.Source
		}
		if err == nil && p == nil {
			p, err = s.builder.Prompt(src.file, ws.enrichGraph(), text, opts)
		}
	// An up-to-date enriched artifact is handed back instead of a prompt,
	// unless the call asks for a new one or for a given part.
	case status != artifacts.Enriched || in.Refresh || in.Part > 0:
		p, err = s.builder.Prompt(src.file, ws.enrichGraph(), text, opts)
	}
	ws.mu.RUnlock()
	if crowded, ok := errors.AsType[*enrich.CrowdedError](err); ok {
		why := fmt.Sprintf("the symbols declared on its %s take %d tokens by themselves, more than max_tokens %d allows a part", crowdedLines(crowded.StartLine, crowded.EndLine), crowded.Tokens, crowded.MaxTokens)
		if m := extract.Minified(rel, text); m != "" {
			why = m + "; " + why
		}
		return s.summary(in, extract.Summarize(rel, text, why), src.file, status, out)
	}
	if err != nil {
		return nil, out, err
	}
	if since != nil && since.none() {
		// Only callers, or blank lines between symbols, changed: the
		// prose holds, and the artifact lists the callers of now.
		st, err := ws.rerender(rel, src, text, since, s.opt.Version)
		if err == nil && st != artifacts.Stale {
			status = st
			ws.docsChanged([]string{out.ArtifactPath})
		} else {
			if err != nil {
				s.log.Warn("artifact not re-rendered", "path", rel, "err", err)
			}
			ws.mu.RLock()
			p, err = s.builder.Prompt(src.file, ws.enrichGraph(), text, opts)
			ws.mu.RUnlock()
			if err != nil {
				return nil, out, err
			}
		}
	}
	if p != nil {
		ws.sawParts(rel, src.digest, p.Parts)
	}
	note := ""
	if status == artifacts.Partial {
		note = ws.missingNote(rel, src, &out)
	}
	if serr != nil {
		s.log.Warn("artifact unreadable", "path", rel, "err", serr)
		note = fmt.Sprintf("\n\n(Note: the artifact cannot be read: %v.)", serr)
	}
	if basic != nil {
		// A workspace that cannot be written (a read-only checkout) still
		// gets its prompt; the answer says what went wrong.
		if written, err := ws.writeBasic(rel, fp, s.opt.Version, basic); err != nil {
			s.log.Warn("basic artifact not written", "path", rel, "err", err)
			note = fmt.Sprintf("\n\n(Note: the basic artifact could not be written: %v. report_file_info will fail the same way until that is fixed.)", err)
		} else if written {
			status = artifacts.Basic
			ws.docsChanged([]string{out.ArtifactPath})
		}
	}
	out.Artifact = string(status)

	if p == nil {
		_, body, err := ws.store.Read(rel)
		if err != nil {
			return nil, out, fmt.Errorf("read the artifact of %s: %w", rel, err)
		}
		out.Status = statusUpToDate
		why := "its source and callers are unchanged since it was written"
		if since != nil {
			why = "its symbols' source is unchanged since it was written; it now lists their callers as they are"
			if len(since.what.Callers) > 0 {
				why += fmt.Sprintf(" (the callers of %s changed)", strings.Join(since.what.Callers, ", "))
			}
		}
		msg := fmt.Sprintf("The %s artifact of %s (%s) is up to date: %s. "+
			"Use it as it is; call file_info with refresh: true only to document the file again.\n\n%s", status, rel, out.ArtifactPath, why, enrich.WithoutRecord(body))
		return textResult(msg), out, nil
	}
	out.Status = statusPromptReady
	out.Tokens, out.Part, out.Parts = p.Tokens, p.Part, p.Parts
	out.StartLine, out.EndLine, out.Symbols = p.StartLine, p.EndLine, p.Symbols
	if out.Symbols == nil {
		out.Symbols = []string{}
	}
	if in.Mode == modeSampling {
		return s.sample(ctx, req, ws, src, text, p, out)
	}
	return textResult(p.Text + note), out, nil
}

// summary answers file_info for a file summarised instead of prompted
// for (see enrich.SummaryText): sum is what its bytes tell, f its
// extraction or nil, st its artifact's status.
func (s *Server) summary(in fileInfoIn, sum extract.Summary, f *extract.File, st artifacts.Status, out fileInfoOut) (*mcp.CallToolResult, fileInfoOut, error) {
	if in.Part > 1 {
		return nil, out, fmt.Errorf("part %d out of range: %s is summarised in one part", in.Part, sum.Path)
	}
	text := enrich.SummaryText(sum, f)
	tokens, err := s.builder.Count(text)
	if err != nil {
		return nil, out, err
	}
	out.Status, out.Language, out.Tokens, out.Part, out.Parts = statusSummary, sum.Language, tokens, 1, 1
	if sum.Lines > 0 {
		out.StartLine, out.EndLine = 1, sum.Lines
	}
	out.Symbols, out.Artifact = []string{}, string(st)
	return textResult(text), out, nil
}

// crowdedLines renders "line 3" or "lines 3-9".
func crowdedLines(lo, hi int) string {
	if lo == hi {
		return fmt.Sprintf("line %d", lo)
	}
	return fmt.Sprintf("lines %d-%d", lo, hi)
}

// missingNote sets out.Missing to the symbols rel's partial artifact has
// no prose for, and returns the note that tells the model so.
func (w *workspace) missingNote(rel string, src *source, out *fileInfoOut) string {
	prev, _, err := w.prose(rel, src.file)
	if err != nil && prev == nil {
		return fmt.Sprintf("\n\n(Note: the artifact of %s is partial, and the prose it records cannot be read: %v. Document every symbol.)", rel, err)
	}
	report := enrich.Update(prev, nil, src.file)
	_, out.Missing = docStatus(report, src.file)
	var b strings.Builder
	fmt.Fprintf(&b, "\n\n(Note: the artifact of %s is partial.", rel)
	if len(out.Missing) > 0 {
		fmt.Fprintf(&b, " Not documented yet (%d): %s.", len(out.Missing), strings.Join(out.Missing, ", "))
	}
	if strings.TrimSpace(report.Overview) == "" {
		b.WriteString(" It has no overview yet: part 1 asks for it.")
	}
	b.WriteString(" A report may name only what is missing; the prose already saved is kept.)")
	return b.String()
}

// writeBasic writes body as rel's basic artifact, made from fp, unless an
// artifact with prose appeared since the caller looked: it checks again,
// holding saveMu as report saves do, so a report saved meanwhile is never
// replaced. written says whether it wrote.
func (w *workspace) writeBasic(rel string, fp artifacts.Fingerprint, version string, body []byte) (written bool, err error) {
	w.saveMu.Lock()
	defer w.saveMu.Unlock()
	if st, err := w.artifactStatus(rel, fp); err != nil || st != artifacts.Missing && !(st == artifacts.Stale && w.isBasic(rel)) {
		return false, err
	}
	m := artifacts.Meta{Fingerprint: fp, ToolVersion: version, Status: artifacts.Basic}
	if err := w.store.Write(rel, m, body); err != nil {
		return false, err
	}
	return true, nil
}

// isBasic reports whether rel's artifact was written as a basic one, so
// that replacing it loses no model prose.
func (w *workspace) isBasic(rel string) bool {
	m, err := w.store.ReadMeta(rel)
	return err == nil && m.Status == artifacts.Basic
}

// textResult is a tool result holding one text.
func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// notExist reports whether err says a file does not exist.
func notExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
