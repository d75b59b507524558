package server

import (
	"context"
	"fmt"
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
	ix := w.docs
	if ix == nil || len(changed) == 0 && len(removed) == 0 {
		return
	}
	start := time.Now()
	type item struct {
		src    *source
		digest string
	}
	items := make([]item, 0, len(changed))
	w.mu.RLock()
	for _, p := range changed {
		if s := w.files[p]; s != nil {
			items = append(items, item{s, s.digest})
		} else {
			removed = append(removed, p)
		}
	}
	w.mu.RUnlock()
	cfs := make([]docsearch.CodeFile, 0, len(items))
	for _, it := range items {
		if ctx.Err() != nil {
			return
		}
		f := it.src.file
		src, err := w.readRaw(f.Path)
		if err != nil || artifacts.SourceDigest(src) != it.digest {
			src = nil // changed since: indexed without bodies until the watcher catches up
		}
		cfs = append(cfs, codeindex.File(f, src, codeindex.ReadProse(w.store, f, it.digest)))
	}
	if err := ix.PutCode(ctx, cfs, removed); err != nil {
		if ctx.Err() == nil {
			w.log.Warn("indexing code failed", "files", len(cfs), "err", err)
		}
		return
	}
	w.log.Debug("code indexed", "files", len(cfs), "removed", len(removed), "elapsed", time.Since(start))
}

// indexAllCode indexes the code of every file the first load extracted,
// in the background, and drops the symbols the saved index holds of
// files that are gone; close waits for it.
func (w *workspace) indexAllCode() {
	if w.docs == nil {
		return
	}
	w.docsMu.Lock()
	if w.docsClosed {
		w.docsMu.Unlock()
		return
	}
	w.docsLoops.Add(1)
	w.docsMu.Unlock()
	go func() {
		defer w.docsLoops.Done()
		w.mu.RLock()
		paths := make([]string, 0, len(w.files))
		for p := range w.files {
			paths = append(paths, p)
		}
		var gone []string
		for _, p := range w.docs.CodeFiles() {
			if w.files[p] == nil {
				gone = append(gone, p)
			}
		}
		w.mu.RUnlock()
		start := time.Now()
		w.indexCode(w.docsCtx, paths, gone)
		w.log.Info("code indexed", "files", len(paths), "removed", len(gone), "elapsed", time.Since(start).Round(time.Millisecond))
	}()
}

// writeCodeResult writes a code result of search_docs as a line an agent
// can act on: where it is (path:start-end, for inspect_source), what it
// is, its signature and what it does; fetch_doc opens its doc_path.
func writeCodeResult(b *strings.Builder, n int, r docsearch.Result) {
	fmt.Fprintf(b, "%d. %s:%d-%d %s %s (code, score %.2f)", n, r.Path, r.Lines[0], r.Lines[1], r.Kind, r.Symbol, r.Score)
	if r.Signature != "" {
		fmt.Fprintf(b, "\n   %s", r.Signature)
	}
	if r.Summary != "" {
		fmt.Fprintf(b, "\n   %s", r.Summary)
	}
	b.WriteByte('\n')
}
