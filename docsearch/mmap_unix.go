//go:build unix

package docsearch

import (
	"os"
	"syscall"
)

// mapFile maps f into memory copy-on-write: its pages come from the page
// cache as they are touched, instead of being copied into fresh memory,
// which on a large index costs more than decoding it. Writes to the
// mapping stay private. release unmaps it; it must not be called while
// anything decoded from data without copying (the arrays) is in use.
// mapped says whether data is a mapping (dropPages may be used on it)
// rather than a copy read onto the heap.
func mapFile(f *os.File) (data []byte, release func(), mapped bool, err error) {
	st, err := f.Stat()
	if err != nil {
		return nil, nil, false, err
	}
	size := st.Size()
	if size > 0 && size == int64(int(size)) {
		data, err = syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE)
		if err == nil {
			return data, func() { syscall.Munmap(data) }, true, nil
		}
	}
	data, release, err = readAll(f)
	return data, release, false, err
}

// dropPages unmaps the pages of data, a mapping of mapFile, from the
// process (MADV_DONTNEED): the next read of one maps it again from the
// page cache. A page written since it was mapped would come back as the
// file has it, so data must be as mapFile left it.
func dropPages(data []byte) error {
	return syscall.Madvise(data, syscall.MADV_DONTNEED)
}
