//go:build unix

package docsearch

import (
	"os"
	"syscall"
)

// readIndexFile maps the file at path into memory copy-on-write: its
// pages come from the page cache as they are touched, instead of being
// copied into fresh memory, which on a large index costs more than
// decoding it. Writes to the mapping stay private. release unmaps it; it
// must not be called while anything decoded from data without copying
// (the vectors) is in use.
func readIndexFile(path string) (data []byte, release func(), err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	size := st.Size()
	if size <= 0 || size != int64(int(size)) {
		data, err := os.ReadFile(path)
		return data, func() {}, err
	}
	data, err = syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE)
	if err != nil {
		data, err := os.ReadFile(path)
		return data, func() {}, err
	}
	return data, func() { syscall.Munmap(data) }, nil
}
