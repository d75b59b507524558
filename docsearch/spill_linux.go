//go:build linux

package docsearch

import (
	"os"
	"syscall"
)

// canSpill reports whether this platform keeps a spill (spill.go).
const canSpill = true

// mapSegment allocates n bytes of f at off and maps them shared, for
// reading and writing: what is written through the mapping reaches the
// file. The space is allocated first, so that writing a page of it never
// faults for want of disk.
func mapSegment(f *os.File, off int64, n int) ([]byte, error) {
	if err := syscall.Fallocate(int(f.Fd()), 0, off, int64(n)); err != nil {
		return nil, err
	}
	return syscall.Mmap(int(f.Fd()), off, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
}

// releasePages drops b's pages from the resident set. b is a shared file
// mapping: written pages are kept by the page cache, and a later read
// faults them back in.
func releasePages(b []byte) { syscall.Madvise(b, syscall.MADV_DONTNEED) }

func unmapSegment(b []byte) { syscall.Munmap(b) }
