package loadstat

import (
	"runtime"
	"testing"
	"time"
)

func TestLine(t *testing.T) {
	tests := []struct {
		read, size int64
		elapsed    time.Duration
		rss        int64
		want       string
	}{
		{0, 5_000_000, 0, 0, "0.0/5.0 MB"},
		{2_500_000, 5_000_000, 10 * time.Second, 300 << 20, "2.5/5.0 MB ETA 0:10 RSS 300 MB"},
		{1_000_000, 61_000_000, 2 * time.Second, 0, "1.0/61.0 MB ETA 2:00"},
		{5_000_000, 5_000_000, 20 * time.Second, 1 << 30, "5.0/5.0 MB RSS 1024 MB"},
		{0, 0, 20 * time.Second, 1 << 30, "RSS 1024 MB"}, // no bytes counted: files only
		{0, 0, 0, 0, ""},
	}
	for _, tt := range tests {
		if got := Line(tt.read, tt.size, tt.elapsed, tt.rss); got != tt.want {
			t.Errorf("Line(%d, %d, %v, %d) = %q, want %q", tt.read, tt.size, tt.elapsed, tt.rss, got, tt.want)
		}
	}
}

func TestRSS(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("RSS reads /proc")
	}
	if got := RSS(); got < 1<<20 {
		t.Errorf("RSS() = %d, want at least 1 MB", got)
	}
}
