package server

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/fileinfo/fileinfo/artifacts"
	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/watch"
)

// changes is what one batch changed in a workspace.
type changes struct {
	changed, removed []string // source files, sorted
	walked           bool     // the tree was walked: dirs is its directories
	dirs             []string
}

func (c changes) empty() bool { return len(c.changed) == 0 && len(c.removed) == 0 }

// apply brings the workspace up to date with a batch of paths that may
// have changed, deciding from the files themselves, not from the events:
// a path that exists and extracts is changed (if its content differs), one
// that does not is removed. When a batch names something that is not a
// known source file — a new file, a directory, an ignore file — or asks for
// a rescan, the tree is walked again, with the same rules as the first
// load, so that after the changes stop the workspace equals a fresh load.
// The graph is updated under the write lock: readers see the state before
// the batch or after it.
func (w *workspace) apply(ctx context.Context, b watch.Batch) (changes, error) {
	start := time.Now()
	w.mu.RLock()
	known := make(map[string]string, len(w.files)) // path → digest
	for p, s := range w.files {
		known[p] = s.digest
		if s.suspect {
			known[p] = "" // extract it again
		}
	}
	w.mu.RUnlock()

	var c changes
	candidates := map[string]bool{}
	walk := b.Rescan
	for _, p := range b.Paths {
		if skippedDir(p) {
			continue // .artifacts, .git, node_modules...: never walked into
		}
		if _, ok := known[p]; !ok || path.Base(p) == ".gitignore" {
			walk = true
		}
		candidates[p] = true
	}
	// The doc index sees every change, source or not: READMEs too.
	if walk {
		w.docsChanged(nil)
	} else {
		w.docsChanged(b.Paths)
	}
	var skips skipChange
	if walk {
		files, walkSkips, dirs, fresh, err := w.walk(ctx)
		if err != nil {
			return c, err
		}
		c.walked, c.dirs = true, dirs
		// Every file the walk finds that is not extracted is a candidate:
		// the skipped list is made anew, as by a fresh load.
		skips.replace = true
		for _, sk := range walkSkips {
			skips.set(sk.Path, sk.Reason)
		}
		present := make(map[string]bool, len(files))
		for _, p := range files {
			present[p] = true
			if _, ok := known[p]; !ok || b.Rescan || fresh[dirOf(p)] {
				candidates[p] = true
			}
		}
		for p := range known {
			if !present[p] {
				c.removed = append(c.removed, p)
				delete(candidates, p)
			}
		}
		for p := range candidates {
			if !present[p] {
				delete(candidates, p) // ignored, not a source file, or gone
			}
		}
	}

	var updated []extract.File
	digests := map[string]string{}
	for p := range candidates {
		if extract.UnknownByName(p) {
			// As the first load does: not read, not extracted.
			skips.set(p, "unknown language")
			if _, ok := known[p]; ok {
				c.removed = append(c.removed, p)
			}
			continue
		}
		src, err := w.readRaw(p)
		if err == nil && known[p] == artifacts.SourceDigest(src) {
			continue
		}
		var f *extract.File
		if err == nil {
			f, err = w.ex.Source(ctx, p, src)
		}
		if err != nil {
			if ctx.Err() != nil {
				return c, ctx.Err()
			}
			// Gone, unreadable, or not extractable (any more): as a fresh
			// load would, leave it out, saying why unless it is gone.
			if _, ok := known[p]; ok {
				c.removed = append(c.removed, p)
			}
			if errors.Is(err, fs.ErrNotExist) {
				skips.drop(p)
			} else {
				skips.set(p, skipReason(err))
			}
			continue
		}
		skips.drop(p)
		updated = append(updated, *f)
		digests[p] = artifacts.SourceDigest(src)
		c.changed = append(c.changed, p)
	}
	slices.Sort(c.changed)
	slices.Sort(c.removed)
	c.removed = slices.Compact(c.removed)
	for _, p := range c.removed {
		if _, ok := skips.reasons[p]; !ok {
			skips.drop(p)
		}
	}
	w.commit(updated, digests, c.removed, skips)
	for _, p := range c.changed {
		w.sel.noteLink(w.root, p) // a file replaced by a link leaves the code scope
	}
	w.indexCode(ctx, c.changed, c.removed) // searchable when the batch ends
	if c.empty() {
		return c, nil
	}
	w.log.Info("workspace updated", "changed", len(c.changed), "removed", len(c.removed),
		"walked", walk, "elapsed", time.Since(start).Round(time.Millisecond))
	return c, nil
}

// commit puts a batch's extractions, removals and skips into the files,
// the graph and the skipped list, under the write lock.
func (w *workspace) commit(updated []extract.File, digests map[string]string, removed []string, skips skipChange) {
	update := len(updated) > 0 || len(removed) > 0
	if update {
		defer w.beginUpdate(true)()
	} else {
		w.mu.Lock()
		defer w.mu.Unlock()
	}
	skips.applyTo(w.skipped)
	if update {
		w.updateGraph(updated, removed)
		for i := range updated {
			f := &updated[i]
			w.files[f.Path] = &source{file: f, digest: digests[f.Path]}
		}
		for _, p := range removed {
			delete(w.files, p)
		}
		w.loaded = time.Now()
	}
	w.noteSkips()
}

// giveBackNodes is the size of graph (in nodes) from which an update
// gives the heap's free pages back after (see updated): an update that
// renumbers makes the tables anew, one in place the edge list and the
// adjacency (and the nodes, when a View shares them), and the old ones
// are garbage the runtime returns slowly. On the Linux kernel (1.1
// million nodes) the second edit left the resident set at 3.5 GB for a
// live heap of 1.3 GB; on a fifth of it (182,000 nodes) five edits took
// it from 430 to 731 MB for 272 MB live (docs/bigrepos.md). The forced
// collection costs about a second on the kernel, which a small graph's
// update need not pay. A variable for the tests.
var giveBackNodes = 1 << 17

// suspect marks the known files that batch b named, or that are inside a
// directory it named (all of them for a rescan), to be extracted again
// when next read or changed: applying b failed midway.
func (w *workspace) suspect(b watch.Batch) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for p, s := range w.files {
		hit := b.Rescan
		for _, q := range b.Paths {
			hit = hit || p == q || strings.HasPrefix(p, q+"/")
		}
		if hit && !s.suspect {
			c := *s
			c.suspect = true
			w.files[p] = &c
		}
	}
}

// walk lists the workspace's files, what it skipped and its directories,
// as the first load does.
//
// Each directory is watched as the walk enters it, before it is read (as
// the first load's walk does): a file written there after the walk read
// it has an event. fresh holds the directories that were not watched
// until then: their files may have changed with no event, so the caller
// reads them again.
func (w *workspace) walk(ctx context.Context) (files []string, skipped []extract.Skipped, dirs []string, fresh map[string]bool, err error) {
	w.watchMu.Lock()
	wt := w.watcher
	w.watchMu.Unlock()
	fresh = map[string]bool{}
	files, skipped, err = extract.Walk(ctx, w.root, extract.WalkOptions{Dir: func(rel string) {
		dirs = append(dirs, rel)
		if wt != nil && wt.AddDir(rel) {
			fresh[rel] = true
		}
	}})
	return files, skipped, dirs, fresh, err
}

// dirOf is the directory of slash path p as a walk names it: "" for the
// root.
func dirOf(p string) string {
	if d := path.Dir(p); d != "." {
		return d
	}
	return ""
}

// readRaw returns the bytes of the file at rel as the first load reads
// them, through extract.ReadRegular: through the root handle (a symbolic
// link cannot lead outside the root), a regular file (a FIFO or device
// is refused without blocking), at most maxSize bytes. Whether they are
// text is for the extractor to say. Every read of a workspace file goes
// through it.
func (w *workspace) readRaw(rel string) ([]byte, error) {
	return extract.ReadRegular(w.dir, rel, w.maxSize)
}

// skippedDir reports whether p is, or is inside, a directory the walk
// never enters whatever the ignore files say (extract.DefaultSkipDirs).
func skippedDir(p string) bool {
	for part := range strings.SplitSeq(p, "/") {
		if slices.Contains(extract.DefaultSkipDirs, part) {
			return true
		}
	}
	return false
}
