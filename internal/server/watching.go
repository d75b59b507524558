package server

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fileinfo/fileinfo/internal/watch"
)

// startWatch watches ws for changes, applying each batch and telling
// subscribed clients, until ws is closed. A closed workspace is not
// watched. It is called before ws's first load: the load's walk adds each
// directory to the watch before reading it (sawDir), and batches wait for
// the load to end, so that nothing changed meanwhile is lost.
func (s *Server) startWatch(ws *workspace) {
	ws.watchMu.Lock()
	defer ws.watchMu.Unlock()
	if ws.closed || ws.watcher != nil {
		return
	}
	if !s.opt.NoDocs {
		// The doc index is saved under .artifacts/ (see openDocs): its
		// .gitignore is written before watching, so that writing it is
		// not a change to apply.
		if err := ws.store.WriteGitignore(); err != nil {
			s.log.Debug("no .artifacts/.gitignore", "err", err)
		}
	}
	wt, err := watch.New(ws.root, watch.Options{Logger: s.log, Debounce: s.opt.Debounce})
	if err != nil {
		s.log.Warn("not watching the workspace for changes", "root", ws.root, "err", err)
		return
	}
	ctx, cancel := context.WithCancel(s.ctx)
	done := make(chan struct{})
	ws.watcher, ws.stopWatch, ws.watchDone = wt, cancel, done
	go func() {
		defer close(done)
		defer s.recoverBackground("watching " + ws.root)
		wt.Run(ctx, func(ctx context.Context, b watch.Batch) { s.applyBatch(ctx, ws, wt, b) })
	}()
}

// applyBatch applies one batch of changes to ws and tells subscribed
// clients. A panic skips the batch: it is logged, and the files it named
// are extracted again when next read or changed.
func (s *Server) applyBatch(ctx context.Context, ws *workspace, wt *watch.Watcher, b watch.Batch) {
	select {
	case <-ws.ready: // a batch during the first load is applied after it
	case <-ctx.Done():
		return
	}
	if ws.err != nil {
		return
	}
	defer func() {
		if v := recover(); v != nil {
			s.log.Error("applying changes panicked: the batch is skipped; its files are extracted again when next read",
				"root", ws.root, "paths", len(b.Paths), "rescan", b.Rescan, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			ws.suspect(b)
		}
	}()
	if ws.hooks != nil && ws.hooks.batch != nil {
		ws.hooks.batch(b)
	}
	c, err := ws.apply(ctx, b)
	if err != nil {
		if ctx.Err() == nil {
			s.log.Warn("applying changes failed", "err", err)
		}
		return
	}
	if c.walked {
		wt.SetDirs(c.dirs)
	}
	if b.Rescan || touchesLockfile(b.Paths) {
		ws.depsChanged(s.opt)
	}
	s.notify(ctx, c)
}

// watchState reports how ws notices changes.
func (ws *workspace) watchState() watch.State {
	ws.watchMu.Lock()
	wt := ws.watcher
	ws.watchMu.Unlock()
	if wt == nil {
		return watch.State{Mode: watch.Stopped}
	}
	return wt.State()
}

// notify tells subscribed clients which artifacts' sources changed, and
// that the artifact list's statuses did.
func (s *Server) notify(ctx context.Context, c changes) {
	if c.empty() {
		return
	}
	s.mcp.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: artifactsURI})
	for _, list := range [][]string{c.changed, c.removed} {
		for _, p := range list {
			s.mcp.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: artifactPrefix + p})
		}
	}
}
