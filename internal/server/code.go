package server

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/fileinfo/fileinfo/artifacts"
	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/internal/codeindex"
)

// indexCode brings the code scope of the doc index up to date for the
// files at changed, from their extraction as the workspace holds it and
// their artifacts' prose, and drops the symbols of removed. It returns
// when they are searchable. A file the workspace no longer holds is
// removed. Errors are logged: search goes on with what it had.
func (w *workspace) indexCode(ctx context.Context, changed, removed []string) {
	w.indexCodeCounting(ctx, changed, removed, nil)
}

// indexCodeCounting is indexCode calling done with the files read after
// each batch, before the batch is searchable.
func (w *workspace) indexCodeCounting(ctx context.Context, changed, removed []string, done func(n int)) {
	ix := w.docIndex()
	if ix == nil || len(changed) == 0 && len(removed) == 0 {
		return
	}
	start := time.Now()
	type item struct {
		src    *source
		digest string
	}
	items := make([]item, 0, len(changed))
	vendored := false
	w.mu.RLock()
	for _, p := range changed {
		if out, v := w.sel.out(p); out {
			vendored = vendored || v // the vendor scope's, or a copy or link left out
			if !v {
				removed = append(removed, p) // a file that became a link: its documents go
			}
			continue
		}
		if s := w.files[p]; s != nil {
			items = append(items, item{s, s.digest})
		} else {
			removed = append(removed, p)
		}
	}
	w.mu.RUnlock()
	// In path order, near the order of graph.bin, whose segments hold
	// the slim files' extractions: a batch reads few of them.
	slices.SortFunc(items, func(a, b item) int { return strings.Compare(a.src.file.Path, b.src.file.Path) })
	// The files are read and rendered a batch at a time: a big
	// workspace's code (the Linux kernel's 1.2 GB) is never held whole.
	batches := func(yield func([]docsearch.CodeFile) bool) {
		for lo := 0; lo < len(items); lo += codeBatch {
			cfs := make([]docsearch.CodeFile, 0, codeBatch)
			batch := items[lo:min(lo+codeBatch, len(items))]
			srcs := make([]*source, len(batch))
			for i, it := range batch {
				srcs[i] = it.src
			}
			full := w.fullBatch(ctx, srcs)
			for i, it := range batch {
				if ctx.Err() != nil {
					return
				}
				f := full[i]
				if f == nil {
					continue // logged by fullBatch; indexed when next changed
				}
				stamp := w.codeStamp(f.Path, it.digest) // before reading: a later artifact is caught next time
				src, err := w.readRaw(f.Path)
				if err != nil || artifacts.SourceDigest(src) != it.digest {
					src, stamp = nil, 0 // changed since: indexed without bodies until the watcher catches up
				}
				cf := codeindex.File(f, src, codeindex.ReadProse(w.store, f, it.digest))
				cf.Stamp = stamp
				cfs = append(cfs, cf)
			}
			if !yield(cfs) {
				return
			}
			if done != nil {
				done(len(cfs))
			}
		}
	}
	if err := ix.PutCodeBatches(ctx, batches, removed); err != nil || ctx.Err() != nil {
		if ctx.Err() == nil {
			w.log.Warn("indexing code failed", "files", len(items), "err", err)
		}
		return
	}
	w.log.Debug("code indexed", "files", len(items), "removed", len(removed), "elapsed", time.Since(start))
	if vendored && done == nil {
		w.indexVendor(ctx)
	}
}

// emptyDigest is the digest of an empty file.
var emptyDigest = artifacts.SourceDigest(nil)

// codeBatch is how many files indexCode reads and renders at a time.
const codeBatch = 512

// indexAllCode indexes the code of every file the first load extracted
// that the code scope holds (not vendored, no copy, no symbolic link:
// see selectCode; not empty) and
// whose documents the saved index does not hold as of its source and
// artifact (see codeStamp), and drops the symbols the saved index holds
// of files that are gone. It runs on afterLoad's goroutine.
func (w *workspace) indexAllCode() {
	ix := w.docIndex()
	if ix == nil {
		return
	}
	stamps := ix.CodeStamps()
	w.mu.RLock()
	paths := make([]string, 0, len(w.files))
	for p, src := range w.files {
		if out, _ := w.sel.out(p); out {
			continue // vendored, or a copy: see selectCode
		}
		switch st := stamps[p]; {
		case st == 0 && src.digest == emptyDigest:
			// An empty file has no documents (codeindex.File), so no
			// stamp: indexing it would only write to the index.
		case st == 0 || st != w.codeStamp(p, src.digest):
			paths = append(paths, p)
		}
	}
	var gone []string
	for _, p := range ix.CodeFiles() {
		if out, _ := w.sel.out(p); out || w.files[p] == nil {
			gone = append(gone, p)
		}
	}
	w.mu.RUnlock()
	if len(paths) == 0 && len(gone) == 0 && w.code.complete() {
		return // the first pass indexed it all
	}
	start := time.Now()
	w.code.start(len(paths))
	w.indexCodeCounting(w.docsCtx, paths, gone, w.code.add)
	if w.docsCtx.Err() == nil {
		w.names.drop() // code queries read the code scope from now on
		w.code.finish()
	}
	w.log.Info("code indexed", "files", len(paths), "removed", len(gone), "elapsed", time.Since(start).Round(time.Millisecond))
}

// writeCodeResult writes a code result of search_docs as a line an agent
// can act on: where it is (path:start-end, for inspect_source), what it
// is, its signature and what it does; fetch_doc opens its doc_path.
func writeCodeResult(b *strings.Builder, n int, r docsearch.Result) {
	scope := r.Scope
	if r.Generated {
		scope += ", generated"
	}
	fmt.Fprintf(b, "%d. %s:%d-%d %s %s (%s, score %.2f)", n, r.Path, r.Lines[0], r.Lines[1], r.Kind, r.Symbol, scope, r.Score)
	if r.Signature != "" {
		fmt.Fprintf(b, "\n   %s", r.Signature)
	}
	if r.Summary != "" {
		fmt.Fprintf(b, "\n   %s", r.Summary)
	}
	b.WriteByte('\n')
}

// codeStamp names what the code documents of rel are made from (see
// codeindex.Stamp, which `fileinfo index` stamps them with too).
func (w *workspace) codeStamp(rel, digest string) uint64 {
	return codeindex.Stamp(w.store, rel, digest)
}
