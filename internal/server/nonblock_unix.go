//go:build unix

package server

import "syscall"

// oNonblock makes opening a FIFO return at once instead of waiting for a
// writer; it changes nothing for regular files.
const oNonblock = syscall.O_NONBLOCK
