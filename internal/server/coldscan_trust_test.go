package server

import (
	"sync"
	"testing"
	"time"
)

// TestColdScanTrustsWatchedTree: while every directory is watched and
// no change was seen, a scan for names scanned for before neither reads
// nor stats a file (on the Linux kernel each scan stated 62,521); once
// a change comes, the next scan stats every file again and finds what
// the change adds. Unwatched, a scan stats every file each time.
func TestColdScanTrustsWatchedTree(t *testing.T) {
	for _, watched := range []bool{true, false} {
		t.Run(map[bool]string{true: "watched", false: "not watched"}[watched], func(t *testing.T) {
			release, reached := make(chan struct{}), make(chan struct{})
			defer close(release)
			var once sync.Once
			hooks := &testHooks{streamed: func(string) { // the walk is over: every directory is watched
				once.Do(func() { close(reached) })
				<-release
			}}
			s := connect(t, heldTree(), Options{NoWatch: !watched, loadWait: time.Millisecond, hooks: hooks})
			select {
			case <-reached:
			case <-time.After(time.Minute):
				t.Fatal("the load never extracted a file")
			}
			findZetaHeld(t, s, 1)
			c := s.srv.workspace().early.Load().cold
			files := int64(len(c.files))
			stats, reads := c.stats.Load(), c.reads.Load()
			findZetaHeld(t, s, 1)
			wantStats := int64(0)
			if !watched {
				wantStats = files
			}
			if n := c.stats.Load() - stats; n != wantStats {
				t.Errorf("the same scan again stated %d files of %d, want %d", n, files, wantStats)
			}
			if n := c.reads.Load() - reads; n != 0 {
				t.Errorf("the same scan again read %d files, none changed", n)
			}
			if !watched {
				return
			}
			writeTree(t, s.root, map[string]string{"a3/a3.go": "package a3\n\n// Zeta is here too.\nfunc Zeta() {}\n"})
			wt := c.watcher()
			for deadline := time.Now().Add(30 * time.Second); wt.State().Batches == 0; time.Sleep(10 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("the watcher saw no change")
				}
			}
			stats = c.stats.Load()
			findZetaHeld(t, s, 2)
			if n := c.stats.Load() - stats; n != files {
				t.Errorf("after a change the scan stated %d files of %d", n, files)
			}
		})
	}
}
