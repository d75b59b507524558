package server

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fileinfo/fileinfo/artifacts"
	"github.com/fileinfo/fileinfo/enrich"
	"github.com/fileinfo/fileinfo/extract"
)

type reportOut struct {
	Status         string   `json:"status" jsonschema:"written: the artifact was saved"`
	Path           string   `json:"path"`
	Artifact       string   `json:"artifact" jsonschema:"the artifact written, relative to the workspace root"`
	ArtifactStatus string   `json:"artifact_status" jsonschema:"enriched: every symbol has prose; partial: some have none yet (undocumented lists them; an empty list means the overview, which part 1 gives, is missing)"`
	Undocumented   []string `json:"undocumented" jsonschema:"functions, methods and types of the file still without prose (other parts, or left out); prose reported before is kept"`
}

func (s *Server) reportFileInfo(ctx context.Context, req *mcp.CallToolRequest, in enrich.Report) (*mcp.CallToolResult, reportOut, error) {
	var out reportOut
	if n := len(req.Params.Arguments); n > enrich.MaxReportSize {
		return nil, out, fmt.Errorf("report of %d bytes refused: the limit is %d; keep each purpose to a sentence and each implementation to 3-5 steps, or report the file in parts", n, enrich.MaxReportSize)
	}
	ws, rel, err := s.locate(ctx, req, in.Path)
	if err != nil {
		return nil, out, err
	}
	src, text, err := ws.current(ctx, rel)
	if err != nil {
		return nil, out, err
	}
	if err := s.checkPart(ws, rel, src, text, in.Part); err != nil {
		return nil, out, err
	}
	out, note, err := ws.saveReport(rel, src, text, in, s.opt.Version)
	if err != nil {
		return nil, out, err
	}
	var msg string
	switch {
	case out.ArtifactStatus == string(artifacts.Enriched):
		msg = fmt.Sprintf("Saved the enriched artifact of %s to %s. Every function is documented.", rel, out.Artifact)
	case len(out.Undocumented) == 0:
		msg = fmt.Sprintf("Saved the artifact of %s to %s; it is partial: it has no overview yet. Report part 1 of the prompt, which asks for it.", rel, out.Artifact)
	default:
		msg = fmt.Sprintf("Saved the artifact of %s to %s; it is partial. Still undocumented (%d): %s. "+
			"Report them: a report may name only them, and the prose already saved is kept (for a split file, report each with the part file_info gave it in).",
			rel, out.Artifact, len(out.Undocumented), strings.Join(out.Undocumented, ", "))
	}
	return textResult(msg + note), out, nil
}

// saveReport validates a report of the file rel, whose extraction is src,
// merges it into the prose rel's artifact records (so that symbols the
// report leaves out keep theirs), and writes the artifact: Enriched when
// every symbol and the overview have prose, Partial otherwise. Nothing is
// written when the report is refused. note, when not empty, says what the
// answer should add: the earlier prose's record could not be read, and
// only what the artifact shows of it, if anything, is kept.
func (ws *workspace) saveReport(rel string, src *source, text []byte, in enrich.Report, version string) (out reportOut, note string, err error) {
	in.Path = rel
	// The artifact is read, merged into and written again: one report at
	// a time, or two parts sent together would each drop the other's.
	ws.saveMu.Lock()
	defer ws.saveMu.Unlock()
	prev, prevDigests, rerr := ws.prose(rel, src.file)
	// A report that adds to the prose saved may leave the overview to the
	// one saved.
	check := in
	if strings.TrimSpace(check.Overview) == "" && prev != nil {
		check.Overview = prev.Overview
	}
	ws.mu.RLock()
	err = enrich.Validate(&check, src.file, ws.enrichGraph())
	ws.mu.RUnlock()
	if err != nil {
		return reportOut{}, "", fmt.Errorf("%w; nothing was written", err)
	}
	switch {
	case rerr != nil && prev != nil:
		ws.log.Warn("earlier prose record unreadable; the prose the artifact shows is kept", "path", rel, "err", rerr)
		note = fmt.Sprintf("\n\n(Note: the prose the old artifact recorded could not be read: %v. The prose it shows is kept instead.)", rerr)
	case rerr != nil:
		ws.log.Warn("earlier prose unreadable; the report replaces it", "path", rel, "err", rerr)
		note = fmt.Sprintf("\n\n(Note: the prose the old artifact recorded could not be read: %v. Only this report's prose is in the artifact now.)", rerr)
	}
	report := enrich.Update(prev, &in, src.file)
	status, missing := docStatus(report, src.file)

	ws.mu.RLock()
	fp := ws.fingerprint(src)
	// Each symbol's digest says what source its prose was written from:
	// the next file_info after an edit asks only about what changed.
	digests := enrich.Stamp(src.file, ws.enrichGraph(), text, prevDigests, &in)
	body, err := enrich.RenderEnriched(src.file, ws.enrichGraph(), report, digests)
	ws.mu.RUnlock()
	if err != nil {
		return reportOut{}, "", fmt.Errorf("%w; nothing was written", err)
	}
	m := artifacts.Meta{Fingerprint: fp, ToolVersion: version, Status: status}
	if err := ws.store.Write(rel, m, body); err != nil {
		return reportOut{}, "", fmt.Errorf("write the artifact of %s: %w", rel, err)
	}
	ws.docsChanged([]string{path.Join(artifacts.Dir, rel+".md")})
	ws.indexCode(ws.docsCtx, []string{rel}, nil) // its symbols with their new prose
	return reportOut{
		Status:         "written",
		Path:           rel,
		Artifact:       path.Join(artifacts.Dir, rel+".md"),
		ArtifactStatus: string(status),
		Undocumented:   missing,
	}, note, nil
}

// docStatus returns the status of an artifact holding the prose r gives
// f, and the symbols without prose, never nil: Partial when there are
// some, or when the overview is missing.
func docStatus(r *enrich.Report, f *extract.File) (artifacts.Status, []string) {
	missing := enrich.Undocumented(r, f)
	if missing == nil {
		missing = []string{}
	}
	if len(missing) > 0 || strings.TrimSpace(r.Overview) == "" {
		return artifacts.Partial, missing
	}
	return artifacts.Enriched, missing
}

// prose returns the prose rel's artifact holds for f, as enrich.Prose
// reads it: what its record says or, for an artifact from before records,
// what its markdown shows. It is nil when there is no artifact, or one
// without prose (basic). An error says the artifact or its record could
// not be read; the prose is then what the markdown shows, if anything.
func (ws *workspace) prose(rel string, f *extract.File) (*enrich.Report, enrich.Digests, error) {
	_, body, err := ws.store.Read(rel)
	if notExist(err) {
		return nil, enrich.Digests{}, nil
	}
	if err != nil {
		return nil, enrich.Digests{}, err
	}
	return enrich.ProseDigests(body, f)
}

// checkPart refuses a report's part number past the number of parts
// file_info splits rel into: at the server's budget, or at whatever
// budget file_info last split the source as it is now.
func (s *Server) checkPart(ws *workspace, rel string, src *source, text []byte, part int) error {
	seen := ws.partsOf(rel, src.digest)
	if part <= max(1, seen) {
		return nil
	}
	budget := s.opt.MaxTokens
	if budget == 0 {
		budget = enrich.DefaultMaxTokens
	}
	ws.mu.RLock()
	p, err := s.builder.Prompt(src.file, ws.enrichGraph(), text, enrich.Options{MaxTokens: budget, Dependencies: ws.deps.used(src.file)})
	ws.mu.RUnlock()
	n := max(seen, 1)
	if err == nil {
		n = max(n, p.Parts)
	}
	if part <= n {
		return nil
	}
	parts := "1 part"
	if n > 1 {
		parts = fmt.Sprintf("%d parts", n)
	}
	return fmt.Errorf("part %d is out of range: %s has %s (at max_tokens %d, or as file_info last split it). "+
		"Give the part number file_info returned with the prompt you answered, or leave part out to report the whole file; nothing was written",
		part, rel, parts, budget)
}

// sawParts records that file_info split rel, as digest, into n parts.
func (ws *workspace) sawParts(rel, digest string, n int) {
	if n <= 1 {
		return
	}
	ws.partsMu.Lock()
	defer ws.partsMu.Unlock()
	if p := ws.parts[rel]; p.digest != digest || p.n < n {
		ws.parts[rel] = partsSeen{digest: digest, n: n}
	}
}

// partsOf returns the most parts file_info split rel into as digest, or
// 0 if it did not split it.
func (ws *workspace) partsOf(rel, digest string) int {
	ws.partsMu.Lock()
	defer ws.partsMu.Unlock()
	if p := ws.parts[rel]; p.digest == digest {
		return p.n
	}
	return 0
}
