package depindex

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/fileinfo/fileinfo/docsearch"
)

// IsScope reports whether a search scope names dependencies: "deps" for
// all, "deps:NAME" for one.
func IsScope(s string) bool { return s == Scope || strings.HasPrefix(s, Scope+":") }

// Names lists the names in counts, sorted and distinct.
func Names(counts map[string]Count) []string {
	var out []string
	for _, c := range counts {
		out = append(out, c.Name)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Search runs q over a dependency index for each of scopes ("deps" or
// "deps:NAME"), q.Limit results per scope (5 when 0). Each result's
// Summary starts with its dependency's name@version and, for an API
// entry, the symbol's path:line in the dependency's source; its Scope is
// the scope asked for. A name that counts lacks is an error listing the
// known ones.
func Search(ctx context.Context, ix *docsearch.Index, counts map[string]Count, q docsearch.Query, scopes []string) (docsearch.Results, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = 5
	}
	q.Scopes = nil
	out := docsearch.Results{Results: []docsearch.Result{}, ByScope: map[string][]docsearch.Result{}}
	for _, scope := range scopes {
		name := strings.TrimPrefix(strings.TrimPrefix(scope, Scope), ":")
		q.Limit = limit
		if name != "" {
			if !slices.Contains(Names(counts), name) {
				return out, fmt.Errorf("scope %s: %s is not an indexed dependency; indexed: %s", scope, name, strings.Join(Names(counts), ", "))
			}
			q.Limit = 100 // filtered to one dependency below
		}
		res, err := ix.Search(ctx, q)
		if err != nil {
			return out, err
		}
		out.Query, out.Type, out.Message = res.Query, res.Type, res.Message
		kept := []docsearch.Result{}
		for _, r := range res.Results {
			key, rel, ok := SplitPath(r.Path)
			if !ok || (name != "" && !strings.HasPrefix(key, name+"@")) {
				continue
			}
			where, lead := strings.TrimSuffix(rel, ".md"), r.Summary
			sym := lastHeading(r.Heading)
			if s, ok := counts[key].symbol(sym); ok {
				where, lead = fmt.Sprintf("%s:%d", s.Path, s.Line), Lead(s.Doc)
				r.Title = sym + " (" + key + ")"
			}
			r.Summary = strings.TrimSpace(key + " " + where + ": " + lead)
			r.Scope = scope
			if kept = append(kept, r); len(kept) == limit {
				break
			}
		}
		out.ByScope[scope] = kept
		out.Results = append(out.Results, kept...)
	}
	if len(scopes) > 1 {
		slices.SortStableFunc(out.Results, func(a, b docsearch.Result) int {
			switch {
			case a.Score > b.Score:
				return -1
			case a.Score < b.Score:
				return 1
			}
			return 0
		})
	}
	return out, nil
}

// lastHeading is the last part of a heading path "A > B > C".
func lastHeading(h string) string {
	if i := strings.LastIndex(h, " > "); i >= 0 {
		return h[i+3:]
	}
	return h
}
