package server

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/enrich"
	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/bounded"
	"github.com/fileinfo/fileinfo/internal/depindex"
	"github.com/fileinfo/fileinfo/internal/deps"
)

// depsScope is the doc scope of the dependency index; "deps:NAME" narrows
// a search to one dependency.
const depsScope = "deps"

// depsIndex is a workspace's index of its dependencies: the public API
// and docs of each at its locked version, read from the per-user cache
// (built into it on a miss) and kept in a doc index of its own under
// .artifacts/.index/deps, apart from the project's so that a search
// without the deps scope ranks exactly as before. It is filled in the
// background after the workspace loads, and again when a lockfile
// changes, indexing only the versions it lacks.
type depsIndex struct {
	mu       sync.Mutex
	ix       *docsearch.Index // nil until opened
	resolved []deps.Dep
	counts   map[string]depindex.Count // by name@version, what ix holds
	total    int                       // dependencies to index in the current run
	done     int
	running  bool
	again    bool   // a lockfile changed during the run
	disabled bool   // --no-deps or --no-docs: never built
	problem  string // the last run's error, for index_status
}

// depsStatus is index_status's view of the dependency index.
type depsStatus struct {
	Resolved int    `json:"resolved" jsonschema:"dependencies found in the lockfiles"`
	Indexed  int    `json:"indexed" jsonschema:"dependency versions searchable in scope deps"`
	Missing  int    `json:"missing" jsonschema:"locked but not on disk (fileinfo deps says how to fetch them)"`
	Refused  int    `json:"refused,omitempty" jsonschema:"dependencies not read: their lockfile names a path outside where they must come from, or a name that is not one"`
	Indexing string `json:"indexing,omitempty" jsonschema:"progress of the running index, done/total"`
	Problem  string `json:"problem,omitempty"`
	// RefusedDeps lists the first maxRefused refused dependencies.
	RefusedDeps []refusedDep `json:"refused_deps,omitempty" jsonschema:"the first 50 refused dependencies, each with the reason"`
}

// refusedDep is a dependency the indexer would not read, and why.
type refusedDep struct {
	Ecosystem string `json:"ecosystem"`
	Name      string `json:"name"`
	Version   string `json:"version"`
	Source    string `json:"source" jsonschema:"the lockfile or manifest that names it"`
	Reason    string `json:"reason"`
}

// maxRefused caps the refused dependencies index_status lists.
const maxRefused = 50

func (d *depsIndex) status() depsStatus {
	d.mu.Lock()
	defer d.mu.Unlock()
	st := depsStatus{Resolved: len(d.resolved), Indexed: len(d.counts), Problem: d.problem}
	for _, dep := range d.resolved {
		switch dep.Status {
		case deps.Present:
		case deps.Refused:
			st.Refused++
			if len(st.RefusedDeps) < maxRefused {
				st.RefusedDeps = append(st.RefusedDeps, refusedDep{Ecosystem: dep.Ecosystem, Name: dep.Name, Version: dep.Version,
					Source: dep.Source, Reason: dep.Reason})
			}
		default:
			st.Missing++
		}
	}
	if d.running {
		st.Indexing = fmt.Sprintf("%d/%d", d.done, d.total)
	}
	return st
}

// index returns the dependency doc index, or why there is none yet.
func (d *depsIndex) index() (*docsearch.Index, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.ix == nil {
		if d.running {
			return nil, fmt.Errorf("the dependency index is still being built (%d of %d); try again shortly", d.done, d.total)
		}
		if d.problem != "" {
			return nil, fmt.Errorf("no dependency index: %s", d.problem)
		}
		if len(d.resolved) > 0 {
			return nil, errors.New(notInstalled(d.resolved))
		}
		if d.disabled {
			return nil, errors.New("no dependency index: the server was started with --no-deps (or --no-docs)")
		}
		return nil, fmt.Errorf("no dependency index: no lockfile or manifest names a dependency (looked for %s)", strings.Join(deps.Manifests(), ", "))
	}
	return d.ix, nil
}

// maxListed caps the locked versions a message lists.
const maxListed = 10

// notInstalled says why dependencies that were found are not indexed:
// none is on disk at its locked version. It names the files they came
// from, what is missing, and how to fetch it.
func notInstalled(ds []deps.Dep) string {
	bySource := map[string][]deps.Dep{}
	for _, d := range ds {
		bySource[d.Source] = append(bySource[d.Source], d)
	}
	var b strings.Builder
	b.WriteString("no dependency index: no dependency is on disk at its locked version, so there is nothing to index yet.")
	for _, src := range slices.Sorted(maps.Keys(bySource)) {
		list := bySource[src]
		fmt.Fprintf(&b, " %s names %d (", src, len(list))
		for i, d := range list[:min(len(list), maxListed)] {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s@%s %s", d.Name, d.Version, d.Status)
		}
		if len(list) > maxListed {
			fmt.Fprintf(&b, ", and %d more", len(list)-maxListed)
		}
		b.WriteString(")")
		if f := list[0].Fetch; f != "" {
			fmt.Fprintf(&b, "; fetch them with `%s`", f)
		}
		b.WriteString(".")
	}
	b.WriteString(" `fileinfo deps` lists each one.")
	return b.String()
}

// dependency returns the indexed dependency a "deps:NAME@VERSION/..."
// path names, and the path inside it.
func (d *depsIndex) dependency(p string) (depindex.Count, string, bool) {
	key, rel, ok := depindex.SplitPath(p)
	if !ok {
		return depindex.Count{}, "", false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	c, ok := d.counts[key]
	return c, rel, ok
}

// list returns the indexed dependency versions, sorted.
func (d *depsIndex) list() []depindex.Count {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]depindex.Count, 0, len(d.counts))
	for _, c := range d.counts {
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b depindex.Count) int {
		return strings.Compare(a.Ecosystem+"/"+a.Name+"@"+a.Version, b.Ecosystem+"/"+b.Name+"@"+b.Version)
	})
	return out
}

// depsChanged starts indexing the dependencies again, or marks the
// running index to go once more when it ends.
func (w *workspace) depsChanged(opt Options) {
	if opt.NoDeps || opt.NoDocs {
		w.deps.mu.Lock()
		w.deps.disabled = true
		w.deps.mu.Unlock()
		return
	}
	w.deps.mu.Lock()
	defer w.deps.mu.Unlock()
	if w.deps.running {
		w.deps.again = true
		return
	}
	w.docsMu.Lock()
	closed := w.docsClosed
	if !closed {
		w.docsLoops.Add(1) // close waits for the run
	}
	w.docsMu.Unlock()
	if closed {
		return
	}
	w.deps.running = true
	go func() {
		defer w.docsLoops.Done()
		for {
			w.indexDeps(w.docsCtx, opt)
			w.deps.mu.Lock()
			again := w.deps.again && w.docsCtx.Err() == nil
			w.deps.again = false
			if !again {
				w.deps.running = false
				w.deps.mu.Unlock()
				return
			}
			w.deps.mu.Unlock()
		}
	}()
}

// touchesLockfile reports whether a watched batch names a lockfile at
// the root.
func touchesLockfile(paths []string) bool {
	for _, p := range paths {
		if !strings.Contains(p, "/") && deps.IsManifest(p) {
			return true
		}
	}
	return false
}

// indexDeps resolves the dependencies, opens the dependency index if it
// is not open, and syncs it with them (depindex.Sync). A panic is logged
// and ends the run; the server goes on.
func (w *workspace) indexDeps(ctx context.Context, opt Options) {
	defer func() {
		if v := recover(); v != nil {
			w.log.Error("indexing the dependencies panicked; dependency search may be incomplete", "root", w.root,
				"panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			w.deps.mu.Lock()
			w.deps.problem = fmt.Sprint("internal error: ", v)
			w.deps.mu.Unlock()
		}
	}()
	resolved, rerr := deps.Resolve(w.root, deps.Options{All: opt.AllDeps})
	cacheDir := opt.DepsCache
	var err error
	if cacheDir == "" {
		cacheDir, err = depindex.DefaultDir(nil)
	}
	w.deps.mu.Lock()
	w.deps.resolved, w.deps.done, w.deps.total = resolved, 0, 0
	ix := w.deps.ix
	w.deps.mu.Unlock()
	if ix == nil && err == nil && slices.ContainsFunc(resolved, depindex.Cacheable) {
		ix, err = w.openDepsIndex(ctx, opt)
		w.deps.mu.Lock()
		w.deps.ix = ix
		w.deps.mu.Unlock()
	}
	var counts map[string]depindex.Count
	if ix != nil && err == nil {
		counts, err = depindex.Sync(ctx, ix, resolved, depindex.Cache{Dir: cacheDir}, depindex.Options{Workers: 1},
			func(done, total int) {
				w.deps.mu.Lock()
				w.deps.done, w.deps.total = done, total
				w.deps.mu.Unlock()
			})
	}
	if err = errors.Join(rerr, err); err != nil && ctx.Err() == nil {
		w.log.Warn("indexing dependencies", "err", err)
	}
	w.deps.mu.Lock()
	defer w.deps.mu.Unlock()
	w.deps.problem = ""
	if err != nil {
		w.deps.problem = err.Error()
	}
	if counts != nil {
		w.deps.counts = counts // replaced, never modified: searches read it unlocked
	}
}

// openDepsIndex opens the dependency index, saved under
// .artifacts/.index/deps when that directory is inside the root, in memory
// otherwise.
func (w *workspace) openDepsIndex(ctx context.Context, opt Options) (*docsearch.Index, error) {
	dir := depindex.IndexDir(filepath.Join(w.root, ".artifacts", ".index"))
	if real, err := filepath.EvalSymlinks(filepath.Join(w.root, ".artifacts", ".index")); err != nil || !within([]string{w.root}, real) {
		dir = "" // no index directory of the workspace's own: keep it in memory
	}
	// One worker: the index is built in the background, and the user's
	// work keeps the other core.
	return depindex.OpenIndex(ctx, dir, opt.Embedder, docsearch.Options{Logger: w.log, Workers: 1})
}

// readDependency reads a file of an indexed dependency, read-only and
// through a root handle on its directory: the allowance outside the
// workspace is exactly the resolved dependency directories.
func (w *workspace) readDependency(p string, maxSize int64) (string, []byte, error) {
	c, rel, ok := w.deps.dependency(p)
	if !ok {
		return "", nil, fmt.Errorf("%s is not a file of an indexed dependency; list_docs with scope deps lists them", p)
	}
	if !fs.ValidPath(rel) {
		return "", nil, fmt.Errorf("%s: not a clean path inside %s@%s", p, c.Name, c.Version)
	}
	r, err := os.OpenRoot(c.Dir)
	if err != nil {
		return "", nil, fmt.Errorf("dependency %s@%s: %w", c.Name, c.Version, err)
	}
	defer r.Close()
	data, err := bounded.ReadFileIn(r, filepath.FromSlash(rel), bounded.Limit{Kind: "source file", Max: maxSize})
	var skip *bounded.SkipError
	if errors.As(err, &skip) {
		return "", nil, fmt.Errorf("%s: %s", p, skip.Reason)
	}
	if err != nil {
		return "", nil, fmt.Errorf("dependency %s@%s: %w", c.Name, c.Version, err)
	}
	return path.Join(c.Name+"@"+c.Version, rel), data, nil
}

// searchDeps runs q over the dependency index for each of scopes.
func (w *workspace) searchDeps(ctx context.Context, q docsearch.Query, scopes []string) (docsearch.Results, error) {
	ix, err := w.deps.index()
	if err != nil {
		return docsearch.Results{}, err
	}
	w.deps.mu.Lock()
	counts := w.deps.counts
	w.deps.mu.Unlock()
	return depindex.Search(ctx, ix, counts, q, scopes)
}

// has reports whether a dependency of that name is indexed.
func (d *depsIndex) has(name string) bool { return slices.Contains(d.names(), name) }

// names lists the indexed dependencies' names, sorted.
func (d *depsIndex) names() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return depindex.Names(d.counts)
}

// search runs q over the project's doc index, and over the dependency
// index for the deps scopes among q.Scopes. Without scopes it searches
// the project alone: dependencies are searched when asked for.
func (s *Server) search(ctx context.Context, req mcp.Request, q docsearch.Query) (docsearch.Results, error) {
	var own, dep []string
	for _, sc := range q.Scopes {
		if depindex.IsScope(sc) {
			dep = append(dep, sc)
		} else {
			own = append(own, sc)
		}
	}
	var res docsearch.Results
	if len(dep) == 0 || len(own) > 0 {
		ix, err := s.docsIndex(ctx, req)
		if err != nil {
			return res, err
		}
		q2 := q
		q2.Scopes = own
		if res, err = ix.Search(ctx, q2); err != nil {
			return res, err
		}
	}
	if len(dep) == 0 {
		return res, nil
	}
	ws, err := s.ready(ctx, req)
	if err != nil {
		return res, err
	}
	dres, err := ws.searchDeps(ctx, q, dep)
	if err != nil {
		return res, err
	}
	if len(own) == 0 {
		return dres, nil
	}
	if res.ByScope == nil {
		res.ByScope = map[string][]docsearch.Result{}
	}
	for sc, rs := range dres.ByScope {
		res.ByScope[sc] = rs
	}
	res.Results = append(res.Results, dres.Results...)
	slices.SortStableFunc(res.Results, func(a, b docsearch.Result) int { return cmp.Compare(b.Score, a.Score) })
	return res, nil
}

// docsIndexFor returns the index that holds the document at p: the
// dependency index for a deps: path, else the project's.
func (s *Server) docsIndexFor(ctx context.Context, req mcp.Request, p string) (*docsearch.Index, error) {
	if !strings.HasPrefix(p, depindex.Prefix) {
		return s.docsIndex(ctx, req)
	}
	ws, err := s.ready(ctx, req)
	if err != nil {
		return nil, err
	}
	return ws.deps.index()
}

// listDeps answers list_docs for scope deps (the indexed versions, with
// counts) or deps:NAME (that dependency's documents).
func (s *Server) listDeps(ctx context.Context, req mcp.Request, scope string) (*mcp.CallToolResult, listDocsOut, error) {
	out := listDocsOut{Docs: []docsearch.DocInfo{}}
	ws, err := s.ready(ctx, req)
	if err != nil {
		return nil, out, err
	}
	out.Deps = ws.deps.list()
	var b strings.Builder
	name := strings.TrimPrefix(strings.TrimPrefix(scope, depsScope), ":")
	if name == "" {
		st := ws.deps.status()
		fmt.Fprintf(&b, "%d dependency versions indexed (%d resolved, %d missing):\n", len(out.Deps), st.Resolved, st.Missing)
		for _, c := range out.Deps {
			fmt.Fprintf(&b, "- %s@%s (%s): %d symbols, %d documents; search it with scopes [\"deps:%s\"]\n", c.Name, c.Version, c.Ecosystem, c.Symbols, c.Docs, c.Name)
		}
		return textResult(b.String()), out, nil
	}
	if !ws.deps.has(name) {
		return nil, out, fmt.Errorf("scope %s: %s is not an indexed dependency; indexed: %s", scope, name, strings.Join(ws.deps.names(), ", "))
	}
	out.Deps = slices.DeleteFunc(out.Deps, func(c depindex.Count) bool { return c.Name != name })
	ix, err := ws.deps.index()
	if err != nil {
		return nil, out, err
	}
	docs, err := ix.List(depsScope)
	if err != nil {
		return nil, out, err
	}
	for _, d := range docs {
		if key, _, ok := depindex.SplitPath(d.Path); ok && strings.HasPrefix(key, name+"@") {
			d.Scope = scope
			out.Docs = append(out.Docs, d)
		}
	}
	fmt.Fprintf(&b, "%d documents:\n", len(out.Docs))
	for _, d := range out.Docs {
		fmt.Fprintf(&b, "- %s: %s\n", d.Path, d.Title)
	}
	return textResult(b.String()), out, nil
}

// readSource reads a workspace file, or a dependency's for a deps: path.
func (s *Server) readSource(ctx context.Context, req mcp.Request, p string) (string, []byte, error) {
	if strings.HasPrefix(p, depindex.Prefix) {
		ws, err := s.ready(ctx, req)
		if err != nil {
			return "", nil, err
		}
		return ws.readDependency(p, ws.maxSize)
	}
	ws, rel, err := s.locate(ctx, req, p)
	if err != nil {
		return "", nil, err
	}
	src, err := ws.read(rel)
	return rel, src, err
}

// maxUsed caps the dependency symbols one file_info prompt lists.
const maxUsed = 25

// used lists the indexed dependency API symbols f calls, for file_info's
// prompt; nil before the index is built.
func (d *depsIndex) used(f *extract.File) []enrich.DepSymbol {
	d.mu.Lock()
	counts := d.counts
	d.mu.Unlock()
	if len(counts) == 0 || f == nil {
		return nil
	}
	apis := make([]*depindex.API, 0, len(counts))
	for _, c := range counts {
		if c.API != nil {
			apis = append(apis, c.API)
		}
	}
	slices.SortFunc(apis, func(a, b *depindex.API) int { return strings.Compare(a.ID(), b.ID()) })
	var out []enrich.DepSymbol
	for _, u := range depindex.Used(f, apis, maxUsed) {
		out = append(out, enrich.DepSymbol{Dep: u.Dep, Qualified: u.Qualified, Signature: u.Signature,
			Lead: depindex.Lead(u.Doc), Location: fmt.Sprintf("%s:%d", u.Path, u.Line)})
	}
	return out
}
