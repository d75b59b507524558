//go:build unix

package bounded

import "syscall"

// oNonblock makes opening a FIFO return at once instead of waiting for a
// writer; it changes nothing for a regular file. oNofollow refuses a
// symbolic link as the last path element.
const (
	oNonblock = syscall.O_NONBLOCK
	oNofollow = syscall.O_NOFOLLOW
)
