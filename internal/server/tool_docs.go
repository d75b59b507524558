package server

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/internal/depindex"
)

// DefaultSearchLimit is how many results search_docs returns unless asked
// for more; the CLI's search returns as many, so that a user sees what a
// model is shown.
const DefaultSearchLimit = 5

// maxSearchLimit is the most results search_docs returns (per scope).
const maxSearchLimit = 100

// maxQueryBytes bounds a search query.
const maxQueryBytes = 4 << 10

type searchDocsIn struct {
	Query       string   `json:"query" jsonschema:"words, an error message or an identifier"`
	Scopes      []string `json:"scopes,omitempty" jsonschema:"code, docs, artifacts, vendor, deps, deps:NAME; default all but deps"`
	Limit       int      `json:"limit,omitempty" jsonschema:"results (per scope); default 5"`
	MinScore    *float64 `json:"min_score,omitempty" jsonschema:"least score; default 0.5"`
	ContentType string   `json:"content_type,omitempty" jsonschema:"prose, code or api-reference"`
}

type searchDocsOut struct {
	Query          string                        `json:"query"`
	QueryType      string                        `json:"query_type"`
	Results        []docsearch.Result            `json:"results"`
	ResultsByScope map[string][]docsearch.Result `json:"resultsByScope,omitempty"`
	Message        string                        `json:"message,omitempty"`
	Coverage       coverage                      `json:"coverage" jsonschema:"each scope searched: complete, or how far its index has got"`
}

// docsIndex returns the workspace's doc index, or why there is none.
func (s *Server) docsIndex(ctx context.Context, req mcp.Request) (*docsearch.Index, error) {
	ws, err := s.ready(ctx, req)
	if err != nil {
		return nil, err
	}
	ix, err := ws.waitDocs(ctx)
	if err != nil {
		return nil, err
	}
	if ix == nil {
		return nil, errors.New("doc search is not available in this workspace (see the server log)")
	}
	return ix, nil
}

func (s *Server) searchDocs(ctx context.Context, req *mcp.CallToolRequest, in searchDocsIn) (*mcp.CallToolResult, searchDocsOut, error) {
	var out searchDocsOut
	if len(in.Query) > maxQueryBytes {
		return nil, out, fmt.Errorf("query of %d bytes is too long (the limit is %d); search for its key words", len(in.Query), maxQueryBytes)
	}
	switch ct := docsearch.ContentType(in.ContentType); ct {
	case "", docsearch.Prose, docsearch.Code, docsearch.APIReference:
	default:
		return nil, out, fmt.Errorf("content_type %q: want prose, code or api-reference", in.ContentType)
	}
	limit := in.Limit
	if limit == 0 {
		limit = DefaultSearchLimit
	}
	q := docsearch.Query{Text: in.Query, Scopes: in.Scopes, Limit: limit, MinScore: in.MinScore, ContentType: docsearch.ContentType(in.ContentType)}
	code := (len(q.Scopes) == 0 || slices.Contains(q.Scopes, docsearch.ScopeCode)) && (q.ContentType == "" || q.ContentType == docsearch.Code)
	if res, cov, ok := s.firstSearch(ctx, q); ok {
		// The first pass's index: the graph is still being built, and
		// the code may be in part. The rest of it is looked up by symbol
		// name, as before the index was published.
		byName := false
		if code && !s.workspace().code.complete() {
			if ws, e := s.earlyNow(); e != nil {
				if names, _, err := ws.earlyNames(ctx, e, in.Query, limit); err == nil {
					res, byName = mergeNames(res, names, len(q.Scopes) > 0), true
				}
			}
		}
		res, out := searchAnswer(res, cov, byName)
		return res, out, nil
	}
	if code {
		if ws, e := s.earlySearch(ctx); e != nil {
			// While the first load runs, code is looked up by symbol name in
			// what the load has so far; nothing else is searched yet.
			names, codeCov, err := ws.earlyNames(ctx, e, in.Query, limit)
			if err == nil {
				cov := loadingCoverage(q.Scopes, "loading: not searched yet")
				cov[docsearch.ScopeCode] = "by symbol name only, " + strings.TrimPrefix(codeCov, earlyPrefix)
				res, out := searchAnswer(mergeNames(docsearch.Results{Query: in.Query}, names, len(q.Scopes) > 0), cov, true)
				return res, out, nil
			}
		}
	}
	ws, err := s.ready(ctx, req)
	if err != nil {
		return nil, out, err
	}
	cov, docsOpen := ws.searchCoverage(ctx, q.Scopes, cmp.Or(s.opt.DocsWait, defaultDocsWait))
	var res docsearch.Results
	if docsOpen {
		if res, err = s.search(ctx, req, q); err != nil {
			return nil, out, err
		}
	} else {
		res = docsearch.Results{Query: in.Query}
	}
	// Until the code scope holds every file, code is also looked up by
	// symbol name, straight from extraction.
	if _, ok := cov[docsearch.ScopeCode]; ok && !ws.code.complete() && (q.ContentType == "" || q.ContentType == docsearch.Code) {
		ws.mu.RLock()
		names := ws.nameResults(in.Query, limit)
		ws.mu.RUnlock()
		res = mergeNames(res, names, len(q.Scopes) > 0)
	}
	res2, out := searchAnswer(res, cov, !ws.code.complete())
	return res2, out, nil
}

// searchAnswer is search_docs' answer of res, covering cov; byName says
// code results come from symbol names (the code index is not complete).
func searchAnswer(res docsearch.Results, cov coverage, byName bool) (*mcp.CallToolResult, searchDocsOut) {
	out := searchDocsOut{Query: res.Query, QueryType: string(res.Type), Results: res.Results, ResultsByScope: res.ByScope, Message: res.Message, Coverage: cov}
	if out.Results == nil {
		out.Results = []docsearch.Result{}
	}
	var b strings.Builder
	if line := cov.line(); line != "" {
		b.WriteString(line)
		if c, ok := cov[docsearch.ScopeCode]; ok && byName {
			if strings.HasPrefix(c, "indexing") {
				b.WriteString(" Until the code index is complete, code is ranked in the files indexed so far and found by symbol name in the rest; search again for code ranked in all of it.")
			} else {
				b.WriteString(" Code results come from symbol names until the code index is complete; search again for ranked code.")
			}
		}
		b.WriteString("\n\n")
	}
	if len(out.Results) == 0 && out.Message == "" {
		out.Message = "No matching documents found. Try broader terms."
		if cov.line() != "" {
			out.Message = "No matching documents found in what is indexed so far."
		}
	}
	if len(out.Results) == 0 {
		b.WriteString(out.Message)
	}
	for i, r := range out.Results {
		if r.Scope == docsearch.ScopeCode || r.Scope == docsearch.ScopeVendor {
			writeCodeResult(&b, i+1, r)
			continue
		}
		fmt.Fprintf(&b, "%d. %s — %s (%s, score %.2f)", i+1, r.Title, r.Path, r.Scope, r.Score)
		if r.Heading != "" {
			fmt.Fprintf(&b, ", section %q", r.Heading)
		}
		if r.Summary != "" {
			fmt.Fprintf(&b, "\n   %s", r.Summary)
		}
		b.WriteByte('\n')
	}
	return textResult(b.String()), out
}

type fetchDocIn struct {
	Path    string `json:"path" jsonschema:"the document, as named"`
	Heading string `json:"heading,omitempty" jsonschema:"a heading, or a symbol in an artifact"`
}

func (s *Server) fetchDoc(ctx context.Context, req *mcp.CallToolRequest, in fetchDocIn) (*mcp.CallToolResult, docsearch.Doc, error) {
	var doc docsearch.Doc
	err := s.lookDoc(ctx, req, in.Path, func(ix *docsearch.Index) (err error) {
		doc, err = ix.Fetch(in.Path, in.Heading)
		return err
	})
	if err != nil {
		return nil, doc, err // a wrong path's error names similar ones
	}
	if in.Heading == "" {
		doc.Summary = "" // the content's first paragraph, whole below
	}
	return textResult(doc.Content), doc, nil
}

type listDocsIn struct {
	Scope string `json:"scope,omitempty" jsonschema:"only this scope"`
}

type listDocsOut struct {
	Docs []docsearch.DocInfo `json:"docs"`
	// Deps lists the indexed dependency versions, for scope deps.
	Deps []depindex.Count `json:"deps,omitempty"`
	// Coverage says how far the code scope's index has got while the
	// first load builds it, for scope code or vendor; empty when whole.
	Coverage string `json:"coverage,omitempty" jsonschema:"for scope code or vendor while the first load indexes it: how far it has got"`
}

func (s *Server) listDocs(ctx context.Context, req *mcp.CallToolRequest, in listDocsIn) (*mcp.CallToolResult, listDocsOut, error) {
	if depindex.IsScope(in.Scope) {
		return s.listDeps(ctx, req, in.Scope)
	}
	var cov string
	ws, ix := s.passIndex()
	if ix != nil && (in.Scope == docsearch.ScopeCode || in.Scope == docsearch.ScopeVendor) {
		cov = ws.code.String() // read before the list: it may only understate it
	}
	if ix == nil {
		var err error
		if ix, err = s.docsIndex(ctx, req); err != nil {
			return nil, listDocsOut{}, err
		}
	}
	docs, err := ix.List(in.Scope)
	if err != nil {
		return nil, listDocsOut{}, err
	}
	if docs == nil {
		docs = []docsearch.DocInfo{}
	}
	if cov == "complete" {
		cov = ""
	}
	var b strings.Builder
	if cov != "" {
		fmt.Fprintf(&b, "Not complete yet: code %s; list again for the rest.\n", cov)
	}
	fmt.Fprintf(&b, "%d documents:\n", len(docs))
	for _, d := range docs {
		fmt.Fprintf(&b, "- %s (%s): %s\n", d.Path, d.Scope, d.Title)
	}
	return textResult(b.String()), listDocsOut{Docs: docs, Coverage: cov}, nil
}

type docOutlineIn struct {
	Path string `json:"path" jsonschema:"the document"`
}

type docOutlineOut struct {
	Path     string              `json:"path"`
	Headings []docsearch.Heading `json:"headings"`
}

func (s *Server) docOutline(ctx context.Context, req *mcp.CallToolRequest, in docOutlineIn) (*mcp.CallToolResult, docOutlineOut, error) {
	var hs []docsearch.Heading
	err := s.lookDoc(ctx, req, in.Path, func(ix *docsearch.Index) (err error) {
		hs, err = ix.Outline(in.Path)
		return err
	})
	if err != nil {
		return nil, docOutlineOut{}, err
	}
	if hs == nil {
		hs = []docsearch.Heading{}
	}
	var b strings.Builder
	for _, h := range hs {
		fmt.Fprintf(&b, "%s%s (line %d)\n", strings.Repeat("  ", max(0, h.Level-1)), h.Text, h.Line)
	}
	return textResult(b.String()), docOutlineOut{Path: in.Path, Headings: hs}, nil
}

// lookDoc runs look, a lookup of the document at p, on the index that
// answers it: the first pass's while the pass runs (duringPass), else
// the workspace's once it is loaded, again after its pending doc changes
// if it missed (docsSettled).
func (s *Server) lookDoc(ctx context.Context, req *mcp.CallToolRequest, p string, look func(*docsearch.Index) error) error {
	if err := s.duringPass(p, look); err != errNotDuringPass {
		return err
	}
	ix, err := s.docsIndexFor(ctx, req, p)
	if err != nil {
		return err
	}
	if err = look(ix); err != nil && s.docsSettled(ctx, req) {
		err = look(ix)
	}
	return err
}

// errNotDuringPass is duringPass's answer when the lookup waits for the
// load.
var errNotDuringPass = errors.New("not answered during the first pass")

// duringPass answers a lookup of the document at p from the index the
// first pass published while the load runs (see passIndex): its docs
// and artifacts are whole, its code as far as its batches are in. It
// returns look's error, or errNotDuringPass when the lookup is to wait
// for the load as before: no pass running, a dependency's document, or
// a document not found (a code file may be in a batch still to come, a
// doc written meanwhile in the changes noted for after it).
func (s *Server) duringPass(p string, look func(*docsearch.Index) error) error {
	if strings.HasPrefix(p, depindex.Prefix) {
		return errNotDuringPass
	}
	_, ix := s.passIndex()
	if ix == nil {
		return errNotDuringPass
	}
	err := look(ix)
	if nf := (*docsearch.NotFoundError)(nil); errors.As(err, &nf) {
		return errNotDuringPass
	}
	return err
}

// docsSettled waits for the workspace's pending doc changes (see
// settleDocs) and reports whether there were any, so that a lookup that
// missed may be tried again.
func (s *Server) docsSettled(ctx context.Context, req *mcp.CallToolRequest) bool {
	ws, err := s.ready(ctx, req)
	if err != nil {
		return false
	}
	return ws.settleDocs(ctx, cmp.Or(s.opt.DocsWait, defaultDocsWait))
}
