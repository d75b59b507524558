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
// mapped is false when f was read into memory instead.
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
