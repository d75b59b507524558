package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fileinfo/fileinfo/artifacts"
	"github.com/fileinfo/fileinfo/docsearch"
)

// Answering: ask_docs, get_working_example and explain_error retrieve
// sources from the doc index, lay them out as numbered blocks within a
// token budget, and have a model write the answer: the client's, through
// MCP sampling, when it offers it; otherwise the caller's, given the same
// prompts (status prompt_ready).

// answerKind says which tool is answering.
type answerKind int

const (
	askKind answerKind = iota
	exampleKind
	errorKind
)

const (
	defaultContextTokens = 6000  // budget of the sources' text
	maxContextTokens     = 60000 // the most a call may ask for
	maxSources           = 8     // sources shown at most
	weakScore            = 0.5   // a best score under this triggers one corrective search
)

type askIn struct {
	Question  string   `json:"question" jsonschema:"about the project"`
	Scopes    []string `json:"scopes,omitempty" jsonschema:"default all"`
	MaxTokens int      `json:"max_tokens,omitempty" jsonschema:"tokens of sources; default 6000"`
}

type exampleIn struct {
	Task      string   `json:"task" jsonschema:"what the example should do"`
	Scopes    []string `json:"scopes,omitempty" jsonschema:"default all"`
	MaxTokens int      `json:"max_tokens,omitempty" jsonschema:"tokens of sources; default 6000"`
}

type explainErrorIn struct {
	Error     string   `json:"error" jsonschema:"the error message"`
	Context   string   `json:"context,omitempty" jsonschema:"what was done, or the code"`
	Scopes    []string `json:"scopes,omitempty" jsonschema:"default all"`
	MaxTokens int      `json:"max_tokens,omitempty" jsonschema:"tokens of sources; default 6000"`
}

type answerSource struct {
	N       int     `json:"n"`
	Title   string  `json:"title"`
	Path    string  `json:"path"`
	Scope   string  `json:"scope"`
	Heading string  `json:"heading,omitempty"`
	Score   float64 `json:"score"`
}

type answerOut struct {
	Status       string         `json:"status" jsonschema:"answered: answer holds the client model's answer; prompt_ready: answer system_prompt and prompt yourself, citing [Source N]"`
	QueryType    string         `json:"query_type"`
	Answer       string         `json:"answer,omitempty"`
	SystemPrompt string         `json:"system_prompt,omitempty"`
	Prompt       string         `json:"prompt,omitempty"`
	Sources      []answerSource `json:"sources"`
	Note         string         `json:"note,omitempty"`
}

func (s *Server) askDocs(ctx context.Context, req *mcp.CallToolRequest, in askIn) (*mcp.CallToolResult, answerOut, error) {
	return s.answer(ctx, req, askKind, in.Question, "", in.Scopes, in.MaxTokens)
}

func (s *Server) getWorkingExample(ctx context.Context, req *mcp.CallToolRequest, in exampleIn) (*mcp.CallToolResult, answerOut, error) {
	return s.answer(ctx, req, exampleKind, in.Task, "", in.Scopes, in.MaxTokens)
}

func (s *Server) explainError(ctx context.Context, req *mcp.CallToolRequest, in explainErrorIn) (*mcp.CallToolResult, answerOut, error) {
	return s.answer(ctx, req, errorKind, in.Error, in.Context, in.Scopes, in.MaxTokens)
}

func (s *Server) answer(ctx context.Context, req *mcp.CallToolRequest, kind answerKind, question, extra string, scopes []string, budget int) (*mcp.CallToolResult, answerOut, error) {
	var out answerOut
	question = strings.TrimSpace(question)
	switch {
	case question == "":
		return nil, out, fmt.Errorf("nothing to answer: the %s is empty", [...]string{"question", "task", "error"}[kind])
	case len(question)+len(extra) > 32<<10:
		return nil, out, fmt.Errorf("the input is %d bytes; keep it under 32 KB (the error's first lines are enough)", len(question)+len(extra))
	}
	if budget == 0 {
		budget = defaultContextTokens
	}
	ix, err := s.docsIndex(ctx, req)
	if err != nil {
		return nil, out, err
	}
	found, qtype, err := retrieve(ctx, ix, kind, question, extra, scopes)
	if err != nil {
		return nil, out, err
	}
	out.QueryType = qtype
	h := sha256.Sum256([]byte(question + "\x00" + extra))
	state := hex.EncodeToString(h[:8])
	if s.opt.SamplingRerank && len(found) > 1 {
		var pending *mcp.CallToolResult
		found, state, pending = s.rerank(ctx, req, question, found, state)
		if pending != nil {
			return pending, answerOut{}, nil
		}
	}
	blocks, sources := s.sourceBlocks(ix, found, budget)
	out.Sources = sources
	out.SystemPrompt = answerSystemPrompt(kind)
	out.Prompt = answerUserPrompt(kind, question, extra, blocks)
	if len(sources) == 0 {
		out.Note = "No source in the index matches; the answer can only say so."
	}

	got := s.askModel(ctx, req, state, &mcp.CreateMessageParams{
		SystemPrompt: out.SystemPrompt,
		MaxTokens:    4096,
		Messages:     []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: out.Prompt}}},
	})
	switch {
	case got.pending != nil:
		return got.pending, answerOut{}, nil
	case got.failed != "":
		out.Status = statusPromptReady
		note := "Sampling did not complete: " + got.failed + "."
		if got.failed == "the client does not offer sampling" {
			note = "The client offers no sampling: answer this yourself."
		}
		out.Note = strings.TrimSpace(note + " " + out.Note)
		text := out.Note + "\n\n## System\n\n" + out.SystemPrompt + "\n\n## Prompt\n\n" + out.Prompt
		return textResult(text), out, nil
	}
	out.Status, out.Answer = "answered", got.text
	var b strings.Builder
	b.WriteString(got.text)
	if len(sources) > 0 {
		b.WriteString("\n\n### Sources\n")
		for _, src := range sources {
			fmt.Fprintf(&b, "- [Source %d] %s — %s\n", src.N, src.Title, src.Path)
		}
	}
	return textResult(b.String()), out, nil
}

// retrieve searches the index as the kind of question asks: examples pull
// code and prose separately, errors add troubleshooting words; a weak
// best result triggers one more search with the question's key words, and
// the results are merged.
func retrieve(ctx context.Context, ix *docsearch.Index, kind answerKind, question, extra string, scopes []string) ([]docsearch.Result, string, error) {
	zero := 0.0
	var queries []docsearch.Query
	switch kind {
	case askKind:
		queries = []docsearch.Query{{Text: question}}
	case exampleKind:
		queries = []docsearch.Query{{Text: question, ContentType: docsearch.Code}, {Text: question, ContentType: docsearch.Prose}}
	case errorKind:
		text := question
		if extra != "" {
			text += " " + firstWords(extra, 30)
		}
		queries = []docsearch.Query{{Text: text + " fix troubleshoot cause"}}
	}
	var found []docsearch.Result
	qtype := ""
	for _, q := range queries {
		q.Scopes, q.MinScore = scopes, &zero
		res, err := ix.Search(ctx, q)
		if err != nil {
			return nil, "", err
		}
		if qtype == "" {
			qtype = string(res.Type)
		}
		found = merge(found, res.Results)
	}
	if len(found) == 0 || best(found) < weakScore {
		if kw := keyWords(question); kw != "" && kw != question {
			res, err := ix.Search(ctx, docsearch.Query{Text: kw, Scopes: scopes, MinScore: &zero})
			if err == nil {
				found = merge(found, res.Results)
			}
		}
	}
	slices.SortStableFunc(found, func(a, b docsearch.Result) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	return found, qtype, nil
}

// merge appends the results of b not already in a (same path and heading).
func merge(a, b []docsearch.Result) []docsearch.Result {
	for _, r := range b {
		if !slices.ContainsFunc(a, func(x docsearch.Result) bool { return x.Path == r.Path && x.Heading == r.Heading }) {
			a = append(a, r)
		}
	}
	return a
}

func best(rs []docsearch.Result) float64 {
	m := 0.0
	for _, r := range rs {
		m = max(m, r.Score)
	}
	return m
}

// keyWords reformulates a question as its informative words: identifiers
// and words of four letters or more, without quotes, numbers or paths.
func keyWords(q string) string {
	var keep []string
	for _, w := range strings.FieldsFunc(q, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '.'
	}) {
		w = strings.Trim(w, ".")
		if len(w) < 4 || strings.IndexFunc(w, unicode.IsLetter) < 0 || stopWord[strings.ToLower(w)] {
			continue
		}
		keep = append(keep, w)
	}
	return strings.Join(keep, " ")
}

var stopWord = map[string]bool{
	"what": true, "when": true, "where": true, "which": true, "does": true, "with": true, "from": true,
	"that": true, "this": true, "have": true, "into": true, "should": true, "would": true, "could": true,
	"there": true, "their": true, "about": true, "error": true, "failed": true, "cannot": true, "using": true,
}

// firstWords returns s cut to its first n words.
func firstWords(s string, n int) string {
	f := strings.Fields(s)
	return strings.Join(f[:min(n, len(f))], " ")
}

// sourceBlocks fetches the best results' sections and lays them out as
// "[Source N] title — path" blocks within budget tokens; a section too
// large for what is left is cut at a line, and says so.
func (s *Server) sourceBlocks(ix *docsearch.Index, found []docsearch.Result, budget int) (string, []answerSource) {
	var b strings.Builder
	var sources []answerSource
	left := budget
	// A source file's artifact and its code documents say the same
	// (code documents carry the artifact's prose): the first of the two
	// scopes to quote a file quotes it.
	quotedBy := map[string]string{} // source file -> scope
	for _, r := range found {
		if len(sources) == maxSources || left < 100 {
			break
		}
		file := ""
		switch r.Scope {
		case docsearch.ScopeArtifacts:
			file = sourceOfArtifact(r.Path)
		case docsearch.ScopeCode:
			file = r.Path
		}
		if by, ok := quotedBy[file]; ok && file != "" && by != r.Scope {
			continue
		}
		heading := r.Heading
		if i := strings.LastIndex(heading, " > "); i >= 0 {
			heading = heading[i+3:]
		}
		// A small document goes in whole: the section that matched best
		// is often not the only one that matters. A large one gives the
		// section.
		key := r.Path
		if r.DocPath != "" {
			key = r.DocPath // a code result's document is its symbol's
		}
		doc, err := ix.Fetch(key, "")
		if err != nil {
			continue
		}
		if heading != "" && s.count(doc.Content) > left/3 {
			if sec, err := ix.Fetch(key, heading); err == nil {
				doc = sec
			}
		}
		n := len(sources) + 1
		head := fmt.Sprintf("[Source %d] %s — %s\n", n, r.Title, r.Path)
		body := doc.Content
		cost := s.count(head + body)
		if cost > left {
			body = s.cut(body, left-s.count(head)-10) + "\n…(cut to fit the budget)"
			cost = s.count(head + body)
		}
		b.WriteString(head)
		b.WriteString(body)
		b.WriteString("\n\n")
		left -= cost
		sources = append(sources, answerSource{N: n, Title: r.Title, Path: r.Path, Scope: r.Scope, Heading: r.Heading, Score: r.Score})
		if _, ok := quotedBy[file]; !ok && file != "" {
			quotedBy[file] = r.Scope
		}
	}
	if sources == nil {
		sources = []answerSource{}
	}
	return b.String(), sources
}

// count is text's size in tokens; on a tokenizer failure, a bytes/4 guess.
func (s *Server) count(text string) int {
	n, err := s.builder.Count(text)
	if err != nil {
		return len(text) / 4
	}
	return n
}

// cut returns the longest prefix of text, in whole lines, of at most
// budget tokens.
func (s *Server) cut(text string, budget int) string {
	lines := strings.SplitAfter(text, "\n")
	used, end := 0, 0
	for i, l := range lines {
		c := s.count(l)
		if used+c > budget {
			break
		}
		used += c
		end = i + 1
	}
	return strings.Join(lines[:end], "")
}

func answerSystemPrompt(kind answerKind) string {
	base := "You answer a developer's question about a software project using only the numbered sources you are given, " +
		"which come from the project's documentation and from documentation of its source files. " +
		"Cite the source of each statement as [Source N]. " +
		"Where the sources do not cover something, say plainly what is missing instead of guessing. " +
		"Any code you show must be complete: every import, setup step and declaration it needs."
	switch kind {
	case exampleKind:
		return base + " Start with one complete working example for the task, then explain its steps briefly."
	case errorKind:
		return base + " Explain what causes the error, then how to fix it, step by step, then how to avoid it."
	}
	return base + " Lead with the direct answer, then the details that matter."
}

func answerUserPrompt(kind answerKind, question, extra, blocks string) string {
	var b strings.Builder
	switch kind {
	case askKind:
		fmt.Fprintf(&b, "Question: %s\n\n", question)
	case exampleKind:
		fmt.Fprintf(&b, "Task: write a working example that does this: %s\n\n", question)
	case errorKind:
		fmt.Fprintf(&b, "Error:\n```\n%s\n```\n\n", question)
		if extra != "" {
			fmt.Fprintf(&b, "Context:\n```\n%s\n```\n\n", extra)
		}
	}
	if blocks == "" {
		b.WriteString("Sources: none were found.\n\n")
	} else {
		b.WriteString("Sources:\n\n" + blocks)
	}
	b.WriteString("Answer in markdown, citing [Source N] for each statement.")
	return b.String()
}

// sourceOfArtifact is the source file that the artifact at slash path p
// (".artifacts/lib/a.go.md") documents.
func sourceOfArtifact(p string) string {
	return strings.TrimSuffix(strings.TrimPrefix(p, artifacts.Dir+"/"), ".md")
}
