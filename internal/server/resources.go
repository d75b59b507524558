package server

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fileinfo/fileinfo/artifacts"
)

// Resource URIs.
const (
	artifactsURI    = "fileinfo://artifacts"
	artifactPrefix  = artifactsURI + "/"
	artifactPattern = artifactPrefix + "{+path}"
)

// artifactURI is the URI of the artifact of the source rel: each path
// segment percent-encoded, so that a name with a space, "#", "%", a
// backslash or non-ASCII letters makes a valid URI that the template
// matches and that reads back as rel.
func artifactURI(rel string) string {
	segs := strings.Split(rel, "/")
	for i, seg := range segs {
		segs[i] = url.PathEscape(seg)
	}
	return artifactPrefix + strings.Join(segs, "/")
}

// artifactSource returns the source path an artifact URI names, undoing
// artifactURI's encoding.
func artifactSource(uri string) (string, bool) {
	rest, ok := strings.CutPrefix(uri, artifactPrefix)
	if !ok || rest == "" {
		return "", false
	}
	rel, err := url.PathUnescape(rest)
	return rel, err == nil && rel != ""
}

// artifactEntry is one artifact in the fileinfo://artifacts listing.
type artifactEntry struct {
	Path     string `json:"path"`     // the source file
	Status   string `json:"status"`   // basic, partial, enriched or stale
	URI      string `json:"uri"`      // read it here
	Artifact string `json:"artifact"` // the markdown file, relative to the root
	Error    string `json:"error,omitempty"`
}

func (s *Server) addResources() {
	s.mcp.AddResource(&mcp.Resource{
		URI:         artifactsURI,
		Name:        "artifacts",
		Title:       "Artifacts",
		Description: "Every file's artifact under .artifacts/ with its status: basic (structure only), partial (some symbols documented), enriched (documented) or stale (source or callers changed since).",
		MIMEType:    "application/json",
	}, s.readArtifactList)
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: artifactPattern,
		Name:        "artifact",
		Title:       "Artifact of a file",
		Description: "The markdown artifact of the source file at path.",
		MIMEType:    "text/markdown",
	}, s.readArtifact)
	s.mcp.AddResource(&mcp.Resource{
		URI:         docsListURI,
		Name:        "docs",
		Title:       "Indexed documents",
		Description: "Every document search_docs searches: path, title, scope, summary, last update.",
		MIMEType:    "application/json",
	}, s.readDocsList)
}

// docsListURI lists the indexed documents.
const docsListURI = "docs://list"

func (s *Server) readDocsList(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	ix, err := s.docsIndex(ctx, req)
	if err != nil {
		return nil, err
	}
	docs, err := ix.List("")
	if err != nil {
		return nil, err
	}
	data, err := json.MarshalIndent(struct {
		Docs any `json:"docs"`
	}{docs}, "", "  ")
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
		{URI: req.Params.URI, MIMEType: "application/json", Text: string(data)},
	}}, nil
}

func (s *Server) readArtifactList(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	ws, err := s.ready(ctx, req)
	if err != nil {
		return nil, err
	}
	entries, err := ws.artifactEntries(ctx)
	if err != nil {
		return nil, err
	}
	list := struct {
		Artifacts []artifactEntry `json:"artifacts"`
	}{Artifacts: entries}
	data, err := json.MarshalIndent(list, "", "  ")
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
		{URI: req.Params.URI, MIMEType: "application/json", Text: string(data)},
	}}, nil
}

func (s *Server) readArtifact(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	rel, ok := artifactSource(uri)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	ws, err := s.ready(ctx, req)
	if err != nil {
		return nil, err
	}
	_, body, err := ws.store.Read(rel)
	if err != nil {
		// No artifact, an unreadable one, or a path the store refuses
		// (outside the root): all are not found.
		if !notExist(err) {
			s.log.Warn("artifact refused", "uri", uri, "err", err)
		}
		return nil, mcp.ResourceNotFoundError(uri)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
		{URI: uri, MIMEType: "text/markdown", Text: string(body)},
	}}, nil
}

// artifactEntries lists the workspace's artifacts with their status now.
func (ws *workspace) artifactEntries(ctx context.Context) ([]artifactEntry, error) {
	entries, err := ws.store.List(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]artifactEntry, 0, len(entries))
	ws.mu.RLock()
	defer ws.mu.RUnlock()
	for _, e := range entries {
		a := artifactEntry{Path: e.Source, URI: artifactURI(e.Source), Artifact: artifacts.Dir + "/" + e.Source + ".md"}
		switch src := ws.files[e.Source]; {
		case e.Err != nil:
			a.Status, a.Error = string(artifacts.Stale), e.Err.Error()
		case src == nil:
			// The source is gone, or is no longer extracted.
			a.Status = string(artifacts.Stale)
		default:
			a.Status = string(e.Meta.StatusFor(ws.fingerprint(src)))
		}
		out = append(out, a)
	}
	return out, nil
}
