package docsearch

import (
	"strings"
	"sync/atomic"
)

// Counting the markup readers' work. hideComments, stripMDX and
// stripRoleMarks must read a text a bounded number of times: a lookahead
// that starts again at every opening nothing closes makes them quadratic
// on a long line or paragraph. Each line they visit and each search and
// scan within a line add the bytes looked at to work, while a test counts
// (see TestHideCommentsLinear): the tests compare the counts at two sizes
// of input, which, unlike times, no machine's load changes. A new
// lookahead in these readers reads through index, indexByte or worked.

// work is the count of bytes read, while a test counts; nil otherwise.
var work atomic.Pointer[atomic.Int64]

// worked adds n bytes read to work, when a test counts.
func worked(n int) {
	if c := work.Load(); c != nil {
		c.Add(int64(n))
	}
}

// index is strings.Index, counting the bytes it reads.
func index(s, substr string) int {
	i := strings.Index(s, substr)
	if i < 0 {
		worked(len(s))
	} else {
		worked(i + len(substr))
	}
	return i
}

// indexByte is strings.IndexByte, counting the bytes it reads.
func indexByte(s string, c byte) int {
	i := strings.IndexByte(s, c)
	if i < 0 {
		worked(len(s))
	} else {
		worked(i + 1)
	}
	return i
}
