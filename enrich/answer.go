package enrich

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// SystemPrompt is the system prompt for a model asked to document a file
// directly (MCP sampling, or an OpenAI-compatible endpoint), rather than
// through report_file_info.
const SystemPrompt = `You are a code documentation assistant. You read one source file with its structure and callers, and describe what it does precisely enough that someone could reimplement it. Use only what the prompt shows; do not invent behaviour. Answer with a single JSON object and nothing else.`

// AnswerInstructions replaces the prompt's last step (calling
// report_file_info) when the model answers in text: it asks for the
// tool's arguments as one JSON object.
const AnswerInstructions = `Instead of calling report_file_info, reply with only its arguments as one JSON object, without commentary:
{"path": "<the file>", "overview": "...", "inputs": "...", "outputs": "...",
 "functions": [{"name": "<name as listed>", "purpose": "<one sentence>", "implementation": "1. ...\n2. ...\n3. ..."}],
 "classes": [{"name": "<type as listed>", "purpose": "<one sentence>", "methods": [{"name": "...", "purpose": "...", "implementation": "..."}]}]}`

// ParseAnswer decodes a model's text answer into a Report: the first JSON
// object in text, bare or in a fenced code block. It fails on text without
// one and on a report over MaxReportSize; whether the names are right is
// for Validate to say.
func ParseAnswer(text string) (*Report, error) {
	if len(text) > 4*MaxReportSize {
		return nil, fmt.Errorf("answer of %d bytes is over the limit", len(text))
	}
	start := strings.IndexByte(text, '{')
	if start < 0 {
		return nil, errors.New("the answer holds no JSON object")
	}
	dec := json.NewDecoder(strings.NewReader(text[start:]))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("the answer's JSON object does not parse: %w", err)
	}
	if len(raw) > MaxReportSize {
		return nil, fmt.Errorf("report of %d bytes refused: the limit is %d", len(raw), MaxReportSize)
	}
	var r Report
	d := json.NewDecoder(bytes.NewReader(raw))
	if err := d.Decode(&r); err != nil {
		return nil, fmt.Errorf("the answer is not a report: %w", err)
	}
	return &r, nil
}

// Purposes returns what r says each of f's symbols does, by qualified
// name, for Options.Purposes of the prompts of f's callers. Names r gets
// wrong are left out.
func Purposes(r *Report, f *extract.File) map[string]string {
	docs, _ := resolve(r, newFacts(f, nil))
	out := make(map[string]string, len(docs))
	for q, d := range docs {
		if p := strings.TrimSpace(d.purpose); p != "" {
			out[q] = p
		}
	}
	return out
}
