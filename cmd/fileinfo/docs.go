package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fileinfo/fileinfo/artifacts"
	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/internal/bounded"
	"github.com/fileinfo/fileinfo/internal/codeindex"
	"github.com/fileinfo/fileinfo/internal/depindex"
	"github.com/fileinfo/fileinfo/internal/graphstore"
	"github.com/fileinfo/fileinfo/internal/server"
)

// scopeFlags collects repeated --docs NAME=DIR flags.
type scopeFlags []string

func (s *scopeFlags) String() string     { return strings.Join(*s, ",") }
func (s *scopeFlags) Set(v string) error { *s = append(*s, v); return nil }

// stringsFlag collects a repeated string flag.
type stringsFlag []string

func (s *stringsFlag) String() string     { return strings.Join(*s, ",") }
func (s *stringsFlag) Set(v string) error { *s = append(*s, v); return nil }

// docsFlags are the flags index and search share.
type docsFlags struct {
	root  *string
	extra scopeFlags
	// graph says how openIndex's pass came by the saved graph (see
	// graphLine), when it made the graph's pass.
	graph string
}

func addDocsFlags(fs *flag.FlagSet) *docsFlags {
	f := &docsFlags{root: fs.String("root", ".", "workspace `dir`")}
	fs.Var(&f.extra, "docs", "an extra scope of docs, `NAME=DIR` (repeatable)")
	return f
}

// openIndex opens the workspace's doc index, saved under
// .artifacts/.index, reading only what changed since it was saved.
//
// With code, the source files' symbols are indexed too (the code scope;
// see codeindex.Sync): only files changed since the last run are read.
// With indexed too, the same pass brings the saved graph up to date
// (codeindex.SyncGraph): each changed file is extracted once for both,
// and a lookup after it reads symbols.idx without building anything;
// indexed sees the index once it is saved, before the graph is built,
// and openIndex returns none, so that its memory is the graph's.
func (f *docsFlags) openIndex(ctx context.Context, stderr io.Writer, progress, code bool, indexed func(*docsearch.Index)) (*docsearch.Index, codeindex.SyncStats, error) {
	var cs codeindex.SyncStats
	root, err := filepath.Abs(*f.root)
	if err != nil {
		return nil, cs, err
	}
	r, err := os.OpenRoot(root) // every read stays inside the root, symbolic links too
	if err != nil {
		return nil, cs, err
	}
	var scopes []docsearch.Scope
	for _, spec := range f.extra {
		s, err := parseScope(root, spec)
		if err != nil {
			return nil, cs, err
		}
		scopes = append(scopes, s)
	}
	opts := docsearch.Options{
		Scopes:   scopes,
		Embedder: defaultEmbedder(),
		Dir:      filepath.Join(root, ".artifacts", ".index"),
		Logger:   slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
	if progress {
		bar := newProgressBar(stderr)
		opts.Logger = slog.New(slog.NewTextHandler(bar, &slog.HandlerOptions{Level: slog.LevelWarn}))
		last := time.Time{}
		opts.Progress = func(done, total int) {
			if now := time.Now(); done == total || now.Sub(last) > 100*time.Millisecond {
				last = now
				bar.update(done, total, "docs")
				if done == total {
					bar.finish()
				}
			}
		}
	}
	// One walk: the code's, begun first, runs while the doc index
	// loads, and the doc walk takes the directories it read.
	var gitignore func() error
	if store, err := artifacts.Open(root); err == nil && progress {
		// index, not search, which writes nothing to commit: the index
		// directory ignores itself (see docsearch and graphstore).
		gitignore = store.WriteGitignore
	}
	made := makeIndexDir(r, root, opts.Dir, gitignore)
	var scan *codeindex.Scan
	began := time.Now()
	if code {
		scan = codeindex.StartScan(ctx, root, codeindex.SelectOptions{Dir: opts.Dir, Log: opts.Logger})
		opts.Walked = scan.Listing
	}
	// Every file checked: what the walks entered is stamped, for the
	// quick check of the searches after it (quickSearch). An extra scope
	// may lie outside the root, where nothing is stamped: its searches
	// check every file.
	stampDirs := func(unsaved string) {
		if len(f.extra) > 0 || unsaved != "" { // an index not saved is no index to trust
			return
		}
		if l := scan.Listing(); l != nil {
			if err := codeindex.WriteDirStamps(opts.Dir, root, l, began, made...); err != nil {
				opts.Logger.Warn("code index: the next search will check every file", "reason", err)
			}
		}
	}
	if indexed != nil || code {
		// index, and a search that indexes code, build under a memory
		// budget: the code documents' texts, the vectors and the
		// postings beyond the first indexSpillBytes are kept off the
		// heap (docsearch.Options.SpillBytes).
		opts.SpillBytes = indexSpillBytes
	}
	// After an upgrade, or with nothing saved, every code document is
	// put: a saved index is built anew rather than decoded whole onto the
	// heap and replaced (docsearch.Options.Fresh).
	opts.Fresh = code && !codeindex.SameBuild(opts.Dir)
	// index, as a search and serve, saves a change as a delta beside
	// the index file while it is small (see docsearch's delta.go), and
	// rewrites the file once it is not. Folding every change in
	// (docsearch.Options.Merge) decoded the whole index onto the heap:
	// on Linux 6.1, after one file changed, 2.5 GB live and 120 s.
	ix, err := docsearch.Open(ctx, docsearch.RootFS(r), opts)
	if err != nil || !code {
		return ix, cs, err
	}
	if indexed != nil {
		unsaved := "not saved"
		saved := func(ix *docsearch.Index) { unsaved = ix.Unsaved(); indexed(ix) }
		copt := codeindex.GraphOptions{Dir: opts.Dir, Log: opts.Logger, Indexed: saved, Scan: scan,
			Graph: graphstore.Options{Dir: opts.Dir, Log: opts.Logger, Discard: true}} // the saved files are the result
		var snap *graphstore.Snapshot
		if cs, snap, err = codeindex.SyncGraph(ctx, ix, root, copt); err != nil {
			return nil, cs, fmt.Errorf("index code and graph: %w", err)
		}
		f.graph = graphLine(snap)
		stampDirs(unsaved)
		return nil, cs, nil
	}
	if cs, err = codeindex.SyncScanned(ctx, ix, scan, opts.Logger); err != nil {
		return nil, cs, fmt.Errorf("index code: %w", err)
	}
	stampDirs(ix.Unsaved())
	return ix, cs, nil
}

// graphLine says how `fileinfo index` came by the saved graph: as
// saved (nothing changed), updated (a few files changed: see
// graphstore.Sync), or built whole, and why.
func graphLine(snap *graphstore.Snapshot) string {
	switch {
	case snap == nil:
		return ""
	case snap.How == graphstore.GraphUpdated:
		return fmt.Sprintf("graph: updated, %d files changed since it was saved", snap.Updated)
	case snap.How == graphstore.GraphBuilt:
		return "graph: built whole: " + snap.Why
	}
	return "graph: as saved, nothing changed"
}

// indexSpillBytes is how many bytes of texts, vectors and postings
// `fileinfo index` keeps on the heap before it spills them: a small part
// of a kernel's. On its fs, include, kernel, lib and drivers/net (347,578
// chunks) they were 442 of the 824 MB live when the doc index was saved;
// held whole on all of it they pushed the heap past the --memory budget
// (docs/bigrepos.md).
const indexSpillBytes = 64 << 20

// parseScope reads NAME=DIR. A DIR inside the root is a scope of the
// root's files; one outside gets a file system of its own, confined to it.
func parseScope(root, spec string) (docsearch.Scope, error) {
	name, dir, ok := strings.Cut(spec, "=")
	if !ok || name == "" || dir == "" {
		return docsearch.Scope{}, fmt.Errorf("--docs %q: want NAME=DIR", spec)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return docsearch.Scope{}, err
	}
	if rel, err := filepath.Rel(root, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return docsearch.Scope{Name: name, Dir: filepath.ToSlash(rel)}, nil
	}
	r, err := os.OpenRoot(abs)
	if err != nil {
		return docsearch.Scope{}, fmt.Errorf("--docs %s: %w", spec, err)
	}
	return docsearch.Scope{Name: name, Dir: ".", FS: docsearch.RootFS(r)}, nil
}

func runIndex(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("index", "[DIR]", stderr)
	df := addDocsFlags(fs)
	verify := fs.Bool("verify", false, "check every checksum of the saved indexes first; a damaged one is rebuilt")
	memory := byteSize(defaultIndexMemory)
	fs.Var(&memory, "memory", "keep the process within this `size` (2GB, 512MB; 0 for no limit): the Go heap's limit is it less a quarter, at most 512MB, left to the parsers and mapped pages (GOMEMLIMIT, when set, rules)")
	prof := profileFlags(fs)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if err := rootArg(fs, df.root, pos); err != nil {
		return err
	}
	stop, err := prof.start()
	if err != nil {
		return err
	}
	defer stop()
	defer setMemoryBudget(int64(memory))()
	if *verify {
		if err := verifyIndexes(*df.root, stdout); err != nil {
			return err
		}
	}
	start := time.Now()
	var st docsearch.Stats
	var skipped []docsearch.Skipped
	_, cs, err := df.openIndex(ctx, stderr, true, true, func(ix *docsearch.Index) {
		st, skipped = ix.Stats(), ix.Skipped()
	})
	if err != nil {
		return err
	}
	if err := prof.heap(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "indexed %d docs, %d chunks, %d terms in %.2f s", st.Docs, st.Chunks, st.Terms, time.Since(start).Seconds())
	if st.Embedder != "" {
		fmt.Fprintf(stdout, ", %d vectors (%s)", st.Vectors, st.Embedder)
	}
	fmt.Fprintln(stdout)
	fmt.Fprintf(stdout, "code: %d source files, %d read again, %d removed since the last index\n", cs.Files, cs.Read, cs.Removed)
	if df.graph != "" {
		fmt.Fprintln(stdout, df.graph)
	}
	for _, r := range cs.Vendor.Roots {
		fmt.Fprintf(stdout, "vendor: %s, %d source files (%s)\n", r.Dir, r.Files, r.Why)
	}
	for _, s := range append(cs.Left, cs.Vendor.Left...) {
		fmt.Fprintf(stdout, "left out of code search %s: %s\n", s.Path, s.Reason)
	}
	for _, s := range skipped {
		fmt.Fprintf(stdout, "skipped %s: %s\n", s.Path, s.Reason)
	}
	if st.Unsaved != "" {
		fmt.Fprintf(stdout, "not saved: %s; the index was built in memory only\n", st.Unsaved)
	}
	return nil
}

func runSearch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("search", "QUERY", stderr)
	df := addDocsFlags(fs)
	var scopes stringsFlag
	fs.Var(&scopes, "scope", "search only this `scope` (repeatable): code, docs, artifacts, vendor (vendored code), deps (every locked dependency's code and docs, searched apart from the others), deps:NAME (one of them), or a --docs name")
	asJSON := fs.Bool("json", false, "print the results as JSON")
	limit := intFlag(fs, "limit", server.DefaultSearchLimit, searchLimit, "`n` results wanted (per scope with --scope), as many as the search_docs tool returns by default")
	minScore := floatFlag(fs, "min-score", docsearch.DefaultMinScore, minScoreRange, "drop results of relevance under `score`")
	mode := fs.String("mode", "hybrid", "`retrievers`: hybrid, bm25 or vector")
	full := fs.Bool("full", false, "check every file for changes before searching, as fileinfo index does (by default a search checks directories and its results' files: see docs/code-search.md)")
	prof := profileFlags(fs)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		fs.Usage()
		return errUsage
	}
	stop, err := prof.start()
	if err != nil {
		return err
	}
	defer stop()
	q := docsearch.Query{Text: strings.Join(pos, " "), Scopes: scopes, Limit: *limit, MinScore: minScore, Mode: docsearch.Mode(*mode)}
	var res docsearch.Results
	if slices.ContainsFunc(scopes, depindex.IsScope) {
		res, err = searchDeps(ctx, *df.root, q, stderr)
	} else if quick, ok := quickSearch(ctx, df, q, *full, stderr); ok {
		res = quick
	} else {
		// The index is brought up to date first: with nothing saved, on a
		// big tree, that is `fileinfo index`'s work, under its budget.
		defer setMemoryBudget(defaultIndexMemory)()
		var ix *docsearch.Index
		code := len(scopes) == 0 || slices.Contains(scopes, docsearch.ScopeCode) || slices.Contains(scopes, docsearch.ScopeVendor)
		if ix, _, err = df.openIndex(ctx, stderr, false, code, nil); err == nil {
			res, err = ix.Search(ctx, q)
		}
	}
	if err != nil {
		return err
	}
	if err := prof.heap(); err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	if len(res.Results) == 0 {
		fmt.Fprintln(stdout, res.Message)
		return nil
	}
	for _, r := range res.Results {
		if r.Scope == docsearch.ScopeCode || r.Scope == docsearch.ScopeVendor {
			mark := ""
			if r.Generated {
				mark = "  (generated)"
			}
			fmt.Fprintf(stdout, "%.3f  %s:%d-%d  %s %s%s\n", r.Score, r.Path, r.Lines[0], r.Lines[1], r.Kind, r.Symbol, mark)
			if r.Signature != "" {
				fmt.Fprintf(stdout, "       %s\n", r.Signature)
			}
			if r.Summary != "" {
				fmt.Fprintf(stdout, "       %s\n", r.Summary)
			}
			continue
		}
		fmt.Fprintf(stdout, "%.3f  %s:%d-%d  %s\n", r.Score, r.Path, r.Lines[0], r.Lines[1], r.Title)
		if r.Heading != "" && r.Heading != r.Title {
			fmt.Fprintf(stdout, "       § %s\n", r.Heading)
		}
		if r.Summary != "" {
			fmt.Fprintf(stdout, "       %s\n", r.Summary)
		}
	}
	return nil
}

// verifyIndexes checks every checksum of root's saved doc index and
// symbols index, and prints what it found. A damaged doc index is
// unsealed (docsearch.Verify), so the index run that follows rebuilds
// it; a damaged symbols index is removed, for the next lookup to
// rebuild.
func verifyIndexes(root string, stdout io.Writer) error {
	dir := filepath.Join(root, ".artifacts", ".index")
	switch err := docsearch.Verify(dir); {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		fmt.Fprintf(stdout, "verify: %v; rebuilding it\n", err)
	default:
		fmt.Fprintf(stdout, "verify: %s: ok\n", filepath.Join(dir, "docsearch.idx"))
	}
	file := filepath.Join(dir, graphstore.SymbolsFile)
	s, err := graphstore.ReadSymbols(file)
	if err == nil {
		err = s.Verify()
		s.Close()
	}
	var skip *bounded.SkipError
	switch {
	case errors.As(err, &skip) && errors.Is(err, fs.ErrNotExist):
	case err != nil:
		fmt.Fprintf(stdout, "verify: %s: %v; removed, the next lookup rebuilds it\n", file, err)
		if rerr := os.Remove(file); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			return rerr
		}
	default:
		fmt.Fprintf(stdout, "verify: %s: ok\n", file)
	}
	return nil
}
