package extract

import (
	"bytes"
	"sort"
)

// lineTable holds the byte offset at which each line of a source starts,
// so that finding a line, or the line above, costs a binary search rather
// than a scan back to the previous newline: on a minified file that scan
// crosses the whole of one long line for every symbol on it.
type lineTable []uint32

func newLineTable(src []byte) lineTable {
	t := make(lineTable, 1, bytes.Count(src, []byte{'\n'})+1)
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			return t
		}
		i += j + 1
		t = append(t, uint32(i))
	}
}

// row returns the 0-based line holding byte at.
func (t lineTable) row(at uint32) int {
	return sort.Search(len(t), func(i int) bool { return t[i] > at }) - 1
}

// text returns line r of src, without its newline.
func (t lineTable) text(src []byte, r int) []byte {
	end := len(src)
	if r+1 < len(t) {
		end = int(t[r+1]) - 1
	}
	return src[t[r]:end]
}

// lines returns the line table of the file's source, made on first use.
func (f *fileInfo) lines() lineTable {
	if f.lineStarts == nil {
		f.lineStarts = newLineTable(f.src)
	}
	return f.lineStarts
}
