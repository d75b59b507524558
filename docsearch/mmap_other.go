//go:build !unix

package docsearch

import "os"

// mapFile reads f; see the Unix version, which maps it instead.
func mapFile(f *os.File) (data []byte, release func(), err error) { return readAll(f) }
