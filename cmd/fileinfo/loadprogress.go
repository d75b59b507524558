package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// loadProgress shows a first load on a terminal: files done of total, MB
// read, an ETA from the bytes still to go, and the process's RSS, on one
// line redrawn at most every redrawEvery. On anything but a terminal it
// draws nothing and costs a lock per file.
type loadProgress struct {
	bar   *progressBar
	mu    sync.Mutex
	start time.Time
	last  time.Time
	total int64 // bytes of all files, estimated from those done
}

const redrawEvery = 200 * time.Millisecond

func newLoadProgress(w io.Writer) *loadProgress {
	return &loadProgress{bar: newProgressBar(w), start: time.Now()}
}

// update is an extract.Options.Progress: safe for concurrent use.
func (p *loadProgress) update(done, total int, read int64) {
	if !p.bar.tty {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if done < total && now.Sub(p.last) < redrawEvery {
		return
	}
	p.last = now
	p.bar.update(done, total, loadLine(done, total, read, now.Sub(p.start), rss()))
}

// loadLine is the text after the bar: "1.2/65.5 MB ETA 0:21 RSS 812 MB".
// The ETA assumes the files still to go are as big on average as those
// done and go as fast.
func loadLine(done, total int, read int64, elapsed time.Duration, rss int64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%.1f MB", float64(read)/1e6)
	if done > 0 && done < total && read > 0 {
		rate := float64(done) / elapsed.Seconds() // files per second
		left := time.Duration(float64(total-done) / rate * float64(time.Second)).Round(time.Second)
		fmt.Fprintf(&b, " ETA %d:%02d", int(left.Minutes()), int(left.Seconds())%60)
	}
	if rss > 0 {
		fmt.Fprintf(&b, " RSS %d MB", rss>>20)
	}
	return b.String()
}

// finish ends the line.
func (p *loadProgress) finish() { p.bar.finish() }

// rss is the process's resident set size in bytes, from /proc; 0 where
// there is no /proc.
func rss() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	fields := strings.Fields(string(b))
	if len(fields) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(fields[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}
