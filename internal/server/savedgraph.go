package server

import (
	"context"

	"github.com/fileinfo/fileinfo/callgraph"
	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/graphstore"
)

// extractSaved extracts the workspace for its first load through the
// saved graph under .artifacts/.index/ (see graphstore): only files
// changed since it was saved are extracted, and it is saved again. It
// returns the files, what extraction skipped, and the graph when one was
// built (nil when nothing changed: the caller builds it). The digests of
// the files it reuses are recorded as sawSource records those it reads.
func (w *workspace) extractSaved(ctx context.Context) ([]extract.File, []extract.Skipped, *callgraph.Graph, error) {
	snap, err := graphstore.Sync(ctx, graphstore.Options{
		Root: w.root,
		Extract: extract.Options{
			MaxFileSize: w.maxSize,
			Read:        w.sawSource,
			Walk:        extract.WalkOptions{Dir: w.sawDir},
			Progress:    w.tried.saw,
		},
		Log: w.log,
	})
	if err != nil {
		return nil, nil, nil, err
	}
	w.digestMu.Lock()
	for p, d := range snap.Digests {
		if _, ok := w.digests[p]; !ok && w.digests != nil {
			w.digests[p] = d
		}
	}
	w.digestMu.Unlock()
	w.log.Info("saved graph", "root", w.root, "extracted", snap.Extracted, "reused", snap.Reused)
	return snap.Files, snap.Skipped, snap.Graph, nil
}
