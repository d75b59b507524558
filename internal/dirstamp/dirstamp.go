// Package dirstamp stamps the directories and ignore files a walk of a
// tree entered, so that a later lookup can tell the tree still holds the
// same files without walking it again: a file added, removed or renamed
// changes its directory's modification time, and an ignore rule edited
// its file's. A file edited in place changes neither; callers check the
// files an answer rests on themselves. The CLI search's stamps
// (internal/codeindex) and the lookups' (internal/graphstore) are made
// and checked here; each keeps its own file layout.
package dirstamp

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Sizes that are no size.
const (
	Absent = -1 // nothing was there
	Unsure = -2 // it changed as the walk ran, or just before (Slack)
)

// Slack is how long before a walk began a modification time must lie to
// be trusted: a file system's clock ticks coarser than the process's
// (Linux stamps files with a clock that lags by up to a tick), so a
// directory changed just before the walk could look as old as one
// changed just after it.
const Slack = 2 * time.Second

// Stamp is the size and modification time (Unix ns) of one slash path
// under a root.
type Stamp struct {
	Path        string
	Size, MTime int64
}

// Of returns the stamp of slash path p under root as lstat sees it now:
// Absent when nothing is there, Unsure when it changed within Slack of
// since (Unix ns, when the walk began) or after.
func Of(root, p string, since int64) Stamp {
	s := Lstat(root, p)
	if s.Size != Absent && s.MTime >= since-int64(Slack) {
		s.Size = Unsure
	}
	return s
}

// Sort sorts stamps by path and drops repeats of a path.
func Sort(stamps []Stamp) []Stamp {
	slices.SortFunc(stamps, func(a, b Stamp) int { return strings.Compare(a.Path, b.Path) })
	return slices.CompactFunc(stamps, func(a, b Stamp) bool { return a.Path == b.Path })
}

// FirstChanged lstats every stamp's path under root in up to workers
// goroutines (an lstat waits on the kernel more than on a core) and
// returns the index of the first stamp, in order, that no longer holds
// (Lstat finds another size or time); len(stamps) when all hold. An
// Unsure stamp never holds. A stamp Of took holds only while its time
// stays older than its walk; one Vouch took may hold a time within Slack
// of it.
func FirstChanged(root string, stamps []Stamp, workers int) int {
	first := atomic.Int64{}
	first.Store(int64(len(stamps)))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, min(workers, len(stamps))) {
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(len(stamps)) || i > first.Load() {
					return
				}
				if Lstat(root, stamps[i].Path) != stamps[i] {
					for {
						f := first.Load()
						if i >= f || first.CompareAndSwap(f, i) {
							break
						}
					}
				}
			}
		})
	}
	wg.Wait()
	return int(first.Load())
}
