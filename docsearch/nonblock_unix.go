//go:build unix

package docsearch

import "syscall"

// oNonblock opens a named pipe without waiting for a writer.
const oNonblock = syscall.O_NONBLOCK
