package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// Scoring each tool's call sites against the truth, and the report.

// score compares a tool's sites with the truth; for fileinfo (ends not
// nil) a site is right only if its caller also ends where the truth's
// enclosing function does: the function is the right one.
func score(truth map[cSite]int, sites map[cSite]bool, ends map[cSite]int) cScore {
	s := cScore{Truth: len(truth), Found: len(sites)}
	for site := range sites {
		end, ok := truth[site]
		if ok && (ends == nil || ends[site] == end) {
			s.Right++
		}
	}
	return s
}

func keys(m map[cSite]int) map[cSite]bool {
	out := make(map[cSite]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

// report prints one line per function and the totals.
func report(w io.Writer, targets []*cTarget, tools []string, verbose bool) {
	fmt.Fprintf(w, "\n%-28s %6s", "function", "sites")
	for _, t := range tools {
		fmt.Fprintf(w, "  %-13s", t+" R/P")
	}
	fmt.Fprintf(w, "  %s\n", "fileinfo callers NAME")
	totals := make([]cScore, len(tools))
	fixedTotals := make([]cScore, len(tools))
	labels := map[string]int{}
	bare := 0
	for _, t := range targets {
		name := t.name
		if !t.fixed {
			name += " *"
		}
		fmt.Fprintf(w, "%-28s %6d", name, len(t.truth))
		for i, tool := range tools {
			var s cScore
			switch tool {
			case "fileinfo":
				s = score(t.truth, keys(t.ours), t.ours)
			case "cscope":
				s = score(t.truth, t.cscope, nil)
			case "GLOBAL":
				s = score(t.truth, t.global, nil)
			}
			totals[i].add(s)
			if t.fixed {
				fixedTotals[i].add(s)
			}
			fmt.Fprintf(w, "  %5.3f/%5.3f  ", s.recall(), s.precision())
		}
		answer := "answers"
		if t.bare != "" {
			answer = t.bare
		} else {
			bare++
		}
		fmt.Fprintf(w, "  %s\n", answer)
		for l, n := range t.labels {
			labels[l] += n
		}
	}
	for _, row := range []struct {
		name string
		s    []cScore
	}{{"named", fixedTotals}, {"all", totals}} {
		fmt.Fprintf(w, "%-28s %6d", "total, "+row.name, row.s[0].Truth)
		for _, s := range row.s {
			fmt.Fprintf(w, "  %5.3f/%5.3f  ", s.recall(), s.precision())
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\n`fileinfo callers NAME` answers by the bare name for %d of %d functions\n", bare, len(targets))
	var ls []string
	for l, n := range labels {
		ls = append(ls, fmt.Sprintf("%s %d", l, n))
	}
	sort.Strings(ls)
	fmt.Fprintf(w, "fileinfo's edges by label: %s\n", strings.Join(ls, ", "))
	fmt.Fprintln(w, "(* sampled by rule; R/P: recall/precision over call sites; fileinfo's site is right only with the right caller)")
	if verbose {
		for _, t := range targets {
			listDiff(w, t.name+" fileinfo", t.truth, keys(t.ours), t.ours)
			if t.cscope != nil {
				listDiff(w, t.name+" cscope", t.truth, t.cscope, nil)
			}
		}
	}
}

// listDiff prints the sites a tool missed and those it added.
func listDiff(w io.Writer, what string, truth map[cSite]int, sites map[cSite]bool, ends map[cSite]int) {
	var lines []string
	for s, end := range truth {
		if !sites[s] {
			lines = append(lines, fmt.Sprintf("  missed %s:%d", s.file, s.line))
		} else if ends != nil && ends[s] != end {
			lines = append(lines, fmt.Sprintf("  wrong caller %s:%d (ends at %d, not %d)", s.file, s.line, ends[s], end))
		}
	}
	for s := range sites {
		if _, ok := truth[s]; !ok {
			lines = append(lines, fmt.Sprintf("  added %s:%d", s.file, s.line))
		}
	}
	if len(lines) == 0 {
		return
	}
	sort.Strings(lines)
	fmt.Fprintf(w, "%s:\n%s\n", what, strings.Join(lines, "\n"))
}
