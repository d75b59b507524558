package main

import (
	"io"
	"sync"
	"time"

	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/loadstat"
)

// loadProgress shows a first load on a terminal: files done of total, MB
// read of the total, an ETA from the bytes still to go, and the process's
// RSS, on one line redrawn at most every redrawEvery. On anything but a
// terminal it draws nothing.
type loadProgress struct {
	bar   *progressBar
	mu    sync.Mutex
	start time.Time
	last  time.Time
}

const redrawEvery = 200 * time.Millisecond

func newLoadProgress(w io.Writer) *loadProgress {
	return &loadProgress{bar: newProgressBar(w), start: time.Now()}
}

// update is an extract.Options.Progress: safe for concurrent use.
func (p *loadProgress) update(x extract.Progress) {
	if !p.bar.tty {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if x.Done < x.Total && now.Sub(p.last) < redrawEvery {
		return
	}
	p.last = now
	p.bar.update(x.Done, x.Total, loadstat.Line(x.Read, x.Size, now.Sub(p.start), loadstat.RSS()))
}

// finish ends the line.
func (p *loadProgress) finish() { p.bar.finish() }
