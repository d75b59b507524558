package server

import "github.com/modelcontextprotocol/go-sdk/mcp"

// addTools registers the tools. Their argument names are a contract.
func (s *Server) addTools() {
	no := false
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name: "file_info",
		Description: "Describe a source file for documentation: returns a prompt (status prompt_ready) with the file's imports, " +
			"every function, class and method with signature, lines, callers and callees from the project's call graph, and the " +
			"numbered source. Answer it by calling report_file_info. Large files come in parts (parts > 1): call again with part. " +
			"If the file's enriched artifact is up to date, it is returned instead (status up_to_date).",
		Annotations: &mcp.ToolAnnotations{Title: "File info", IdempotentHint: true, DestructiveHint: &no, OpenWorldHint: &no},
	}, s.fileInfo)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name: "report_file_info",
		Description: "Save your documentation of a file that file_info described: an overview, and for each function or method " +
			"listed a one-sentence purpose and a 3-5 step implementation summary. Names must be those file_info listed; " +
			"an unknown name is refused with the known ones and nothing is written. Writes .artifacts/<path>.md and lists what is still undocumented.",
		Annotations: &mcp.ToolAnnotations{Title: "Report file info", IdempotentHint: true, DestructiveHint: &no, OpenWorldHint: &no},
	}, s.reportFileInfo)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        "inspect_source",
		Description: "Read lines start_line to end_line of a file in the workspace, numbered; at most 400 lines per call.",
		Annotations: &mcp.ToolAnnotations{Title: "Inspect source", ReadOnlyHint: true, OpenWorldHint: &no},
	}, s.inspectSource)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name: "set_workspace_root",
		Description: "Switch fileinfo to another project directory: extracts it and builds its call graph, then reports the counts. " +
			"Only directories inside an allowed root are accepted (the server's starting root, its --allow-root directories, and over stdio the roots your client declares); a refusal lists them.",
		Annotations: &mcp.ToolAnnotations{Title: "Set workspace root", IdempotentHint: true, DestructiveHint: &no, OpenWorldHint: &no},
	}, s.setWorkspaceRoot)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name: "index_status",
		Description: "Report what fileinfo knows about the workspace: files, symbols, resolved and unresolved calls, " +
			"artifacts by status (basic, enriched, stale), the git commit, the last update and whether it is watching for changes.",
		Annotations: &mcp.ToolAnnotations{Title: "Index status", ReadOnlyHint: true, OpenWorldHint: &no},
	}, s.indexStatus)
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no}
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name: "search_docs",
		Description: "Search the project's code (every function, method and type, with its signature, doc and enriched prose), docs (README, docs/, markdown) " +
			"and enriched artifacts at once, by words, identifiers or error messages (hybrid lexical and semantic search); scopes [\"code\"] narrows it. " +
			"Returns 0-1 scores, best first; a code hit gives path:start-end, symbol, kind and signature (read it with inspect_source), a doc hit its title and summary (read it with fetch_doc).",
		Annotations: ro,
	}, s.searchDocs)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        "fetch_doc",
		Description: "Read a document that search_docs or list_docs named, whole or one section (heading); code blocks are untouched and relative links absolute.",
		Annotations: ro,
	}, s.fetchDoc)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        "list_docs",
		Description: "List the indexed documents, of one scope (artifacts, docs, or a named one) or all.",
		Annotations: ro,
	}, s.listDocs)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        "doc_outline",
		Description: "The headings of a document, with level and line, to fetch one section.",
		Annotations: ro,
	}, s.docOutline)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name: "ask_docs",
		Description: "Answer a question from the project's docs and artifacts, with [Source N] citations. Uses your client's model " +
			"through sampling when offered; otherwise returns the prompt and sources (status prompt_ready) for you to answer.",
		Annotations: ro,
	}, s.askDocs)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        "get_working_example",
		Description: "A complete working example for a task, from the project's code and prose docs, with imports and [Source N] citations (sampling, or prompt_ready).",
		Annotations: ro,
	}, s.getWorkingExample)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        "explain_error",
		Description: "Explain an error message and how to fix it, from the project's docs and artifacts, with [Source N] citations (sampling, or prompt_ready).",
		Annotations: ro,
	}, s.explainError)
}
