//go:build !unix

package docsearch

import "os"

// lock does nothing where flock(2) is missing: removeStale goes by age.
func lock(*os.File) {}

// tryLock reports true: only the age of a file protects it.
func tryLock(*os.File) bool { return true }
