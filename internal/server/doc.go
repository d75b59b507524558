// Package server is fileinfo's MCP server: it decodes tool arguments,
// calls the libraries (extract, callgraph, enrich, artifacts) and formats
// their results. It is the only package besides cmd that imports the MCP
// SDK.
//
// # The loop
//
// file_info(path) answers with a prompt (status prompt_ready) that the
// client's model answers by calling report_file_info; the report is
// validated against the file's symbols and rendered into the file's
// enriched artifact under .artifacts/. The first file_info of a file writes
// its basic artifact (structure only). A file whose enriched artifact is up
// to date gets the artifact back instead of a prompt. A minified file,
// which the load passes over (index_status lists it with the reason), and
// a file some of whose lines declare more symbols than max_tokens can
// list, get a summary instead (status summary): what the file is, as far
// as its bytes and extraction tell, and why there is no prompt.
//
// # State
//
// A workspace is one root: every file's extraction, the call graph and
// the artifact store. It loads in the background when the server starts;
// tools wait for it. A tool that reads a file notices when it changed
// (by its SHA-256) and re-extracts it, updating the graph under a write
// lock, so callers of a just-edited file are current without a watcher.
// set_workspace_root loads another root and then swaps it in; it accepts
// only a directory inside an allowed root (see roots.go), checked before
// anything there is read or written.
//
// # Paths
//
// Every path argument is relative to the root or absolute inside it;
// paths that leave the root, lexically or through a symbolic link, are
// refused, and files are read through an os.Root, so that the check holds
// when the file is opened. Binary, non-UTF-8 and oversized files are
// refused with the reason.
package server
