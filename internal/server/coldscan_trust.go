package server

import (
	"path"

	"github.com/fileinfo/fileinfo/internal/watch"
)

// A scan for names scanned for before stats every file the walk found
// to see whether it changed (scanMemo): on the Linux kernel 62,521
// stats and 5,000 directory handles a scan, 0.4 CPU-s, 24 CPU-s of the
// first 330 s of a cold start that a client asked every 5 s
// (docs/bigrepos.md, seventh session), while the load's extraction
// waits for the scan (scanGate). When every directory of the walk's
// files was watched for events from before the last scan began, and the
// watcher has flushed no batch of changes since it started (batches wait
// for the first load, see applyBatch, so a count that moved once may
// stand still after), nothing changed since that scan but within the
// watcher's batching delay (watch.Options.MaxDelay, a second), and the
// scan trusts what the last one saw.

// watchedAll reports whether every directory of files (sorted slash
// paths, groups the starts of each directory's run, see dirGroups) is
// watched for events and no batch of changes was seen yet.
func (c *coldScan) watchedAll(files []string, groups []int) bool {
	wt := c.watcher()
	if wt == nil || !unchangedState(wt.State()) {
		return false
	}
	for _, g := range groups {
		dir := path.Dir(files[g])
		if dir == "." {
			dir = ""
		}
		if !wt.Watching(dir) {
			return false
		}
	}
	return true
}

// unchanged reports whether the workspace is watched for events and the
// watcher has seen no change yet.
func (c *coldScan) unchanged() bool {
	wt := c.watcher()
	return wt != nil && unchangedState(wt.State())
}

func unchangedState(s watch.State) bool { return s.Mode == watch.Events && s.Batches == 0 }

// watcher is the workspace's watcher, nil when it is not watched.
func (c *coldScan) watcher() *watch.Watcher {
	c.w.watchMu.Lock()
	defer c.w.watchMu.Unlock()
	return c.w.watcher
}
