//go:build !linux

package docsearch

import (
	"errors"
	"os"
)

// canSpill is false: without Linux's fallocate and madvise the bytes a
// spill would hold stay on the heap (spill.go).
const canSpill = false

func mapSegment(*os.File, int64, int) ([]byte, error) {
	return nil, errors.New("docsearch: no spill on this platform")
}

func releasePages([]byte) {}

func unmapSegment([]byte) {}
