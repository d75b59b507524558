package main

import (
	"bytes"
	"testing"
	"time"
)

func TestLoadLine(t *testing.T) {
	tests := []struct {
		done, total int
		read        int64
		elapsed     time.Duration
		rss         int64
		want        string
	}{
		{0, 10, 0, 0, 0, "0.0 MB"},
		{5, 10, 2_500_000, 10 * time.Second, 300 << 20, "2.5 MB ETA 0:10 RSS 300 MB"},
		{1, 61, 1_000_000, 2 * time.Second, 0, "1.0 MB ETA 2:00"},
		{10, 10, 5_000_000, 20 * time.Second, 1 << 30, "5.0 MB RSS 1024 MB"},
	}
	for _, tt := range tests {
		if got := loadLine(tt.done, tt.total, tt.read, tt.elapsed, tt.rss); got != tt.want {
			t.Errorf("loadLine(%d, %d, %d, %v, %d) = %q, want %q", tt.done, tt.total, tt.read, tt.elapsed, tt.rss, got, tt.want)
		}
	}
}

func TestLoadProgressSilentOffTerminal(t *testing.T) {
	var b bytes.Buffer
	p := newLoadProgress(&b)
	p.update(1, 2, 100)
	p.update(2, 2, 200)
	p.finish()
	if b.Len() != 0 {
		t.Errorf("drew on a non-terminal: %q", b.String())
	}
}
