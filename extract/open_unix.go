//go:build unix

package extract

import (
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// oNonblock makes opening a FIFO return at once instead of waiting for a
// writer; it changes nothing for regular files.
const oNonblock = syscall.O_NONBLOCK

// openDir opens the directory name inside the open directory parent
// without following a symbolic link: a directory swapped for a link
// after it was listed fails to open rather than leading elsewhere.
func openDir(parent *os.File, parentPath, name string) (*os.File, error) {
	fd, err := unix.Openat(int(parent.Fd()), name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "openat", Path: filepath.Join(parentPath, name), Err: err}
	}
	return os.NewFile(uintptr(fd), filepath.Join(parentPath, name)), nil
}
