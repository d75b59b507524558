package server

import "github.com/modelcontextprotocol/go-sdk/mcp"

// addTools registers the tools. Their argument names are a contract.
func (s *Server) addTools() {
	no, yes := false, true
	addTool(s, &mcp.Tool{
		Name: "file_info",
		Description: "Prompt to document a source file (symbols, signatures, callers, callees, source) for report_file_info, " +
			"per part if parts > 1. Up to date: the artifact; after edits: what changed.",
		Annotations: &mcp.ToolAnnotations{Title: "File info", IdempotentHint: true, DestructiveHint: &no, OpenWorldHint: &no},
	}, s.fileInfo)
	addTool(s, &mcp.Tool{
		Name: "report_file_info",
		Description: "Save your answer to file_info as .artifacts/<path>.md: overview, and per listed function or method a " +
			"purpose and 3-5 steps. Refuses unknown names; says what is undocumented.",
		Annotations: &mcp.ToolAnnotations{Title: "Report file info", IdempotentHint: true, DestructiveHint: &yes, OpenWorldHint: &no},
	}, s.reportFileInfo)
	addTool(s, &mcp.Tool{
		Name:        "inspect_source",
		Description: "Numbered lines start_line to end_line of a workspace file; at most 400 per call.",
		Annotations: readOnly("Inspect source"),
	}, s.inspectSource)
	addTool(s, &mcp.Tool{
		Name:        "set_workspace_root",
		Description: "Switch to another project directory (in --root, --allow-root or a client root).",
		Annotations: &mcp.ToolAnnotations{Title: "Set workspace root", IdempotentHint: true, DestructiveHint: &no, OpenWorldHint: &no},
	}, s.setWorkspaceRoot)
	addTool(s, &mcp.Tool{
		Name:        "index_status",
		Description: "What is indexed: files, symbols, calls, artifacts, docs, dependencies, commit, watch.",
		Annotations: readOnly("Index status"),
	}, s.indexStatus)
	addTool(s, &mcp.Tool{
		Name: "search_docs",
		Description: "Search code (functions, methods, types), docs and artifacts by words, identifiers or error messages. " +
			"Code hits: path:start-end, signature (for inspect_source); doc hits: a summary (for fetch_doc). Says " +
			"which scopes are still indexing.",
		Annotations: readOnly("Search docs"),
	}, s.searchDocs)
	addTool(s, &mcp.Tool{
		Name:        "fetch_doc",
		Description: "Read a document search_docs or list_docs named, whole or one section.",
		Annotations: readOnly("Fetch doc"),
	}, s.fetchDoc)
	addTool(s, &mcp.Tool{
		Name:        "list_docs",
		Description: "List the indexed documents, all or of one scope (artifacts, docs...).",
		Annotations: readOnly("List docs"),
	}, s.listDocs)
	addTool(s, &mcp.Tool{
		Name:        "doc_outline",
		Description: "A document's headings, with level and line, to fetch_doc one section.",
		Annotations: readOnly("Doc outline"),
	}, s.docOutline)
	addTool(s, &mcp.Tool{
		Name:        "ask_docs",
		Description: "Answer a question from docs and artifacts, citing [Source N]: by your client's model (sampling) or by you.",
		Annotations: readOnly("Ask docs"),
	}, s.askDocs)
	addTool(s, &mcp.Tool{
		Name:        "get_working_example",
		Description: "A working example for a task, from the project's code and docs (as ask_docs).",
		Annotations: readOnly("Get working example"),
	}, s.getWorkingExample)
	addTool(s, &mcp.Tool{
		Name:        "explain_error",
		Description: "Explain an error message and its fix from docs and artifacts (as ask_docs).",
		Annotations: readOnly("Explain error"),
	}, s.explainError)
	s.addViewTool()
	s.addLookupTools()
}

// readOnly annotates a tool that changes nothing. MCP says idempotentHint
// and destructiveHint then mean nothing; idempotentHint is set anyway, for
// clients that read it alone. Every tool works on the workspace only (a
// closed world; sampling asks the client's own model).
func readOnly(title string) *mcp.ToolAnnotations {
	no := false
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no}
}
