package server

import (
	"sync"
	"time"

	"github.com/fileinfo/fileinfo/internal/loadstat"
)

// loadProgress records the first load's extraction progress, as
// extract.Options.Progress reports it, for index_status.
type loadProgress struct {
	mu          sync.Mutex
	start       time.Time // the first report
	done, total int
	read        int64
}

// saw is an extract.Options.Progress: safe for concurrent use.
func (p *loadProgress) saw(done, total int, read int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.start.IsZero() {
		p.start = time.Now()
	}
	if done >= p.done {
		p.done, p.total, p.read = done, total, read
	}
}

// loadStatus is index_status's view of a first load that runs.
type loadStatus struct {
	Done       int     `json:"done" jsonschema:"files tried, extracted or skipped"`
	Total      int     `json:"total" jsonschema:"files to try"`
	MB         float64 `json:"mb" jsonschema:"megabytes of the files tried"`
	ETASeconds int     `json:"eta_seconds,omitempty" jsonschema:"seconds left at the pace so far"`
	RSSMB      int64   `json:"rss_mb,omitempty" jsonschema:"the server's resident memory, MB"`
	Line       string  `json:"-"`
}

// status returns the progress so far, nil before the first file.
func (p *loadProgress) status() *loadStatus {
	p.mu.Lock()
	done, total, read, elapsed := p.done, p.total, p.read, time.Since(p.start)
	p.mu.Unlock()
	if total == 0 {
		return nil
	}
	rss := loadstat.RSS()
	st := &loadStatus{Done: done, Total: total, MB: float64(read/1e4) / 100, RSSMB: rss >> 20,
		Line: loadstat.Line(done, total, read, elapsed, rss)}
	if left, ok := loadstat.ETA(done, total, elapsed); ok {
		st.ETASeconds = int(left.Seconds())
	}
	return st
}
