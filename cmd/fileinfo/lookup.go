package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/fileinfo/fileinfo/callgraph"

	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/graphstore"
	"github.com/fileinfo/fileinfo/internal/lookup"
)

// syncSaved brings the saved extraction and graph of root up to date
// (see graphstore) and returns them; a rebuilt or unsaved state is
// reported on stderr.
func syncSaved(ctx context.Context, root string, stderr io.Writer) (*graphstore.Snapshot, error) {
	return graphstore.Sync(ctx, graphstore.Options{
		Root: root,
		Log:  slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
}

// loadLookup runs query over the lookup index of root. query returns
// the slash paths of the files its answer names (the symbol's, its
// callers' or callees', the matches'); a lookup reads nothing else.
//
// By default it makes a quick check (graphstore.OpenSymbolsQuick): the
// directory stamps saved by the last full check still hold, so no file
// was added, removed or renamed, and none of the files the answer names
// changed since the index was saved; it then says on stderr what it
// checked. Anything else, an answer that is an error ("not found" may
// rest on any file) or full, makes the full check: the saved symbols
// index read in place when it is up to date (graphstore.OpenSymbols: a
// walk and a stat per file, no decoding), else the saved extraction and
// graph brought up to date (extracting only the files that changed
// since the last run, see graphstore), which saves a new symbols index
// for the next run. Query may run twice; its last run's answer is the
// one to print. A damaged symbols index makes it run again over the
// rebuilt state, never answer from the damage.
func loadLookup(ctx context.Context, root string, full bool, stderr io.Writer, query func(*lookup.Index) ([]string, error)) error {
	opt := graphstore.Options{Root: root}
	if !full && quickLookup(ctx, opt, stderr, query) {
		return nil
	}
	if s, err := graphstore.OpenSymbols(ctx, opt); err == nil {
		var qerr error
		err := graphstore.Guard(func() { _, qerr = query(lookup.NewSaved(s, s)) })
		s.Close()
		if err == nil {
			return qerr
		}
		fmt.Fprintf(stderr, "fileinfo: %v; rebuilding it\n", err)
		os.Remove(filepath.Join(root, ".artifacts", ".index", graphstore.SymbolsFile))
	}
	ix, err := loadLookupGraph(ctx, root, stderr)
	if err != nil {
		return err
	}
	_, err = query(ix)
	return err
}

// quickLookup is loadLookup's quick check: it reports whether query
// answered from an index the check vouches for, having said so on
// stderr. False means the full check is to run.
func quickLookup(ctx context.Context, opt graphstore.Options, stderr io.Writer, query func(*lookup.Index) ([]string, error)) bool {
	s, q, err := graphstore.OpenSymbolsQuick(ctx, opt)
	if err != nil {
		return false
	}
	defer s.Close()
	var files []string
	var qerr error
	if err := graphstore.Guard(func() { files, qerr = query(lookup.NewSaved(s, s)) }); err != nil || qerr != nil {
		return false
	}
	files = slices.Compact(slices.Sorted(slices.Values(files)))
	if changed, err := s.Changed(q.Root, files); err != nil || changed != "" {
		return false
	}
	fmt.Fprintln(stderr, lookupNote(q, len(files), time.Now()))
	return true
}

// fullLookupUsage is the --full flag of symbols, callers and callees.
const fullLookupUsage = "check every file for changes first (by default a lookup checks directories and the files its answer names)"

// lookupNote says how fresh a quickly checked answer is.
func lookupNote(q graphstore.Quick, files int, now time.Time) string {
	relisted := ""
	if q.Relisted > 0 {
		relisted = fmt.Sprintf(" (%d of them listed again)", q.Relisted)
	}
	return fmt.Sprintf("index: quick check: %d directories and ignore files unchanged since the last full check%s (%s, %s ago), "+
		"and the %d files this answer names unchanged since the index was saved; a file edited in place that the answer does not name is not checked: "+
		"--full checks every file",
		q.Dirs, relisted, q.Since.UTC().Format(time.RFC3339), now.Sub(q.Since).Round(time.Second), files)
}

// loadLookupGraph is loadLookup through the saved graph.
func loadLookupGraph(ctx context.Context, root string, stderr io.Writer) (*lookup.Index, error) {
	snap, err := syncSaved(ctx, root, stderr)
	if err != nil {
		return nil, err
	}
	byPath := make(map[string]*extract.File, len(snap.Files))
	for i := range snap.Files {
		byPath[snap.Files[i].Path] = &snap.Files[i]
	}
	g := snap.Graph()
	return lookup.New(lookup.NewStatic(g.Nodes(), g.Edges()), func(p string) *extract.File { return byPath[p] }), nil
}

// loadSavedGraph is loadGraph through the saved extraction: only files
// changed since the last run are extracted, and the graph is built from
// the saved extractions, restored when nothing changed (or taken as Sync
// built it).
func loadSavedGraph(ctx context.Context, root string, stderr io.Writer) (*callgraph.Graph, []extract.Skipped, error) {
	snap, err := syncSaved(ctx, root, stderr)
	if err != nil {
		return nil, nil, err
	}
	g := snap.Graph()
	skipped := append(append([]extract.Skipped(nil), snap.Skipped...), g.Skipped()...)
	sort.SliceStable(skipped, func(i, j int) bool { return skipped[i].Path < skipped[j].Path })
	for _, s := range skipped {
		if strings.Contains(s.Reason, "internal error") {
			fmt.Fprintf(stderr, "fileinfo: skipped %s: %s\n", s.Path, s.Reason)
		}
	}
	return g, skipped, nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

func runSymbols(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("symbols", "QUERY", stderr)
	root := fs.String("root", ".", "workspace root `dir`")
	kind := fs.String("kind", "", "only definitions of this `kind` (function, method, class, ...)")
	limit := intFlag(fs, "limit", 20, symbolsLimit, "print at most `n` definitions")
	full := fs.Bool("full", false, fullLookupUsage)
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "usage: fileinfo symbols [--root DIR] [--kind K] [--limit N] [--json] QUERY (a name, Class.member, a qualified name or path:Name)")
		return errUsage
	}
	type result struct {
		Query   string          `json:"query"`
		Fuzzy   bool            `json:"fuzzy"`
		Total   int             `json:"total"`
		Symbols []lookup.Symbol `json:"symbols"`
	}
	var out result
	var ms []lookup.Match
	err = loadLookup(ctx, *root, *full, stderr, func(ix *lookup.Index) ([]string, error) {
		if ms, err = ix.Find(pos[0], *kind); err != nil {
			return nil, err
		}
		out = result{Query: pos[0], Fuzzy: ms[0].How == lookup.Fuzzy, Total: len(ms), Symbols: []lookup.Symbol{}}
		var files []string
		for _, m := range ms[:min(len(ms), *limit)] {
			out.Symbols = append(out.Symbols, ix.Symbol(m))
			files = append(files, out.Symbols[len(out.Symbols)-1].Path)
		}
		return files, nil
	})
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, out)
	}
	w := bufio.NewWriter(stdout)
	if out.Fuzzy {
		fmt.Fprintf(w, "no exact or partial match for %q; near names:\n", pos[0])
	}
	for _, s := range out.Symbols {
		fmt.Fprintln(w, s.Text())
	}
	if n := len(ms) - len(out.Symbols); n > 0 {
		fmt.Fprintf(w, "... and %d more (--limit)\n", n)
	}
	return w.Flush()
}

func runCallers(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return runTree(ctx, "callers", args, stdout, stderr)
}

func runCallees(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return runTree(ctx, "callees", args, stdout, stderr)
}

// runTree prints the callers or callees of a symbol as a tree.
func runTree(ctx context.Context, name string, args []string, stdout, stderr io.Writer) error {
	callers := name == "callers"
	fs := newFlags(name, "SYMBOL", stderr)
	root := fs.String("root", ".", "workspace root `dir`")
	depth := intFlag(fs, "depth", 1, treeDepth, "`levels` of "+name+" to show")
	full := fs.Bool("full", false, fullLookupUsage)
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "usage: fileinfo %s [--root DIR] [--depth N] [--json] SYMBOL (a qualified name, a name, Class.member or path:Name)\n", name)
		return errUsage
	}
	var rows []lookup.Row
	var truncated bool
	var sym lookup.Symbol
	var n callgraph.Node
	var also []string // the other places of a name defined in more than one file
	err = loadLookup(ctx, *root, *full, stderr, func(ix *lookup.Index) ([]string, error) {
		ids, err := ix.Resolve(pos[0])
		if err != nil {
			return nil, err
		}
		rows, truncated = ix.Tree(ids, callers, *depth)
		sym, n = ix.Symbol(lookup.Match{ID: ids[0], How: lookup.Exact}), ix.Node(ids[0])
		for _, id := range ids[1:] {
			if o := ix.Node(id); o.File != n.File {
				also = append(also, fmt.Sprintf("%s:%d", o.File, o.Line))
			}
		}
		files := []string{n.File}
		for _, r := range rows {
			files = append(files, r.Path)
			if i := strings.LastIndexByte(r.Site, ':'); i > 0 {
				files = append(files, r.Site[:i]) // the call's file
			}
		}
		return files, nil
	})
	if err != nil {
		return err
	}
	if callers {
		namePlaces(ctx, *root, rows)
	}
	if *asJSON {
		out := struct {
			Symbol    lookup.Symbol `json:"symbol"`
			Rows      []lookup.Row  `json:"rows"`
			Truncated bool          `json:"truncated,omitempty"`
		}{sym, rows, truncated}
		if out.Rows == nil {
			out.Rows = []lookup.Row{}
		}
		return writeJSON(stdout, out)
	}
	w := bufio.NewWriter(stdout)
	fmt.Fprintf(w, "%s (%s:%d)\n", n.Qualified, n.File, n.Line)
	if len(also) > 0 {
		// A module in two formats (parser.js, parser.mjs) or beside its
		// declaration file: the rows are every one's.
		fmt.Fprintf(w, "  (also defined at %s)\n", strings.Join(also, ", "))
	}
	if len(rows) == 0 {
		fmt.Fprintf(w, "  (no %s found)\n", name)
	}
	for i, r := range rows {
		if r.Guess && (i == 0 || !rows[i-1].Guess || rows[i-1].Depth != r.Depth) {
			fmt.Fprintf(w, "%*s(possible %s by name only, unverified:)\n", 2*r.Depth, "", name)
		}
		fmt.Fprintln(w, r.Text(callers))
	}
	if truncated {
		fmt.Fprintf(w, "(cut at %d calls; use a smaller --depth)\n", lookup.MaxRows)
	}
	printGuesses(w, rows)
	return w.Flush()
}

// namePlaces names the place each caller row's call is made in
// (lookup.NamePlaces). The saved symbols index holds no places, so the
// files of the rows a place may hold (a module's or a type's calls) are
// extracted again, each once; one that fails is left without.
func namePlaces(ctx context.Context, root string, rows []lookup.Row) {
	var ex *extract.Extractor
	places := map[string][]extract.Place{}
	lookup.NamePlaces(rows, func(file string) []extract.Place {
		if ps, ok := places[file]; ok {
			return ps
		}
		places[file] = nil
		if ex == nil {
			var err error
			if ex, err = extract.New(root, extract.Options{}); err != nil {
				return nil
			}
		}
		if f, err := ex.File(ctx, file); err == nil {
			places[file] = f.Places
		}
		return places[file]
	})
	if ex != nil {
		ex.Close()
	}
}
