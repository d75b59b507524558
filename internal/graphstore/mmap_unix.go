//go:build unix

package graphstore

import (
	"os"
	"syscall"
)

// mapFile maps the size bytes of f read-only: a lookup touches a few
// pages of the symbols index, which come from the page cache as read.
// release unmaps it. mapped says whether data is a mapping (dropPages
// may be used on it) rather than a copy read onto the heap.
func mapFile(f *os.File, size int64) (data []byte, release func(), mapped bool, err error) {
	if size <= 0 || size != int64(int(size)) {
		data, release, err = readAll(f, size)
		return data, release, false, err
	}
	data, err = syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		data, release, err = readAll(f, size)
		return data, release, false, err
	}
	return data, func() { syscall.Munmap(data) }, true, nil
}

// dropPages unmaps the pages of data, a read-only mapping of mapFile,
// from the process (MADV_DONTNEED); the next read of one maps it again
// from the page cache.
func dropPages(data []byte) error {
	return syscall.Madvise(data, syscall.MADV_DONTNEED)
}
