package codeindex

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/fileinfo/fileinfo/docsearch"
	"github.com/fileinfo/fileinfo/internal/bounded"
)

// lstat is os.Lstat; tests count the calls.
var lstat = os.Lstat

// dirHook, set by tests, hears every directory the walk of the source
// files reads, as it reads it.
var dirHook func(rel string)

// statWorkers bounds the goroutines of statAll: an lstat waits on the
// kernel (on the disk, cold), not on a core, so more of them than
// GOMAXPROCS keep it busy; 8 stays far from the descriptor limits.
const statWorkers = 8

// statAll returns the lstat of every file at the slash paths of lists
// under root, by path; a file that cannot be stat'd is not in it. Each
// path is stat'd once, by statWorkers goroutines.
func statAll(root string, lists ...[]string) map[string]fs.FileInfo {
	var paths []string
	for _, l := range lists {
		paths = append(paths, l...)
	}
	infos := make([]fs.FileInfo, len(paths))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(statWorkers, len(paths)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(paths) {
					return
				}
				if info, err := lstat(filepath.Join(root, filepath.FromSlash(paths[i]))); err == nil {
					infos[i] = info
				}
			}
		})
	}
	wg.Wait()
	out := make(map[string]fs.FileInfo, len(paths))
	for i, info := range infos {
		if info != nil {
			out[paths[i]] = info
		}
	}
	return out
}

// Scan is the walk of a workspace's source files that Sync and SyncGraph
// need, begun ahead of them: it runs while the doc index loads, and what
// it read (every directory it entered, the lstat of every source file)
// is handed to the doc index's own walk (docsearch.Options.Walked),
// which then reads only what it alone enters. One walk of the tree, and
// one lstat per file, serve a CLI search's freshness check.
type Scan struct {
	root    string
	dir     string
	walked  chan struct{} // closed once listing, files and walkErr are set
	done    chan struct{} // closed once sel is, the copies left out, and the stamps read
	listing *docsearch.Listing
	files   int   // code and vendor files the walk found, copies still in
	walkErr error // the walk's
	sel     Selection
	err     error // the walk's, or the copies' comparison's
	// The stamps saved in dir, read beside the walk (see oldStamps).
	stamps    []fileStamp
	stampsErr error
	legacy    bool // they are the legacy file's: rewrite them
}

// StartScan starts the walk of root's source files as Select makes it,
// with opt; its result is waited for by Listing, Selection and
// Sync/SyncGraph, which take it (GraphOptions.Scan, SyncScanned).
func StartScan(ctx context.Context, root string, opt SelectOptions) *Scan {
	s := &Scan{root: root, dir: opt.Dir, walked: make(chan struct{}), done: make(chan struct{}), listing: docsearch.NewListing()}
	go func() {
		defer close(s.done)
		sel, err := walkSelect(ctx, root, s.listing)
		s.files, s.walkErr = len(sel.Code)+len(sel.Vendor), err
		// The doc walk needs the listing only: it reads the docs while
		// the copies are compared (on the Linux kernel 2.4 s of reads)
		// and the stamps read.
		close(s.walked)
		if err == nil {
			err = sel.dropCopies(ctx, root, opt)
		}
		if err != nil {
			s.err = err
			return
		}
		s.sel = sel
		if s.dir != "" {
			s.stamps, s.stampsErr = readStamps(s.dir)
			s.legacy = s.stampsErr == nil && !exists(filepath.Join(s.dir, stampsFile))
		}
	}()
	return s
}

// Listing waits for the walk and returns what it read, for
// docsearch.Options.Walked; nil when the walk failed (the doc walk then
// reads everything itself, and Sync reports the error).
func (s *Scan) Listing() *docsearch.Listing {
	<-s.walked
	if s.walkErr != nil {
		return nil
	}
	return s.listing
}

// Files waits for the walk and returns how many code and vendor files it
// found, before the copies among them are left out (Selection); 0 when
// the walk failed.
func (s *Scan) Files() int {
	<-s.walked
	return s.files
}

// Selection waits for the walk and returns the selection it made.
func (s *Scan) Selection() (Selection, error) {
	<-s.done
	return s.sel, s.err
}

// oldStamps returns the stamps saved in the scan's dir, sorted by path;
// none when there are none, or when they cannot be read or decoded, which
// is said in a line to log: every source file is then read again.
func (s *Scan) oldStamps(log *slog.Logger) []fileStamp {
	<-s.done
	switch err := s.stampsErr; {
	case err == nil:
		return s.stamps
	case errors.Is(err, fs.ErrNotExist):
	default:
		reason := err.Error()
		if skip := (*bounded.SkipError)(nil); errors.As(err, &skip) {
			reason = skip.Reason // the line names the file
		}
		log.Warn("code index: reading every source file again", "file", filepath.Join(s.dir, stampsFile), "reason", reason)
	}
	return nil
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
