//go:build unix

package docsearch

import (
	"os"
	"syscall"
)

// lock takes an exclusive advisory lock on f, held until f is closed.
func lock(f *os.File) { syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }

// tryLock takes an exclusive advisory lock on f if no other open file
// holds one, without waiting; false means the file is in use.
func tryLock(f *os.File) bool {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}
