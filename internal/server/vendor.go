package server

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/internal/codeindex"
)

// codeSelection is which of the workspace's source files the code scope
// leaves to others (codeindex.Select): vendored code, which the vendor
// scope holds, and exact copies of another file, which are left out. It
// is decided once, after the first load; until then every file extracted
// goes to the code scope.
type codeSelection struct {
	mu      sync.Mutex
	decided bool
	vendor  map[string]bool   // in the vendor scope
	copies  map[string]string // left out, with why
	// links are the files that are symbolic links: the code scope holds
	// their targets, not them, as codeindex.Sync (`fileinfo index`)
	// leaves them out.
	links map[string]bool
	stats codeindex.VendorStats
	left  []docsearch.Skipped // copies, and vendored files that did not extract
	state string              // of the vendor scope: "", "indexing", "complete", or what failed
}

// out reports whether the code scope leaves the file at p out, and
// whether that is because p is vendored.
func (c *codeSelection) out(p string) (out, vendored bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.vendor[p] {
		return true, true
	}
	_, copied := c.copies[p]
	return copied || c.links[p], false
}

// noteLink records whether the file at slash path p under root is now a
// symbolic link, for a file the watcher saw change after selectCode.
func (c *codeSelection) noteLink(root, p string) {
	info, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p)))
	link := err == nil && !codeindex.Held(info)
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case link && c.links == nil:
		c.links = map[string]bool{p: true}
	case link:
		c.links[p] = true
	default:
		delete(c.links, p)
	}
}

// selectCode decides w.sel from the workspace's files: a copy is told by
// the digests the load took, a vendored file is read by Select.
func (w *workspace) selectCode(ctx context.Context) {
	w.mu.RLock()
	digests := make(map[string]string, len(w.files))
	for p, s := range w.files {
		digests[p] = s.digest
	}
	w.mu.RUnlock()
	sel, err := codeindex.Select(ctx, w.root, codeindex.SelectOptions{
		Digest: func(p string) (string, bool) { d, ok := digests[p]; return d, ok && d != "" },
		Log:    w.log,
	})
	if err != nil {
		if ctx.Err() == nil {
			w.log.Warn("selecting code to index failed: every file goes to the code scope", "err", err)
		}
		return
	}
	w.sel.mu.Lock()
	defer w.sel.mu.Unlock()
	w.sel.decided = true
	w.sel.vendor = make(map[string]bool, len(sel.Vendor))
	for _, p := range sel.Vendor {
		w.sel.vendor[p] = true
	}
	w.sel.copies = make(map[string]string, len(sel.Left))
	for _, l := range sel.Left {
		w.sel.copies[l.Path] = l.Reason
	}
	w.sel.links = make(map[string]bool)
	for p := range digests {
		if info, err := sel.Lstat(w.root, p); err == nil && !codeindex.Held(info) {
			w.sel.links[p] = true
		}
	}
	w.sel.left = sel.Left
	w.sel.stats = codeindex.VendorStats{Roots: sel.Roots, Files: len(sel.Vendor)}
}

// indexVendor brings the vendor scope up to date with the vendored files
// selectCode found: those changed since they were indexed are read again.
func (w *workspace) indexVendor(ctx context.Context) {
	ix := w.docIndex()
	w.sel.mu.Lock()
	if ix == nil || !w.sel.decided {
		w.sel.mu.Unlock()
		return
	}
	sel := codeindex.Selection{Roots: w.sel.stats.Roots}
	for p := range w.sel.vendor {
		sel.Vendor = append(sel.Vendor, p)
	}
	w.sel.state = "indexing"
	w.sel.mu.Unlock()
	start := time.Now()
	st, err := codeindex.SyncVendor(ctx, ix, w.root, sel)
	w.sel.mu.Lock()
	defer w.sel.mu.Unlock()
	switch {
	case ctx.Err() != nil:
		w.sel.state = "stopped"
		return
	case err != nil:
		w.sel.state = "failed: " + err.Error()
		w.log.Warn("indexing vendored code failed", "err", err)
		return
	}
	w.sel.state = "complete"
	left := make([]docsearch.Skipped, 0, len(w.sel.copies)+len(st.Left))
	for p, why := range w.sel.copies {
		left = append(left, docsearch.Skipped{Path: p, Reason: why})
	}
	left = append(left, st.Left...)
	sortSkippedDocs(left)
	w.sel.left, w.sel.stats = left, st
	w.log.Info("vendored code indexed", "files", st.Files, "read", st.Read, "removed", st.Removed, "elapsed", time.Since(start).Round(time.Millisecond))
}

// vendorStatus is index_status's account of the vendor scope.
type vendorStatus struct {
	Roots []codeindex.VendorRoot `json:"roots" jsonschema:"vendored directories, why each is, and its source files"`
	Files int                    `json:"files"`
	State string                 `json:"state" jsonschema:"indexing or complete"`
}

// status returns the vendor scope's account, nil when there is no
// vendored code, and the files the code scope leaves out with why.
func (c *codeSelection) status() (*vendorStatus, []docsearch.Skipped) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var vs *vendorStatus
	if c.stats.Files > 0 {
		vs = &vendorStatus{Roots: c.stats.Roots, Files: c.stats.Files, State: c.state}
	}
	return vs, c.left
}

// vendorCoverage says how far the vendor scope is, for a search; "" when
// the workspace vendors no code. Until selectCode has run (seconds after
// a load) held says whether the doc index holds vendored code, asked
// only then: an index that holds none had none when it was saved, and a
// search of every scope is not told of a scope it would not search; asked
// says the search named the scope.
func (c *codeSelection) vendorCoverage(held func() bool, asked bool) string {
	c.mu.Lock()
	decided := c.decided
	c.mu.Unlock()
	switch {
	case decided:
	case held(): // c.mu is not held: held takes the index's lock
		return "as last indexed; checking for changes"
	case asked:
		return "not looked for yet (the code scope comes first)"
	default:
		return ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.stats.Files == 0:
		return ""
	case c.state == "indexing":
		return fmt.Sprintf("indexing: %d vendored files", c.stats.Files)
	case c.state == "":
		return "not started yet (the code scope comes first)"
	}
	return c.state
}

// writeVendorStatus writes index_status's lines of vendored and left-out
// code.
func writeVendorStatus(b *strings.Builder, vs *vendorStatus, left int) {
	if vs != nil {
		roots := make([]string, len(vs.Roots))
		for i, r := range vs.Roots {
			roots[i] = fmt.Sprintf("%s (%d, %s)", r.Dir, r.Files, r.Why)
		}
		fmt.Fprintf(b, "Vendored code (scope vendor, ranked under the project's): %d files in %s; %s.\n", vs.Files, strings.Join(roots, ", "), vs.State)
	}
	if left > 0 {
		fmt.Fprintf(b, "Left out of code search: %d files, exact copies of another or not extracted (code_left_paths).\n", left)
	}
}

func sortSkippedDocs(s []docsearch.Skipped) {
	slices.SortFunc(s, func(a, b docsearch.Skipped) int { return strings.Compare(a.Path, b.Path) })
}
