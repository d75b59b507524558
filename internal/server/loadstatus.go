package server

import (
	"sync"
	"time"

	"github.com/fileinfo/fileinfo/extract"
	"github.com/fileinfo/fileinfo/internal/loadstat"
)

// loadProgress records the first load's extraction progress, as
// extract.Options.Progress reports it, for index_status.
type loadProgress struct {
	mu    sync.Mutex
	start time.Time // the first report
	last  extract.Progress
}

// saw is an extract.Options.Progress: safe for concurrent use.
func (p *loadProgress) saw(x extract.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.start.IsZero() {
		p.start = time.Now()
	}
	if x.Done >= p.last.Done { // workers report out of order
		p.last = x
	}
}

// loadStatus is index_status's view of a first load that runs.
type loadStatus struct {
	Done       int     `json:"done" jsonschema:"files tried, extracted or skipped"`
	Total      int     `json:"total" jsonschema:"files to try"`
	MB         float64 `json:"mb" jsonschema:"megabytes of the files tried"`
	TotalMB    float64 `json:"total_mb" jsonschema:"megabytes of the files to try"`
	ETASeconds int     `json:"eta_seconds,omitempty" jsonschema:"seconds left at the pace so far"`
	RSSMB      int64   `json:"rss_mb,omitempty" jsonschema:"the server's resident memory, MB"`
	Line       string  `json:"-"`
}

// status returns the progress so far, nil before the first file.
func (p *loadProgress) status() *loadStatus {
	p.mu.Lock()
	x, elapsed := p.last, time.Since(p.start)
	p.mu.Unlock()
	if x.Total == 0 {
		return nil
	}
	rss := loadstat.RSS()
	st := &loadStatus{Done: x.Done, Total: x.Total, MB: mb(x.Read), TotalMB: mb(x.Size), RSSMB: rss >> 20,
		Line: loadstat.Line(x.Read, x.Size, elapsed, rss)}
	if left, ok := loadstat.ETA(x.Read, x.Size, elapsed); ok {
		st.ETASeconds = int(left.Seconds())
	}
	return st
}

// mb is n bytes in megabytes, to two decimals.
func mb(n int64) float64 { return float64(n/1e4) / 100 }
