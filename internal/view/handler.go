package view

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"time"
)

//go:embed web/index.html web/app.js web/graph.js web/style.css web/vendor/cytoscape.min.js
var web embed.FS

// maxQuery bounds a search query, as search_docs does.
const maxQuery = 4 << 10

// searchLimit is the most hits of each kind a search shows.
const searchLimit = 15

// Options configure a Handler.
type Options struct {
	// Key is the view's capability, which every request must carry (see
	// the package doc): NewKey makes one. Handler panics on a key shorter
	// than MinKeyLen.
	Key string
	// Token, when set, is also taken as a bearer header: the server's own
	// token. It is never taken from a URL.
	Token string
	// Timeout bounds one API call. Default 30 s.
	Timeout time.Duration
}

// Handler returns the view of src, guarded as the package doc says.
func Handler(src Source, opt Options) http.Handler {
	if opt.Timeout <= 0 {
		opt.Timeout = 30 * time.Second
	}
	h := &handler{src: src, timeout: opt.Timeout}
	static, err := fs.Sub(web, "web")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	mux := http.NewServeMux()
	mux.Handle("GET /static/", http.StripPrefix("/static/", cached(http.FileServerFS(static))))
	mux.HandleFunc("GET /static/chroma.css", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
		w.Write(chromaCSS())
	})
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeFileFS(w, r, static, "index.html")
	})
	mux.HandleFunc("GET /api/tree", h.api(h.tree))
	mux.HandleFunc("GET /api/file", h.api(h.file))
	mux.HandleFunc("GET /api/doc", h.api(h.doc))
	mux.HandleFunc("GET /api/graph", h.api(h.graph))
	mux.HandleFunc("GET /api/search", h.api(h.search))
	mux.HandleFunc("GET /api/version", h.api(func(ctx context.Context, _ *http.Request) (any, error) {
		return map[string]string{"version": src.Version(ctx)}, nil
	}))
	return guard(mux, opt.Key, opt.Token)
}

type handler struct {
	src     Source
	timeout time.Duration
}

// badRequest is an error in a request's parameters: 400.
type badRequest struct{ msg string }

func (e badRequest) Error() string { return e.msg }

// api adapts a function returning a value to JSON to a handler: errors
// become a status and {"error": text}.
func (h *handler) api(f func(context.Context, *http.Request) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), h.timeout)
		defer cancel()
		v, err := f(ctx, r)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		if err != nil {
			code := http.StatusInternalServerError
			var bad badRequest
			switch {
			case errors.As(err, &bad):
				code = http.StatusBadRequest
			case errors.Is(err, ErrNotFound):
				code = http.StatusNotFound
			}
			w.WriteHeader(code)
			v = map[string]string{"error": err.Error()}
		}
		json.NewEncoder(w).Encode(v)
	}
}

func (h *handler) tree(ctx context.Context, _ *http.Request) (any, error) {
	t, err := h.src.Tree(ctx)
	if t.Files == nil {
		t.Files = []FileEntry{}
	}
	return t, err
}

// fileOut is /api/file's answer.
type fileOut struct {
	File
	SourceHTML   string `json:"source_html"`
	ArtifactHTML string `json:"artifact_html,omitempty"`
}

func (h *handler) file(ctx context.Context, r *http.Request) (any, error) {
	path, err := param(r, "path")
	if err != nil {
		return nil, err
	}
	f, err := h.src.File(ctx, path)
	if err != nil {
		return nil, err
	}
	out := fileOut{File: f}
	if out.Symbols == nil {
		out.Symbols = []Symbol{}
	}
	if out.SourceHTML, err = highlightCached(f.Path, f.Language, f.Text); err != nil {
		return nil, err
	}
	if f.Artifact != "" {
		if out.ArtifactHTML, err = renderMarkdown(f.Artifact); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (h *handler) doc(ctx context.Context, r *http.Request) (any, error) {
	path, err := param(r, "path")
	if err != nil {
		return nil, err
	}
	md, err := h.src.Doc(ctx, path)
	if err != nil {
		return nil, err
	}
	html, err := renderMarkdown(md)
	if err != nil {
		return nil, err
	}
	return map[string]string{"path": path, "html": html}, nil
}

func (h *handler) graph(ctx context.Context, r *http.Request) (any, error) {
	q := r.URL.Query()
	gq := GraphQuery{File: q.Get("file"), Symbol: q.Get("symbol"), Dir: q.Get("dir"), Depth: 1, MaxNodes: DefaultMaxNodes}
	if gq.File == "" && gq.Symbol == "" {
		return nil, badRequest{"give the symbol's file and line, or its qualified name (file, line, symbol)"}
	}
	var err error
	if gq.Line, err = intParam(q.Get("line"), 0, 0, 1<<30); err != nil {
		return nil, badRequest{"line: " + err.Error()}
	}
	if gq.Depth, err = intParam(q.Get("depth"), 1, 1, MaxDepth); err != nil {
		return nil, badRequest{"depth: " + err.Error()}
	}
	if gq.MaxNodes, err = intParam(q.Get("max"), DefaultMaxNodes, 1, MaxMaxNodes); err != nil {
		return nil, badRequest{"max: " + err.Error()}
	}
	switch gq.Dir {
	case "":
		gq.Dir = "both"
	case "callers", "callees", "both":
	default:
		return nil, badRequest{"dir " + strconv.Quote(gq.Dir) + ": want callers, callees or both"}
	}
	g, err := h.src.Graph(ctx, gq)
	if g.Nodes == nil {
		g.Nodes = []GraphNode{}
	}
	if g.Edges == nil {
		g.Edges = []GraphEdge{}
	}
	return g, err
}

func (h *handler) search(ctx context.Context, r *http.Request) (any, error) {
	query, err := param(r, "q")
	if err != nil {
		return nil, err
	}
	if len(query) > maxQuery {
		return nil, badRequest{"the query is too long; search for its key words"}
	}
	hits, err := h.src.Search(ctx, query, searchLimit)
	if hits == nil {
		hits = []Hit{}
	}
	return map[string]any{"query": query, "hits": hits}, err
}

// param returns the non-empty query parameter name.
func param(r *http.Request, name string) (string, error) {
	v := strings.TrimSpace(r.URL.Query().Get(name))
	if v == "" {
		return "", badRequest{"parameter " + name + " is missing"}
	}
	return v, nil
}

// intParam parses s, def when empty, as an integer in [lo, hi].
func intParam(s string, def, lo, hi int) (int, error) {
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, errors.New(strconv.Quote(s) + " is not a number")
	}
	if n < lo || n > hi {
		return 0, errors.New(s + " is out of range (" + strconv.Itoa(lo) + " to " + strconv.Itoa(hi) + ")")
	}
	return n, nil
}

// cached has the browser check the static files on each load: a new
// binary may serve new ones at the same address.
func cached(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		h.ServeHTTP(w, r)
	})
}
