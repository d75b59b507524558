package server

import (
	"strings"
	"testing"
	"time"

	"github.com/fileinfo/fileinfo/extract"
)

func TestLoadProgressStatus(t *testing.T) {
	var p loadProgress
	if st := p.status(); st != nil {
		t.Fatalf("before the first file: %+v", st)
	}
	p.saw(extract.Progress{Done: 2, Total: 10, Read: 3_456_789, Size: 9_000_000})
	p.saw(extract.Progress{Done: 1, Total: 10, Read: 1_000_000, Size: 9_000_000}) // a late report from another worker: ignored
	st := p.status()
	if st == nil || st.Done != 2 || st.Total != 10 || st.MB != 3.45 || st.TotalMB != 9 || !strings.HasPrefix(st.Line, "3.5/9.0 MB") {
		t.Fatalf("status = %+v", st)
	}
	p.saw(extract.Progress{Done: 10, Total: 10, Read: 9_000_000, Size: 9_000_000})
	if st := p.status(); st.ETASeconds != 0 || strings.Contains(st.Line, "ETA") {
		t.Errorf("no ETA once done: %+v", st)
	}
}

// TestEndsAfter: the load's pace says whether it ends after a time (its
// extraction, projected from the bytes read so far, and as long again
// for the graph), and says nothing before the first byte read.
func TestEndsAfter(t *testing.T) {
	for _, tc := range []struct {
		name       string
		read, size int64
		elapsed    time.Duration // since the first report
		extracted  time.Duration // when every byte was read, after the first report; 0: not yet
		d          time.Duration
		want       bool
	}{
		{"no pace yet", 0, 1000, time.Hour, 0, time.Second, false},
		{"a tenth in a second: 19 s to go", 100, 1000, time.Second, 0, 15 * time.Second, true},
		{"a tenth in a second: within 20 s", 100, 1000, time.Second, 0, 20 * time.Second, false},
		{"extracted in 10 s just now: 10 s to go", 1000, 1000, 10 * time.Second, 10 * time.Second, 5 * time.Second, true},
		{"extracted in 10 s just now: within 11 s", 1000, 1000, 10 * time.Second, 10 * time.Second, 11 * time.Second, false},
		{"extracted in 1 s an hour ago", 1000, 1000, time.Hour, time.Second, time.Second, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p loadProgress
			p.saw(extract.Progress{Done: 1, Total: 10, Read: tc.read, Size: tc.size})
			p.start = time.Now().Add(-tc.elapsed)
			p.end = time.Time{}
			if tc.extracted > 0 {
				p.end = p.start.Add(tc.extracted)
			}
			if got := p.endsAfter(tc.d); got != tc.want {
				t.Errorf("endsAfter(%v) = %v, want %v", tc.d, got, tc.want)
			}
		})
	}
}
