package server

import "github.com/modelcontextprotocol/go-sdk/mcp"

// addTools registers the tools. Their argument names are a contract.
func (s *Server) addTools() {
	no, yes := false, true
	addTool(s, &mcp.Tool{
		Name: "file_info",
		Description: "A prompt to document a source file: imports, every symbol with signature, callers and callees, and the " +
			"numbered source. Answer it with report_file_info; when parts > 1, call again per part. An up-to-date artifact " +
			"comes back instead (up_to_date); a minified file gets what it is (summary).",
		OutputSchema: outline[fileInfoOut](),
		Annotations:  &mcp.ToolAnnotations{Title: "File info", IdempotentHint: true, DestructiveHint: &no, OpenWorldHint: &no},
	}, s.fileInfo)
	addTool(s, &mcp.Tool{
		Name: "report_file_info",
		Description: "Save your answer to file_info's prompt as .artifacts/<path>.md: an overview, and per function or method " +
			"listed a purpose and 3-5 implementation steps. Unknown names are refused; lists what is still undocumented.",
		OutputSchema: outline[reportOut](),
		Annotations:  &mcp.ToolAnnotations{Title: "Report file info", IdempotentHint: true, DestructiveHint: &yes, OpenWorldHint: &no},
	}, s.reportFileInfo)
	addTool(s, &mcp.Tool{
		Name:         "inspect_source",
		Description:  "Read lines start_line to end_line of a file in the workspace, numbered; at most 400 lines per call.",
		OutputSchema: objectSchema,
		Annotations:  readOnly("Inspect source"),
	}, s.inspectSource)
	addTool(s, &mcp.Tool{
		Name: "set_workspace_root",
		Description: "Switch to another project directory inside an allowed root (--root, --allow-root, your client's roots " +
			"over stdio); a refusal lists them.",
		OutputSchema: objectSchema,
		Annotations:  &mcp.ToolAnnotations{Title: "Set workspace root", IdempotentHint: true, DestructiveHint: &no, OpenWorldHint: &no},
	}, s.setWorkspaceRoot)
	addTool(s, &mcp.Tool{
		Name:         "index_status",
		Description:  "What is indexed: files, symbols, calls, artifacts by status, docs, dependencies, git commit, watch state.",
		OutputSchema: objectSchema,
		Annotations:  readOnly("Index status"),
	}, s.indexStatus)
	addTool(s, &mcp.Tool{
		Name: "search_docs",
		Description: "Search the project's code (functions, methods, types), docs and artifacts by words, identifiers or error " +
			"messages. Code hits give path:start-end and signature (read with inspect_source), doc hits a summary (read with " +
			"fetch_doc); 0-1 scores, best first.",
		OutputSchema: outline[searchDocsOut](),
		Annotations:  readOnly("Search docs"),
	}, s.searchDocs)
	addTool(s, &mcp.Tool{
		Name:         "fetch_doc",
		Description:  "Read a document that search_docs or list_docs named, whole or one section: a heading, or in an artifact a symbol's name.",
		OutputSchema: objectSchema,
		Annotations:  readOnly("Fetch doc"),
	}, s.fetchDoc)
	addTool(s, &mcp.Tool{
		Name:         "list_docs",
		Description:  "List the indexed documents, of one scope (artifacts, docs, or a named one) or all.",
		OutputSchema: objectSchema,
		Annotations:  readOnly("List docs"),
	}, s.listDocs)
	addTool(s, &mcp.Tool{
		Name:         "doc_outline",
		Description:  "The headings of a document, with level and line, to fetch one section.",
		OutputSchema: objectSchema,
		Annotations:  readOnly("Doc outline"),
	}, s.docOutline)
	addTool(s, &mcp.Tool{
		Name: "ask_docs",
		Description: "Answer a question from the docs and artifacts with [Source N] citations, through your client's model (sampling) " +
			"or as a prompt for you (prompt_ready).",
		OutputSchema: objectSchema,
		Annotations:  readOnly("Ask docs"),
	}, s.askDocs)
	addTool(s, &mcp.Tool{
		Name:         "get_working_example",
		Description:  "A complete working example for a task from the project's code and docs, with [Source N] citations (sampling, or prompt_ready).",
		OutputSchema: objectSchema,
		Annotations:  readOnly("Get working example"),
	}, s.getWorkingExample)
	addTool(s, &mcp.Tool{
		Name:         "explain_error",
		Description:  "Explain an error message and its fix from the project's docs and artifacts, with [Source N] citations (sampling, or prompt_ready).",
		OutputSchema: objectSchema,
		Annotations:  readOnly("Explain error"),
	}, s.explainError)
	s.addViewTool()
	s.addLookupTools()
}

// objectSchema is the output schema of a tool whose structured content
// repeats, as data, what its text says: declaring its fields would cost
// every conversation tokens of tools/list (kept under 3,000) for little.
var objectSchema = map[string]any{"type": "object"}

// readOnly annotates a tool that changes nothing. MCP says idempotentHint
// and destructiveHint then mean nothing; idempotentHint is set anyway, for
// clients that read it alone. Every tool works on the workspace only (a
// closed world; sampling asks the client's own model).
func readOnly(title string) *mcp.ToolAnnotations {
	no := false
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no}
}
