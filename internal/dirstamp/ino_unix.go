//go:build unix

package dirstamp

import (
	"io/fs"
	"syscall"
)

// Inode returns the inode number lstat gave in info, 0 when it gave none.
func Inode(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}
