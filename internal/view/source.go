package view

import (
	"context"
	"errors"
)

// ErrNotFound is what a Source returns, wrapped, for a path or symbol
// that is not there; the handler answers 404 with the error's text.
var ErrNotFound = errors.New("not found")

// Source is what the view needs of a workspace. Its methods are called
// concurrently; each error's text is shown to the user.
type Source interface {
	// Tree lists the workspace's source files. While the workspace
	// loads it returns a Tree with Loading set.
	Tree(ctx context.Context) (Tree, error)
	// File returns a source file's text, language, symbols and the
	// markdown body of its artifact (empty when it has none).
	File(ctx context.Context, path string) (File, error)
	// Doc returns the markdown of a document of the doc index.
	Doc(ctx context.Context, path string) (string, error)
	// Graph returns the callers and callees of a symbol.
	Graph(ctx context.Context, q GraphQuery) (Graph, error)
	// Search returns up to limit hits of each kind for query.
	Search(ctx context.Context, query string, limit int) ([]Hit, error)
	// Version returns a string that changes when files, artifacts or
	// the graph change.
	Version(ctx context.Context) string
}

// Tree is the workspace's file list.
type Tree struct {
	Root    string      `json:"root"`
	Loading bool        `json:"loading,omitempty"`
	Files   []FileEntry `json:"files"` // sorted by path
	// Counts are the files by artifact status.
	Counts map[string]int `json:"counts"`
	// Docs are the project's documents of the doc index (its docs scope:
	// READMEs, docs/), sorted by path; empty while it opens.
	Docs []DocEntry `json:"docs"`
}

// DocEntry is one document of the tree.
type DocEntry struct {
	Path  string `json:"path"` // as the doc index names it
	Title string `json:"title"`
}

// Artifact statuses of a FileEntry.
const (
	Missing  = "missing"
	Basic    = "basic"
	Partial  = "partial"
	Enriched = "enriched"
	Stale    = "stale"
)

// FileEntry is one source file of the tree.
type FileEntry struct {
	Path     string `json:"path"` // slash path relative to the root
	Language string `json:"language"`
	Status   string `json:"status"` // Missing, Basic, Partial, Enriched or Stale
}

// File is one source file with its artifact.
type File struct {
	FileEntry
	Text     string   `json:"-"`
	Symbols  []Symbol `json:"symbols"` // by line
	Artifact string   `json:"-"`       // markdown body, without front matter
}

// Symbol names one symbol of the call graph. File, Line and Qualified
// together pick it out; Qualified alone may not.
type Symbol struct {
	Qualified string `json:"qualified"`
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	EndLine   int    `json:"end_line,omitempty"`
}

// GraphQuery asks for the neighbourhood of the symbol at File and Line
// named Symbol (either may be empty when the other picks it out).
type GraphQuery struct {
	File   string
	Line   int
	Symbol string
	Depth  int    // calls away from the symbol, 1 to MaxDepth
	Dir    string // "callers", "callees" or "both"
	// MaxNodes caps the nodes returned; the nearest are kept.
	MaxNodes int
}

// Limits of a GraphQuery.
const (
	MaxDepth        = 4
	DefaultMaxNodes = 120
	MaxMaxNodes     = 500
)

// Graph is a symbol's neighbourhood. Nodes[0] is the symbol.
type Graph struct {
	Nodes []GraphNode `json:"nodes"`
	Edges []GraphEdge `json:"edges"`
	// Total is the number of symbols within Depth; Total-len(Nodes) were
	// left out, the farthest first.
	Total int `json:"total"`
}

// GraphNode is a symbol of a Graph. Side is negative for callers
// (-1 calls the symbol directly), positive for callees, 0 for the symbol.
type GraphNode struct {
	Symbol
	Side int `json:"side"`
}

// GraphEdge is a resolved call between two nodes, by index in Nodes.
type GraphEdge struct {
	From       int    `json:"from"`
	To         int    `json:"to"`
	Resolution string `json:"resolution"`
	Line       int    `json:"line"` // of the call, in From's file
}

// Hit kinds.
const (
	HitCode      = "code"
	HitDocs      = "docs"
	HitArtifacts = "artifacts"
)

// Hit is one search result. A code hit names a Symbol; an artifacts hit
// names the source file it documents in Source.
type Hit struct {
	Kind    string  `json:"kind"`
	Path    string  `json:"path"`
	Title   string  `json:"title"`
	Heading string  `json:"heading,omitempty"`
	Summary string  `json:"summary,omitempty"`
	Line    int     `json:"line,omitempty"`
	Score   float64 `json:"score,omitempty"`
	Source  string  `json:"source,omitempty"`
	Symbol  *Symbol `json:"symbol,omitempty"`
}
