package server

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fileinfo/fileinfo/artifacts"
	"github.com/fileinfo/fileinfo/enrich"
)

type reportOut struct {
	Status       string   `json:"status" jsonschema:"written: the enriched artifact was saved"`
	Path         string   `json:"path"`
	Artifact     string   `json:"artifact" jsonschema:"the artifact written, relative to the workspace root"`
	Undocumented []string `json:"undocumented" jsonschema:"functions and methods of the file still without prose (other parts, or left out)"`
}

func (s *Server) reportFileInfo(ctx context.Context, req *mcp.CallToolRequest, in enrich.Report) (*mcp.CallToolResult, reportOut, error) {
	var out reportOut
	if n := len(req.Params.Arguments); n > enrich.MaxReportSize {
		return nil, out, fmt.Errorf("report of %d bytes refused: the limit is %d; keep each purpose to a sentence and each implementation to 3-5 steps, or report the file in parts", n, enrich.MaxReportSize)
	}
	if in.Part < 0 {
		return nil, out, fmt.Errorf("part %d: parts count from 1", in.Part)
	}
	ws, rel, err := s.locate(ctx, req, in.Path)
	if err != nil {
		return nil, out, err
	}
	src, _, err := ws.current(ctx, rel)
	if err != nil {
		return nil, out, err
	}
	out, err = ws.saveReport(rel, src, in, s.opt.Version)
	if err != nil {
		return nil, out, err
	}
	msg := fmt.Sprintf("Saved the enriched artifact of %s to %s.", rel, out.Artifact)
	if len(out.Undocumented) > 0 {
		msg += fmt.Sprintf(" Still undocumented (%d): %s. Report them (for a split file, with the part file_info gave them in).",
			len(out.Undocumented), strings.Join(out.Undocumented, ", "))
	} else {
		msg += " Every function is documented."
	}
	return textResult(msg), out, nil
}

// saveReport validates a report of the file rel, whose extraction is src,
// merges it with the earlier parts' reports, and writes the enriched
// artifact. Nothing is written when the report is refused.
func (ws *workspace) saveReport(rel string, src *source, in enrich.Report, version string) (reportOut, error) {
	in.Path = rel
	if err := enrich.Validate(&in, src.file); err != nil {
		return reportOut{}, fmt.Errorf("%w; nothing was written", err)
	}
	ws.mu.Lock()
	report := in
	if in.Part > 0 {
		// Parts of one file merge, as long as they describe the same source.
		if prev := ws.pending[rel]; prev != nil && prev.digest == src.digest {
			report = enrich.Merge(prev.report, in)
		}
		ws.pending[rel] = &partial{digest: src.digest, report: report}
	} else {
		delete(ws.pending, rel)
	}
	fp := ws.fingerprint(src)
	body, err := enrich.RenderEnriched(src.file, ws.graph, &report)
	ws.mu.Unlock()
	if err != nil {
		return reportOut{}, fmt.Errorf("%w; nothing was written", err)
	}
	m := artifacts.Meta{Fingerprint: fp, ToolVersion: version, Status: artifacts.Enriched}
	if err := ws.store.Write(rel, m, body); err != nil {
		return reportOut{}, fmt.Errorf("write the artifact of %s: %w", rel, err)
	}
	ws.docsChanged([]string{path.Join(artifacts.Dir, rel+".md")})
	out := reportOut{
		Status:       "written",
		Path:         rel,
		Artifact:     path.Join(artifacts.Dir, rel+".md"),
		Undocumented: enrich.Undocumented(&report, src.file),
	}
	if out.Undocumented == nil {
		out.Undocumented = []string{}
	}
	return out, nil
}
