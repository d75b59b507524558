package server

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fileinfo/fileinfo/artifacts"
	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/watch"
)

type indexStatusIn struct{}

type indexStatusOut struct {
	Root    string `json:"root"`
	Loading bool   `json:"loading" jsonschema:"the first load is still running"`
	Files   int    `json:"files" jsonschema:"source files extracted"`
	Skipped int    `json:"skipped" jsonschema:"files left out: not extracted, or their calls not resolved"`
	// SkippedPaths lists the first maxSkipped of them, internal errors
	// first.
	SkippedPaths []extract.Skipped `json:"skipped_paths,omitempty" jsonschema:"the first 50 files left out, internal errors first, each with the reason"`
	Symbols      int               `json:"symbols"`
	Edges        int               `json:"edges" jsonschema:"resolved calls"`
	Unresolved   int               `json:"unresolved"`
	Artifacts    map[string]int    `json:"artifacts" jsonschema:"artifacts by status: basic, partial, enriched, stale"`
	Commit       string            `json:"commit,omitempty" jsonschema:"the git commit checked out in the root"`
	LastUpdate   time.Time         `json:"last_update,omitzero" jsonschema:"when the index last changed"`
	Watch        watch.State       `json:"watch"`
	Docs         int               `json:"docs" jsonschema:"documents in the doc index"`
	Chunks       int               `json:"chunks"`
	Embedder     string            `json:"embedder" jsonschema:"what makes the doc index's vectors; none: lexical search only"`
	// DocsSkipped counts what the doc index passed over, or indexed in
	// part; DocsSkippedPaths lists the first maxDocsSkipped, by path.
	DocsSkipped      int                 `json:"docs_skipped" jsonschema:"files and directories the doc index passed over, and documents it indexed in part"`
	DocsSkippedPaths []docsearch.Skipped `json:"docs_skipped_paths,omitempty" jsonschema:"the first 50 of them by path (a directory's ends in /), each with the reason"`
	DocsUnsaved      string              `json:"docs_unsaved,omitempty" jsonschema:"why the doc index is kept in memory only, not saved"`
	DocsLoading      bool                `json:"docs_loading,omitempty" jsonschema:"the doc index is still being opened"`
	Deps             depsStatus          `json:"deps" jsonschema:"the dependency index: scope deps of search_docs"`
	Vendor           *vendorStatus       `json:"vendor,omitempty" jsonschema:"vendored code: scope vendor of search_docs"`
	// CodeLeft counts the source files code search leaves out: copies
	// of another, and vendored files that did not extract.
	CodeLeft      int                 `json:"code_left,omitempty"`
	CodeLeftPaths []docsearch.Skipped `json:"code_left_paths,omitempty" jsonschema:"the first 50 source files code search leaves out, each with the reason"`
	// Generated counts the source files a tool wrote (see
	// extract.File.Generated); GeneratedPaths lists the first
	// maxDocsSkipped by path.
	Generated      int             `json:"generated,omitempty" jsonschema:"source files a tool wrote, told by the mark in their opening comments: search ranks their code under hand-written code"`
	GeneratedPaths []generatedFile `json:"generated_paths,omitempty" jsonschema:"the first 50 of them by path, each with its mark"`
	// Copies counts the files of code search ranks as a build's copy of
	// code kept elsewhere (docsearch.Index.BuiltCopies); CopiesPaths
	// lists the first maxDocsSkipped by path.
	Copies      int                 `json:"copies,omitempty" jsonschema:"files of code that search ranks as a build's copy of code kept elsewhere in the repository: under the code they copy"`
	CopiesPaths []docsearch.Skipped `json:"copies_paths,omitempty" jsonschema:"the first 50 of them by path, each with why"`
	// Graph is how the first load came by the call graph.
	Graph string `json:"graph,omitempty" jsonschema:"how the load came by the call graph: saved (read from graph.bin), updated (the files changed since graph.bin applied to it), or built whole, with why"`
	// Code is how far the code scope's index has got.
	Code string `json:"code" jsonschema:"the code scope's index: complete, or how far it has got"`
	// Load is how far the first load has got, while it runs.
	Load *loadStatus `json:"load,omitempty" jsonschema:"while loading: files tried of those to extract, MB read, ETA and RSS"`
}

// maxDocsSkipped caps the skipped docs index_status lists.
const maxDocsSkipped = 50

// generatedFile is a source file a tool wrote, and the mark that says so.
type generatedFile struct {
	Path string `json:"path"`
	Mark string `json:"mark"`
}

// generatedFiles returns the workspace's files that a tool wrote, by
// path; w.mu is held.
func (w *workspace) generatedFiles() []generatedFile {
	var out []generatedFile
	for p, s := range w.files {
		if s.file != nil && s.file.Generated != "" {
			out = append(out, generatedFile{Path: p, Mark: s.file.Generated})
		}
	}
	slices.SortFunc(out, func(a, b generatedFile) int { return strings.Compare(a.Path, b.Path) })
	return out
}

func (s *Server) indexStatus(ctx context.Context, _ *mcp.CallToolRequest, _ indexStatusIn) (*mcp.CallToolResult, indexStatusOut, error) {
	ws := s.workspace()
	out := indexStatusOut{Root: ws.root, Commit: gitHead(ws.root), Watch: ws.watchState(), Artifacts: map[string]int{}, Code: ws.code.String()}
	select {
	case <-ws.ready:
	default:
		out.Loading = true
		out.Files = int(ws.done.Load())
		out.Load = ws.tried.status()
		text := fmt.Sprintf("Loading %s: %d files extracted so far.", ws.root, out.Files)
		if out.Load != nil {
			text = fmt.Sprintf("Loading %s: %d files extracted so far; %d of %d tried", ws.root, out.Files, out.Load.Done, out.Load.Total)
			if out.Load.Line != "" {
				text += ", " + out.Load.Line
			}
			text += "."
		}
		if _, ix := s.passIndex(); ix != nil {
			// The first pass's index, searched meanwhile (firstSearch).
			st := ix.Stats()
			out.Docs, out.Chunks, out.Embedder = st.Docs, st.Chunks, cmp.Or(st.Embedder, "none")
			text += fmt.Sprintf(" Searchable meanwhile: docs and artifacts whole (%d documents and code chunks so far); code %s.", out.Docs, out.Code)
		}
		return textResult(text), out, nil
	}
	if ws.err != nil {
		return nil, out, fmt.Errorf("workspace %s could not be loaded: %w", ws.root, ws.err)
	}
	entries, err := ws.artifactEntries(ctx)
	if err != nil {
		return nil, out, err
	}
	for _, e := range entries {
		out.Artifacts[e.Status]++
	}
	ws.mu.RLock()
	skipped := ws.skippedNow()
	out.Files, out.Skipped = len(ws.files), len(skipped)
	out.SkippedPaths = skipped[:min(len(skipped), maxSkipped)]
	out.Symbols, out.Edges, out.Unresolved = ws.graphCounts()
	out.LastUpdate = ws.loaded
	generated := ws.generatedFiles()
	ws.mu.RUnlock()
	out.Generated, out.GeneratedPaths = len(generated), generated[:min(len(generated), maxDocsSkipped)]
	if how := ws.graphLoad.Load(); how != nil {
		out.Graph = *how
	}
	out.Embedder = "none"
	select {
	case <-ws.docsReady:
	default:
		out.DocsLoading = true
	}
	if ix := ws.docIndex(); ix != nil {
		st := ix.Stats()
		out.Docs, out.Chunks = st.Docs, st.Chunks
		if st.Embedder != "" {
			out.Embedder = st.Embedder
		}
		copies := ix.BuiltCopies()
		out.Copies, out.CopiesPaths = len(copies), copies[:min(len(copies), maxDocsSkipped)]
		docsSkipped := ix.Skipped()
		out.DocsSkipped, out.DocsUnsaved = len(docsSkipped), st.Unsaved
		out.DocsSkippedPaths = docsSkipped[:min(len(docsSkipped), maxDocsSkipped)]
	}
	out.Deps = ws.deps.status()
	var left []docsearch.Skipped
	out.Vendor, left = ws.sel.status()
	out.CodeLeft, out.CodeLeftPaths = len(left), left[:min(len(left), maxDocsSkipped)]

	var b strings.Builder
	fmt.Fprintf(&b, "%s", out.Root)
	if out.Commit != "" {
		fmt.Fprintf(&b, " at %s", out.Commit[:12])
	}
	fmt.Fprintf(&b, ": %d files (%d skipped), %d symbols, %d resolved calls, %d unresolved; updated %s.\n",
		out.Files, out.Skipped, out.Symbols, out.Edges, out.Unresolved, out.LastUpdate.Format(time.RFC3339))
	for _, sk := range out.SkippedPaths {
		if !isInternal(sk.Reason) {
			break
		}
		fmt.Fprintf(&b, "Not resolved or not extracted because of a bug in fileinfo: %s: %s\n", sk.Path, sk.Reason)
	}
	if out.Graph != "" {
		fmt.Fprintf(&b, "Call graph at load: %s.\n", out.Graph)
	}
	fmt.Fprintf(&b, "Artifacts: %d enriched, %d basic, %d stale, %d partial.\n",
		out.Artifacts[string(artifacts.Enriched)], out.Artifacts[string(artifacts.Basic)], out.Artifacts[string(artifacts.Stale)], out.Artifacts[string(artifacts.Partial)])
	fmt.Fprintf(&b, "Docs: %d documents, %d chunks; embedder %s; %d paths skipped (docs_skipped_paths).\n", out.Docs, out.Chunks, out.Embedder, out.DocsSkipped)
	if out.Code != "complete" {
		fmt.Fprintf(&b, "Code search: %s.\n", out.Code)
	}
	if out.DocsLoading {
		b.WriteString("The doc index is still being opened; search_docs waits for it.\n")
	}
	if out.DocsUnsaved != "" {
		fmt.Fprintf(&b, "The doc index is not saved (%s); it is kept in memory.\n", out.DocsUnsaved)
	}
	writeVendorStatus(&b, out.Vendor, out.CodeLeft)
	if out.Generated > 0 {
		fmt.Fprintf(&b, "Generated code (ranked under hand-written code in search): %d files, told by the mark in their opening comments (generated_paths).\n", out.Generated)
	}
	if out.Copies > 0 {
		fmt.Fprintf(&b, "Built copies (ranked under the code they copy in search): %d files, in build directories beside their sources or module formats' copies of a source directory (copies_paths).\n", out.Copies)
	}
	fmt.Fprintf(&b, "Dependencies: %d resolved, %d indexed (scope deps), %d missing", out.Deps.Resolved, out.Deps.Indexed, out.Deps.Missing)
	if out.Deps.Refused > 0 {
		fmt.Fprintf(&b, ", %d refused", out.Deps.Refused)
	}
	if out.Deps.Indexing != "" {
		fmt.Fprintf(&b, "; indexing %s", out.Deps.Indexing)
	}
	if out.Deps.Problem != "" {
		fmt.Fprintf(&b, "; problem: %s", out.Deps.Problem)
	}
	b.WriteString(".\n")
	for _, r := range out.Deps.RefusedDeps {
		fmt.Fprintf(&b, "Dependency not read: %s %q@%q (%s): %s\n", r.Ecosystem, r.Name, r.Version, r.Source, r.Reason)
	}
	fmt.Fprintf(&b, "Watching: %s (%d directories, %d batches applied).", out.Watch.Mode, out.Watch.Dirs, out.Watch.Batches)
	return textResult(b.String()), out, nil
}
