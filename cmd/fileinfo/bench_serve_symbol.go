package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// symbolRun is what bench serve --symbol measured of one start: from
// the process's start to the first correct answer of find_symbol (a
// definition of the symbol), of search_docs (a code result naming it)
// and of callers (a tree of it), asked in that order as soon as the
// server is up; and once settled, the round trips of callers on it.
type symbolRun struct {
	find, search, callersFirst time.Duration
	// The coverage each first answer gave: "complete", or how far the
	// load had got (answers from the symbols index before it ends).
	findCov, searchCov, callersCov string
	callers                        []time.Duration // sorted
	callersCPU                     time.Duration   // the server's CPU a call
}

// firstSymbolAnswers asks find_symbol, search_docs and callers about
// symbol, each until its answer holds it (a search made before the code
// scope covers the symbol's file answers without it), timing each from
// start.
func firstSymbolAnswers(ctx context.Context, cs *mcp.ClientSession, symbol string, start time.Time) (*symbolRun, error) {
	r := &symbolRun{}
	spec := symbol // find_symbol and callers take path:Name; a search, the name
	if i := strings.LastIndexByte(symbol, ':'); i >= 0 {
		symbol = symbol[i+1:]
	}
	ask := func(tool string, args map[string]any, ok func(m map[string]any) (string, bool)) (time.Duration, string, error) {
		for {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
			if err != nil {
				return 0, "", fmt.Errorf("%s %v: %w", tool, args, err)
			}
			m, _ := res.StructuredContent.(map[string]any)
			if res.IsError {
				// Not found in the files extracted so far: ask again.
				if !strings.Contains(toolText(res), "so far:") {
					return 0, "", fmt.Errorf("%s %v: %s", tool, args, toolText(res))
				}
				m = nil
			}
			if cov, good := ok(m); good {
				return time.Since(start), cov, nil
			}
			if err := ctx.Err(); err != nil {
				return 0, "", err
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	names := func(m map[string]any, list, field string) bool {
		items, _ := m[list].([]any)
		for _, it := range items {
			if v, _ := it.(map[string]any); v != nil {
				if q, _ := v[field].(string); q == symbol || strings.HasSuffix(q, "."+symbol) || strings.HasSuffix(q, "::"+symbol) {
					return true
				}
			}
		}
		return false
	}
	var err error
	if r.find, r.findCov, err = ask("find_symbol", map[string]any{"query": spec}, func(m map[string]any) (string, bool) {
		cov, _ := m["coverage"].(string)
		return cov, names(m, "symbols", "qualified")
	}); err != nil {
		return nil, err
	}
	if r.search, r.searchCov, err = ask("search_docs", map[string]any{"query": symbol}, func(m map[string]any) (string, bool) {
		cov, _ := m["coverage"].(map[string]any)
		code, _ := cov["code"].(string)
		return code, names(m, "results", "symbol")
	}); err != nil {
		return nil, err
	}
	if r.callersFirst, r.callersCov, err = ask("callers", map[string]any{"symbol": spec}, func(m map[string]any) (string, bool) {
		cov, _ := m["coverage"].(string)
		q, _ := m["symbol"].(string)
		return cov, q != ""
	}); err != nil {
		return nil, err
	}
	return r, nil
}

// print writes run n's symbol figures, two lines.
func (r *symbolRun) print(w io.Writer, n, calls int) {
	fmt.Fprintf(w, "run %d  first find_symbol %7.3f s  first search_docs with the symbol %7.3f s  first callers %7.3f s  (covered: %s | %s | %s)\n",
		n, r.find.Seconds(), r.search.Seconds(), r.callersFirst.Seconds(), short(r.findCov), short(r.searchCov), short(r.callersCov))
	if len(r.callers) > 0 {
		fmt.Fprintf(w, "run %d  settled, %d calls  callers p50 %6.2f ms  p90 %6.2f ms  CPU %6.2f ms a call\n",
			n, calls, ms(quantile(r.callers, 0.5)), ms(quantile(r.callers, 0.9)), ms(r.callersCPU))
	}
}

// short cuts a coverage line to its first clause.
func short(cov string) string {
	if i := strings.IndexAny(cov, ";,"); i > 0 {
		return cov[:i]
	}
	return cov
}
