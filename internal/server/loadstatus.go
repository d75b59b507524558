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
	end   time.Time // the first report of every byte read
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
	if p.end.IsZero() && x.Size > 0 && x.Read >= x.Size {
		p.end = time.Now()
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

// endsAfter reports whether the first load, at its extraction's pace so
// far (bytes read since the first report), still has more than d to go;
// false before the first byte, when there is no pace to tell by. The
// load builds the call graph and saves it after extracting, which is
// taken to last about as long as the extraction did (loadPerExtraction):
// on golang.org/x/tools, 2.5 s of extraction and 2.7 s more under load
// 16 (h4-symfast, docs/bigrepos.md).
func (p *loadProgress) endsAfter(d time.Duration) bool {
	p.mu.Lock()
	x, start, end := p.last, p.start, p.end
	p.mu.Unlock()
	if x.Read <= 0 || x.Size <= 0 {
		return false
	}
	now := time.Now()
	extraction := now.Sub(start)
	if end.IsZero() {
		extraction = time.Duration(float64(extraction) * float64(x.Size) / float64(x.Read))
	} else {
		extraction = end.Sub(start)
	}
	left := time.Duration(loadPerExtraction*float64(extraction)) - now.Sub(start)
	return left > d
}

// loadPerExtraction is how long a first load takes for each second of
// its extraction (see endsAfter).
const loadPerExtraction = 2.0

// mb is n bytes in megabytes, to two decimals.
func mb(n int64) float64 { return float64(n/1e4) / 100 }
