// Package loadstat describes how far a first load of a repository has
// got: files and MB done, an ETA and the process's RSS, as one line of
// text for a terminal's progress bar and for index_status.
package loadstat

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Line is the text "2.5/5.0 MB ETA 0:10 RSS 300 MB": the megabytes of
// the files read of size (left out when size is 0: no bytes counted),
// the time left if the bytes still to go go as fast as those read (left
// out before the first byte and after the last), and rss when it is
// known (more than 0).
func Line(read, size int64, elapsed time.Duration, rss int64) string {
	var parts []string
	if size > 0 {
		parts = append(parts, fmt.Sprintf("%.1f/%.1f MB", float64(read)/1e6, float64(size)/1e6))
	}
	if left, ok := ETA(read, size, elapsed); ok {
		parts = append(parts, fmt.Sprintf("ETA %d:%02d", int(left.Minutes()), int(left.Seconds())%60))
	}
	if rss > 0 {
		parts = append(parts, fmt.Sprintf("RSS %d MB", rss>>20))
	}
	return strings.Join(parts, " ")
}

// ETA is the time left, to the second, if the size-read bytes still to
// go go as fast as the read ones did in elapsed (parsing time grows with
// size, not with files); ok is false before the first byte and after the
// last.
func ETA(read, size int64, elapsed time.Duration) (left time.Duration, ok bool) {
	if read <= 0 || read >= size || elapsed <= 0 {
		return 0, false
	}
	return time.Duration(float64(size-read) / float64(read) * float64(elapsed)).Round(time.Second), true
}

// RSS is the process's resident set size in bytes, from /proc; 0 where
// there is no /proc.
func RSS() int64 {
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
