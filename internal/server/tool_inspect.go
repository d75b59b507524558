package server

import (
	"bytes"
	"context"
	"fmt"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxInspectLines is the most lines one inspect_source call returns.
const maxInspectLines = 400

type inspectIn struct {
	Path      string `json:"path" jsonschema:"relative to the root, or deps:NAME@VERSION/PATH"`
	StartLine int    `json:"start_line" jsonschema:"first line"`
	EndLine   int    `json:"end_line" jsonschema:"last line, inclusive"`
}

type inspectOut struct {
	Path       string `json:"path"`
	StartLine  int    `json:"start_line"`
	EndLine    int    `json:"end_line" jsonschema:"the last line shown"`
	TotalLines int    `json:"total_lines"`
	Text       string `json:"text" jsonschema:"the lines, each prefixed with its number and a tab"`
}

func (s *Server) inspectSource(ctx context.Context, req *mcp.CallToolRequest, in inspectIn) (*mcp.CallToolResult, inspectOut, error) {
	var out inspectOut
	if in.StartLine < 1 {
		return nil, out, fmt.Errorf("start_line %d: lines count from 1", in.StartLine)
	}
	if in.EndLine < in.StartLine {
		return nil, out, fmt.Errorf("end_line %d is before start_line %d", in.EndLine, in.StartLine)
	}
	rel, src, err := s.readSource(ctx, req, in.Path)
	if err != nil {
		return nil, out, err
	}
	lines := splitLines(src)
	if in.StartLine > len(lines) {
		return nil, out, fmt.Errorf("start_line %d is past the end of %s, which has %d lines", in.StartLine, rel, len(lines))
	}
	end := min(in.EndLine, len(lines), in.StartLine+maxInspectLines-1)
	var b bytes.Buffer
	for i := in.StartLine; i <= end; i++ {
		b.WriteString(strconv.Itoa(i))
		b.WriteByte('\t')
		b.Write(lines[i-1])
		b.WriteByte('\n')
	}
	out = inspectOut{Path: rel, StartLine: in.StartLine, EndLine: end, TotalLines: len(lines), Text: b.String()}
	text := fmt.Sprintf("%s, lines %d-%d of %d:\n%s", rel, in.StartLine, end, len(lines), b.String())
	if end < in.EndLine && end < len(lines) {
		text += fmt.Sprintf("(%d lines shown, the most per call; continue with start_line %d)\n", maxInspectLines, end+1)
	}
	return textResult(text), out, nil
}

// splitLines splits src into lines without their line endings ("\n" or
// "\r\n"). A final line without a newline counts; an empty file has none.
func splitLines(src []byte) [][]byte {
	if len(src) == 0 {
		return nil
	}
	lines := bytes.Split(bytes.TrimSuffix(src, []byte("\n")), []byte("\n"))
	for i, l := range lines {
		lines[i] = bytes.TrimSuffix(l, []byte("\r"))
	}
	return lines
}
