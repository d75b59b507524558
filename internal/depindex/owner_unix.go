//go:build unix

package depindex

import (
	"io/fs"
	"os"
	"syscall"
)

// ownedByUser reports whether the file is the running user's.
func ownedByUser(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return !ok || int(st.Uid) == os.Geteuid()
}
