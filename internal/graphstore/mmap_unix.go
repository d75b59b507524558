//go:build unix

package graphstore

import (
	"os"
	"syscall"
)

// mapFile maps the size bytes of f read-only: a lookup touches a few
// pages of the symbols index, which come from the page cache as read.
// release unmaps it.
func mapFile(f *os.File, size int64) (data []byte, release func(), err error) {
	if size <= 0 || size != int64(int(size)) {
		return readAll(f, size)
	}
	data, err = syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return readAll(f, size)
	}
	return data, func() { syscall.Munmap(data) }, nil
}
