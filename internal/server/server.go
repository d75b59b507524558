package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/enrich"
)

// Options configure a Server. The zero value serves the current directory.
type Options struct {
	// Root is the workspace root. Default ".".
	Root string
	// AllowRoots are more directories set_workspace_root may switch to,
	// besides Root: each, and any directory inside it. Each must exist;
	// a symbolic link counts as its target. See roots.go for the roots a
	// client declares.
	AllowRoots []string
	// MaxTokens is the default budget of one file_info prompt, in
	// cl100k_base tokens; a call's max_tokens overrides it. Default
	// enrich.DefaultMaxTokens (24,000).
	MaxTokens int
	// MaxFileSize is the largest file extracted or shown, in bytes.
	// Default extract.DefaultMaxFileSize (2 MB).
	MaxFileSize int64
	// Version is the server's version, announced to clients and written
	// into artifacts. Default "(devel)".
	Version string
	// Logger receives the server's logs. Default: none. Over stdio it
	// must not write to stdout, which carries the protocol.
	Logger *slog.Logger
	// NoWatch turns off watching the workspace for changes; files a tool
	// reads are still re-extracted when they changed.
	NoWatch bool
	// Debounce is the quiet time that ends a batch of changes. Default
	// 100 ms.
	Debounce time.Duration
	// DocScopes are named scopes of docs beyond the workspace's own
	// (README*, docs/, other markdown) and its artifacts.
	DocScopes []docsearch.Scope
	// Embedder makes the doc index's vectors; nil searches lexically.
	Embedder docsearch.Embedder
	// NoDocs turns the doc index off, and with it the dependency index.
	NoDocs bool
	// NoDeps turns off indexing the dependencies the lockfiles name.
	NoDeps bool
	// DocsWait is how long a search waits for the doc index to open
	// before it answers from what is ready (symbol names for code) and
	// says which scopes it could not search yet. Default 3 s: the Linux
	// kernel's doc index takes 15-20 s to open.
	DocsWait time.Duration
	// AllDeps indexes transitive dependencies too, not only direct ones.
	AllDeps bool
	// DepsCache is the per-user cache of dependency APIs. Default
	// depindex.DefaultDir ($XDG_CACHE_HOME/fileinfo/deps).
	DepsCache string
	// SamplingRerank has the client's model reorder the sources of
	// ask_docs, get_working_example and explain_error through sampling
	// before it answers. Default off.
	SamplingRerank bool
	// SamplingTimeout bounds how long file_info's sampling mode waits for
	// the client's model before falling back to a prompt. Default 2 min.
	SamplingTimeout time.Duration
	// FirstMemory is the heap budget (a soft limit, as debug.SetMemoryLimit
	// sets) of a first start's one pass over the files (see coldPass),
	// which builds the graph and the code index as `fileinfo index` does;
	// the limit before it is put back after. 0: none. GOMEMLIMIT, when
	// set, rules.
	FirstMemory int64

	hooks *testHooks // tests only
	// loadWait is how long an answer that the first load may change (a
	// search, or a lookup of what the early symbols do not fully cover)
	// waits for it before answering from what is loaded so far (see
	// earlySymbols). Default defaultLoadWait.
	loadWait time.Duration
	// coldWait bounds loadWait during a cold load (no saved symbols: the
	// early answers come from a scan of the files). Default
	// defaultColdWait.
	coldWait time.Duration
}

// defaultLoadWait is Options.loadWait's default: the first answer on the
// Linux kernel comes within 5 s of the start (a second to open the saved
// symbols index, then this), and a small tree's load is over by then.
const defaultLoadWait = 3 * time.Second

// defaultColdWait is Options.coldWait's default. A cold load's pace is
// unknown until its first files are extracted, and a lookup answered
// before the search holds the load's workers meanwhile, so a search on
// golang.org/x/tools waited 0.3-0.8 s for a pace that then said the load
// ends after the wait (docs/bigrepos.md, 2026-12-05: a first search
// within a second). A tree whose load ends within this — tens of files —
// still gets the whole answer; a larger one answers from the scan at
// once, saying so, as it would have after learning the pace.
const defaultColdWait = 300 * time.Millisecond

// instructions teach a client's model every tool family, in a few
// sentences (TestToolList checks that each tool is named).
const instructions = `fileinfo knows this repository's structure and call graph, and keeps documentation of its source files as markdown under .artifacts/. ` +
	`To locate a function, method or class by name call find_symbol; callers and callees give its call tree with call sites, far cheaper than file_info on a whole file. ` +
	`To document a file, call file_info with its path and answer the prompt it returns by calling report_file_info (once per part when it reports several parts); when it says the enriched artifact is up to date, use that instead (refresh: true forces a new prompt). ` +
	`inspect_source reads exact line ranges, index_status says what is indexed and documented, set_workspace_root switches to another project, and open_view gives a person a web page of it all. ` +
	`To answer questions from the project's docs and the artifacts, search_docs finds documents (scopes ["deps"] or ["deps:NAME"] search the dependencies at their locked versions) and fetch_doc reads one or one section (a heading or a symbol's name); list_docs and doc_outline browse them. ` +
	`ask_docs, get_working_example and explain_error gather sources and answer with [Source N] citations, or return a prompt for you to answer.`

// A Server is fileinfo's MCP server for one workspace at a time (see
// set_workspace_root). Its libraries hold no MCP types; this package turns
// tool arguments into their calls and their results into tool results.
type Server struct {
	mcp     *mcp.Server
	opt     Options
	log     *slog.Logger
	builder *enrich.Builder
	ctx     context.Context // bounds background loads

	start     string                 // the starting root, resolved
	allowed   []string               // start and Options.AllowRoots, resolved
	overHTTP  atomic.Bool            // set by Handler: client roots are ignored
	httpToken atomic.Pointer[string] // set by Handler: the bearer token HTTP clients send

	mu sync.Mutex // serializes workspace switches
	ws *workspace // the current workspace; read with workspace()
	wm sync.RWMutex

	view viewState // the web view, once started (see tool_view.go)

	writers map[string]bool // the tools that write (not read-only), set by addTool

	calls *foreground // the tool calls in flight, which background work yields to

	pages treePages // callers and callees trees kept for their next pages

	// switches are the workspace switches under way on goroutines of
	// their own (rootsChanged): Close waits for them, so that a
	// workspace being left writes nothing under its .artifacts after
	// Close returns; once closing is set, none starts.
	switches    sync.WaitGroup
	switchesMu  sync.Mutex
	switchesEnd bool
}

// goSwitch runs f on a goroutine of its own that Close waits for, unless
// the server is closing; it reports whether f runs.
func (s *Server) goSwitch(f func()) bool {
	s.switchesMu.Lock()
	defer s.switchesMu.Unlock()
	if s.switchesEnd {
		return false
	}
	s.switches.Go(f)
	return true
}

// New returns a server for opt.Root and starts loading it in the
// background: the server answers at once, and tools wait for the load.
// ctx bounds the load.
func New(ctx context.Context, opt Options) (*Server, error) {
	if opt.Root == "" {
		opt.Root = "."
	}
	if opt.MaxTokens <= 0 {
		opt.MaxTokens = enrich.DefaultMaxTokens
	}
	if opt.SamplingTimeout <= 0 {
		opt.SamplingTimeout = defaultSamplingTimeout
	}
	if opt.Version == "" {
		opt.Version = "(devel)"
	}
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := &Server{opt: opt, log: log, builder: enrich.NewBuilder(), ctx: ctx, calls: &foreground{}, writers: map[string]bool{}}
	ws, err := openWorkspace(opt.Root, opt.MaxFileSize, log)
	if err != nil {
		return nil, err
	}
	ws.calls = s.calls
	s.ws, s.start, s.allowed = ws, ws.root, []string{ws.root}
	for _, r := range opt.AllowRoots {
		dir, err := resolveDir("allowed root", r)
		if err != nil {
			ws.close()
			return nil, err
		}
		s.allowed = append(s.allowed, dir)
	}
	ws.hooks = opt.hooks

	info := &mcp.Implementation{Name: "fileinfo", Title: "fileinfo", Version: opt.Version,
		Description: "Indexed " + ws.root + " at " + time.Now().UTC().Format(time.RFC3339)}
	if commit := gitHead(ws.root); commit != "" {
		info.Description += ", git commit " + commit
	}
	s.mcp = mcp.NewServer(info,
		&mcp.ServerOptions{
			Instructions:            instructions,
			Logger:                  slog.New(quiet{log.Handler()}),
			SubscribeHandler:        checkSubscription,
			UnsubscribeHandler:      func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
			RootsListChangedHandler: s.rootsChanged,
		})
	s.mcp.AddReceivingMiddleware(guard(log), s.calls.middleware(), s.checkArgs())
	s.addTools()
	s.addResources()
	// The load starts once s.mcp is set: a batch the watcher applies
	// early notifies through it.
	go s.loadFirst(ctx, ws)
	return s, nil
}

// loadFirst loads the server's first workspace, watching it from before
// the load's walk (see startWatch). A panic fails the workspace with an
// internal error, which its tools report, instead of ending the process.
func (s *Server) loadFirst(ctx context.Context, ws *workspace) {
	defer func() {
		if v := recover(); v != nil {
			s.log.Error("loading the workspace panicked", "root", ws.root, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			ws.finish(internalError("loading", v))
		}
	}()
	if !s.opt.NoWatch {
		s.startWatch(ws)
	}
	if ws.load(ctx, s.opt) != nil {
		ws.stopWatching(false)
	}
}

// MCP returns the underlying MCP server, for transports.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Run serves one session over t until it ends or ctx is done.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	return s.mcp.Run(ctx, t)
}

// Close waits for a workspace switch under way, then releases the
// current workspace.
func (s *Server) Close() {
	s.stopView()
	s.switchesMu.Lock()
	s.switchesEnd = true
	s.switchesMu.Unlock()
	s.switches.Wait()
	s.workspace().close()
}

// token returns the bearer token of the server's HTTP endpoint, "" when
// it has none (or is served over stdio).
func (s *Server) token() string {
	if t := s.httpToken.Load(); t != nil {
		return *t
	}
	return ""
}

// workspace returns the current workspace.
func (s *Server) workspace() *workspace {
	s.wm.RLock()
	defer s.wm.RUnlock()
	return s.ws
}

// ready returns the current workspace once its first load has ended,
// sending progress notifications for req (which may be nil) meanwhile.
func (s *Server) ready(ctx context.Context, req mcp.Request) (*workspace, error) {
	ws := s.workspace()
	if req != nil {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		go reportLoad(ctx, req, ws)
	}
	if err := ws.wait(ctx); err != nil {
		return nil, fmt.Errorf("workspace %s could not be loaded: %w", ws.root, err)
	}
	return ws, nil
}

// locate returns the current workspace, once loaded, and p as a clean
// slash path inside it (see workspace.rel).
func (s *Server) locate(ctx context.Context, req mcp.Request, p string) (*workspace, string, error) {
	ws, err := s.ready(ctx, req)
	if err != nil {
		return nil, "", err
	}
	rel, err := ws.rel(p)
	return ws, rel, err
}

// switchTo loads the workspace at root, waiting for the load, and makes it
// current; the old one is closed. via is the session whose client roots
// allowed root, nil when the server's own do.
func (s *Server) switchTo(ctx context.Context, req mcp.Request, root string, via *mcp.ServerSession) (*workspace, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.switchLocked(ctx, req, root, via)
}

// switchLocked is switchTo; the caller holds mu.
func (s *Server) switchLocked(ctx context.Context, req mcp.Request, root string, via *mcp.ServerSession) (*workspace, error) {
	ws, err := openWorkspace(root, s.opt.MaxFileSize, s.log)
	if err != nil {
		return nil, err
	}
	ws.viaClient, ws.hooks, ws.calls = via, s.opt.hooks, s.calls
	if req != nil {
		pctx, cancel := context.WithCancel(ctx)
		defer cancel()
		go reportLoad(pctx, req, ws)
	}
	if !s.opt.NoWatch {
		s.startWatch(ws)
	}
	if err := ws.load(ctx, s.opt); err != nil {
		ws.close()
		if errors.Is(err, context.Canceled) {
			return nil, fmt.Errorf("loading %s was cancelled; the workspace is still %s", root, s.workspace().root)
		}
		return nil, err
	}
	s.wm.Lock()
	old := s.ws
	s.ws = ws
	s.wm.Unlock()
	old.close()
	return ws, nil
}

// quiet passes on the SDK's warnings and errors only: its info logs
// (every session's start) are noise in ours.
type quiet struct{ slog.Handler }

func (q quiet) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn && q.Handler.Enabled(ctx, l)
}

func (q quiet) WithAttrs(as []slog.Attr) slog.Handler { return quiet{q.Handler.WithAttrs(as)} }
func (q quiet) WithGroup(name string) slog.Handler    { return quiet{q.Handler.WithGroup(name)} }

// checkSubscription accepts subscriptions to fileinfo's resources: the
// artifact list and any artifact.
func checkSubscription(_ context.Context, req *mcp.SubscribeRequest) error {
	if uri := req.Params.URI; uri != artifactsURI && !strings.HasPrefix(uri, artifactPrefix) {
		return fmt.Errorf("no resource %s to subscribe to; fileinfo has %s and %s", uri, artifactsURI, artifactPattern)
	}
	return nil
}
