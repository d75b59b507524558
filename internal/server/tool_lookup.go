package server

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/lookup"
)

// The bounds of the lookup tools' pages. A page also ends before its
// items' text and structured output pass lookupBudget bytes; with the
// header and the JSON around them a page stays under 8,000 bytes, about
// 2,000 tokens at 4 bytes a token (measured: cobra's Command.Find callers
// at depth 3 came to 8,718 bytes with a budget of 8,000).
const (
	defaultSymbols = 20
	maxSymbols     = 100
	defaultRows    = 50
	maxRows        = 200
	defaultDepth   = 1
	maxDepth       = 5
	lookupBudget   = 7000
)

// addLookupTools registers find_symbol, callers and callees.
func (s *Server) addLookupTools() {
	addTool(s, &mcp.Tool{
		Name: "find_symbol",
		Description: "Where a function, method, class or type is defined, by exact, partial (Flask.register_blueprint) " +
			"or near name: path:line, kind, signature, doc.",
		Annotations: readOnly("Find symbol"),
	}, s.findSymbol)
	addTool(s, &mcp.Tool{
		Name:        "callers",
		Description: "Who calls a symbol, as a tree: callers, call sites and how each was resolved.",
		Annotations: readOnly("Callers"),
	}, s.callers)
	addTool(s, &mcp.Tool{
		Name:        "callees",
		Description: "What a symbol calls, as a tree: callees, definitions, call sites, resolution.",
		Annotations: readOnly("Callees"),
	}, s.callees)
}

type findSymbolIn struct {
	Query  string `json:"query" jsonschema:"name, Class.member, qualified name or path:Name"`
	Kind   string `json:"kind,omitempty" jsonschema:"function, method, class, type..."`
	Limit  int    `json:"limit,omitempty" jsonschema:"per page; default 20"`
	Cursor string `json:"cursor,omitempty" jsonschema:"the last next_cursor"`
}

type findSymbolOut struct {
	Symbols    []lookup.Symbol `json:"symbols"`
	Total      int             `json:"total"`
	Fuzzy      bool            `json:"fuzzy,omitempty" jsonschema:"near names only"`
	NextCursor string          `json:"next_cursor,omitempty"`
	Coverage   string          `json:"coverage" jsonschema:"what the call graph covers: complete, or which files it leaves out"`
}

type treeIn struct {
	Symbol string `json:"symbol" jsonschema:"name, Class.member, qualified name or path:Name"`
	Depth  int    `json:"depth,omitempty" jsonschema:"levels; default 1"`
	Limit  int    `json:"limit,omitempty" jsonschema:"per page; default 50"`
	Cursor string `json:"cursor,omitempty" jsonschema:"the last next_cursor"`
}

type treeOut struct {
	Symbol     string       `json:"symbol" jsonschema:"qualified name"`
	At         string       `json:"at" jsonschema:"path:line"`
	Calls      []lookup.Row `json:"calls" jsonschema:"depth-first; repeat: not expanded again"`
	Total      int          `json:"total"`
	NextCursor string       `json:"next_cursor,omitempty"`
	Coverage   string       `json:"coverage" jsonschema:"what the call graph covers: complete, or which files it leaves out"`
}

// orDefault returns v, an optional argument checkArgs let through, or def
// when it was left out (0).
func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// cursor is the opaque position of a page: the offset of its first
// result and a hash of the query it belongs to.
func cursor(offset int, query string) string {
	h := fnv.New32a()
	h.Write([]byte(query))
	return base64.RawURLEncoding.EncodeToString(fmt.Appendf(nil, "%d:%x", offset, h.Sum32()))
}

// offsetOf decodes a cursor of query; "" is the first page.
func offsetOf(c, query string) (int, error) {
	if c == "" {
		return 0, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(c)
	off, _, _ := strings.Cut(string(b), ":")
	n, perr := strconv.Atoi(off)
	if err != nil || perr != nil || n < 0 || cursor(n, query) != c {
		return 0, fmt.Errorf("cursor %q is not a next_cursor of this query; call again without cursor for the first page", c)
	}
	return n, nil
}

// page takes items from offset while they fit limit and the budget;
// cost is an item's size in bytes. It returns the end offset.
func page(n, offset, limit int, cost func(i int) int) int {
	used, end := 0, offset
	for end < n && end-offset < limit {
		c := cost(end)
		if end > offset && used+c > lookupBudget {
			break
		}
		used += c
		end++
	}
	return end
}

func jsonLen(v any) int {
	b, _ := json.Marshal(v)
	return len(b)
}

func (s *Server) findSymbol(ctx context.Context, req *mcp.CallToolRequest, in findSymbolIn) (*mcp.CallToolResult, findSymbolOut, error) {
	out := findSymbolOut{Symbols: []lookup.Symbol{}}
	limit := orDefault(in.Limit, defaultSymbols)
	key := fmt.Sprintf("find_symbol\x00%s\x00%s\x00%d", in.Query, in.Kind, limit)
	offset, err := offsetOf(in.Cursor, key)
	if err != nil {
		return nil, out, err
	}
	syms, fuzzy, coverage, err := s.findSymbols(ctx, req, in.Query, in.Kind)
	out.Coverage = coverage
	if err != nil {
		return nil, out, err
	}
	if offset > len(syms) {
		return nil, out, fmt.Errorf("cursor is past the %d results; call again without cursor", len(syms))
	}
	end := page(len(syms), offset, limit, func(i int) int { return len(syms[i].Text()) + jsonLen(syms[i]) })
	out.Symbols, out.Total, out.Fuzzy = syms[offset:end], len(syms), fuzzy
	var b strings.Builder
	if out.Fuzzy {
		fmt.Fprintf(&b, "No exact or partial match for %q; near names:\n", in.Query)
	}
	for _, sym := range out.Symbols {
		b.WriteString(sym.Text())
		b.WriteByte('\n')
	}
	if end < len(syms) {
		out.NextCursor = cursor(end, key)
		fmt.Fprintf(&b, "(%d-%d of %d; next page: cursor %q)\n", offset+1, end, len(syms), out.NextCursor)
	}
	writeCoverage(&b, out.Coverage)
	return textResult(b.String()), out, nil
}

func (s *Server) callers(ctx context.Context, req *mcp.CallToolRequest, in treeIn) (*mcp.CallToolResult, treeOut, error) {
	return s.tree(ctx, req, in, true)
}

func (s *Server) callees(ctx context.Context, req *mcp.CallToolRequest, in treeIn) (*mcp.CallToolResult, treeOut, error) {
	return s.tree(ctx, req, in, false)
}

func (s *Server) tree(ctx context.Context, req *mcp.CallToolRequest, in treeIn, callers bool) (*mcp.CallToolResult, treeOut, error) {
	out := treeOut{Calls: []lookup.Row{}}
	depth, limit := orDefault(in.Depth, defaultDepth), orDefault(in.Limit, defaultRows)
	key := fmt.Sprintf("%v\x00%s\x00%d\x00%d", callers, in.Symbol, depth, limit)
	offset, err := offsetOf(in.Cursor, key)
	if err != nil {
		return nil, out, err
	}
	t, err := s.lookupTree(ctx, req, in.Symbol, callers, depth, key, offset > 0)
	out.Coverage = t.coverage
	if err != nil {
		return nil, out, err
	}
	if t.err != nil {
		return nil, out, t.err
	}
	rows, sym, truncated := t.rows, t.sym, t.truncated
	if offset > len(rows) {
		return nil, out, fmt.Errorf("cursor is past the %d calls; call again without cursor", len(rows))
	}
	end := page(len(rows), offset, limit, func(i int) int { return len(rows[i].Text(callers)) + jsonLen(rows[i]) })
	if end < len(rows) && t.state.ws != nil {
		s.pages.put(key, t.state, t)
	}
	out.Calls, out.Total = rows[offset:end], len(rows)
	out.Symbol, out.At = sym.Qualified, fmt.Sprintf("%s:%d", sym.Path, sym.Line)
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s) %s:%d\n", sym.Qualified, sym.Kind, sym.Path, sym.Line)
	if len(rows) == 0 {
		what := "callers"
		if !callers {
			what = "callees"
		}
		fmt.Fprintf(&b, "  (no %s in the repository's call graph; calls through dynamic dispatch or from outside may be missing)\n", what)
	}
	for _, r := range out.Calls {
		b.WriteString(r.Text(callers))
		b.WriteByte('\n')
	}
	if end < len(rows) {
		out.NextCursor = cursor(end, key)
		fmt.Fprintf(&b, "(%d-%d of %d calls; next page: cursor %q)\n", offset+1, end, len(rows), out.NextCursor)
	}
	if truncated {
		fmt.Fprintf(&b, "(the tree was cut at %d calls; ask for a smaller depth)\n", lookup.MaxRows)
	}
	writeCoverage(&b, out.Coverage)
	return textResult(b.String()), out, nil
}

// findSymbols answers find_symbol's query: from the loaded workspace, or
// while it loads from its early symbols (see earlySymbols), at once when
// they cover every file, else once the load has taken loadWait. A name
// the early symbols do not know while they cover only some files is no
// answer: the files not covered yet may define it, so it waits for the
// load.
func (s *Server) findSymbols(ctx context.Context, req *mcp.CallToolRequest, query, kind string) (syms []lookup.Symbol, fuzzy bool, coverage string, err error) {
	if ws, e := s.earlyLookup(ctx); e != nil {
		if a, err := ws.earlyFind(ctx, e, query, kind); !errors.Is(err, errEarlyClosed) && (err == nil || a.complete) {
			return a.syms, a.fuzzy, a.coverage, err
		}
	}
	ws, err := s.ready(ctx, req)
	if err != nil {
		return nil, false, "", err
	}
	ws.withLookup(func(ix *lookup.Index, at lookupAt) {
		coverage = at.coverage
		var ms []lookup.Match
		ms, err = ix.Find(query, kind)
		syms = make([]lookup.Symbol, len(ms))
		for i, m := range ms {
			syms[i] = ix.Symbol(m)
		}
		fuzzy = len(ms) > 0 && ms[0].How == lookup.Fuzzy
	})
	return syms, fuzzy, coverage, err
}

// lookupTree answers callers or callees: from the loaded workspace, or
// while it loads from the saved symbols index when it knows the symbol.
// A next page (next) of the query key takes the tree kept for it when
// it was made from the graph as it is (see treePages).
func (s *Server) lookupTree(ctx context.Context, req *mcp.CallToolRequest, spec string, callers bool, depth int, key string, next bool) (treeAnswer, error) {
	if ws, e := s.earlyLookup(ctx); e != nil {
		if a, ok := ws.earlyTree(ctx, e, spec, callers, depth); ok {
			if callers {
				ws.namePlaces(a.rows)
			}
			return a, nil
		}
	}
	ws, err := s.ready(ctx, req)
	if err != nil {
		return treeAnswer{}, err
	}
	var a treeAnswer
	fresh := false // not a kept page's, which other calls may read
	defer func() {
		if callers && fresh {
			ws.namePlaces(a.rows)
		}
	}()
	ws.withLookup(func(ix *lookup.Index, at lookupAt) {
		state := at.state
		if kept, ok := s.pages.get(key, state); ok && next {
			a = kept
			a.coverage = at.coverage
			return
		}
		a = treeAnswer{state: state, coverage: at.coverage}
		var ids []callgraph.SymbolID
		if ids, a.err = ix.Resolve(spec); a.err == nil {
			a.sym = ix.Symbol(lookup.Match{ID: ids[0], How: lookup.Exact})
			a.rows, a.truncated = ix.Tree(ids, callers, depth)
			fresh = true
		}
	})
	return a, nil
}

// namePlaces names the place each caller row's call is made in
// (lookup.NamePlaces), from the workspace's files, which hold their
// places whole or bare. While an update holds the workspace the rows go
// without: a lookup does not wait for an update (see withLookup).
func (w *workspace) namePlaces(rows []lookup.Row) {
	if len(rows) == 0 || !w.mu.TryRLock() {
		return
	}
	defer w.mu.RUnlock()
	lookup.NamePlaces(rows, func(file string) []extract.Place {
		if src := w.files[file]; src != nil && src.file != nil {
			return src.file.Places
		}
		return nil
	})
}
