package server

import (
	"cmp"
	"errors"
	"slices"
	"strings"

	"github.com/fileinfo/fileinfo/extract"
)

// maxSkipped caps the skipped files index_status lists.
const maxSkipped = 50

// A workspace leaves files out in two ways: extraction skips them (an
// unknown language, binary, too large, a symbolic link leading outside...;
// workspace.skipped, kept current by the first load and every watched
// batch), or the call graph could not resolve their calls (an internal
// error, recovered: callgraph.Graph.Skipped). skippedNow lists both.

// skipChange is what one batch changes in the skipped list: reasons set
// and paths dropped, or, with replace, the whole list (a walk of the tree
// re-examines every file it did not extract).
type skipChange struct {
	replace bool
	reasons map[string]string // path → reason; "" drops the path
}

func (c *skipChange) set(p, reason string) {
	if c.reasons == nil {
		c.reasons = map[string]string{}
	}
	c.reasons[p] = reason
}

func (c *skipChange) drop(p string) { c.set(p, "") }

// applyTo makes the change to skipped.
func (c skipChange) applyTo(skipped map[string]string) {
	if c.replace {
		clear(skipped)
	}
	for p, r := range c.reasons {
		if r == "" {
			delete(skipped, p)
		} else {
			skipped[p] = r
		}
	}
}

// skipReason is the reason an extraction error gives for leaving a file
// out.
func skipReason(err error) string {
	if se, ok := errors.AsType[*extract.SkipError](err); ok {
		return se.Reason
	}
	return err.Error()
}

// internalError reports whether a skip's reason is a bug in fileinfo.
func isInternal(reason string) bool { return strings.Contains(reason, "internal error") }

// graphSkipped returns the files the call graph could not resolve. The
// caller holds mu.
func (w *workspace) graphSkipped() []extract.Skipped {
	var sk []extract.Skipped
	if p := w.unrestored(); p != nil {
		sk = p.snap.GraphSkipped() // not restored for this
	} else {
		sk = w.callGraph().Skipped()
	}
	if w.hooks != nil && w.hooks.graphSkipped != nil {
		sk = w.hooks.graphSkipped(sk)
	}
	return sk
}

// noLanguageRead reports whether a skip's reason is that the file is of
// no language the graph reads: such a file is not left out of it.
func noLanguageRead(reason string) bool {
	return reason == "unknown language" || strings.HasPrefix(reason, "language ")
}

// skippedNow returns every file the workspace leaves out, with the reason:
// internal errors first, then other reasons, then files of no known
// language, each group by path. The caller holds mu.
func (w *workspace) skippedNow() []extract.Skipped {
	out := w.graphSkipped()
	for p, r := range w.skipped {
		out = append(out, extract.Skipped{Path: p, Reason: r})
	}
	rank := func(s extract.Skipped) int {
		switch {
		case isInternal(s.Reason):
			return 0
		case noLanguageRead(s.Reason):
			return 2
		}
		return 1
	}
	slices.SortFunc(out, func(a, b extract.Skipped) int {
		return cmp.Or(cmp.Compare(rank(a), rank(b)), strings.Compare(a.Path, b.Path), strings.Compare(a.Reason, b.Reason))
	})
	return out
}

// noteSkips logs one warning for each file newly left out for an internal
// error, or for another one than before: once per change, not on every
// look. The caller holds mu for writing.
func (w *workspace) noteSkips() {
	now := map[string]string{}
	for _, s := range w.skippedNow() {
		if !isInternal(s.Reason) {
			break // internal errors come first
		}
		now[s.Path] = s.Reason
		if w.warned[s.Path] != s.Reason {
			w.log.Warn("file skipped for an internal error", "path", s.Path, "reason", s.Reason)
		}
	}
	w.warned = now
}
